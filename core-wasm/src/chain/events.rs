//! The contracts' events as the indexer reads them: the ICO sale's purchases, the NFT sale's,
//! both staking contracts' and the network's (activation node, claim distributor). [`INDEXED`]
//! is the one list of them: the log filter's topics and the decoder both read it.

use ethers_core::abi::{self, RawLog, Token};
use ethers_core::types::H256;

use ethers_core::types::Address;

use super::{bytes, hex0x, to_units, ChainError, Contract};
use crate::amount::Units;

/// One `Purchased(buyer, usdtPaid, lvlxBought, referrer)` event of the ICO sale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Purchase {
    /// EIP-55.
    pub buyer: String,
    pub usdt_paid: Units,
    pub lvlx_bought: Units,
    /// EIP-55; `None` for the zero address.
    pub referrer: Option<String>,
}

fn event(contract: Contract, name: &str) -> &'static abi::Event {
    contract
        .abi()
        .event(name)
        .unwrap_or_else(|_| panic!("the ABI of {contract:?} has {name}"))
}

/// A log's fields by name, parsed against `event` (topics and data as the JSON-RPC gives them).
struct Fields(Vec<abi::LogParam>);

impl Fields {
    fn parse(event: &abi::Event, topics: &[&str], data: &str) -> Result<Fields, ChainError> {
        let topics = topics
            .iter()
            .map(|t| {
                let b = bytes(t)?;
                (b.len() == 32)
                    .then(|| H256::from_slice(&b))
                    .ok_or_else(|| ChainError::Data("topic is not 32 bytes".into()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let log = event
            .parse_log(RawLog {
                topics,
                data: bytes(data)?,
            })
            .map_err(|e| ChainError::Data(e.to_string()))?;
        Ok(Fields(log.params))
    }

    fn get(&self, name: &str) -> Result<&Token, ChainError> {
        self.0
            .iter()
            .find(|p| p.name == name)
            .map(|p| &p.value)
            .ok_or_else(|| ChainError::Data(format!("missing field {name}")))
    }

    fn uint(&self, name: &str) -> Result<Units, ChainError> {
        match self.get(name)? {
            Token::Uint(v) => to_units(*v),
            _ => Err(ChainError::Data(format!("{name} is not a uint"))),
        }
    }

    fn small(&self, name: &str) -> Result<u64, ChainError> {
        u64::try_from(self.uint(name)?).map_err(|_| ChainError::TooLarge)
    }

    fn address(&self, name: &str) -> Result<Address, ChainError> {
        match self.get(name)? {
            Token::Address(a) => Ok(*a),
            _ => Err(ChainError::Data(format!("{name} is not an address"))),
        }
    }

    /// EIP-55.
    fn wallet(&self, name: &str) -> Result<String, ChainError> {
        Ok(ethers_core::utils::to_checksum(&self.address(name)?, None))
    }
}

/// One `NftPurchased(buyer, id, quantity, usdtPaid)` of the NFT sale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NftPurchase {
    pub buyer: String,
    pub id: u32,
    pub quantity: Units,
    pub usdt_paid: Units,
}

/// The events of the staking contracts (RewardReserve) that the index keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StakingEvent {
    Staked {
        position: u64,
        owner: String,
        kind: u32,
        amount: Units,
        reward: Units,
        /// Seconds.
        start: u64,
        release: u64,
    },
    InterestWithdrawn {
        position: u64,
        owner: String,
        amount: Units,
    },
    Released {
        position: u64,
        owner: String,
        principal: Units,
        interest: Units,
    },
    ReserveFunded {
        from: String,
        amount: Units,
    },
    ReserveWithdrawn {
        to: String,
        amount: Units,
    },
    TermsChanged {
        kind: u32,
        usdt_value: Units,
        rate_bps: u32,
        lock_seconds: u64,
    },
}

/// What an applied event was (a staking contract's, the NFT sale's purchases, the sale's price):
/// the one list of the names the store's `chain_events.event` holds. Recording writes them, a
/// rollback reads them back (an unknown name is a corrupt store, never a guess) and matches on
/// every one, the live pushes name them and the member's history shows some
/// ([`crate::history::of_staking_event`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppliedEvent {
    /// A position opened (its amount: LVLX or NFTs).
    Staked,
    /// Interest withdrawn from a position.
    Interest,
    /// A position released (its amount: the interest paid then).
    Released,
    /// The reward reserve funded.
    Funded,
    /// The reward reserve withdrawn from.
    Defunded,
    /// A staking contract's terms changed.
    Terms,
    /// NFTs bought from the NFT sale (its amount: the quantity).
    NftPurchased,
    /// A new price of the sale (its amount: USDT base units per whole LVLX).
    Price,
}

impl AppliedEvent {
    pub const ALL: [AppliedEvent; 8] = [
        AppliedEvent::Staked,
        AppliedEvent::Interest,
        AppliedEvent::Released,
        AppliedEvent::Funded,
        AppliedEvent::Defunded,
        AppliedEvent::Terms,
        AppliedEvent::NftPurchased,
        AppliedEvent::Price,
    ];

