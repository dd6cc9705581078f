//! The admin users table (docs/product/admin.md#users-table; the admin user row and user
//! general summary of docs/product/api.md#statistics). Rows arrive in registration order.

use serde::Serialize;
use serde_json::Value;

use super::columns::Frame;
use super::declared::{self, Column, Kind};
use super::engine::{date_slice, sort_column, to_value, Engine, Table};
use super::ico::base;
use super::series::{per_period, Series};
use super::{needle, Direction, Kept, Query, TableError};
use crate::amount::{self, Units};
use crate::display::short_wallet;
use crate::kyc::KycStatus;

pub const CREATED_AT: &str = "createdAt";
pub const NAMES: &str = "names";
pub const EMAIL: &str = "email";
pub const WALLET: &str = "wallet";
pub const REFERRED: &str = "totalReferredMembers";
pub const LVLX: &str = "totalLVLX";
pub const USDT: &str = "totalUSDT";
pub const REWARDS: &str = "addRewards";
pub const RANK: &str = "rank";
pub const ID: &str = "id";
pub const KYC: &str = "kyc";
pub const STATUS: &str = "status";
/// The status of an account an admin blocked (`active` otherwise).
const BLOCKED: &str = "blocked";
const ACTIVE: &str = "active";

/// The table's columns as the page and the CSV show them (docs/product/admin.md#users-table).
pub const COLUMNS: &[Column] = &[
    Column::new("n", "table-n", Kind::Number),
    Column::new(NAMES, "users-name", Kind::Text).sorted(),
    Column::new(EMAIL, "table-email", Kind::Text).sorted(),
    Column::new(CREATED_AT, "users-registered", Kind::Date)
        .sorted()
        .spec(),
    Column::new(WALLET, "users-wallet", Kind::Wallet).sorted(),
    Column::new(REFERRED, "users-referred", Kind::Count)
        .sorted()
        .optional(),
    Column::new(LVLX, "users-product", Kind::Lvlx).sorted(),
    Column::new(USDT, "users-usdt", Kind::Usdt).sorted().spec(),
    Column::new(REWARDS, "users-add-rewards", Kind::Lvlx)
        .sorted()
        .spec(),
    Column::new(RANK, "users-rank", Kind::Text).sorted(),
    Column::new(KYC, "users-kyc", Kind::Text).sorted(),
    Column::new(STATUS, "users-account-status", Kind::Text)
        .sorted()
        .optional(),
];

/// One user as the server writes it into the stream. The store fills every field (a new one does
/// not compile there until it does); the test vectors and the fuzz target read it by name, a
/// field they do not name taking its default.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct User {
    pub created_at: i64,
    /// Names and lastnames.
    pub names: String,
    pub email: String,
    pub wallet: Option<String>,
    pub referred: u32,
    #[serde(with = "amount::text")]
    pub lvlx: Units,
    #[serde(with = "amount::text")]
    pub rewards: Units,
    pub rank: String,
    /// The account's id (what an admin's KYC change names).
    pub id: u32,
    pub kyc: KycStatus,
    /// Blocked by an admin: no sign-in, no session.
    pub blocked: bool,
}

