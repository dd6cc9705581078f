//! The admin ICO table (docs/product/admin.md#ico-table, docs/product/api.md#statistics): the
//! ledger of purchases (token = the product) and retirements (any other token), each amount in its
//! token's base units.

use serde::Serialize;

use super::columns::Frame;
use serde_json::Value;

use super::declared::{self, Column, Kind};
use super::engine::{date_slice, sort_column, to_value, Engine, Table};
use super::series::{per_period, Series};
use super::{needle, BitSet, Direction, Kept, Query, TableError};
use crate::amount::{self, Units};
use crate::{LVLX_DECIMALS, USDT_DECIMALS};

pub const CREATED_AT: &str = "createdAt";
pub const EMAIL: &str = "email";
pub const TOKEN: &str = "purchasedToken";
pub const AMOUNT: &str = "amount";
/// The server's id of the entry: the page asks for its wallet and transaction by it.
pub const ID: &str = "id";

/// The table's columns as the page and the CSV show them (docs/product/admin.md#ico-table). The
/// wallet and transaction are not in the rows stream: the page asks for them by the entry's id.
pub const COLUMNS: &[Column] = &[
    Column::new("n", "table-n", Kind::Number),
    Column::new(EMAIL, "table-email", Kind::Email).sorted(),
    Column::new(CREATED_AT, "ico-date", Kind::Date).sorted(),
    Column::new("operation", "ico-type", Kind::Text),
    Column::new(TOKEN, "ico-coin", Kind::Text)
        .sorted()
        .optional()
        .header("coin"),
    // As the table shows it: 2 decimals of its coin, rounded half up.
    Column::new(AMOUNT, "ico-amount-coin", Kind::Text)
        .sorted()
        .field("amountText"),
    Column::new("wallet", "users-wallet", Kind::Wallet).optional(),
    Column::new("txHash", "tx-hash", Kind::Tx).optional(),
    // Every digit: what reconciles with the chain.
    Column::new("amountExact", "ico-amount-exact", Kind::Text).optional(),
];

/// Decimals of a ledger token: USDT 6, the product (and MATIC) 18.
pub fn token_decimals(token: &str) -> u32 {
    if token.eq_ignore_ascii_case("USDT") {
        USDT_DECIMALS
    } else {
        LVLX_DECIMALS
    }
}

/// One ledger row (tests and small callers; the server fills [`Ledger`] directly). The test
/// vectors read it by name, a field they do not name taking its default.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Transaction {
    pub created_at: i64,
    pub email: String,
    pub token: String,
    #[serde(with = "amount::text")]
    pub amount: Units,
}

/// The ledger as the server writes it into the stream: rows in date order, emails and tokens
/// each stored once and referenced by key.
#[derive(Debug, Default)]
pub struct Ledger {
    pub id: Vec<u32>,
    pub created_at: Vec<i64>,
    pub email: Vec<u32>,
    pub emails: Vec<String>,
    pub token: Vec<u8>,
    pub tokens: Vec<String>,
    pub amount: Vec<Units>,
}

impl Ledger {
    /// Key of a token, adding it if new.
    pub fn token_key(&mut self, token: &str) -> Result<u8, TableError> {
        if let Some(i) = self.tokens.iter().position(|t| t == token) {
            return Ok(i as u8);
        }
        let key = u8::try_from(self.tokens.len()).map_err(|_| TableError::Overflow)?;
        self.tokens.push(token.to_string());
        Ok(key)
    }
}

/// Encodes rows given one by one (emails keyed as they come; ids 1, 2, 3 … in that order).
#[cfg(not(target_arch = "wasm32"))]
pub fn encode<'a>(rows: impl IntoIterator<Item = &'a Transaction>) -> Result<Vec<u8>, TableError> {
    let mut ledger = Ledger::default();
    let mut keys = std::collections::HashMap::new();
    for row in rows {
        let next = ledger.emails.len() as u32;
        let key = *keys.entry(row.email.clone()).or_insert(next);
        if key == next {
            ledger.emails.push(row.email.clone());
        }
        ledger.id.push(ledger.created_at.len() as u32 + 1);
        ledger.created_at.push(row.created_at);
        ledger.email.push(key);
        let token = ledger.token_key(&row.token)?;
        ledger.token.push(token);
        ledger.amount.push(row.amount);
    }
    encode_ledger(ledger)
}