    /// Its name in `chain_events.event`.
    pub const fn name(self) -> &'static str {
        match self {
            AppliedEvent::Staked => "staked",
            AppliedEvent::Interest => "interest",
            AppliedEvent::Released => "released",
            AppliedEvent::Funded => "funded",
            AppliedEvent::Defunded => "defunded",
            AppliedEvent::Terms => "terms",
            AppliedEvent::NftPurchased => "nft-purchased",
            AppliedEvent::Price => "price",
        }
    }

    pub fn parse(name: &str) -> Option<AppliedEvent> {
        AppliedEvent::ALL.into_iter().find(|e| e.name() == name)
    }
}

impl StakingEvent {
    /// How the event is kept among the applied events: its name, its amount (LVLX, NFTs, or the
    /// interest paid at a release) and the position it concerns.
    pub fn applied(&self) -> (AppliedEvent, Option<Units>, Option<u64>) {
        match self {
            StakingEvent::Staked {
                amount, position, ..
            } => (AppliedEvent::Staked, Some(*amount), Some(*position)),
            StakingEvent::InterestWithdrawn {
                amount, position, ..
            } => (AppliedEvent::Interest, Some(*amount), Some(*position)),
            StakingEvent::Released {
                interest, position, ..
            } => (AppliedEvent::Released, Some(*interest), Some(*position)),
            StakingEvent::ReserveFunded { amount, .. } => {
                (AppliedEvent::Funded, Some(*amount), None)
            }
            StakingEvent::ReserveWithdrawn { amount, .. } => {
                (AppliedEvent::Defunded, Some(*amount), None)
            }
            StakingEvent::TermsChanged { .. } => (AppliedEvent::Terms, None, None),
        }
    }
}

/// The events of the activation node and the claim distributor that the index keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkEvent {
    NodeActivated {
        wallet: String,
        usdt_paid: Units,
    },
    NodeTermsChanged {
        price: Units,
        on_sale: bool,
    },
    Claimed {
        account: String,
        amount: Units,
        cumulative: Units,
    },
}

/// Where a log sits on the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// Lowercase address of the contract that emitted it.
    pub contract: String,
    pub tx_hash: String,
    pub log_index: i64,
    /// Block time, milliseconds.
    pub at: i64,
    pub block: i64,
}

/// One event the index keeps, by family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Purchased(Purchase),
    /// The ICO sale's new price: USDT base units per whole LVLX.
    PriceChanged(Units),
    NftPurchased(NftPurchase),
    Staking(StakingEvent),
    Network(NetworkEvent),
}

/// The position and terms events of a staking contract (its RewardReserve).
const STAKING: [&str; 6] = [
    "Staked",
    "InterestWithdrawn",
    "Released",
    "ReserveFunded",
    "ReserveWithdrawn",
    "TermsChanged",
];

/// Every event the index keeps, with the contract that emits it.
pub fn indexed() -> impl Iterator<Item = (Contract, &'static str)> {
    let staking = |contract| STAKING.into_iter().map(move |name| (contract, name));
    [
        (Contract::IcoSale, "Purchased"),
        (Contract::IcoSale, "PriceChanged"),
        (Contract::NftSale, "NftPurchased"),
        (Contract::ActivationNode, "NodeActivated"),
        (Contract::ActivationNode, "NodeTermsChanged"),
        (Contract::ClaimDistributor, "Claimed"),
    ]
    .into_iter()
    .chain(staking(Contract::NftStaking))
    .chain(staking(Contract::LvlxStaking))
}

/// topic0 of every indexed event, once each: the eth_getLogs filter's.
pub fn topics() -> Vec<String> {
    let mut topics: Vec<String> = indexed()
        .map(|(contract, name)| hex0x(event(contract, name).signature().as_bytes()))
        .collect();
    topics.sort();
    topics.dedup();
    topics
}

