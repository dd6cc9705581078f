//! The platform's contracts as the browser and the server use them (docs/product/chain.md): the ABI
//! registry built from the artifacts solc-js writes into contracts/artifacts, calldata and call
//! answers encoded and decoded by ethers-core. One file a job: the contracts' events (`events`),
//! the claim voucher (`voucher`), revert reasons (`reverts`), the sale's price arithmetic (`sale`),
//! the owners' Safe transactions (`safe`) and what an owner may change (`owner_actions`).

mod events;
pub mod owner_actions;
pub mod proposals;
mod reverts;
pub mod safe;
mod sale;
mod voucher;

pub use events::*;
pub use reverts::{revert_key, REVERT_KEYS};
pub(crate) use sale::LVLX_ONE;
pub use sale::{quote, usdt_for, DEFAULT_PRICE};
pub use voucher::{Rotation, Voucher};

use std::sync::OnceLock;

use ethers_core::abi::{self, Abi, ParamType, Token};
use ethers_core::types::{Address, U256};
use ethers_core::utils::hex;

use crate::amount::Units;

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
    /// Safe's multisig (SafeL2 1.4.1, as Safe built it): the contracts' owner.
    Safe,
    /// Safe's proxy factory: creates a Safe (a proxy of the singleton) with its owners.
    SafeProxyFactory,
    /// Safe's default fallback handler (signature checks, token callbacks).
    SafeFallbackHandler,
}

impl Contract {
    /// Every contract the platform builds, in deployment order.
    pub const ALL: [Contract; 9] = [
        Contract::Lvlx,
        Contract::MockUsdt,
        Contract::IcoSale,
        Contract::LevelNft,
        Contract::NftSale,
        Contract::NftStaking,
        Contract::LvlxStaking,
        Contract::ActivationNode,
        Contract::ClaimDistributor,
    ];

    /// The contract's name in its Solidity source and artifacts.
    pub fn name(self) -> &'static str {
        match self {
            Contract::Lvlx => "LVLX",
            Contract::MockUsdt => "MockUSDT",
            Contract::IcoSale => "IcoSale",
            Contract::LevelNft => "LevelNFT",
            Contract::NftSale => "NftSale",
            Contract::NftStaking => "NftStaking",
            Contract::LvlxStaking => "LvlxStaking",
            Contract::ActivationNode => "ActivationNode",
            Contract::ClaimDistributor => "ClaimDistributor",
            Contract::Safe => "SafeL2",
            Contract::SafeProxyFactory => "SafeProxyFactory",
            Contract::SafeFallbackHandler => "CompatibilityFallbackHandler",
        }
    }

    /// Safe's contracts, taken from its npm package as built (contracts/build.mjs).
    pub const SAFE: [Contract; 3] = [
        Contract::Safe,
        Contract::SafeProxyFactory,
        Contract::SafeFallbackHandler,
    ];

    pub fn parse(name: &str) -> Option<Contract> {
        Contract::ALL
            .into_iter()
            .chain(Contract::SAFE)
            .find(|c| c.name() == name)
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
        static SAFE: OnceLock<Abi> = OnceLock::new();
        static SAFE_FACTORY: OnceLock<Abi> = OnceLock::new();
        static SAFE_HANDLER: OnceLock<Abi> = OnceLock::new();
        let (cell, json) = match self {
            Contract::Lvlx => (
                &LVLX,
                include_str!("../../../contracts/artifacts/LVLX.abi.json"),
            ),
            Contract::MockUsdt => (
                &USDT,
                include_str!("../../../contracts/artifacts/MockUSDT.abi.json"),
            ),
            Contract::IcoSale => (
                &SALE,
                include_str!("../../../contracts/artifacts/IcoSale.abi.json"),
            ),
            Contract::LevelNft => (
                &NFT,
                include_str!("../../../contracts/artifacts/LevelNFT.abi.json"),
            ),
            Contract::NftSale => (
                &NFT_SALE,
                include_str!("../../../contracts/artifacts/NftSale.abi.json"),
            ),
            Contract::NftStaking => (
                &NFT_STAKING,
                include_str!("../../../contracts/artifacts/NftStaking.abi.json"),
            ),
            Contract::LvlxStaking => (
                &LVLX_STAKING,
                include_str!("../../../contracts/artifacts/LvlxStaking.abi.json"),
            ),
            Contract::ActivationNode => (
                &NODE,
                include_str!("../../../contracts/artifacts/ActivationNode.abi.json"),
            ),
            Contract::ClaimDistributor => (
                &CLAIMS,
                include_str!("../../../contracts/artifacts/ClaimDistributor.abi.json"),
            ),
            Contract::Safe => (
                &SAFE,
                include_str!("../../../contracts/artifacts/SafeL2.abi.json"),
            ),
            Contract::SafeProxyFactory => (
                &SAFE_FACTORY,
                include_str!("../../../contracts/artifacts/SafeProxyFactory.abi.json"),
            ),
            Contract::SafeFallbackHandler => (
                &SAFE_HANDLER,
                include_str!("../../../contracts/artifacts/CompatibilityFallbackHandler.abi.json"),
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
    /// Mixed case that is not the address's EIP-55 checksum: a typo somewhere in it.
    #[error("wrong address checksum: {0:?}")]
    Checksum(String),
    /// A text argument with control or direction characters, or longer than an owner can read.
    #[error("text argument refused")]
    Text,
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
            ChainError::Checksum(_) => "validations-wallet-checksum-msg",
            ChainError::Text => "validations-owner-text-msg",
            ChainError::Amount(_) => "validations-amount-msg",
            ChainError::TooLarge => "buy-amount-too-large",
            _ => "error-internal",
        }
    }
}