/// The server's side: the rows stream in date order.
#[cfg(not(target_arch = "wasm32"))]
pub fn encode_ledger(ledger: Ledger) -> Result<Vec<u8>, TableError> {
    use super::columns::write::{self, keyed_text};
    use arrow_array::types::{UInt32Type, UInt8Type};
    use arrow_array::{
        ArrayRef, Decimal128Array, DictionaryArray, Int64Array, StringArray, UInt32Array,
        UInt8Array,
    };
    use arrow_schema::DataType;
    use std::sync::Arc;

    let arrow = |e: arrow_schema::ArrowError| TableError::Arrow(e.to_string());
    let schema = write::schema(vec![
        write::time(CREATED_AT),
        keyed_text(EMAIL, DataType::UInt32),
        keyed_text(TOKEN, DataType::UInt8),
        write::amount(AMOUNT),
        write::count(ID),
    ]);
    let amounts = ledger
        .amount
        .iter()
        .map(|&a| i128::try_from(a).map_err(|_| TableError::Overflow))
        .collect::<Result<Vec<i128>, _>>()?;
    let email = DictionaryArray::<UInt32Type>::try_new(
        UInt32Array::from(ledger.email),
        Arc::new(StringArray::from(ledger.emails)),
    )
    .map_err(arrow)?;
    let token = DictionaryArray::<UInt8Type>::try_new(
        UInt8Array::from(ledger.token),
        Arc::new(StringArray::from(ledger.tokens)),
    )
    .map_err(arrow)?;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from(ledger.created_at)),
        Arc::new(email),
        Arc::new(token),
        Arc::new(Decimal128Array::from(amounts).with_data_type(write::AMOUNT)),
        Arc::new(UInt32Array::from(ledger.id)),
    ];
    write::encode(&write::batch(schema, columns)?)
}

/// General statistics (docs/product/api.md#statistics) and, with `totalUsers`, the filtered
/// totals. Amounts are base-unit decimal strings except `totalUSDT` and `usdt`, which are the
/// USDT value of `totalLVLX` (÷10, two decimals, half up).
///
/// Meaning of the spec's names: `totalLVLX` = `LVLX` = LVLX bought; `totalLVLXTrasanctions` and
/// `totalUSDTTrasanctions` count the rows in each coin; `usdtRetired` sums retirements paid in
/// USDT (6 decimals).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = IcoTotals))]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    /// Only in a filtered query's totals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_users: Option<u64>,
    pub total_transactions: u64,
    pub total_buy_transactions: u64,
    pub total_withdraw_transactions: u64,
    #[serde(rename = "totalLVLXTrasanctions")]
    pub total_lvlx_transactions: u64,
    #[serde(rename = "totalUSDTTrasanctions")]
    pub total_usdt_transactions: u64,
    #[serde(rename = "totalLVLX", with = "base")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub total_lvlx: Units,
    #[serde(rename = "usdtRetired", with = "base")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub usdt_retired: Units,
}

impl Totals {
    /// Adds `count` rows of `token` worth `amount` in total.
    pub fn add(
        &mut self,
        product: &str,
        token: &str,
        count: u64,
        amount: Units,
    ) -> Result<(), TableError> {
        self.total_transactions += count;
        if token == product {
            self.total_buy_transactions += count;
            self.total_lvlx_transactions += count;
            self.total_lvlx = self
                .total_lvlx
                .checked_add(amount)
                .ok_or(TableError::Overflow)?;
        } else {
            self.total_withdraw_transactions += count;
            if token_decimals(token) == USDT_DECIMALS {
                self.total_usdt_transactions += count;
                self.usdt_retired = self
                    .usdt_retired
                    .checked_add(amount)
                    .ok_or(TableError::Overflow)?;
            }
        }
        Ok(())
    }

