//! What the contracts' owner (the owners' Safe) may be asked to do from the admin's page: every
//! owner function, each argument's kind (so the page reads and writes it in human units) and the
//! getter that answers its current value (shown beside the proposed one). A proposal names one of
//! these; anything else (a member's function, `renounceOwnership`) is refused before it is stored.

use ethers_core::abi::Token;
use serde::Serialize;

use super::{bytes, tokens, ChainError, Contract};
use crate::amount::Units;

/// How an argument is read and written by people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ArgKind))]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    /// USDT base units (6 decimals).
    Usdt,
    /// LVLX base units (18 decimals).
    Lvlx,
    /// Basis points (shown as a percentage).
    Bps,
    /// Seconds (shown as days).
    Seconds,
    Bool,
    Address,
    /// A plain whole number (an NFT id, a tier).
    Number,
    Text,
    /// Raw bytes as 0x hex (a signature).
    Bytes,
}

/// A getter answering an argument's current value: `getter(args[keys]…)`, output `output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Now {
    pub getter: &'static str,
    pub keys: &'static [usize],
    pub output: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arg {
    pub name: &'static str,
    pub kind: Kind,
    pub now: Option<Now>,
}

/// One owner function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Action {
    pub contract: Contract,
    pub function: &'static str,
    pub args: &'static [Arg],
    /// A state the page shows beside an action without arguments (whether it is paused).
    pub state: Option<(&'static str, Kind)>,
    /// Whether executing it only announces the change, which applies after the contract's delay.
    pub delayed: bool,
}

impl Action {
    /// The value the action gives its `state` (pausing sets `paused` to true, resuming to false).
    pub fn sets(&self) -> Option<&'static str> {
        self.state?;
        match self.function {
            "pause" => Some("true"),
            "unpause" | "applyUnpause" => Some("false"),
            _ => None,
        }
    }
}

const fn arg(name: &'static str, kind: Kind) -> Arg {
    Arg {
        name,
        kind,
        now: None,
    }
}

const fn now(name: &'static str, kind: Kind, getter: &'static str) -> Arg {
    Arg {
        name,
        kind,
        now: Some(Now {
            getter,
            keys: &[],
            output: 0,
        }),
    }
}

const fn action(contract: Contract, function: &'static str, args: &'static [Arg]) -> Action {
    Action {
        contract,
        function,
        args,
        state: None,
        delayed: false,
    }
}

const fn paused(contract: Contract, function: &'static str) -> Action {
    Action {
        state: Some(("paused", Kind::Bool)),
        ..action(contract, function, &[])
    }
}

const fn delayed(action: Action) -> Action {
    Action {
        delayed: true,
        ..action
    }
}

const OWNER: &[Arg] = &[now("newOwner", Kind::Address, "owner")];

const fn terms_arg(name: &'static str, kind: Kind, output: usize) -> Arg {
    Arg {
        name,
        kind,
        now: Some(Now {
            getter: "terms",
            keys: &[0],
            output,
        }),
    }
}

const STAKING_TERMS: &[Arg] = &[
    arg("kind", Kind::Number),
    terms_arg("usdtValue", Kind::Usdt, 0),
    terms_arg("rateBps", Kind::Bps, 1),
    terms_arg("lockSeconds", Kind::Seconds, 2),
];

const WITHDRAW_FREE: &[Arg] = &[
    arg("to", Kind::Address),
    now("amount", Kind::Lvlx, "freeReserve"),
];

