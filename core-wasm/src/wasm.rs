//! The only binding layer: convert JavaScript input, call the core, convert the answer back.
//! No rule lives here. Amounts cross as decimal strings, never as JS numbers. A failure reaches
//! JavaScript as an Error whose message is a translation key (`crate::keys`), never English.

use wasm_bindgen::prelude::*;

use crate::{admin, amount, date, display, guard, validation};

/// An error the page can translate: its message is the core's key for it.
trait Keyed {
    fn key(&self) -> &'static str;
}

impl Keyed for amount::AmountError {
    fn key(&self) -> &'static str {
        amount::AmountError::key(self)
    }
}
impl Keyed for crate::chain::ChainError {
    fn key(&self) -> &'static str {
        crate::chain::ChainError::key(self)
    }
}
impl Keyed for admin::TableError {
    fn key(&self) -> &'static str {
        admin::TableError::key(self)
    }
}
/// A translation key itself.
impl Keyed for &'static str {
    fn key(&self) -> &'static str {
        self
    }
}

fn js_error(e: impl Keyed) -> JsError {
    JsError::new(e.key())
}

/// A caller's mistake (an unknown name, a wrong shape): no person can act on it.
fn internal(detail: impl std::fmt::Display) -> JsError {
    JsError::new(&format!("error-internal: {detail}"))
}

/// `validateField(field, value, other?)`: the translation key of the failure, or null.
#[wasm_bindgen(js_name = validateField)]
pub fn validate_field(
    field: &str,
    value: &str,
    other: Option<String>,
) -> Result<Option<String>, JsError> {
    let field = validation::Field::parse(field)
        .ok_or_else(|| internal(format!("unknown field {field}")))?;
    Ok(validation::validate(field, value, other.as_deref())
        .err()
        .map(|e| e.key().to_string()))
}

/// `validateAmount(value, decimals, min?, max?, language)`: the translation key of the failure,
/// or null.
#[wasm_bindgen(js_name = validateAmount)]
pub fn validate_amount(
    value: &str,
    decimals: u32,
    min: Option<String>,
    max: Option<String>,
    language: &str,
) -> Option<String> {
    validation::validate_amount(value, decimals, min.as_deref(), max.as_deref(), language)
        .err()
        .map(|e| e.key().to_string())
}

/// `isReferralCode(code)`: true for 16 to 32 hexadecimal characters.
#[wasm_bindgen(js_name = isReferralCode)]
pub fn is_referral_code(code: &str) -> bool {
    validation::is_referral_code(code)
}

/// `lvlxToUsdt(baseUnits)`: USDT value of an LVLX amount, 2 decimals, rounded half up.
#[wasm_bindgen(js_name = lvlxToUsdt)]
pub fn lvlx_to_usdt(base_units: &str) -> Result<String, JsError> {
    Ok(amount::lvlx_to_usdt(
        amount::parse_base(base_units).map_err(js_error)?,
    ))
}

/// `formatUnits(baseUnits, decimals)`: exact decimal text.
#[wasm_bindgen(js_name = formatUnits)]
pub fn format_units(base_units: &str, decimals: u32) -> Result<String, JsError> {
    amount::format_units(amount::parse_base(base_units).map_err(js_error)?, decimals)
        .map_err(js_error)
}

/// `formatFixed(baseUnits, decimals, digits)`: rounded half up, always `digits` fraction digits.
#[wasm_bindgen(js_name = formatFixed)]
pub fn format_fixed(base_units: &str, decimals: u32, digits: u32) -> Result<String, JsError> {
    amount::format_fixed(
        amount::parse_base(base_units).map_err(js_error)?,
        decimals,
        digits,
    )
    .map_err(js_error)
}

/// `parseUnits(text, decimals)`: base units as a decimal string.
#[wasm_bindgen(js_name = parseUnits)]
pub fn parse_units(text: &str, decimals: u32) -> Result<String, JsError> {
    Ok(amount::parse_units(text, decimals)
        .map_err(js_error)?
        .to_string())
}