fn kind(f: &Fields, name: &str) -> Result<u32, ChainError> {
    u32::try_from(f.small(name)?).map_err(|_| ChainError::TooLarge)
}

/// Decodes a log that `contract` emitted (topics and data as the JSON-RPC gives them); an event
/// the index does not keep is an error.
pub fn decode(contract: Contract, topics: &[&str], data: &str) -> Result<Event, ChainError> {
    let topic0 = topics
        .first()
        .and_then(|t| bytes(t).ok())
        .ok_or_else(|| ChainError::Data("log without topics".into()))?;
    let (_, name) = indexed()
        .find(|(c, name)| {
            *c == contract && event(*c, name).signature().as_bytes() == topic0.as_slice()
        })
        .ok_or_else(|| ChainError::Data(format!("not an indexed event of {contract:?}")))?;
    let f = Fields::parse(event(contract, name), topics, data)?;
    Ok(match name {
        "Purchased" => {
            let referrer = f.address("referrer")?;
            Event::Purchased(Purchase {
                buyer: f.wallet("buyer")?,
                usdt_paid: f.uint("usdtPaid")?,
                lvlx_bought: f.uint("lvlxBought")?,
                referrer: (!referrer.is_zero())
                    .then(|| ethers_core::utils::to_checksum(&referrer, None)),
            })
        }
        "PriceChanged" => Event::PriceChanged(f.uint("price")?),
        "NftPurchased" => Event::NftPurchased(NftPurchase {
            buyer: f.wallet("buyer")?,
            id: kind(&f, "id")?,
            quantity: f.uint("quantity")?,
            usdt_paid: f.uint("usdtPaid")?,
        }),
        "Staked" => Event::Staking(StakingEvent::Staked {
            position: f.small("position")?,
            owner: f.wallet("owner")?,
            kind: kind(&f, "kind")?,
            amount: f.uint("amount")?,
            reward: f.uint("reward")?,
            start: f.small("start")?,
            release: f.small("release")?,
        }),
        "InterestWithdrawn" => Event::Staking(StakingEvent::InterestWithdrawn {
            position: f.small("position")?,
            owner: f.wallet("owner")?,
            amount: f.uint("amount")?,
        }),
        "Released" => Event::Staking(StakingEvent::Released {
            position: f.small("position")?,
            owner: f.wallet("owner")?,
            principal: f.uint("principal")?,
            interest: f.uint("interest")?,
        }),
        "ReserveFunded" => Event::Staking(StakingEvent::ReserveFunded {
            from: f.wallet("from")?,
            amount: f.uint("amount")?,
        }),
        "ReserveWithdrawn" => Event::Staking(StakingEvent::ReserveWithdrawn {
            to: f.wallet("to")?,
            amount: f.uint("amount")?,
        }),
        "TermsChanged" => Event::Staking(StakingEvent::TermsChanged {
            kind: kind(&f, "kind")?,
            usdt_value: f.uint("usdtValue")?,
            rate_bps: u32::try_from(f.small("rateBps")?).map_err(|_| ChainError::TooLarge)?,
            lock_seconds: f.small("lockSeconds")?,
        }),
        "NodeActivated" => Event::Network(NetworkEvent::NodeActivated {
            wallet: f.wallet("wallet")?,
            usdt_paid: f.uint("usdtPaid")?,
        }),
        "NodeTermsChanged" => Event::Network(NetworkEvent::NodeTermsChanged {
            price: f.uint("price")?,
            on_sale: matches!(f.get("onSale")?, Token::Bool(true)),
        }),
        "Claimed" => Event::Network(NetworkEvent::Claimed {
            account: f.wallet("account")?,
            amount: f.uint("amount")?,
            cumulative: f.uint("cumulative")?,
        }),
        // An event listed in `indexed` without its arm here is a mistake, never a claim
        // (every listed event decodes: the test below).
        other => {
            return Err(ChainError::Data(format!(
                "{other}: indexed but not decoded"
            )))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ethers_core::abi::ParamType;
    use ethers_core::types::U256;

    /// A value of `kind` that every decoder takes (a non-zero address, a small number).
    fn sample(kind: &ParamType) -> Token {
        match kind {
            ParamType::Address => Token::Address(Address::from_low_u64_be(0xbeef)),
            ParamType::Bool => Token::Bool(true),
            ParamType::Uint(_) => Token::Uint(U256::from(7)),
            other => panic!("no sample for {other:?}"),
        }
    }

    /// A log of `contract`'s event `name` with sample fields: its topics and data, hex.
    fn log_of(contract: Contract, name: &str) -> (Vec<String>, String) {
        let e = event(contract, name);
        let mut topics = vec![hex0x(e.signature().as_bytes())];
        let mut data = Vec::new();
        for input in &e.inputs {
            let token = sample(&input.kind);
            if input.indexed {
                topics.push(hex0x(&ethers_core::abi::encode(&[token])));
            } else {
                data.push(token);
            }
        }
        (topics, hex0x(&ethers_core::abi::encode(&data)))
    }

    /// The contract event a decoded event stands for.
    fn name_of(event: &Event) -> &'static str {
        match event {
            Event::Purchased(_) => "Purchased",
            Event::PriceChanged(_) => "PriceChanged",
            Event::NftPurchased(_) => "NftPurchased",
            Event::Staking(e) => match e {
                StakingEvent::Staked { .. } => "Staked",
                StakingEvent::InterestWithdrawn { .. } => "InterestWithdrawn",
                StakingEvent::Released { .. } => "Released",
                StakingEvent::ReserveFunded { .. } => "ReserveFunded",
                StakingEvent::ReserveWithdrawn { .. } => "ReserveWithdrawn",
                StakingEvent::TermsChanged { .. } => "TermsChanged",
            },
            Event::Network(e) => match e {
                NetworkEvent::NodeActivated { .. } => "NodeActivated",
                NetworkEvent::NodeTermsChanged { .. } => "NodeTermsChanged",
                NetworkEvent::Claimed { .. } => "Claimed",
            },
        }
    }

    /// Every indexed event decodes as itself, by its own arm (a name listed without its arm was
    /// read as a claim once; one arm answering for another would be as wrong).
    #[test]
    fn every_indexed_event_decodes_by_its_own_arm() {
        for (contract, name) in indexed() {
            let (topics, data) = log_of(contract, name);
            let topics: Vec<&str> = topics.iter().map(String::as_str).collect();
            let decoded = decode(contract, &topics, &data);
            let decoded = decoded.unwrap_or_else(|e| panic!("{contract:?}.{name}: {e}"));
            assert_eq!(name_of(&decoded), name, "{contract:?}: {decoded:?}");
        }
    }

    /// What the index does not keep is an error, never an event: a topic no indexed event has
    /// (the token's `Transfer`, a made-up one), an indexed event under a contract that does not
    /// emit it (a `Claimed` log from the sale), a log without topics.
    #[test]
    fn an_event_the_index_does_not_keep_is_an_error() {
        let transfer = hex0x(event(Contract::Lvlx, "Transfer").signature().as_bytes());
        let (claimed, data) = log_of(Contract::ClaimDistributor, "Claimed");
        let made_up = format!("0x{}", "ab".repeat(32));
        let contracts = [
            Contract::IcoSale,
            Contract::NftSale,
            Contract::NftStaking,
            Contract::LvlxStaking,
            Contract::ActivationNode,
            Contract::ClaimDistributor,
        ];
        for contract in contracts {
            for topic0 in [&transfer, &made_up] {
                let mut topics = vec![topic0.as_str()];
                topics.extend(claimed[1..].iter().map(String::as_str));
                let decoded = decode(contract, &topics, &data);
                assert!(decoded.is_err(), "{contract:?} {topic0}: {decoded:?}");
            }
            assert!(
                decode(contract, &[], &data).is_err(),
                "{contract:?}: no topics"
            );
            if contract != Contract::ClaimDistributor {
                let topics: Vec<&str> = claimed.iter().map(String::as_str).collect();
                let decoded = decode(contract, &topics, &data);
                assert!(
                    decoded.is_err(),
                    "{contract:?} emitting Claimed: {decoded:?}"
                );
            }
        }
    }

    /// Each applied event reads back from its stored name, and no two share one.
    #[test]
    fn every_applied_event_reads_back_from_its_name() {
        for event in AppliedEvent::ALL {
            assert_eq!(AppliedEvent::parse(event.name()), Some(event));
        }
        let mut names = AppliedEvent::ALL.map(AppliedEvent::name).to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), AppliedEvent::ALL.len());
        assert_eq!(AppliedEvent::parse("claimed"), None);
    }
}