    /// The shape of docs/product/api.md#statistics, with the derived USDT values.
    pub fn shown(&self) -> Shown {
        let usdt = amount::lvlx_to_usdt(self.total_lvlx);
        Shown {
            totals: self.clone(),
            total_usdt: usdt.clone(),
            usdt,
            lvlx: self.total_lvlx,
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self.shown()).unwrap_or_default()
    }
}

/// [`Totals`] as docs/product/api.md#statistics names them: `totalUSDT` and `usdt` are the USDT
/// value of `totalLVLX`, `LVLX` repeats it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = IcoGeneral))]
#[serde(rename_all = "camelCase")]
pub struct Shown {
    #[serde(flatten)]
    pub totals: Totals,
    #[serde(rename = "totalUSDT")]
    pub total_usdt: String,
    pub usdt: String,
    #[serde(rename = "LVLX", with = "base")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub lvlx: Units,
}

pub(crate) mod base {
    use serde::Serializer;
    pub fn serialize<S: Serializer>(units: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(units)
    }
}

/// One displayed row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = IcoRow))]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub n: usize,
    /// The server's id of the entry.
    pub id: u32,
    pub email: String,
    pub created_at: i64,
    pub purchase: bool,
    /// `purchase` or `retirement` (a cash-out), as the CSV writes it.
    pub operation: String,
    pub purchased_token: String,
    /// Base units.
    pub amount: String,
    /// Two decimals, rounded half up.
    pub amount_text: String,
    /// Every decimal of its coin.
    pub amount_exact: String,
}

impl Row {
    /// Entry `id` as the table shows it, numbered `n` (its place in date order, from 1), where
    /// `product` is the coin bought: the table's pages, and the server's oldest entries that show
    /// before the table has loaded.
    pub fn of(n: usize, id: u32, entry: &Transaction, product: &str) -> Row {
        Row {
            n,
            id,
            email: entry.email.clone(),
            created_at: entry.created_at,
            purchase: entry.token == product,
            operation: if entry.token == product {
                "purchase"
            } else {
                "retirement"
            }
            .to_string(),
            purchased_token: entry.token.clone(),
            amount: entry.amount.to_string(),
            amount_text: amount::format_token(entry.amount, &entry.token),
            amount_exact: amount::format_units(entry.amount, token_decimals(&entry.token))
                .expect("6 or 18 decimals"),
        }
    }
}

/// One period of the purchases chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Purchases {
    pub purchases: u64,
    /// LVLX bought in the period, base units.
    pub lvlx: String,
    /// Its USDT value.
    pub usdt: String,
}

/// The ICO ledger in columns, and the answer to the current query.
pub struct IcoTable {
    frame: Frame,
    product: String,
    /// Per email key: lowercased email, for search.
    emails_lower: Vec<String>,
    engine: Engine,
    totals: Totals,
    /// Ready-made answers for a date range alone (`None` if a token's whole sum overflows:
    /// then every query scans, and refuses a range whose sum overflows).
    ranges: Option<RangeIndex>,
}

/// Rows per block of [`RangeIndex`]'s running sums.
const BLOCK: usize = 2048;

/// What a date range alone needs, made once at load, so that such a query reads one column
/// instead of three and sums nothing row by row:
/// - per block of [`BLOCK`] rows, each token's rows and amount sum before the block (a range's
///   sums are the difference of two running sums, each finished within its block);
/// - per row, the row before it with the same email, plus one (0 = none): the range's distinct
///   users are its rows whose previous row by the same email lies before the range.
struct RangeIndex {
    /// `[block][token]`, flattened.
    before: Vec<(u64, u128)>,
    tokens: usize,
    previous: Vec<u32>,
}