/// The server's side: the rows stream in registration order.
#[cfg(not(target_arch = "wasm32"))]
pub fn encode<'a>(rows: impl IntoIterator<Item = &'a User>) -> Result<Vec<u8>, TableError> {
    use super::columns::write;
    use arrow_array::builder::{Decimal128Builder, Int64Builder, StringBuilder, UInt32Builder};
    use arrow_array::ArrayRef;
    use std::sync::Arc;

    let schema = write::schema(vec![
        write::time(CREATED_AT),
        write::text(NAMES, false),
        write::text(EMAIL, false),
        write::text(WALLET, true),
        write::count(REFERRED),
        write::amount(LVLX),
        write::amount(REWARDS),
        write::text(RANK, false),
        write::count(ID),
        write::text(KYC, false),
        write::text(STATUS, false),
    ]);
    let mut created = Int64Builder::new();
    let mut names = StringBuilder::new();
    let mut email = StringBuilder::new();
    let mut wallet = StringBuilder::new();
    let mut referred = UInt32Builder::new();
    let mut lvlx = Decimal128Builder::new().with_data_type(write::AMOUNT);
    let mut rewards = Decimal128Builder::new().with_data_type(write::AMOUNT);
    let mut rank = StringBuilder::new();
    let mut id = UInt32Builder::new();
    let mut kyc = StringBuilder::new();
    let mut status = StringBuilder::new();
    let units = |u: Units| i128::try_from(u).map_err(|_| TableError::Overflow);
    for row in rows {
        created.append_value(row.created_at);
        names.append_value(&row.names);
        email.append_value(&row.email);
        wallet.append_option(row.wallet.as_deref());
        referred.append_value(row.referred);
        lvlx.append_value(units(row.lvlx)?);
        rewards.append_value(units(row.rewards)?);
        rank.append_value(&row.rank);
        id.append_value(row.id);
        kyc.append_value(row.kyc.as_str());
        status.append_value(if row.blocked { BLOCKED } else { ACTIVE });
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(created.finish()),
        Arc::new(names.finish()),
        Arc::new(email.finish()),
        Arc::new(wallet.finish()),
        Arc::new(referred.finish()),
        Arc::new(lvlx.finish()),
        Arc::new(rewards.finish()),
        Arc::new(rank.finish()),
        Arc::new(id.finish()),
        Arc::new(kyc.finish()),
        Arc::new(status.finish()),
    ];
    write::encode(&write::batch(schema, columns)?)
}

/// The user general summary (docs/product/api.md#statistics), also the filtered box. LVLX amounts
/// are base units; the USDT ones their value ÷10 at two decimals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = UsersSummary))]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub total_users: u64,
    #[serde(rename = "totalUsersLVLX", with = "base")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub total_users_lvlx: Units,
    #[serde(rename = "totalUsersUSDT")]
    pub total_users_usdt: String,
    #[serde(with = "base")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub total_add_rewards: Units,
    #[serde(rename = "totalUSDTAddReward")]
    pub total_usdt_add_reward: String,
    pub total_users_with_wallet: u64,
    pub total_users_add_reward: u64,
    #[serde(rename = "totalLVLXWithAddReward", with = "base")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub total_lvlx_with_add_reward: Units,
    /// The spec's spelling.
    #[serde(rename = "totalUSTDWithAddReward")]
    pub total_usdt_with_add_reward: String,
}

/// Accumulates the summary one user at a time (the server does the same over the database).
#[derive(Debug, Default)]
pub struct SummaryBuilder {
    users: u64,
    with_wallet: u64,
    with_rewards: u64,
    lvlx: Units,
    rewards: Units,
}

impl SummaryBuilder {
    pub fn add(&mut self, has_wallet: bool, lvlx: Units, rewards: Units) -> Result<(), TableError> {
        self.users += 1;
        self.with_wallet += u64::from(has_wallet);
        self.with_rewards += u64::from(rewards > 0);
        self.lvlx = self.lvlx.checked_add(lvlx).ok_or(TableError::Overflow)?;
        self.rewards = self
            .rewards
            .checked_add(rewards)
            .ok_or(TableError::Overflow)?;
        Ok(())
    }

    pub fn finish(self) -> Result<Summary, TableError> {
        let both = self
            .lvlx
            .checked_add(self.rewards)
            .ok_or(TableError::Overflow)?;
        Ok(Summary {
            total_users: self.users,
            total_users_lvlx: self.lvlx,
            total_users_usdt: amount::lvlx_to_usdt(self.lvlx),
            total_add_rewards: self.rewards,
            total_usdt_add_reward: amount::lvlx_to_usdt(self.rewards),
            total_users_with_wallet: self.with_wallet,
            total_users_add_reward: self.with_rewards,
            total_lvlx_with_add_reward: both,
            total_usdt_with_add_reward: amount::lvlx_to_usdt(both),
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = UserRow))]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub n: usize,
    pub names: String,
    pub email: String,
    pub created_at: i64,
    pub wallet: String,
    pub wallet_short: String,
    pub total_referred_members: u32,
    #[serde(rename = "totalLVLX")]
    pub total_lvlx: String,
    #[serde(rename = "totalLVLXText")]
    pub total_lvlx_text: String,
    #[serde(rename = "totalUSDT")]
    pub total_usdt: String,
    pub add_rewards: String,
    pub add_rewards_text: String,
    pub rank: String,
    pub id: u32,
    pub kyc: String,
    /// `active` or `blocked`.
    pub status: String,
    pub blocked: bool,
}

