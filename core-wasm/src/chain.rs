//! The platform's contracts as the browser and the server use them (DESIGN §5): calldata, return
//! values, the sale's `Purchased` event and revert reasons, all from the ABI artifacts solc-js
//! builds into contracts/artifacts, encoded and decoded by ethers-core; and the sale's price
//! arithmetic, the same integer rule the contract applies.

use std::sync::OnceLock;

use ethers_core::abi::{self, Abi, ParamType, RawLog, Token};
use ethers_core::types::{Address, H256, U256};
use ethers_core::utils::hex;

use crate::amount::Units;
use crate::LVLX_DECIMALS;

/// Polygon's chain id as wallets want it (SPEC §9).
pub const CHAIN_ID_HEX: &str = "0x89";
/// The sale's default price: USDT base units per whole LVLX (1 LVLX = 0.1 USDT, SPEC §1).
pub const DEFAULT_PRICE: Units = 100_000;

/// The contracts whose ABI the core carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contract {
    /// The LVLX token; its ABI also serves any ERC20 (USDT's balance, allowance, approve).
    Lvlx,
    /// The development chain's USDT (adds `mint`).
    MockUsdt,
    IcoSale,
    /// The NFTs (ERC1155, ids 1–11).
    LevelNft,
    NftSale,
    /// NftStaking; its reserve and position events are LvlxStaking's too (RewardReserve).
    NftStaking,
    LvlxStaking,
    /// The one-time activation node purchase.
    ActivationNode,
    /// Pays claims against the server's EIP-712 vouchers.
    ClaimDistributor,
}

impl Contract {
    pub fn parse(name: &str) -> Option<Contract> {
        match name {
            "LVLX" => Some(Contract::Lvlx),
            "MockUSDT" => Some(Contract::MockUsdt),
            "IcoSale" => Some(Contract::IcoSale),
            "LevelNFT" => Some(Contract::LevelNft),
            "NftSale" => Some(Contract::NftSale),
            "NftStaking" => Some(Contract::NftStaking),
            "LvlxStaking" => Some(Contract::LvlxStaking),
            "ActivationNode" => Some(Contract::ActivationNode),
            "ClaimDistributor" => Some(Contract::ClaimDistributor),
            _ => None,
        }
    }

    pub fn abi(self) -> &'static Abi {
        static LVLX: OnceLock<Abi> = OnceLock::new();
        static USDT: OnceLock<Abi> = OnceLock::new();
        static SALE: OnceLock<Abi> = OnceLock::new();
        static NFT: OnceLock<Abi> = OnceLock::new();
        static NFT_SALE: OnceLock<Abi> = OnceLock::new();
        static NFT_STAKING: OnceLock<Abi> = OnceLock::new();
        static LVLX_STAKING: OnceLock<Abi> = OnceLock::new();
        static NODE: OnceLock<Abi> = OnceLock::new();
        static CLAIMS: OnceLock<Abi> = OnceLock::new();
        let (cell, json) = match self {
            Contract::Lvlx => (
                &LVLX,
                include_str!("../../contracts/artifacts/LVLX.abi.json"),
            ),
            Contract::MockUsdt => (
                &USDT,
                include_str!("../../contracts/artifacts/MockUSDT.abi.json"),
            ),
            Contract::IcoSale => (
                &SALE,
                include_str!("../../contracts/artifacts/IcoSale.abi.json"),
            ),
            Contract::LevelNft => (
                &NFT,
                include_str!("../../contracts/artifacts/LevelNFT.abi.json"),
            ),
            Contract::NftSale => (
                &NFT_SALE,
                include_str!("../../contracts/artifacts/NftSale.abi.json"),
            ),
            Contract::NftStaking => (
                &NFT_STAKING,
                include_str!("../../contracts/artifacts/NftStaking.abi.json"),
            ),
            Contract::LvlxStaking => (
                &LVLX_STAKING,
                include_str!("../../contracts/artifacts/LvlxStaking.abi.json"),
            ),
            Contract::ActivationNode => (
                &NODE,
                include_str!("../../contracts/artifacts/ActivationNode.abi.json"),
            ),
            Contract::ClaimDistributor => (
                &CLAIMS,
                include_str!("../../contracts/artifacts/ClaimDistributor.abi.json"),
            ),
        };
        cell.get_or_init(|| serde_json::from_str(json).expect("artifact ABI is valid JSON"))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    #[error("unknown function {0}")]
    Function(String),
    #[error("expected {expected} arguments, got {got}")]
    Arity { expected: usize, got: usize },
    #[error("not an address: {0:?}")]
    Address(String),
    #[error("not a whole number of base units: {0:?}")]
    Amount(String),
    #[error("argument type {0} is not supported")]
    Type(String),
    #[error("malformed chain data: {0}")]
    Data(String),
    #[error("value does not fit 128 bits")]
    TooLarge,
}