impl RangeIndex {
    fn build(
        email_keys: &[u32],
        token_keys: &[u32],
        amounts: &[i128],
        tokens: usize,
        emails: usize,
    ) -> Option<RangeIndex> {
        let mut running = vec![(0u64, 0u128); tokens];
        let mut before = Vec::with_capacity(email_keys.len().div_ceil(BLOCK) * tokens + tokens);
        let mut last = vec![0u32; emails];
        let mut previous = Vec::with_capacity(email_keys.len());
        for (row, (&email, (&token, &amount))) in email_keys
            .iter()
            .zip(token_keys.iter().zip(amounts))
            .enumerate()
        {
            if row % BLOCK == 0 {
                before.extend_from_slice(&running);
            }
            let slot = &mut running[token as usize];
            slot.0 += 1;
            slot.1 = slot.1.checked_add(amount as u128)?;
            let last = &mut last[email as usize];
            previous.push(*last);
            *last = u32::try_from(row + 1).ok()?;
        }
        // The sums before a block that would start at the end (a range ending there).
        if email_keys.len().is_multiple_of(BLOCK) {
            before.extend_from_slice(&running);
        }
        Some(RangeIndex {
            before,
            tokens,
            previous,
        })
    }

    /// Each token's rows and sum in `from..to`.
    fn sums(
        &self,
        from: usize,
        to: usize,
        token_keys: &[u32],
        amounts: &[i128],
    ) -> Vec<(u64, u128)> {
        let at = |end: usize| {
            let block = end / BLOCK;
            let mut sums = self.before[block * self.tokens..(block + 1) * self.tokens].to_vec();
            for row in block * BLOCK..end {
                let slot = &mut sums[token_keys[row] as usize];
                slot.0 += 1;
                // Never overflows: the whole column's sum did not.
                slot.1 += amounts[row] as u128;
            }
            sums
        };
        let (low, high) = (at(from), at(to));
        high.iter()
            .zip(low)
            .map(|(h, l)| (h.0 - l.0, h.1 - l.1))
            .collect()
    }

    /// Distinct emails in `from..to`.
    fn users(&self, from: usize, to: usize) -> u64 {
        let first = from as u32;
        self.previous[from..to]
            .iter()
            .map(|&p| u64::from(p <= first))
            .sum()
    }
}

impl IcoTable {
    pub fn load(bytes: &[u8], product: &str) -> Result<IcoTable, TableError> {
        let frame = Frame::decode(bytes)?;
        let created = frame.times(CREATED_AT)?;
        if created.windows(2).any(|w| w[0] > w[1]) {
            return Err(TableError::Order);
        }
        frame.amounts(AMOUNT)?;
        frame.counts(ID)?;
        frame.keyed(TOKEN)?;
        let (email_keys, emails) = frame.keyed(EMAIL)?;
        let emails_lower: Vec<String> = emails.iter().map(str::to_lowercase).collect();
        let (token_keys, tokens) = frame.keyed(TOKEN)?;
        let ranges = RangeIndex::build(
            email_keys,
            token_keys,
            frame.amounts(AMOUNT)?,
            tokens.len(),
            emails_lower.len(),
        );
        let mut table = IcoTable {
            frame,
            product: product.to_string(),
            emails_lower,
            engine: Engine::default(),
            totals: Totals::default(),
            ranges,
        };
        table.query(&Query::default())?;
        Ok(table)
    }