impl Row {
    /// User `user` as the table shows it, numbered `n` (its place in registration order, from 1):
    /// the table's pages, and the server's newest rows that show before the table has loaded.
    pub fn of(n: usize, user: &User) -> Row {
        let wallet = user.wallet.clone().unwrap_or_default();
        Row {
            n,
            names: user.names.clone(),
            email: user.email.clone(),
            created_at: user.created_at,
            wallet_short: if wallet.is_empty() {
                String::new()
            } else {
                short_wallet(&wallet)
            },
            wallet,
            total_referred_members: user.referred,
            total_lvlx: user.lvlx.to_string(),
            total_lvlx_text: amount::format_lvlx(user.lvlx),
            total_usdt: amount::lvlx_to_usdt(user.lvlx),
            add_rewards: user.rewards.to_string(),
            add_rewards_text: amount::format_lvlx(user.rewards),
            rank: user.rank.clone(),
            id: user.id,
            kyc: user.kyc.as_str().to_string(),
            status: if user.blocked { BLOCKED } else { ACTIVE }.to_string(),
            blocked: user.blocked,
        }
    }
}

/// One period of the registrations chart.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Registrations {
    pub registrations: u64,
}

pub struct UserTable {
    frame: Frame,
    names_lower: Vec<String>,
    emails_lower: Vec<String>,
    kyc: Vec<KycStatus>,
    engine: Engine,
    summary: Summary,
}