impl ChainError {
    /// Translation key: what a person can be told (the rest are the caller's mistakes).
    pub fn key(&self) -> &'static str {
        match self {
            ChainError::Address(_) => "validations-wallet-msg",
            ChainError::Amount(_) => "validations-amount-msg",
            ChainError::TooLarge => "buy-amount-too-large",
            _ => "error-internal",
        }
    }
}

/// A 20-byte address from 0x-prefixed hex (any case; the checksum is not demanded here).
pub fn address(text: &str) -> Result<Address, ChainError> {
    let hex = text
        .strip_prefix("0x")
        .filter(|h| h.len() == 40)
        .ok_or_else(|| ChainError::Address(text.into()))?;
    let bytes = hex::decode(hex).map_err(|_| ChainError::Address(text.into()))?;
    Ok(Address::from_slice(&bytes))
}

fn units(text: &str) -> Result<Units, ChainError> {
    crate::amount::parse_base(text).map_err(|_| ChainError::Amount(text.into()))
}

fn to_units(value: U256) -> Result<Units, ChainError> {
    if value.bits() > 128 {
        return Err(ChainError::TooLarge);
    }
    Ok(value.as_u128())
}

/// 0x-prefixed lowercase hex.
pub fn hex0x(bytes: &[u8]) -> String {
    format!("0x{}", hex::encode(bytes))
}

fn bytes(text: &str) -> Result<Vec<u8>, ChainError> {
    let hex = text.strip_prefix("0x").unwrap_or(text);
    hex::decode(hex).map_err(|e| ChainError::Data(e.to_string()))
}

/// Arguments as text, each read by the type the ABI gives it: an address as 0x hex, a uint as
/// decimal base units.
fn tokens(inputs: &[abi::Param], args: &[&str]) -> Result<Vec<Token>, ChainError> {
    if inputs.len() != args.len() {
        return Err(ChainError::Arity {
            expected: inputs.len(),
            got: args.len(),
        });
    }
    inputs
        .iter()
        .zip(args)
        .map(|(param, arg)| match param.kind {
            ParamType::Address => address(arg).map(Token::Address),
            ParamType::Uint(_) => units(arg).map(|u| Token::Uint(U256::from(u))),
            ParamType::Bool => match *arg {
                "true" => Ok(Token::Bool(true)),
                "false" => Ok(Token::Bool(false)),
                _ => Err(ChainError::Data(format!("not a boolean: {arg:?}"))),
            },
            ParamType::String => Ok(Token::String(arg.to_string())),
            ParamType::Bytes => bytes(arg).map(Token::Bytes),
            ref other => Err(ChainError::Type(other.to_string())),
        })
        .collect()
}

/// Calldata of `function(args…)` on `contract`, as 0x hex.
pub fn calldata(contract: Contract, function: &str, args: &[&str]) -> Result<String, ChainError> {
    let f = contract
        .abi()
        .function(function)
        .map_err(|_| ChainError::Function(function.into()))?;
    let data = f
        .encode_input(&tokens(&f.inputs, args)?)
        .map_err(|e| ChainError::Data(e.to_string()))?;
    Ok(hex0x(&data))
}