/// Every owner function, contract by contract (the "Owner functions" table of docs/owners.md).
pub const ACTIONS: &[Action] = &[
    action(
        Contract::IcoSale,
        "setPrice",
        &[now("price", Kind::Usdt, "price")],
    ),
    paused(Contract::IcoSale, "pause"),
    paused(Contract::IcoSale, "unpause"),
    action(
        Contract::IcoSale,
        "withdrawUnsold",
        &[arg("to", Kind::Address), arg("amount", Kind::Lvlx)],
    ),
    action(
        Contract::LevelNft,
        "setMinter",
        &[
            arg("account", Kind::Address),
            Arg {
                name: "allowed",
                kind: Kind::Bool,
                now: Some(Now {
                    getter: "minter",
                    keys: &[0],
                    output: 0,
                }),
            },
        ],
    ),
    action(
        Contract::LevelNft,
        "setURI",
        &[
            arg("id", Kind::Number),
            Arg {
                name: "tokenURI",
                kind: Kind::Text,
                now: Some(Now {
                    getter: "uri",
                    keys: &[0],
                    output: 0,
                }),
            },
        ],
    ),
    action(
        Contract::NftSale,
        "setPrice",
        &[
            arg("id", Kind::Number),
            Arg {
                name: "price",
                kind: Kind::Usdt,
                now: Some(Now {
                    getter: "price",
                    keys: &[0],
                    output: 0,
                }),
            },
        ],
    ),
    paused(Contract::NftSale, "pause"),
    paused(Contract::NftSale, "unpause"),
    action(
        Contract::ActivationNode,
        "setTerms",
        &[
            now("price", Kind::Usdt, "price"),
            now("onSale", Kind::Bool, "onSale"),
        ],
    ),
    action(Contract::NftStaking, "setTerms", STAKING_TERMS),
    action(Contract::NftStaking, "withdrawFree", WITHDRAW_FREE),
    paused(Contract::NftStaking, "pause"),
    paused(Contract::NftStaking, "unpause"),
    action(Contract::LvlxStaking, "setTerms", STAKING_TERMS),
    action(Contract::LvlxStaking, "withdrawFree", WITHDRAW_FREE),
    paused(Contract::LvlxStaking, "pause"),
    paused(Contract::LvlxStaking, "unpause"),
    delayed(action(
        Contract::ClaimDistributor,
        "setSigner",
        &[now("signer", Kind::Address, "signer")],
    )),
    action(Contract::ClaimDistributor, "applySigner", &[]),
    action(
        Contract::ClaimDistributor,
        "applySignerWithConsent",
        &[arg("consent", Kind::Bytes)],
    ),
    action(Contract::ClaimDistributor, "cancelSigner", &[]),
    delayed(action(
        Contract::ClaimDistributor,
        "setCaps",
        &[
            now("maxPerClaim", Kind::Lvlx, "maxPerClaim"),
            now("maxPerDay", Kind::Lvlx, "maxPerDay"),
            now("maxPerAccountDay", Kind::Lvlx, "maxPerAccountDay"),
        ],
    )),
    action(Contract::ClaimDistributor, "applyCaps", &[]),
    action(Contract::ClaimDistributor, "cancelCaps", &[]),
    paused(Contract::ClaimDistributor, "pause"),
    delayed(paused(Contract::ClaimDistributor, "unpause")),
    paused(Contract::ClaimDistributor, "applyUnpause"),
    // Ownership: the Safe accepts what a deployment offered it, or offers it on.
    action(Contract::IcoSale, "transferOwnership", OWNER),
    action(Contract::LevelNft, "transferOwnership", OWNER),
    action(Contract::NftSale, "transferOwnership", OWNER),
    action(Contract::NftStaking, "transferOwnership", OWNER),
    action(Contract::LvlxStaking, "transferOwnership", OWNER),
    action(Contract::ActivationNode, "transferOwnership", OWNER),
    delayed(action(
        Contract::ClaimDistributor,
        "transferOwnership",
        OWNER,
    )),
    action(Contract::IcoSale, "acceptOwnership", &[]),
    action(Contract::LevelNft, "acceptOwnership", &[]),
    action(Contract::NftSale, "acceptOwnership", &[]),
    action(Contract::NftStaking, "acceptOwnership", &[]),
    action(Contract::LvlxStaking, "acceptOwnership", &[]),
    action(Contract::ActivationNode, "acceptOwnership", &[]),
    action(Contract::ClaimDistributor, "acceptOwnership", &[]),
];

/// The owner function `contract.function`, when it is one.
pub fn find(contract: Contract, function: &str) -> Option<&'static Action> {
    ACTIONS
        .iter()
        .find(|a| a.contract == contract && a.function == function)
}

/// Calldata of an owner action, its arguments as text in base units (an amount), whole numbers
/// (seconds, basis points, ids), `true`/`false` or 0x addresses.
pub fn encode(contract: Contract, function: &str, args: &[&str]) -> Result<String, ChainError> {
    let action = find(contract, function).ok_or_else(|| ChainError::Function(function.into()))?;
    for (arg, text) in action.args.iter().zip(args) {
        if arg.kind == Kind::Text && !readable_text(text) {
            return Err(ChainError::Text);
        }
    }
    super::calldata(contract, function, args)
}

/// The longest text argument, in bytes: a metadata URI is well under it, and owners must be
/// able to read in full what they sign (a 15,000-character URI needed 25 M gas).
pub const MAX_TEXT_BYTES: usize = 256;