/// `parseAmount(text, decimals, language)`: an amount typed in `language`, in base units.
#[wasm_bindgen(js_name = parseAmount)]
pub fn parse_amount(text: &str, decimals: u32, language: &str) -> Result<String, JsError> {
    Ok(amount::parse_typed(text, decimals, language)
        .map_err(js_error)?
        .to_string())
}

/// `editableNumber(plain, language)`: a plain decimal as a field is filled for `language`.
#[wasm_bindgen(js_name = editableNumber)]
pub fn editable_number(plain: &str, language: &str) -> String {
    amount::editable(plain, language)
}

/// `sumUnits(list)`: exact sum of base-unit strings.
#[wasm_bindgen(js_name = sumUnits)]
pub fn sum_units(list: Vec<String>) -> Result<String, JsError> {
    let parsed = list
        .iter()
        .map(|s| amount::parse_base(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(js_error)?;
    amount::sum(parsed)
        .map(|s| s.to_string())
        .ok_or_else(|| js_error(amount::AmountError::Overflow))
}

#[wasm_bindgen(js_name = shortWallet)]
pub fn short_wallet(address: &str) -> String {
    display::short_wallet(address)
}

#[wasm_bindgen(js_name = shortWalletMessage)]
pub fn short_wallet_message(address: &str) -> String {
    display::short_wallet_message(address)
}

#[wasm_bindgen(js_name = truncateEmail)]
pub fn truncate_email(email: &str) -> String {
    display::truncate_email(email)
}

/// `normalizeTimestamp(n)`: seconds (below 1e11) become milliseconds.
#[wasm_bindgen(js_name = normalizeTimestamp)]
pub fn normalize_timestamp(t: f64) -> Result<f64, JsError> {
    Ok(date::normalize_timestamp(whole_number(t)?) as f64)
}

/// `calendarDate(ms, offsetMinutes)`: "YYYY-MM-DD" for a viewer at UTC + offset.
#[wasm_bindgen(js_name = calendarDate)]
pub fn calendar_date(ms: f64, offset_minutes: i32) -> Result<String, JsError> {
    date::calendar_date(whole_number(ms)?, offset_minutes)
        .ok_or_else(|| js_error("error-date-malformed"))
}

/// `dayInRange(day, start?, end?)`: inclusive comparison of YYYY-MM-DD dates.
#[wasm_bindgen(js_name = dayInRange)]
pub fn day_in_range(
    day: &str,
    start: Option<String>,
    end: Option<String>,
) -> Result<bool, JsError> {
    date::day_in_range(day, start.as_deref(), end.as_deref())
        .ok_or_else(|| js_error("error-date-malformed"))
}

/// `rangeError(start?, end?)`: the translation key of why a date range cannot filter, or undefined.
#[wasm_bindgen(js_name = rangeError)]
pub fn range_error(start: Option<String>, end: Option<String>) -> Option<String> {
    date::range_error(start.as_deref(), end.as_deref()).map(str::to_owned)
}

/// `formatLocalDay(day, language)`: YYYY-MM-DD as the language writes it (12/31/2026, 31/12/2026).
#[wasm_bindgen(js_name = formatLocalDay)]
pub fn format_local_day(day: &str, language: &str) -> Result<String, JsError> {
    date::format_local_day(day, language).ok_or_else(|| js_error("error-date-malformed"))
}

/// `parseLocalDay(text, language)`: a date typed in the language's order as YYYY-MM-DD.
#[wasm_bindgen(js_name = parseLocalDay)]
pub fn parse_local_day(text: &str, language: &str) -> Result<String, JsError> {
    date::parse_local_day(text, language).ok_or_else(|| js_error("error-date-malformed"))
}

/// `nextWeekly(nowMs, weekday)`: next weekday (0 = Sunday) at 14:00 UTC, in milliseconds.
#[wasm_bindgen(js_name = nextWeekly)]
pub fn next_weekly(now_ms: f64, weekday: u32) -> Result<f64, JsError> {
    date::next_weekly(whole_number(now_ms)?, weekday)
        .map(|t| t as f64)
        .ok_or_else(|| internal("weekday must be 0 to 6"))
}

// `solveCaptcha` is the forms' binding (crate::forms), part of this one too.

/// `decodeSession(token)`: {exp, role, id} or null. Not a verification.
#[wasm_bindgen(js_name = decodeSession)]
pub fn decode_session(token: &str) -> Result<JsValue, JsError> {
    Ok(to_js(&crate::session::decode(token))?)
}

/// `guard(kind, stored, nowMs)`: {action: "show" | "redirect" | "clearAndRedirect", to}.
#[wasm_bindgen]
pub fn guard(kind: &str, stored: JsValue, now_ms: f64) -> Result<JsValue, JsError> {
    let kind: guard::Kind = serde_wasm_bindgen::from_value(JsValue::from_str(kind))?;
    let stored: guard::Stored = serde_wasm_bindgen::from_value(stored)?;
    let decision = guard::decide(kind, &stored, whole_number(now_ms)?);
    Ok(to_js(&decision)?)
}

/// `moneyHistoryCsv(entries)`: the money history (as `GET /api/v1/wallet/history` answers its
/// `entries`) as CSV, exact decimals, UTC times.
#[wasm_bindgen(js_name = moneyHistoryCsv)]
pub fn money_history_csv(entries: JsValue) -> Result<String, JsError> {
    let entries: Vec<crate::history::Valued> = serde_wasm_bindgen::from_value(entries)?;
    Ok(crate::history::csv(&entries, crate::LVLX_DECIMALS))
}

/// `historyKinds()`: the name of every kind of money-history entry, in the core's order (each
/// is the tail of its translation key, `history-kind-<name>`).
#[wasm_bindgen(js_name = historyKinds)]
pub fn history_kinds() -> Vec<String> {
    crate::history::Kind::ALL
        .map(|kind| kind.name().to_owned())
        .to_vec()
}

/// `moneyHistoryCsvIn(entries, words)`: the same history as CSV in the member's language
/// (`words`: {language, header[7], kinds{name: text}, pending, final}; history::csv_in).
#[wasm_bindgen(js_name = moneyHistoryCsvIn)]
pub fn money_history_csv_in(entries: JsValue, words: JsValue) -> Result<String, JsError> {
    let entries: Vec<crate::history::Valued> = serde_wasm_bindgen::from_value(entries)?;
    let words: crate::history::CsvWords = serde_wasm_bindgen::from_value(words)?;
    Ok(crate::history::csv_in(
        &entries,
        crate::LVLX_DECIMALS,
        &words,
    ))
}

/// Absent values become `null` (not `undefined`), as the test vectors and callers expect.
fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, serde_wasm_bindgen::Error> {
    value.serialize(
        &serde_wasm_bindgen::Serializer::new()
            .serialize_missing_as_null(true)
            .serialize_maps_as_objects(true),
    )
}

/// JavaScript numbers that stand for integers must be integers within the safe range.
fn whole_number(n: f64) -> Result<i64, JsError> {
    const SAFE: f64 = 9_007_199_254_740_991.0;
    if n.fract() == 0.0 && n.abs() <= SAFE {
        Ok(n as i64)
    } else {
        Err(js_error("validations-amount-msg"))
    }
}

/// `nextSort(current, column)`: the sort after a click on a column header (desc → asc → none).
#[wasm_bindgen(js_name = nextSort)]
pub fn next_sort(current: JsValue, column: &str) -> Result<JsValue, JsError> {
    let current: Option<admin::Sort> = serde_wasm_bindgen::from_value(current)?;
    Ok(to_js(&admin::next_sort(current.as_ref(), column))?)
}

fn query_from(query: JsValue) -> Result<admin::Query, JsError> {
    Ok(serde_wasm_bindgen::from_value(query)?)
}

/// An admin table held in columns: the ICO ledger, the users, or one side of a staking screen,
/// made by `loadIcoRows`, `loadUserRows`, `loadNodeRows` or `loadStakeRows`. Every table answers the same calls
/// (`lvlx_core::admin::engine::Table`).
#[wasm_bindgen]
pub struct AdminRows(Box<dyn admin::engine::Table>);

/// `loadIcoRows(arrowBytes, product)`: the ICO ledger (bytes copied once into the core).
#[wasm_bindgen(js_name = loadIcoRows)]
pub fn load_ico_rows(bytes: &[u8], product: &str) -> Result<AdminRows, JsError> {
    let table = admin::ico::IcoTable::load(bytes, product).map_err(js_error)?;
    Ok(AdminRows(Box::new(table)))
}

/// `loadUserRows(arrowBytes)`: the members.
#[wasm_bindgen(js_name = loadUserRows)]
pub fn load_user_rows(bytes: &[u8]) -> Result<AdminRows, JsError> {
    let table = admin::users::UserTable::load(bytes).map_err(js_error)?;
    Ok(AdminRows(Box::new(table)))
}

/// `adminColumns("users")`: a table's columns as declared once in the core
/// (`admin::DECLARED`): `[{id, label, kind, sort, optional, spec, field?}]`, before its rows
/// arrive.
#[wasm_bindgen(js_name = adminColumns)]
pub fn admin_columns(table: &str) -> Result<JsValue, JsError> {
    let Some((_, columns)) = admin::DECLARED.iter().find(|(name, _)| *name == table) else {
        return Err(JsError::new(&format!("no declared columns for {table}")));
    };
    Ok(to_js(columns)?)
}

/// `loadNodeRows(arrowBytes)`: the activation nodes sold.
#[wasm_bindgen(js_name = loadNodeRows)]
pub fn load_node_rows(bytes: &[u8]) -> Result<AdminRows, JsError> {
    let table = admin::nodes::NodeTable::load(bytes).map_err(js_error)?;
    Ok(AdminRows(Box::new(table)))
}

/// `loadStakeRows(arrowBytes, "nft" | "lvlx", "entries" | "stakers", nowMs)`.
#[wasm_bindgen(js_name = loadStakeRows)]
pub fn load_stake_rows(
    bytes: &[u8],
    kind: &str,
    side: &str,
    now_ms: f64,
) -> Result<AdminRows, JsError> {
    use admin::stakes::{load, Kind};
    let kind = Kind::parse(kind).ok_or_else(|| internal(format!("unknown stakes {kind}")))?;
    let table = load(bytes, kind, side, whole_number(now_ms)?).map_err(js_error)?;
    Ok(AdminRows(table))
}

#[wasm_bindgen]
impl AdminRows {
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.0.len()
    }
    /// `{start, end}` of the date column at the viewer's offset (today when empty); both null
    /// for a table without a date filter.
    pub fn range(&self, offset_minutes: i32, now_ms: f64) -> Result<JsValue, JsError> {
        let (start, end) = self.0.range(offset_minutes, now_ms as i64).unzip();
        Ok(to_js(&serde_json::json!({ "start": start, "end": end }))?)
    }
    /// The columns a query may sort by (the page's sortable headers).
    #[wasm_bindgen(getter)]
    pub fn sortable(&self) -> Vec<String> {
        self.0.sortable().into_iter().map(str::to_string).collect()
    }
    /// Applies `{start, end, offsetMinutes, search, sort}`; answers `{kept, totals | summary}`.
    pub fn query(&mut self, query: JsValue) -> Result<JsValue, JsError> {
        let query = query_from(query)?;
        Ok(to_js(&self.0.query(&query).map_err(js_error)?)?)
    }
    pub fn page(&self, from: usize, len: usize) -> Result<JsValue, JsError> {
        Ok(to_js(&self.0.page(from, len).map_err(js_error)?)?)
    }
    /// The chart's `{grain, points: [{start, …}]}` over the kept rows (null without a chart).
    pub fn series(&self, offset_minutes: i32) -> Result<JsValue, JsError> {
        Ok(to_js(&self.0.series(offset_minutes).map_err(js_error)?)?)
    }
    pub fn csv(&self) -> String {
        self.0.csv()
    }
    /// The server's ids of the kept rows in display order (the ICO ledger's; empty otherwise).
    #[wasm_bindgen(js_name = keptIds)]
    pub fn kept_ids(&self) -> Vec<u32> {
        self.0.ids()
    }
    /// The CSV with the wallets and transactions `trails` ([{id, wallet, txHash}]) give.
    #[wasm_bindgen(js_name = csvWith)]
    pub fn csv_with(&self, trails: JsValue) -> Result<String, JsError> {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Trail {
            id: u32,
            wallet: Option<String>,
            tx_hash: Option<String>,
        }
        let trails: Vec<Trail> = serde_wasm_bindgen::from_value(trails)?;
        let trails = trails
            .into_iter()
            .map(|t| {
                (
                    t.id,
                    (t.wallet.unwrap_or_default(), t.tx_hash.unwrap_or_default()),
                )
            })
            .collect();
        Ok(self.0.csv_with(&trails))
    }
}

/// `sealForTransport(value, passKey, nonce)`: the secret-key form's value, AES-256-GCM sealed with
/// the configured pass key; `nonce` is 12 random bytes from `crypto.getRandomValues`.
#[wasm_bindgen(js_name = sealForTransport)]
pub fn seal_for_transport(value: &str, pass_key: &str, nonce: &[u8]) -> Result<String, JsError> {
    let nonce: &[u8; crate::seal::NONCE_LEN] = nonce
        .try_into()
        .map_err(|_| internal("the nonce must be 12 bytes"))?;
    Ok(crate::seal::seal_for_transport(value, pass_key, nonce))
}

/// `siweMessage(domain, address, statement, uri, chainId, nonce, issuedAtMs, expirationMs)`: the
/// EIP-4361 text the wallet signs to link itself, on the chain the server's nonce names.
#[wasm_bindgen(js_name = siweMessage)]
#[allow(clippy::too_many_arguments)] // the message's fields, as the binding passes them
pub fn siwe_message(
    domain: &str,
    address: &str,
    statement: &str,
    uri: &str,
    chain_id: u32,
    nonce: &str,
    issued_at_ms: f64,
    expiration_ms: f64,
) -> Result<String, JsError> {
    let address =
        crate::siwe::checksummed(address).ok_or_else(|| js_error("validations-wallet-msg"))?;
    let text = crate::siwe::Message {
        domain: domain.to_string(),
        address,
        statement: Some(statement.to_string()),
        uri: uri.to_string(),
        chain_id: u64::from(chain_id),
        nonce: nonce.to_string(),
        issued_at: whole_number(issued_at_ms)?,
        expiration_time: Some(whole_number(expiration_ms)?),
        ..Default::default()
    }
    .to_text();
    // What the server would refuse by EIP-4361's grammar is not offered for signing.
    crate::siwe::Message::parse(&text).map_err(|e| js_error(e.key()))?;
    Ok(text)
}

/// `checksumAddress(address)`: the EIP-55 form, or null when it is not an address.
#[wasm_bindgen(js_name = checksumAddress)]
pub fn checksum_address(address: &str) -> Option<String> {
    crate::siwe::checksummed(address)
}

fn contract(name: &str) -> Result<crate::chain::Contract, JsError> {
    crate::chain::Contract::parse(name).ok_or_else(|| internal(format!("unknown contract {name}")))
}

/// `calldata(contract, function, args)`: 0x calldata from the contract's ABI; each argument is
/// text (an address, or decimal base units for a uint).
#[wasm_bindgen(js_name = calldata)]
pub fn calldata(name: &str, function: &str, args: Vec<String>) -> Result<String, JsError> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    crate::chain::calldata(contract(name)?, function, &args).map_err(js_error)
}