impl UserTable {
    pub fn load(bytes: &[u8]) -> Result<UserTable, TableError> {
        let frame = Frame::decode(bytes)?;
        if frame.times(CREATED_AT)?.windows(2).any(|w| w[0] > w[1]) {
            return Err(TableError::Order);
        }
        frame.amounts(LVLX)?;
        frame.amounts(REWARDS)?;
        frame.counts(REFERRED)?;
        frame.texts(WALLET)?;
        frame.texts(RANK)?;
        frame.counts(ID)?;
        frame.texts(STATUS)?;
        let kyc = frame
            .texts(KYC)?
            .iter()
            .map(|t| KycStatus::parse(t).ok_or_else(|| TableError::Column(KYC.into())))
            .collect::<Result<Vec<_>, _>>()?;
        let lower = |name| -> Result<Vec<String>, TableError> {
            Ok(frame.texts(name)?.iter().map(str::to_lowercase).collect())
        };
        let (names_lower, emails_lower) = (lower(NAMES)?, lower(EMAIL)?);
        let mut table = UserTable {
            frame,
            names_lower,
            emails_lower,
            kyc,
            engine: Engine::default(),
            summary: Summary::default(),
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

    fn created(&self) -> &[i64] {
        self.frame.times(CREATED_AT).unwrap_or(&[])
    }

    pub fn range(&self, offset_minutes: i32, now_ms: i64) -> (String, String) {
        super::date_range(self.created(), offset_minutes, now_ms)
    }

    pub fn query(&mut self, query: &Query) -> Result<&Summary, TableError> {
        let (from, to) = date_slice(self.frame.times(CREATED_AT)?, query)?;
        let wallets = self.frame.texts(WALLET)?;
        let lvlx = self.frame.amounts(LVLX)?;
        let rewards = self.frame.amounts(REWARDS)?;
        let needle = needle(&query.search);
        let status = match query.kyc.as_deref() {
            None => None,
            Some(text) => {
                Some(KycStatus::parse(text).ok_or_else(|| TableError::Filter(text.into()))?)
            }
        };
        let mut kept = Vec::new();
        let mut summary = SummaryBuilder::default();
        for row in from..to {
            if status.is_some_and(|s| self.kyc[row] != s) {
                continue;
            }
            if let Some(needle) = &needle {
                if !self.names_lower[row].contains(needle.as_str())
                    && !self.emails_lower[row].contains(needle.as_str())
                {
                    continue;
                }
            }
            kept.push(row as u32);
            let has_wallet = !wallets.get(row).is_empty();
            summary.add(has_wallet, lvlx[row] as u128, rewards[row] as u128)?;
        }
        self.summary = summary.finish()?;
        self.engine.keep(Kept::Rows(kept));
        if let Some(sort) = &query.sort {
            self.sort(
                sort_column(sort, declared::sortable(COLUMNS))?,
                sort.direction,
            )?;
        }
        Ok(&self.summary)
    }

    fn sort(&mut self, column: &'static str, direction: Direction) -> Result<(), TableError> {
        if column == CREATED_AT {
            self.engine.by_date(direction);
            return Ok(());
        }
        // The USDT value is a tenth of the LVLX: the same order.
        let column = if column == USDT { LVLX } else { column };
        let rows = self.len();
        let frame = &self.frame;
        self.engine.sort_by(column, direction, rows, || {
            Ok(match column {
                REFERRED => {
                    let values = frame.counts(REFERRED)?;
                    super::permutation_by(rows, |r| values[r])
                }
                LVLX | REWARDS => {
                    let values = frame.amounts(column)?;
                    super::permutation_by_amount(rows, |r| values[r] as u128)
                }
                _ => {
                    let values = frame.texts(column)?;
                    let ranks = super::text_ranks((0..rows).map(|r| values.get(r)));
                    super::permutation_by(rows, |r| ranks[r])
                }
            })
        })
    }

    pub fn summary(&self) -> &Summary {
        &self.summary
    }

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

    /// Row `row`'s amounts in base units (the columns were checked at load).
    fn units(&self, row: usize) -> (Units, Units) {
        let amount = |name| self.frame.amounts(name).expect("checked at load")[row] as u128;
        (amount(LVLX), amount(REWARDS))
    }

    fn row(&self, n: usize, row: usize) -> Row {
        let frame = &self.frame;
        let text = |name| {
            frame
                .texts(name)
                .expect("checked at load")
                .get(row)
                .to_string()
        };
        let (lvlx, rewards) = self.units(row);
        let wallet = text(WALLET);
        Row::of(
            n,
            &User {
                created_at: self.created()[row],
                names: text(NAMES),
                email: text(EMAIL),
                wallet: (!wallet.is_empty()).then_some(wallet),
                referred: frame.counts(REFERRED).expect("checked at load")[row],
                lvlx,
                rewards,
                rank: text(RANK),
                id: frame.counts(ID).expect("checked at load")[row],
                kyc: self.kyc[row],
                blocked: text(STATUS) == BLOCKED,
            },
        )
    }

    /// Registrations per day of the kept rows, at the viewer's offset.
    /// The registrations chart: sign-ups per period of the kept rows.
    pub fn series(&self, offset_minutes: i32) -> Series<Registrations> {
        per_period(
            self.created(),
            self.engine.kept_rows(),
            offset_minutes,
            |period: &mut Registrations, _| period.registrations += 1,
        )
    }

    pub fn csv(&self) -> String {
        declared::csv(COLUMNS, self.engine.rows(), |n, row| {
            to_value(&self.row(n, row)).unwrap_or_default()
        })
    }
}

impl Table for UserTable {
    fn len(&self) -> usize {
        UserTable::len(self)
    }
    fn columns(&self) -> &'static [Column] {
        COLUMNS
    }
    fn range(&self, offset_minutes: i32, now_ms: i64) -> Option<(String, String)> {
        Some(UserTable::range(self, offset_minutes, now_ms))
    }
    fn query(&mut self, query: &Query) -> Result<Value, TableError> {
        let summary = to_value(UserTable::query(self, query)?)?;
        Ok(serde_json::json!({ "kept": self.kept(), "summary": summary }))
    }
    fn page(&self, from: usize, len: usize) -> Result<Value, TableError> {
        to_value(&UserTable::page(self, from, len))
    }
    fn series(&self, offset_minutes: i32) -> Result<Value, TableError> {
        to_value(&UserTable::series(self, offset_minutes))
    }
    fn csv(&self) -> String {
        UserTable::csv(self)
    }
}