/// Whether owners can read `text` as it will be stored: within [`MAX_TEXT_BYTES`], without
/// control characters (NUL, newlines) or the invisible marks that reorder or hide what is shown
/// (bidirectional overrides and isolates, zero-width characters).
pub fn readable_text(text: &str) -> bool {
    text.len() <= MAX_TEXT_BYTES && crate::display::is_plain(text)
}

/// An owner action read back from its calldata: the action and each argument as text (the form
/// [`encode`] takes).
pub fn decode(
    contract: Contract,
    data: &str,
) -> Result<(&'static Action, Vec<String>), ChainError> {
    let raw = bytes(data)?;
    if raw.len() < 4 {
        return Err(ChainError::Data("no selector".into()));
    }
    let action = ACTIONS
        .iter()
        .filter(|a| a.contract == contract)
        .find(|a| {
            contract
                .abi()
                .function(a.function)
                .is_ok_and(|f| f.short_signature() == raw[..4])
        })
        .ok_or_else(|| ChainError::Function(format!("{:02x?}", &raw[..4])))?;
    let f = contract
        .abi()
        .function(action.function)
        .map_err(|_| ChainError::Function(action.function.into()))?;
    let values = f
        .decode_input(&raw[4..])
        .map_err(|e| ChainError::Data(e.to_string()))?;
    // Exactly what the arguments encode to: bytes beyond them would be signed unseen.
    let again = f
        .encode_input(&values)
        .map_err(|e| ChainError::Data(e.to_string()))?;
    if again != raw {
        return Err(ChainError::Data("calldata beyond the arguments".into()));
    }
    Ok((action, values.into_iter().map(text).collect()))
}

/// The calldata of the getter answering `arg`'s current value, given the proposal's arguments.
pub fn now_calldata(contract: Contract, now: &Now, args: &[String]) -> Result<String, ChainError> {
    let keys: Vec<&str> = now.keys.iter().map(|&k| args[k].as_str()).collect();
    super::calldata(contract, now.getter, &keys)
}

/// A getter's answer, output `output`, as text.
pub fn now_value(
    contract: Contract,
    getter: &str,
    output: usize,
    answer: &str,
) -> Result<String, ChainError> {
    let f = contract
        .abi()
        .function(getter)
        .map_err(|_| ChainError::Function(getter.into()))?;
    let values = f
        .decode_output(&bytes(answer)?)
        .map_err(|e| ChainError::Data(e.to_string()))?;
    values
        .into_iter()
        .nth(output)
        .map(text)
        .ok_or_else(|| ChainError::Data(format!("{getter} has no output {output}")))
}

fn text(token: Token) -> String {
    match token {
        Token::Address(a) => ethers_core::utils::to_checksum(&a, None),
        Token::Uint(u) | Token::Int(u) => u.to_string(),
        Token::Bool(b) => b.to_string(),
        Token::String(s) => s,
        Token::Bytes(b) => super::hex0x(&b),
        other => format!("{other}"),
    }
}

/// The text form `args` take, checked against the function's inputs (used by [`encode`]'s
/// callers to refuse a malformed proposal before anything is stored).
pub fn check(contract: Contract, function: &str, args: &[&str]) -> Result<(), ChainError> {
    let f = contract
        .abi()
        .function(function)
        .map_err(|_| ChainError::Function(function.into()))?;
    tokens(&f.inputs, args).map(|_| ())
}

/// An action as the admin's page offers it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Offered {
    pub contract: &'static str,
    pub function: &'static str,
    pub args: Vec<OfferedArg>,
    pub delayed: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct OfferedArg {
    pub name: &'static str,
    pub kind: Kind,
}

/// Every action, for the page's form.
pub fn offered() -> Vec<Offered> {
    ACTIONS
        .iter()
        .map(|a| Offered {
            contract: a.contract.name(),
            function: a.function,
            args: a
                .args
                .iter()
                .map(|arg| OfferedArg {
                    name: arg.name,
                    kind: arg.kind,
                })
                .collect(),
            delayed: a.delayed,
        })
        .collect()
}

/// Percent in basis points: two decimals.
const BPS_DECIMALS: u32 = 2;
const DAY: u128 = 86_400;