/// `decodeUint(data)`: an eth_call's uint256 answer as decimal base units.
#[wasm_bindgen(js_name = decodeUint)]
pub fn decode_uint(data: &str) -> Result<String, JsError> {
    Ok(crate::chain::decode_uint(data)
        .map_err(js_error)?
        .to_string())
}

/// `revertKey(data)`: the translation key explaining a revert's data.
#[wasm_bindgen(js_name = revertKey)]
pub fn revert_key(data: &str) -> String {
    crate::chain::revert_key(data).to_string()
}

/// `quoteLvlx(usdtUnits, price)`: LVLX base units the sale gives for a USDT amount (floor).
#[wasm_bindgen(js_name = quoteLvlx)]
pub fn quote_lvlx(usdt: &str, price: &str) -> Result<String, JsError> {
    let parse = |t: &str| amount::parse_base(t).map_err(js_error);
    crate::chain::quote(parse(usdt)?, parse(price)?)
        .map(|u| u.to_string())
        .ok_or_else(|| js_error("chain-no-price"))
}

/// `usdtFor(lvlxUnits, price)`: the least USDT base units that buy an LVLX amount (ceiling).
#[wasm_bindgen(js_name = usdtFor)]
pub fn usdt_for(lvlx: &str, price: &str) -> Result<String, JsError> {
    let parse = |t: &str| amount::parse_base(t).map_err(js_error);
    crate::chain::usdt_for(parse(lvlx)?, parse(price)?)
        .map(|u| u.to_string())
        .ok_or_else(|| js_error("chain-no-price"))
}

