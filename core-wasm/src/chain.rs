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
}

impl Contract {
    pub fn parse(name: &str) -> Option<Contract> {
        match name {
            "LVLX" => Some(Contract::Lvlx),
            "MockUSDT" => Some(Contract::MockUsdt),
            "IcoSale" => Some(Contract::IcoSale),
            _ => None,
        }
    }

    pub fn abi(self) -> &'static Abi {
        static LVLX: OnceLock<Abi> = OnceLock::new();
        static USDT: OnceLock<Abi> = OnceLock::new();
        static SALE: OnceLock<Abi> = OnceLock::new();
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

fn purchased() -> &'static abi::Event {
    Contract::IcoSale
        .abi()
        .event("Purchased")
        .expect("the sale's ABI has Purchased")
}

/// topic0 of `Purchased`, for eth_getLogs filters.
pub fn purchased_topic() -> String {
    hex0x(purchased().signature().as_bytes())
}

/// Decodes a log of the sale (topics and data as the JSON-RPC gives them).
pub fn decode_purchase(topics: &[&str], data: &str) -> Result<Purchase, ChainError> {
    let topics = topics
        .iter()
        .map(|t| {
            let b = bytes(t)?;
            (b.len() == 32)
                .then(|| H256::from_slice(&b))
                .ok_or_else(|| ChainError::Data("topic is not 32 bytes".into()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let log = purchased()
        .parse_log(RawLog {
            topics,
            data: bytes(data)?,
        })
        .map_err(|e| ChainError::Data(e.to_string()))?;
    let mut buyer = None;
    let mut usdt_paid = None;
    let mut lvlx_bought = None;
    let mut referrer = None;
    for param in log.params {
        match (param.name.as_str(), param.value) {
            ("buyer", Token::Address(a)) => buyer = Some(a),
            ("usdtPaid", Token::Uint(v)) => usdt_paid = Some(to_units(v)?),
            ("lvlxBought", Token::Uint(v)) => lvlx_bought = Some(to_units(v)?),
            ("referrer", Token::Address(a)) => referrer = Some(a),
            (name, _) => return Err(ChainError::Data(format!("unexpected field {name}"))),
        }
    }
    let missing = || ChainError::Data("incomplete Purchased event".into());
    let checksum = |a: Address| ethers_core::utils::to_checksum(&a, None);
    Ok(Purchase {
        buyer: checksum(buyer.ok_or_else(missing)?),
        usdt_paid: usdt_paid.ok_or_else(missing)?,
        lvlx_bought: lvlx_bought.ok_or_else(missing)?,
        referrer: Some(referrer.ok_or_else(missing)?)
            .filter(|a| !a.is_zero())
            .map(checksum),
    })
}

/// The translation key that explains a revert, from its data (a custom error of the platform's
/// contracts or OpenZeppelin's): what a buyer can act on, in plain words.
pub const REVERT_KEYS: [&str; 8] = [
    "chain-reverted",
    "chain-insufficient-balance",
    "chain-insufficient-allowance",
    "chain-sale-paused",
    "chain-sold-out",
    "chain-price-moved",
    "chain-self-referral",
    "chain-amount-too-small",
];

pub fn revert_key(data: &str) -> &'static str {
    let Ok(data) = bytes(data) else {
        return "chain-reverted";
    };
    let Some(selector) = data.get(..4) else {
        return "chain-reverted";
    };
    let name = [Contract::IcoSale, Contract::MockUsdt]
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