/// An argument typed by a person in `language` (amounts in tokens, a rate in percent, a lock
/// in days) as the text [`encode`] takes. The failure's key.
pub fn read_typed(kind: Kind, text: &str, language: &str) -> Result<String, &'static str> {
    use crate::amount::parse_typed;
    let text = text.trim();
    let amount = |decimals| {
        parse_typed(text, decimals, language)
            .map(|u| u.to_string())
            .map_err(|e| e.key())
    };
    match kind {
        Kind::Usdt => amount(crate::USDT_DECIMALS),
        Kind::Lvlx => amount(crate::LVLX_DECIMALS),
        Kind::Bps => amount(BPS_DECIMALS),
        Kind::Seconds => parse_typed(text, 0, language)
            .map_err(|e| e.key())
            .and_then(|days| days.checked_mul(DAY).ok_or("validations-amount-msg"))
            .map(|s| s.to_string()),
        Kind::Number => amount(0),
        Kind::Bool => match text {
            "true" | "false" => Ok(text.to_string()),
            _ => Err("validations-amount-msg"),
        },
        Kind::Address => super::address(text)
            .map(|a| ethers_core::utils::to_checksum(&a, None))
            .map_err(|e| e.key()),
        Kind::Text if readable_text(text) => Ok(text.to_string()),
        Kind::Text => Err(ChainError::Text.key()),
        Kind::Bytes => bytes(text)
            .ok()
            .filter(|b| !b.is_empty() && text.starts_with("0x"))
            .map(|_| text.to_lowercase())
            .ok_or("validations-hex-msg"),
    }
}