/// `purchasePlan(side, text, language, price, usdtBalance, allowance)`: {usdt, lvlx,
/// needsApproval, shortOfBalance} for what was typed in `language` on `side` ("usdt" | "lvlx"),
/// or {error: key}.
#[wasm_bindgen(js_name = purchasePlan)]
pub fn purchase_plan(
    side: &str,
    text: &str,
    language: &str,
    price: &str,
    balance: &str,
    allowance: &str,
) -> Result<JsValue, JsError> {
    let side: crate::sale::Side =
        serde_wasm_bindgen::from_value(JsValue::from_str(side)).map_err(internal)?;
    let parse = |t: &str| amount::parse_base(t).map_err(js_error);
    match crate::sale::plan(
        side,
        text,
        language,
        parse(price)?,
        parse(balance)?,
        parse(allowance)?,
    ) {
        Ok(plan) => to_js(&plan).map_err(internal),
        Err(e) => to_js(&serde_json::json!({ "error": e.key() })).map_err(internal),
    }
}

/// `explorerTx(explorerUrl, hash)`: the transaction's page on the explorer, or null.
#[wasm_bindgen(js_name = explorerTx)]
pub fn explorer_tx(explorer: &str, hash: &str) -> Option<String> {
    crate::sale::explorer_tx(explorer, hash)
}