/// A 20-byte address from 0x-prefixed hex. Mixed case is an EIP-55 checksum and must be the
/// address's own (it is what catches a typo); all lower or all upper case carries none.
pub fn address(text: &str) -> Result<Address, ChainError> {
    let hex = text
        .strip_prefix("0x")
        .filter(|h| h.len() == 40)
        .ok_or_else(|| ChainError::Address(text.into()))?;
    let bytes = hex::decode(hex).map_err(|_| ChainError::Address(text.into()))?;
    let address = Address::from_slice(&bytes);
    let mixed =
        hex.bytes().any(|b| b.is_ascii_lowercase()) && hex.bytes().any(|b| b.is_ascii_uppercase());
    if mixed && ethers_core::utils::to_checksum(&address, None)[2..] != *hex {
        return Err(ChainError::Checksum(text.into()));
    }
    Ok(address)
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

pub(crate) fn bytes(text: &str) -> Result<Vec<u8>, ChainError> {
    let hex = text.strip_prefix("0x").unwrap_or(text);
    hex::decode(hex).map_err(|e| ChainError::Data(e.to_string()))
}

/// Arguments as text, each read by the type the ABI gives it: an address as 0x hex, a uint as
/// decimal base units.
pub(crate) fn tokens(inputs: &[abi::Param], args: &[&str]) -> Result<Vec<Token>, ChainError> {
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

/// `n` uint256 return values (a function answering several), as base units.
pub fn decode_uints(data: &str, n: usize) -> Result<Vec<Units>, ChainError> {
    abi::decode(&vec![ParamType::Uint(256); n], &bytes(data)?)
        .map_err(|e| ChainError::Data(e.to_string()))?
        .into_iter()
        .map(|t| match t {
            Token::Uint(value) => to_units(value),
            _ => Err(ChainError::Data("not a uint256".into())),
        })
        .collect()
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

/// An `address[]` return value (a Safe's `getOwners`), each in its EIP-55 form.
pub fn decode_addresses(data: &str) -> Result<Vec<String>, ChainError> {
    match abi::decode(
        &[ParamType::Array(Box::new(ParamType::Address))],
        &bytes(data)?,
    )
    .map_err(|e| ChainError::Data(e.to_string()))?
    .as_slice()
    {
        [Token::Array(items)] => items
            .iter()
            .map(|t| match t {
                Token::Address(a) => Ok(ethers_core::utils::to_checksum(a, None)),
                _ => Err(ChainError::Data("not an address".into())),
            })
            .collect(),
        _ => Err(ChainError::Data("not an address[]".into())),
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

/// Whether two addresses name the same account, whatever their letter case (EIP-55 or not).
pub fn same_address(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

#[cfg(test)]
mod tests {
    use super::sale::LVLX_ONE;
    use super::*;

    /// EIP-55: mixed case is a checksum and a wrong one is a typo; one case carries none.
    #[test]
    fn a_mixed_case_address_must_carry_its_own_checksum() {
        let good = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
        assert!(address(good).is_ok());
        assert!(address(&good.to_lowercase()).is_ok());
        assert!(address(&format!("0x{}", good[2..].to_uppercase())).is_ok());
        // The example: two letters' case swapped.
        let typo = "0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266";
        assert_eq!(address(typo), Err(ChainError::Checksum(typo.into())));
        assert_eq!(
            ChainError::Checksum(typo.into()).key(),
            "validations-wallet-checksum-msg"
        );
        assert_eq!(crate::siwe::checksummed(typo), None);
        // The EIP's own examples.
        for example in [
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
            "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        ] {
            assert_eq!(crate::siwe::checksummed(example).as_deref(), Some(example));
        }
    }
    use ethers_core::types::H256;

    const WALLET: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

    /// A Safe's `getOwners` answer, as the ABI encodes an `address[]`.
    #[test]
    fn an_address_list_reads_in_its_checksummed_form() {
        let owners = ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", WALLET];
        let encoded = abi::encode(&[Token::Array(
            owners
                .iter()
                .map(|a| Token::Address(address(a).unwrap()))
                .collect(),
        )]);
        let answer = hex0x(&encoded);
        assert_eq!(decode_addresses(&answer).unwrap(), owners);
        assert_eq!(
            decode_addresses(&hex0x(&abi::encode(&[Token::Array(vec![])]))).unwrap(),
            Vec::<String>::new()
        );
        assert!(decode_addresses("0x").is_err());
        assert!(
            decode_addresses(&answer[..answer.len() - 2]).is_err(),
            "cut short"
        );
    }

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
            hex0x(
                Contract::IcoSale
                    .abi()
                    .event("Purchased")
                    .unwrap()
                    .signature()
                    .as_bytes(),
            ),
            hex0x(H256::from(buyer).as_bytes()),
            hex0x(H256::zero().as_bytes()),
        ];
        let data = hex0x(&abi::encode(&[
            Token::Uint(U256::from(2_500_000u64)),
            Token::Uint(U256::from(25u128 * LVLX_ONE)),
        ]));
        let topics: Vec<&str> = topics.iter().map(String::as_str).collect();
        let Ok(Event::Purchased(p)) = decode(Contract::IcoSale, &topics, &data) else {
            panic!("a purchase")
        };
        assert_eq!(p.buyer, WALLET);
        assert_eq!(p.usdt_paid, 2_500_000);
        assert_eq!(p.lvlx_bought, 25 * LVLX_ONE);
        assert_eq!(p.referrer, None);
        // Another event's topic is refused.
        let mut wrong = topics.clone();
        wrong[0] = "0x0000000000000000000000000000000000000000000000000000000000000001";
        assert!(decode(Contract::IcoSale, &wrong, &data).is_err());
        // The same event from another contract is not the sale's.
        assert!(decode(Contract::NftSale, &topics, &data).is_err());
        assert!(topics_hold(topics[0]));
    }

    fn topics_hold(topic: &str) -> bool {
        super::topics().iter().any(|t| t == topic)
    }

    #[test]
    fn reverts_read_as_keys() {
        let sale = Contract::IcoSale.abi();
        let sold_out = sale
            .error("IcoSaleSoldOut")
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