/// An argument's text (as [`decode`] gives it) as people read it in `language`: tokens exactly
/// (every decimal that is not zero, at least two) with their symbol, a rate in percent, a lock
/// in days (two decimals; the page adds the seconds when they are not whole days). Booleans
/// stay `true`/`false` for the page to word. Owners sign what this shows: nothing is rounded.
pub fn shown(kind: Kind, value: &str, language: &str) -> String {
    use crate::amount::{format_units, localize, parse_base};
    let units = parse_base(value).ok();
    let exact = |u: Units, decimals: u32, symbol: &str| -> String {
        let plain = format_units(u, decimals).unwrap_or_else(|_| u.to_string());
        let plain = match plain.split_once('.') {
            None => format!("{plain}.00"),
            Some((_, fraction)) if fraction.len() < 2 => format!("{plain}0"),
            Some(_) => plain,
        };
        format!("{} {symbol}", localize(&plain, language))
    };
    match (kind, units) {
        (Kind::Usdt, Some(u)) => exact(u, crate::USDT_DECIMALS, "USDT"),
        (Kind::Lvlx, Some(u)) => exact(u, crate::LVLX_DECIMALS, "LVLX"),
        (Kind::Bps, Some(u)) => format_units(u, BPS_DECIMALS)
            .map(|p| format!("{} %", localize(&p, language)))
            .unwrap_or_else(|_| value.to_string()),
        (Kind::Seconds, Some(u)) => format_units(u * 100 / DAY, 2)
            .map(|d| localize(&d, language))
            .unwrap_or_else(|_| value.to_string()),
        (Kind::Number, Some(u)) => localize(&u.to_string(), language),
        _ => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Owners sign what the page shows: text that hides or reorders itself, or runs past what a
    /// person reads, is refused on the server (encode) and in the form (read_typed) alike.
    #[test]
    fn text_arguments_are_bounded_and_free_of_control_and_direction_marks() {
        let uri = |text: &str| encode(Contract::LevelNft, "setURI", &["1", text]);
        assert!(uri("ipfs://good/{id}.json").is_ok());
        for bad in [
            "ipfs://good/{id}.json\u{202e}\u{0}nosj.live/",
            "ipfs://a\nb",
            "ipfs://a\u{2066}b",
            "ipfs://a\u{200b}b",
        ] {
            assert_eq!(uri(bad), Err(ChainError::Text), "{bad:?}");
            assert_eq!(
                read_typed(Kind::Text, bad, "en"),
                Err("validations-owner-text-msg")
            );
        }
        let long = format!("ipfs://{}", "a".repeat(MAX_TEXT_BYTES));
        assert_eq!(uri(&long), Err(ChainError::Text));
        assert!(uri(&long[..MAX_TEXT_BYTES]).is_ok());
        // A mixed-case address with a wrong checksum is a typo, said as such.
        let typo = "0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266";
        assert_eq!(
            encode(Contract::IcoSale, "transferOwnership", &[typo]),
            Err(ChainError::Checksum(typo.into()))
        );
        assert_eq!(
            read_typed(Kind::Address, typo, "en"),
            Err("validations-wallet-checksum-msg")
        );
    }

    #[test]
    fn every_action_matches_its_abi_and_reads_back() {
        for action in ACTIONS {
            let f = action.contract.abi().function(action.function).unwrap();
            assert_eq!(f.inputs.len(), action.args.len(), "{}", action.function);
            for (arg, input) in action.args.iter().zip(&f.inputs) {
                assert_eq!(
                    input.name.trim_end_matches('_'),
                    arg.name,
                    "{}",
                    action.function
                );
                if let Some(now) = arg.now {
                    let getter = action.contract.abi().function(now.getter).unwrap();
                    assert_eq!(getter.inputs.len(), now.keys.len(), "{}", now.getter);
                    assert!(now.output < getter.outputs.len(), "{}", now.getter);
                }
            }
            if let Some((getter, _)) = action.state {
                assert!(action.contract.abi().function(getter).is_ok());
                assert!(
                    action.sets().is_some(),
                    "{} says what it sets",
                    action.function
                );
            }
            let samples: Vec<String> = action
                .args
                .iter()
                .map(|a| match a.kind {
                    Kind::Address => "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266".to_string(),
                    Kind::Bool => "true".into(),
                    Kind::Text => "ipfs://x/{id}.json".into(),
                    Kind::Bytes => "0x0102ff".into(),
                    _ => "7".into(),
                })
                .collect();
            let refs: Vec<&str> = samples.iter().map(String::as_str).collect();
            let data = encode(action.contract, action.function, &refs).unwrap();
            let (back, values) = decode(action.contract, &data).unwrap();
            assert_eq!(back, action);
            assert_eq!(
                values.iter().map(|v| v.to_lowercase()).collect::<Vec<_>>(),
                samples.iter().map(|v| v.to_lowercase()).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn people_type_and_read_arguments_in_their_language() {
        assert_eq!(read_typed(Kind::Usdt, "1,5", "es").unwrap(), "1500000");
        assert_eq!(read_typed(Kind::Usdt, "1.5", "en").unwrap(), "1500000");
        assert_eq!(
            read_typed(Kind::Lvlx, "2", "pt").unwrap(),
            "2000000000000000000"
        );
        assert_eq!(read_typed(Kind::Bps, "12,5", "pt").unwrap(), "1250");
        assert_eq!(read_typed(Kind::Seconds, "30", "en").unwrap(), "2592000");
        assert!(
            read_typed(Kind::Seconds, "1,5", "es").is_err(),
            "whole days"
        );
        assert!(read_typed(Kind::Address, "0x12", "en").is_err());
        assert_eq!(read_typed(Kind::Bytes, " 0xAB01 ", "en").unwrap(), "0xab01");
        assert!(read_typed(Kind::Bytes, "ab01", "en").is_err());
        assert!(read_typed(Kind::Bytes, "0xzz", "en").is_err());
        assert!(read_typed(Kind::Usdt, "abc", "en").is_err());
        assert_eq!(shown(Kind::Usdt, "75000000", "es"), "75,00 USDT");
        // Nothing rounded: a price 5 % off reads as such, and so does a stray wei.
        assert_eq!(shown(Kind::Usdt, "104999", "en"), "0.104999 USDT");
        assert_eq!(shown(Kind::Usdt, "1500000", "en"), "1.50 USDT");
        assert_eq!(
            shown(Kind::Lvlx, "1000000000000000000001", "en"),
            "1,000.000000000000000001 LVLX"
        );
        assert_eq!(shown(Kind::Bps, "1250", "pt"), "12,5 %");
        assert_eq!(shown(Kind::Seconds, "2592000", "en"), "30");
        assert_eq!(shown(Kind::Number, "1000000", "en"), "1,000,000");
        assert_eq!(shown(Kind::Bool, "true", "en"), "true");
    }

    #[test]
    fn a_member_function_or_renouncing_is_no_owner_action() {
        assert!(encode(
            Contract::IcoSale,
            "buy",
            &["1", "1", "0x0000000000000000000000000000000000000000"]
        )
        .is_err());
        assert!(encode(Contract::ClaimDistributor, "renounceOwnership", &[]).is_err());
        let price = encode(Contract::IcoSale, "setPrice", &["100000"]).unwrap();
        assert!(decode(Contract::IcoSale, &format!("{price}deadbeef")).is_err());
        let claim = super::super::calldata(Contract::LvlxStaking, "release", &["1"]).unwrap();
        assert!(decode(Contract::LvlxStaking, &claim).is_err());
    }
}