/// `explorerToken(explorerUrl, address)`: the token contract's explorer page, or undefined.
#[wasm_bindgen(js_name = explorerToken)]
pub fn explorer_token(explorer: &str, address: &str) -> Option<String> {
    crate::sale::explorer_token(explorer, address)
}

/// `sameAddress(a, b)`: whether two addresses name one account, whatever their letter case.
#[wasm_bindgen(js_name = sameAddress)]
pub fn same_address(a: &str, b: &str) -> bool {
    crate::chain::same_address(a, b)
}

/// `tokenDecimals(token)`: 6 for USDT, 18 for the product and MATIC.
#[wasm_bindgen(js_name = tokenDecimals)]
pub fn token_decimals(token: &str) -> u32 {
    admin::ico::token_decimals(token)
}

/// `fieldMaxLength(name)`: the most characters the rule of the field `name` accepts; null for a
/// field without a bound or without a rule of that name (an input named after its form, say).
#[wasm_bindgen(js_name = fieldMaxLength)]
pub fn field_max_length(name: &str) -> Option<u32> {
    validation::Field::parse(name)
        .and_then(validation::max_length)
        .map(|n| n as u32)
}

/// `formatToken(baseUnits, token)`: the amount as the interface shows it (2 decimals, in the
/// token's decimals: USDT 6, LVLX and MATIC 18).
#[wasm_bindgen(js_name = formatToken)]
pub fn format_token(base_units: &str, token: &str) -> Result<String, JsError> {
    Ok(amount::format_token(
        amount::parse_base(base_units).map_err(js_error)?,
        token,
    ))
}