/// Creation data for a deployment: the bytecode (hex, from contracts/artifacts/*.bin) followed
/// by the constructor's arguments.
pub fn creation(
    contract: Contract,
    bytecode_hex: &str,
    args: &[&str],
) -> Result<String, ChainError> {
    let inputs = contract
        .abi()
        .constructor()
        .map(|c| c.inputs.as_slice())
        .unwrap_or_default();
    let mut code = bytes(bytecode_hex.trim())?;
    code.extend(abi::encode(&tokens(inputs, args)?));
    Ok(hex0x(&code))
}

/// A single uint256 return value (eth_call's answer) as base units.
pub fn decode_uint(data: &str) -> Result<Units, ChainError> {
    match abi::decode(&[ParamType::Uint(256)], &bytes(data)?)
        .map_err(|e| ChainError::Data(e.to_string()))?
        .as_slice()
    {
        [Token::Uint(value)] => to_units(*value),
        _ => Err(ChainError::Data("not a uint256".into())),
    }
}

/// A single address return value as its EIP-55 form.
pub fn decode_address(data: &str) -> Result<String, ChainError> {
    match abi::decode(&[ParamType::Address], &bytes(data)?)
        .map_err(|e| ChainError::Data(e.to_string()))?
        .as_slice()
    {
        [Token::Address(a)] => Ok(ethers_core::utils::to_checksum(a, None)),
        _ => Err(ChainError::Data("not an address".into())),
    }
}

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

/// A claim voucher (EIP-712, ClaimDistributor's `Claim(address account,uint256 cumulative,
/// uint256 deadline)` in the domain "LVLX Claims" version 1 on `chain_id` at `contract`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Voucher {
    pub chain_id: u64,
    pub contract: Address,
    pub account: Address,
    /// LVLX base units earned in all, ever.
    pub cumulative: Units,
    /// Seconds.
    pub deadline: u64,
}

impl Voucher {
    /// The 32-byte digest the claim signer signs (and the contract recovers from).
    pub fn digest(&self) -> [u8; 32] {
        use ethers_core::utils::keccak256;
        let word = |t: Token| abi::encode(&[t]);
        let domain_type = keccak256(
            "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)",
        );
        let domain = keccak256(
            [
                word(Token::FixedBytes(domain_type.to_vec())),
                word(Token::FixedBytes(keccak256("LVLX Claims").to_vec())),
                word(Token::FixedBytes(keccak256("1").to_vec())),
                word(Token::Uint(self.chain_id.into())),
                word(Token::Address(self.contract)),
            ]
            .concat(),
        );
        let claim_type = keccak256("Claim(address account,uint256 cumulative,uint256 deadline)");
        let claim = keccak256(
            [
                word(Token::FixedBytes(claim_type.to_vec())),
                word(Token::Address(self.account)),
                word(Token::Uint(self.cumulative.into())),
                word(Token::Uint(self.deadline.into())),
            ]
            .concat(),
        );
        keccak256([&[0x19, 0x01][..], &domain, &claim].concat())
    }
}

/// `terms(kind)`'s answer (usdtValue, rateBps, lockSeconds).
pub fn decode_terms(kind: u32, data: &str) -> Result<crate::staking::Terms, ChainError> {
    let words = abi::decode(
        &[
            ParamType::Uint(128),
            ParamType::Uint(32),
            ParamType::Uint(32),
        ],
        &bytes(data)?,
    )
    .map_err(|e| ChainError::Data(e.to_string()))?;
    match words.as_slice() {
        [Token::Uint(value), Token::Uint(rate), Token::Uint(lock)] => Ok(crate::staking::Terms {
            kind,
            usdt_value: to_units(*value)?,
            rate_bps: rate.low_u32(),
            lock_seconds: lock.low_u64(),
        }),
        _ => Err(ChainError::Data("not terms".into())),
    }
}

/// The translation key that explains a revert, from its data (a custom error of the platform's
/// contracts or OpenZeppelin's): what a buyer can act on, in plain words.
pub const REVERT_KEYS: [&str; 23] = [
    "chain-reverted",
    "chain-insufficient-balance",
    "chain-insufficient-allowance",
    "chain-sale-paused",
    "chain-sold-out",
    "chain-price-moved",
    "chain-self-referral",
    "chain-amount-too-small",
    "chain-not-for-sale",
    "chain-reserve-short",
    "chain-not-released",
    "chain-nothing-to-withdraw",
    "chain-not-yours",
    "chain-insufficient-nfts",
    "chain-nft-approval",
    "staking-not-offered",
    "chain-node-active",
    "chain-node-not-on-sale",
    "chain-voucher-expired",
    "chain-voucher-invalid",
    "chain-nothing-to-claim",
    "chain-claim-cap",
    "chain-claim-daily-cap",
];