    pub fn len(&self) -> usize {
        self.frame.rows()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// First and last operation dates at the viewer's offset; today when there are none
    /// (statistics-ico, docs/product/api.md#calls).
    pub fn range(&self, offset_minutes: i32, now_ms: i64) -> (String, String) {
        super::date_range(self.created(), offset_minutes, now_ms)
    }

    fn created(&self) -> &[i64] {
        self.frame.times(CREATED_AT).unwrap_or(&[])
    }

    /// Applies a query: keeps the rows in range that match the search, sums them, sorts them.
    #[allow(clippy::needless_range_loop)] // rows index four columns at once
    pub fn query(&mut self, query: &Query) -> Result<&Totals, TableError> {
        let (from, to) = date_slice(self.frame.times(CREATED_AT)?, query)?;
        let (email_keys, _) = self.frame.keyed(EMAIL)?;
        let (token_keys, tokens) = self.frame.keyed(TOKEN)?;
        let amounts = self.frame.amounts(AMOUNT)?;

        let matching: Option<BitSet> = needle(&query.search).map(|needle| {
            let mut set = BitSet::new(self.emails_lower.len());
            for (key, email) in self.emails_lower.iter().enumerate() {
                if email.contains(&needle) {
                    set.insert(key);
                }
            }
            set
        });
        let mut users = BitSet::new(self.emails_lower.len());
        let mut user_count = 0u64;
        // Per token key: rows and amount sum.
        let mut per_token = vec![(0u64, 0u128); tokens.len()];
        let mut overflow = false;
        // Without the index (a sum that overflows), the two scans are kept apart (not one
        // closure) so the date-only one stays a tight slice scan: 10^6 rows in about 2 ms in the
        // browser; the index answers it in about 0.25 ms.
        let kept = match (&matching, &self.ranges) {
            // A date range alone, from the index made at load.
            (None, Some(ranges)) => {
                user_count = ranges.users(from, to);
                per_token = ranges.sums(from, to, token_keys, amounts);
                Kept::Range(from as u32, to as u32)
            }
            // A date range alone: one contiguous slice, summed without a row list.
            (None, None) => {
                for row in from..to {
                    user_count += u64::from(users.insert(email_keys[row] as usize));
                    let slot = &mut per_token[token_keys[row] as usize];
                    slot.0 += 1;
                    let (sum, over) = slot.1.overflowing_add(amounts[row] as u128);
                    slot.1 = sum;
                    overflow |= over;
                }
                Kept::Range(from as u32, to as u32)
            }
            (Some(set), _) => {
                let mut kept = Vec::new();
                for row in from..to {
                    let key = email_keys[row] as usize;
                    if !set.contains(key) {
                        continue;
                    }
                    kept.push(row as u32);
                    user_count += u64::from(users.insert(key));
                    let slot = &mut per_token[token_keys[row] as usize];
                    slot.0 += 1;
                    let (sum, over) = slot.1.overflowing_add(amounts[row] as u128);
                    slot.1 = sum;
                    overflow |= over;
                }
                Kept::Rows(kept)
            }
        };
        if overflow {
            return Err(TableError::Overflow);
        }
        let mut totals = Totals {
            total_users: Some(user_count),
            ..Totals::default()
        };
        for (key, &(count, sum)) in per_token.iter().enumerate() {
            if count > 0 {
                totals.add(&self.product, tokens.get(key), count, sum)?;
            }
        }
        self.totals = totals;
        self.engine.keep(kept);
        if let Some(sort) = &query.sort {
            self.sort(
                sort_column(sort, declared::sortable(COLUMNS))?,
                sort.direction,
            )?;
        }
        Ok(&self.totals)
    }

    fn sort(&mut self, column: &'static str, direction: Direction) -> Result<(), TableError> {
        if column == CREATED_AT {
            self.engine.by_date(direction);
            return Ok(());
        }
        let rows = self.frame.rows();
        let frame = &self.frame;
        self.engine.sort_by(column, direction, rows, || {
            Ok(match column {
                EMAIL | TOKEN => {
                    let (keys, values) = frame.keyed(column)?;
                    let ranks = super::text_ranks(values.iter());
                    super::permutation_by(rows, |r| ranks[keys[r] as usize])
                }
                _ => {
                    // Compare values, not base units: USDT has 12 fewer decimals than LVLX.
                    let (keys, values) = frame.keyed(TOKEN)?;
                    let scale: Vec<u128> = values
                        .iter()
                        .map(|t| 10u128.pow(LVLX_DECIMALS - token_decimals(t)))
                        .collect();
                    let amounts = frame.amounts(AMOUNT)?;
                    super::permutation_by_amount(rows, |r| {
                        (amounts[r] as u128).saturating_mul(scale[keys[r] as usize])
                    })
                }
            })
        })
    }

    pub fn totals(&self) -> &Totals {
        &self.totals
    }

    /// Rows kept by the last query.
    pub fn kept(&self) -> usize {
        self.engine.kept()
    }

    pub fn page(&self, from: usize, len: usize) -> Vec<Row> {
        self.engine
            .page(from, len)
            .into_iter()
            .map(|(n, row)| self.row(n, row as usize))
            .collect()
    }

    fn row(&self, n: usize, row: usize) -> Row {
        let (email_keys, emails) = self.frame.keyed(EMAIL).expect("checked at load");
        let (token_keys, tokens) = self.frame.keyed(TOKEN).expect("checked at load");
        let entry = Transaction {
            created_at: self.created()[row],
            email: emails.get(email_keys[row] as usize).to_string(),
            token: tokens.get(token_keys[row] as usize).to_string(),
            amount: self.frame.amounts(AMOUNT).expect("checked at load")[row] as u128,
        };
        let id = self.frame.counts(ID).expect("checked at load")[row];
        Row::of(n, id, &entry, &self.product)
    }

    /// The purchases chart: purchases, LVLX and its USDT value per period of the kept rows.
    pub fn series(&self, offset_minutes: i32) -> Series<Purchases> {
        let (token_keys, tokens) = self.frame.keyed(TOKEN).expect("checked at load");
        let amounts = self.frame.amounts(AMOUNT).expect("checked at load");
        let purchase: Vec<bool> = tokens.iter().map(|t| t == self.product).collect();
        per_period(
            self.created(),
            self.engine.kept_rows(),
            offset_minutes,
            |period: &mut (u64, Units), row| {
                if purchase[token_keys[row] as usize] {
                    period.0 += 1;
                    period.1 = period.1.saturating_add(amounts[row] as u128);
                }
            },
        )
        .map(|(purchases, lvlx)| Purchases {
            purchases,
            lvlx: lvlx.to_string(),
            usdt: amount::lvlx_to_usdt(lvlx),
        })
    }

    /// The server's ids of the kept rows in display order: what the page asks the wallets and
    /// transactions of for [`IcoTable::csv_with`] (the rows stream leaves them out).
    pub fn kept_ids(&self) -> Vec<u32> {
        let ids = self.frame.counts(ID).expect("checked at load");
        self.engine
            .rows()
            .map(|(_, row)| ids[row as usize])
            .collect()
    }

    /// The kept rows in display order as CSV, without wallets and transactions ([`Self::csv_with`]).
    pub fn csv(&self) -> String {
        self.csv_with(&Trails::new())
    }

    /// The kept rows in display order as CSV with the table's columns ([`COLUMNS`]), the
    /// wallets and transactions from `trails` by the row's id (empty when not given).
    pub fn csv_with(&self, trails: &Trails) -> String {
        declared::csv(COLUMNS, self.engine.rows(), |n, row| {
            let shown = self.row(n, row);
            let trail = trails.get(&shown.id);
            let mut value = to_value(&shown).unwrap_or_default();
            value["wallet"] = trail.map(|(wallet, _)| wallet.as_str()).into();
            value["txHash"] = trail.map(|(_, tx)| tx.as_str()).into();
            value
        })
    }
}

/// Wallet and transaction by the ledger entry's id, as the server answers them.
pub type Trails = std::collections::HashMap<u32, (String, String)>;

impl Table for IcoTable {
    fn len(&self) -> usize {
        IcoTable::len(self)
    }
    fn columns(&self) -> &'static [Column] {
        COLUMNS
    }
    fn range(&self, offset_minutes: i32, now_ms: i64) -> Option<(String, String)> {
        Some(IcoTable::range(self, offset_minutes, now_ms))
    }
    fn query(&mut self, query: &Query) -> Result<Value, TableError> {
        let totals = IcoTable::query(self, query)?.to_json();
        Ok(serde_json::json!({ "kept": self.kept(), "totals": totals }))
    }
    fn page(&self, from: usize, len: usize) -> Result<Value, TableError> {
        to_value(&IcoTable::page(self, from, len))
    }
    fn series(&self, offset_minutes: i32) -> Result<Value, TableError> {
        to_value(&IcoTable::series(self, offset_minutes))
    }
    fn csv(&self) -> String {
        IcoTable::csv(self)
    }
    fn ids(&self) -> Vec<u32> {
        IcoTable::kept_ids(self)
    }
    fn csv_with(&self, trails: &Trails) -> String {
        IcoTable::csv_with(self, trails)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CSV, every byte: N°, email, date, operation, coin, the amount as shown, wallet and
    /// transaction (from the trails), the amount exact; in the display order.
    #[test]
    fn the_csv_keeps_its_columns() {
        let rows = [
            Transaction {
                created_at: 0,
                email: "=x@b.co".into(),
                token: "LVLX".into(),
                amount: 1_005_000_000_000_000_007,
            },
            Transaction {
                created_at: 86_400_000,
                email: "a@b.co".into(),
                token: "USDT".into(),
                amount: 2_345_678,
            },
        ];
        let mut table = IcoTable::load(&encode(&rows).unwrap(), "LVLX").unwrap();
        table
            .query(&Query {
                sort: Some(super::super::Sort {
                    column: AMOUNT.into(),
                    direction: Direction::Desc,
                }),
                ..Query::default()
            })
            .unwrap();
        let trails: Trails = [(2, ("0xab".to_string(), "0xcd".to_string()))].into();
        assert_eq!(
            table.csv_with(&trails),
            "n,email,createdAt,operation,coin,amount,wallet,txHash,amountExact\n\
             2,a@b.co,1970-01-02T00:00:00.000Z,retirement,USDT,2.35,0xab,0xcd,2.345678\n\
             1,\"'=x@b.co\",1970-01-01T00:00:00.000Z,purchase,LVLX,1.01,,,1.005000000000000007\n"
        );
    }

    /// The index a date range alone is answered from gives what scanning every row gives (a
    /// search matching every email scans): ranges inside one block, across many, at the ends.
    #[test]
    fn a_date_range_from_the_index_equals_the_scan() {
        // Blocks and a part of one; whole blocks only (a range may end where a block would start).
        for rows in [3 * BLOCK + 517, 2 * BLOCK] {
            index_equals_scan(rows);
        }
    }

    fn index_equals_scan(len: usize) {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let day = 86_400_000i64;
        let mut created_at = 1_700_000_000_000i64;
        let rows: Vec<Transaction> = (0..len)
            .map(|_| {
                created_at += next(3) as i64 * day / 4;
                let token = ["LVLX", "USDT", "MATIC"][next(3) as usize];
                Transaction {
                    created_at,
                    email: format!("user{}@example.com", next(300)),
                    token: token.to_string(),
                    amount: u128::from(next(u64::MAX)) * u128::from(next(1 << 20)),
                }
            })
            .collect();
        let mut table = IcoTable::load(&encode(&rows).unwrap(), "LVLX").unwrap();
        assert!(table.ranges.is_some());
        let first = rows[0].created_at;
        let last = rows.last().unwrap().created_at;
        let date = |ms: i64| super::super::iso(ms)[..10].to_string();
        let mut cases = vec![(first, last), (first, first), (last, last)];
        for _ in 0..60 {
            let a = first + next((last - first) as u64) as i64;
            let b = first + next((last - first) as u64) as i64;
            cases.push((a.min(b), a.max(b)));
        }
        for (start, end) in cases {
            let range = Query {
                start: Some(date(start)),
                end: Some(date(end)),
                ..Query::default()
            };
            let every = Query {
                search: "@".into(),
                ..range.clone()
            };
            let indexed = table.query(&range).unwrap().clone();
            let kept = table.kept();
            let scanned = table.query(&every).unwrap().clone();
            assert_eq!(indexed, scanned, "{} .. {}", date(start), date(end));
            assert_eq!(kept, table.kept());
            assert!(indexed.total_transactions > 0);
        }
    }
}