/// `localizeNumber(plain, language)`: a plain decimal with the language's digit grouping and
/// decimal mark (en 1,234.5; es 1234,5 and 12.345,5; pt 1.234,5); other text unchanged.
#[wasm_bindgen(js_name = localizeNumber)]
pub fn localize_number(plain: &str, language: &str) -> String {
    amount::localize(plain, language)
}

/// `formatTokenIn(baseUnits, token, language)`: [`format_token`] as the language writes it.
#[wasm_bindgen(js_name = formatTokenIn)]
pub fn format_token_in(base_units: &str, token: &str, language: &str) -> Result<String, JsError> {
    Ok(amount::format_token_in(
        amount::parse_base(base_units).map_err(js_error)?,
        token,
        language,
    ))
}

/// `formatRewardIn(baseUnits, language)`: an LVLX reward to 6 decimals as the language writes it
/// (one precision for a reward figure on every page).
#[wasm_bindgen(js_name = formatRewardIn)]
pub fn format_reward_in(base_units: &str, language: &str) -> Result<String, JsError> {
    Ok(amount::format_reward_in(
        amount::parse_base(base_units).map_err(js_error)?,
        language,
    ))
}

/// `videoDuration(iso)`: "PT4M13S" → "4:13"; undefined when it is not a time duration.
#[wasm_bindgen(js_name = videoDuration)]
pub fn video_duration(iso: &str) -> Option<String> {
    crate::display::video_duration(iso)
}