pub fn revert_key(data: &str) -> &'static str {
    let Ok(data) = bytes(data) else {
        return "chain-reverted";
    };
    let Some(selector) = data.get(..4) else {
        return "chain-reverted";
    };
    let name = [
        Contract::IcoSale,
        Contract::MockUsdt,
        Contract::LevelNft,
        Contract::NftSale,
        Contract::NftStaking,
        Contract::ActivationNode,
        Contract::ClaimDistributor,
    ]
    .iter()
    .flat_map(|c| c.abi().errors())
    .find(|e| &e.signature().as_bytes()[..4] == selector)
    .map(|e| e.name.as_str());
    match name {
        Some("ERC20InsufficientBalance") => "chain-insufficient-balance",
        Some("ERC20InsufficientAllowance") => "chain-insufficient-allowance",
        Some("EnforcedPause") => "chain-sale-paused",
        Some("SoldOut") => "chain-sold-out",
        Some("PriceMoved") => "chain-price-moved",
        Some("SelfReferral") => "chain-self-referral",
        Some("ZeroAmount") => "chain-amount-too-small",
        Some("NotForSale") => "chain-not-for-sale",
        Some("ReserveShort") => "chain-reserve-short",
        Some("NotReleased") => "chain-not-released",
        Some("NothingToWithdraw") => "chain-nothing-to-withdraw",
        Some("NotYours" | "AlreadyClosed") => "chain-not-yours",
        Some("ERC1155InsufficientBalance") => "chain-insufficient-nfts",
        Some("ERC1155MissingApprovalForAll") => "chain-nft-approval",
        Some("UnknownTerms") => "staking-not-offered",
        Some("AlreadyActive") => "chain-node-active",
        Some("NotOnSale") => "chain-node-not-on-sale",
        Some("VoucherExpired") => "chain-voucher-expired",
        Some("BadSignature" | "ECDSAInvalidSignature" | "ECDSAInvalidSignatureLength") => {
            "chain-voucher-invalid"
        }
        Some("NothingToClaim") => "chain-nothing-to-claim",
        Some("OverClaimCap") => "chain-claim-cap",
        Some("OverDailyCap") => "chain-claim-daily-cap",
        _ => "chain-reverted",
    }
}

