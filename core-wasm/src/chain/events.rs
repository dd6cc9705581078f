//! The contracts' events as the indexer reads them: the ICO sale's purchases, the NFT sale's and
//! both staking contracts' events, and the network's (activation node, claim distributor).

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

fn purchased() -> &'static abi::Event {
    event(Contract::IcoSale, "Purchased")
}

/// topic0 of `Purchased`, for eth_getLogs filters.
pub fn purchased_topic() -> String {
    hex0x(purchased().signature().as_bytes())
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

/// Decodes a log of the sale (topics and data as the JSON-RPC gives them).
pub fn decode_purchase(topics: &[&str], data: &str) -> Result<Purchase, ChainError> {
    let f = Fields::parse(purchased(), topics, data)?;
    let referrer = f.address("referrer")?;
    Ok(Purchase {
        buyer: f.wallet("buyer")?,
        usdt_paid: f.uint("usdtPaid")?,
        lvlx_bought: f.uint("lvlxBought")?,
        referrer: (!referrer.is_zero()).then(|| ethers_core::utils::to_checksum(&referrer, None)),
    })
}

/// One `NftPurchased(buyer, id, quantity, usdtPaid)` of the NFT sale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NftPurchase {
    pub buyer: String,
    pub id: u32,
    pub quantity: Units,
    pub usdt_paid: Units,
}

/// The events of the staking contracts (RewardReserve) and of the NFT sale that the index keeps.
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
    NftPurchased(NftPurchase),
}

const STAKING_EVENTS: [&str; 6] = [
    "Staked",
    "InterestWithdrawn",
    "Released",
    "ReserveFunded",
    "ReserveWithdrawn",
    "TermsChanged",
];

/// topic0 of every event `decode_staking` reads, for one eth_getLogs filter over the NFT sale
/// and both staking contracts.
pub fn staking_topics() -> Vec<String> {
    STAKING_EVENTS
        .iter()
        .map(|n| event(Contract::NftStaking, n))
        .chain([event(Contract::NftSale, "NftPurchased")])
        .map(|e| hex0x(e.signature().as_bytes()))
        .collect()
}

fn kind(f: &Fields, name: &str) -> Result<u32, ChainError> {
    u32::try_from(f.small(name)?).map_err(|_| ChainError::TooLarge)
}

/// Decodes a log of the NFT sale or either staking contract by its topic0.
pub fn decode_staking(topics: &[&str], data: &str) -> Result<StakingEvent, ChainError> {
    let topic0 = topics
        .first()
        .and_then(|t| bytes(t).ok())
        .ok_or_else(|| ChainError::Data("log without topics".into()))?;
    let sale = event(Contract::NftSale, "NftPurchased");
    if topic0 == sale.signature().as_bytes() {
        let f = Fields::parse(sale, topics, data)?;
        return Ok(StakingEvent::NftPurchased(NftPurchase {
            buyer: f.wallet("buyer")?,
            id: kind(&f, "id")?,
            quantity: f.uint("quantity")?,
            usdt_paid: f.uint("usdtPaid")?,
        }));
    }
    let name = STAKING_EVENTS
        .iter()
        .find(|n| event(Contract::NftStaking, n).signature().as_bytes() == topic0.as_slice())
        .ok_or_else(|| ChainError::Data("not a staking event".into()))?;
    let f = Fields::parse(event(Contract::NftStaking, name), topics, data)?;
    Ok(match *name {
        "Staked" => StakingEvent::Staked {
            position: f.small("position")?,
            owner: f.wallet("owner")?,
            kind: kind(&f, "kind")?,
            amount: f.uint("amount")?,
            reward: f.uint("reward")?,
            start: f.small("start")?,
            release: f.small("release")?,
        },
        "InterestWithdrawn" => StakingEvent::InterestWithdrawn {
            position: f.small("position")?,
            owner: f.wallet("owner")?,
            amount: f.uint("amount")?,
        },
        "Released" => StakingEvent::Released {
            position: f.small("position")?,
            owner: f.wallet("owner")?,
            principal: f.uint("principal")?,
            interest: f.uint("interest")?,
        },
        "ReserveFunded" => StakingEvent::ReserveFunded {
            from: f.wallet("from")?,
            amount: f.uint("amount")?,
        },
        "ReserveWithdrawn" => StakingEvent::ReserveWithdrawn {
            to: f.wallet("to")?,
            amount: f.uint("amount")?,
        },
        _ => StakingEvent::TermsChanged {
            kind: kind(&f, "kind")?,
            usdt_value: f.uint("usdtValue")?,
            rate_bps: u32::try_from(f.small("rateBps")?).map_err(|_| ChainError::TooLarge)?,
            lock_seconds: f.small("lockSeconds")?,
        },
    })
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

fn network_events() -> [&'static abi::Event; 3] {
    [
        event(Contract::ActivationNode, "NodeActivated"),
        event(Contract::ActivationNode, "NodeTermsChanged"),
        event(Contract::ClaimDistributor, "Claimed"),
    ]
}

/// topic0 of every event `decode_network` reads.
pub fn network_topics() -> Vec<String> {
    network_events()
        .iter()
        .map(|e| hex0x(e.signature().as_bytes()))
        .collect()
}

/// Decodes a log of the activation node or the claim distributor by its topic0.
pub fn decode_network(topics: &[&str], data: &str) -> Result<NetworkEvent, ChainError> {
    let topic0 = topics
        .first()
        .and_then(|t| bytes(t).ok())
        .ok_or_else(|| ChainError::Data("log without topics".into()))?;
    let [activated, terms, claimed] = network_events();
    let is = |e: &abi::Event| e.signature().as_bytes() == topic0.as_slice();
    if is(activated) {
        let f = Fields::parse(activated, topics, data)?;
        Ok(NetworkEvent::NodeActivated {
            wallet: f.wallet("wallet")?,
            usdt_paid: f.uint("usdtPaid")?,
        })
    } else if is(terms) {
        let f = Fields::parse(terms, topics, data)?;
        let on_sale = matches!(f.get("onSale")?, Token::Bool(true));
        Ok(NetworkEvent::NodeTermsChanged {
            price: f.uint("price")?,
            on_sale,
        })
    } else if is(claimed) {
        let f = Fields::parse(claimed, topics, data)?;
        Ok(NetworkEvent::Claimed {
            account: f.wallet("account")?,
            amount: f.uint("amount")?,
            cumulative: f.uint("cumulative")?,
        })
    } else {
        Err(ChainError::Data("not a network event".into()))
    }
}