/// `languages()`: the interface's languages, the default first.
#[wasm_bindgen(js_name = languages)]
pub fn languages() -> Vec<String> {
    crate::LANGUAGES.iter().map(|l| l.to_string()).collect()
}

/// `ownerActions()`: every owner action the admin's page may propose to the owners' Safe:
/// [{contract, function, args: [{name, kind}], delayed}].
#[wasm_bindgen(js_name = ownerActions)]
pub fn owner_actions() -> Result<JsValue, JsError> {
    Ok(to_js(&crate::chain::owner_actions::offered())?)
}

/// `readOwnerArg(kind, text, language)`: an owner action's argument as typed (tokens, percent,
/// days) in the text a proposal carries; throws the failure's key.
#[wasm_bindgen(js_name = readOwnerArg)]
pub fn read_owner_arg(kind: &str, text: &str, language: &str) -> Result<String, JsError> {
    let kind = serde_wasm_bindgen::from_value(JsValue::from_str(kind))?;
    crate::chain::owner_actions::read_typed(kind, text, language).map_err(JsError::new)
}

/// `showOwnerArg(kind, value, language)`: a proposal's argument as people read it.
#[wasm_bindgen(js_name = showOwnerArg)]
pub fn show_owner_arg(kind: &str, value: &str, language: &str) -> Result<String, JsError> {
    let kind = serde_wasm_bindgen::from_value(JsValue::from_str(kind))?;
    Ok(crate::chain::owner_actions::shown(kind, value, language))
}

/// `contentBlocks()`: the content blocks admins edit, in menu order.
#[wasm_bindgen(js_name = contentBlocks)]
pub fn content_blocks() -> Vec<String> {
    crate::content::BLOCKS
        .iter()
        .map(|b| b.to_string())
        .collect()
}

fn seconds(value: f64) -> Result<u64, JsError> {
    (0.0..=9_007_199_254_740_991.0)
        .contains(&value)
        .then_some(value as u64)
        .ok_or_else(|| internal(format!("not a time in seconds: {value}")))
}

/// `commissions(amount, levelsBps, upline)`: what an LVLX purchase pays its upline (sponsor
/// first; `upline[i]` true where that member's node was active): [{level, upline, amount}].
#[wasm_bindgen]
pub fn commissions(
    amount: &str,
    levels_bps: Vec<u32>,
    upline: JsValue,
) -> Result<JsValue, JsError> {
    let amount = amount::parse_base(amount).map_err(js_error)?;
    let upline: Vec<bool> = serde_wasm_bindgen::from_value(upline)?;
    Ok(to_js(&crate::network::commissions(
        amount,
        &levels_bps,
        &upline,
    ))?)
}

/// `rankStanding(volume, ranks, achieved)`: userRankData — {volume, rank, next, missing,
/// progressBps} for a network volume (USDT base units) and the rank ids already credited.
#[wasm_bindgen(js_name = rankStanding)]
pub fn rank_standing(volume: &str, ranks: JsValue, achieved: Vec<u32>) -> Result<JsValue, JsError> {
    let volume = amount::parse_base(volume).map_err(js_error)?;
    let ranks: Vec<crate::network::Rank> = serde_wasm_bindgen::from_value(ranks)?;
    Ok(to_js(&crate::network::standing(volume, &ranks, &achieved))?)
}