/// Whether two addresses name the same account, whatever their letter case (EIP-55 or not).
pub fn same_address(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

const LVLX_ONE: Units = 10u128.pow(LVLX_DECIMALS);

/// LVLX base units `usdt` base units buy at `price` (USDT base units per whole LVLX), rounded
/// down: the contract's `quote`. `None` for a zero price or overflow.
pub fn quote(usdt: Units, price: Units) -> Option<Units> {
    usdt.checked_mul(LVLX_ONE)?.checked_div(price)
}

/// The least USDT (base units) that buys at least `lvlx` at `price`: rounded up, so that
/// `quote(usdt_for(x)) >= x`. `None` for a zero price or overflow.
pub fn usdt_for(lvlx: Units, price: Units) -> Option<Units> {
    if price == 0 {
        return None;
    }
    Some(lvlx.checked_mul(price)?.div_ceil(LVLX_ONE))
}

#[cfg(test)]
mod tests {
    use super::*;

    const WALLET: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

    #[test]
    fn calldata_follows_the_abi() {
        // balanceOf(address) = 0x70a08231, then the address left-padded to 32 bytes.
        let data = calldata(Contract::Lvlx, "balanceOf", &[WALLET]).unwrap();
        assert_eq!(
            data,
            "0x70a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266"
        );
        // approve(address,uint256) = 0x095ea7b3.
        let data = calldata(Contract::Lvlx, "approve", &[WALLET, "1000000"]).unwrap();
        assert!(data.starts_with("0x095ea7b3"));
        assert!(data.ends_with("00000f4240"), "{data}");
        let buy = calldata(Contract::IcoSale, "buy", &["5", "0", WALLET]).unwrap();
        assert_eq!(buy.len(), 2 + 8 + 3 * 64);
        assert_eq!(
            calldata(Contract::IcoSale, "buy", &["5", "0"]),
            Err(ChainError::Arity {
                expected: 3,
                got: 2
            })
        );
        assert!(matches!(
            calldata(Contract::IcoSale, "buy", &["5.5", "0", WALLET]),
            Err(ChainError::Amount(_))
        ));
        assert!(matches!(
            calldata(Contract::Lvlx, "balanceOf", &["0x123"]),
            Err(ChainError::Address(_))
        ));
        assert!(matches!(
            calldata(Contract::Lvlx, "steal", &[]),
            Err(ChainError::Function(_))
        ));
    }

    #[test]
    fn uints_decode_exactly_and_refuse_overflow() {
        let word = format!("0x{:064x}", 10u128.pow(27) + 7);
        assert_eq!(decode_uint(&word).unwrap(), 10u128.pow(27) + 7);
        let huge = format!("0x1{}", "0".repeat(63));
        assert_eq!(decode_uint(&huge), Err(ChainError::TooLarge));
        assert!(decode_uint("0x").is_err());
    }

    #[test]
    fn purchase_events_decode() {
        let buyer = address(WALLET).unwrap();
        let topics = [
            purchased_topic(),
            hex0x(H256::from(buyer).as_bytes()),
            hex0x(H256::zero().as_bytes()),
        ];
        let data = hex0x(&abi::encode(&[
            Token::Uint(U256::from(2_500_000u64)),
            Token::Uint(U256::from(25u128 * LVLX_ONE)),
        ]));
        let topics: Vec<&str> = topics.iter().map(String::as_str).collect();
        let p = decode_purchase(&topics, &data).unwrap();
        assert_eq!(p.buyer, WALLET);
        assert_eq!(p.usdt_paid, 2_500_000);
        assert_eq!(p.lvlx_bought, 25 * LVLX_ONE);
        assert_eq!(p.referrer, None);
        // Another event's topic is refused.
        let mut wrong = topics.clone();
        wrong[0] = "0x0000000000000000000000000000000000000000000000000000000000000001";
        assert!(decode_purchase(&wrong, &data).is_err());
    }

    #[test]
    fn reverts_read_as_keys() {
        let sale = Contract::IcoSale.abi();
        let sold_out = sale
            .error("SoldOut")
            .unwrap()
            .encode(&[Token::Uint(1.into()), Token::Uint(2.into())])
            .unwrap();
        assert_eq!(revert_key(&hex0x(&sold_out)), "chain-sold-out");
        let paused = sale.error("EnforcedPause").unwrap().encode(&[]).unwrap();
        assert_eq!(revert_key(&hex0x(&paused)), "chain-sale-paused");
        assert_eq!(revert_key("0x"), "chain-reverted");
        assert_eq!(revert_key("0xdeadbeef"), "chain-reverted");
    }

    #[test]
    fn price_arithmetic_matches_the_contract() {
        // 1 LVLX = 0.1 USDT: 2.5 USDT buys 25 LVLX.
        assert_eq!(quote(2_500_000, DEFAULT_PRICE), Some(25 * LVLX_ONE));
        assert_eq!(usdt_for(25 * LVLX_ONE, DEFAULT_PRICE), Some(2_500_000));
        // Rounding: the buyer never gets less than asked for.
        for price in [1, 3, 7, 100_000, 123_457] {
            for lvlx in [1, LVLX_ONE / 3, 10 * LVLX_ONE + 1] {
                let usdt = usdt_for(lvlx, price).unwrap();
                assert!(quote(usdt, price).unwrap() >= lvlx);
                assert!(usdt == 0 || quote(usdt - 1, price).unwrap() < lvlx);
            }
        }
        assert_eq!(quote(1, 0), None);
        assert_eq!(usdt_for(1, 0), None);
    }
}