/// `lockTerms(rateBps, lockSeconds)`: {days, wholeDays, yearlyBps} — a lock in days and its
/// rate as the simple yearly rate.
#[wasm_bindgen(js_name = lockTerms)]
pub fn lock_terms(rate_bps: u32, lock_seconds: f64) -> Result<JsValue, JsError> {
    let seconds = whole_number(lock_seconds)?;
    let seconds = u64::try_from(seconds).map_err(|_| internal("a negative lock"))?;
    Ok(to_js(&crate::staking::lock_terms(rate_bps, seconds))?)
}

/// `stakingQuote(pool, kind, usdtValue, rateBps, lockSeconds, amount, freeReserve, nowSeconds)`:
/// what staking `amount` (NFTs, or LVLX base units) under these terms brings — {reward,
/// rewardUsdt, release} — or {error: key} when the contract would refuse it.
#[wasm_bindgen(js_name = stakingQuote)]
#[allow(clippy::too_many_arguments)]
pub fn staking_quote(
    pool: &str,
    kind: u32,
    usdt_value: &str,
    rate_bps: u32,
    lock_seconds: f64,
    amount: &str,
    free: &str,
    now: f64,
) -> Result<JsValue, JsError> {
    use crate::staking;
    let pool = staking::Pool::parse(pool).ok_or_else(|| internal(format!("pool {pool:?}")))?;
    let parse = |t: &str| amount::parse_base(t).map_err(js_error);
    let terms = staking::Terms {
        kind,
        usdt_value: parse(usdt_value)?,
        rate_bps,
        lock_seconds: seconds(lock_seconds)?,
    };
    match staking::quote(pool, &terms, parse(amount)?, parse(free)?, seconds(now)?) {
        Ok(q) => to_js(&q).map_err(internal),
        Err(e) => to_js(&serde_json::json!({ "error": e.key() })).map_err(internal),
    }
}

/// `moneyAccount(server, walletUnits?)`: the member's account (`account::Account`) from the
/// dashboard's `account` figures and the wallet's LVLX on chain (null when unread).
#[wasm_bindgen(js_name = moneyAccount)]
pub fn money_account(server: JsValue, wallet: Option<String>) -> Result<JsValue, JsError> {
    let server: crate::account::Server =
        serde_wasm_bindgen::from_value(server).map_err(internal)?;
    let wallet = wallet
        .map(|w| amount::parse_base(&w))
        .transpose()
        .map_err(js_error)?;
    let account = crate::account::account(&server, wallet).map_err(js_error)?;
    to_js(&account).map_err(internal)
}

/// `stakingStanding(reward, startSeconds, releaseSeconds, withdrawn, atSeconds)`: a position's
/// {accrued, withdrawable, accruedUsdt, released, secondsLeft} at one second.
#[wasm_bindgen(js_name = stakingStanding)]
pub fn staking_standing(
    reward: &str,
    start: f64,
    release: f64,
    withdrawn: &str,
    at: f64,
) -> Result<JsValue, JsError> {
    let parse = |t: &str| amount::parse_base(t).map_err(js_error);
    let position = crate::staking::Position {
        start: seconds(start)?,
        release: seconds(release)?,
        reward: parse(reward)?,
        withdrawn: parse(withdrawn)?,
    };
    to_js(&position.standing(seconds(at)?)).map_err(internal)
}

/// `nftCost(price, quantity)`: USDT base units `quantity` NFTs cost at `price` each.
#[wasm_bindgen(js_name = nftCost)]
pub fn nft_cost(price: &str, quantity: &str) -> Result<String, JsError> {
    let parse = |t: &str| amount::parse_base(t).map_err(js_error);
    crate::staking::nft_cost(parse(price)?, parse(quantity)?)
        .map(|c| c.to_string())
        .map_err(|e| js_error(e.key()))
}
