//! A member's money history: every credit and payment — purchases, commissions, rank bonuses,
//! staking interest withdrawn, releases and claims paid — each with its transaction, valued in
//! USDT on its day, and as CSV (what members ask for their taxes).
//!
//! The USDT value of an LVLX amount is what the sale charged for it then: the sale's price in
//! force at the entry's time (the last `PriceChanged` at or before it; the deployment's
//! [`DEFAULT_PRICE`] before any), rounded half up to the USDT base unit. A purchase is valued
//! at what was paid for it. NFTs returned by a release have no USDT value here (no market
//! price is known); their purchase carries what was paid.

use serde::{Deserialize, Serialize};

use crate::amount::{self, Units};
use crate::chain::{AppliedEvent, DEFAULT_PRICE, LVLX_ONE};
use crate::staking::Pool;

/// What an entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = HistoryKind))]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The product bought from the sale (a ledger entry in the product).
    Purchase,
    /// A token other than the product moved out through the ledger (a "retirement",
    /// docs/product/money.md#ledger).
    Retirement,
    /// NFTs bought from the NFT sale.
    NftPurchase,
    /// The activation node bought (USDT paid).
    NodePurchase,
    /// A commission credited from a downline purchase.
    Commission,
    /// A rank's one-time bonus credited.
    Bonus,
    /// Staking interest withdrawn to the wallet.
    Interest,
    /// A position's principal returned to the wallet at its release.
    Release,
    /// Commissions and bonuses paid to the wallet by the distributor.
    Claim,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::Purchase,
        Kind::Retirement,
        Kind::NftPurchase,
        Kind::NodePurchase,
        Kind::Commission,
        Kind::Bonus,
        Kind::Interest,
        Kind::Release,
        Kind::Claim,
    ];

    /// The name in the CSV and the translation key's tail (`history-kind-<name>`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Purchase => "purchase",
            Kind::Retirement => "retirement",
            Kind::NftPurchase => "nft-purchase",
            Kind::NodePurchase => "node-purchase",
            Kind::Commission => "commission",
            Kind::Bonus => "bonus",
            Kind::Interest => "interest",
            Kind::Release => "release",
            Kind::Claim => "claim",
        }
    }
}

/// What the entry's amount counts: the product (LVLX), NFTs, or another ledger token.
pub const NFT_ASSET: &str = "NFT";

/// The applied events of a position that its owner's history shows: those
/// [`of_staking_event`] gives entries for (the store reads only these).
pub fn staking_events() -> Vec<AppliedEvent> {
    AppliedEvent::ALL
        .into_iter()
        .filter(|e| !of_staking_event(*e, 1, 1, Pool::Lvlx, "").is_empty())
        .collect()
}

/// What a position's applied event adds to its owner's history, as (kind, asset, amount):
/// interest withdrawn; at a release the principal back (LVLX, or NFTs from the NFT pool) and
/// the interest paid then. `amount` is the event's (the interest), `principal` the position's;
/// `product` names LVLX. A new applied event does not compile without its arm here.
pub fn of_staking_event(
    event: AppliedEvent,
    amount: Units,
    principal: Units,
    pool: Pool,
    product: &str,
) -> Vec<(Kind, String, Units)> {
    let mut out = Vec::new();
    match event {
        AppliedEvent::Released => {
            let asset = match pool {
                Pool::Nft => NFT_ASSET,
                Pool::Lvlx => product,
            };
            out.push((Kind::Release, asset.to_string(), principal));
        }
        AppliedEvent::Interest => {}
        AppliedEvent::Staked
        | AppliedEvent::Funded
        | AppliedEvent::Defunded
        | AppliedEvent::Terms
        | AppliedEvent::NftPurchased
        | AppliedEvent::Price => return out,
    }
    if amount > 0 {
        out.push((Kind::Interest, product.to_string(), amount));
    }
    out
}

/// One credit or payment as the server recorded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = HistoryItem))]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub kind: Kind,
    /// Milliseconds.
    pub at: i64,
    /// "LVLX" (the product), "NFT", or the ledger's token.
    pub asset: String,
    /// Base units of the asset (a count for NFTs).
    #[serde(with = "amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = amount::text::schema))]
    pub amount: Units,
    /// USDT paid for a purchase (base units).
    #[serde(
        default,
        with = "amount::opt_text",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", schema(schema_with = amount::opt_text::schema))]
    pub usdt_paid: Option<Units>,
    /// Null for what the server credited without a transaction of its own (a rank bonus).
    pub tx_hash: Option<String>,
    /// In a block not final yet.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub pending: bool,
}

/// A price of the sale from `at` (milliseconds) on: USDT base units per whole LVLX.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = SalePrice))]
pub struct Price {
    pub at: i64,
    #[serde(with = "amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = amount::text::schema))]
    pub price: Units,
}

/// An entry with its USDT value on its day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = HistoryEntry))]
#[serde(rename_all = "camelCase")]
pub struct Valued {
    #[serde(flatten)]
    pub entry: Entry,
    /// USDT base units; null when the asset has no price here.
    #[serde(default, with = "amount::opt_text")]
    #[cfg_attr(
        feature = "openapi",
        schema(schema_with = amount::opt_text::schema, required = true)
    )]
    pub usdt_value: Option<Units>,
}

/// `entries` as the store read them, up to `limit` of each kind, cut where the history stops
/// being whole: when a kind reached its limit, its older entries are missing, so every entry older
/// than its oldest one read goes too. Answers the rest and, if cut, the time it is whole from.
pub fn whole(mut entries: Vec<Entry>, limit: usize) -> (Vec<Entry>, Option<i64>) {
    let mut from = None;
    for kind in Kind::ALL {
        let times = entries.iter().filter(|e| e.kind == kind).map(|e| e.at);
        if times.clone().count() >= limit {
            from = from.max(times.min());
        }
    }
    if let Some(from) = from {
        entries.retain(|e| e.at >= from);
    }
    (entries, from)
}

/// `entries` newest first, each valued: purchases at what was paid, LVLX at the sale's price in
/// force then (`prices` in chain order: of two changes at one time the later wins), USDT as
/// itself, anything else unvalued.
pub fn value(mut entries: Vec<Entry>, product: &str, prices: &[Price]) -> Vec<Valued> {
    let mut prices = prices.to_vec();
    prices.sort_by_key(|p| p.at);
    entries.sort_by_key(|e| std::cmp::Reverse(e.at));
    entries
        .into_iter()
        .map(|entry| {
            let usdt_value = match (&entry.usdt_paid, entry.asset.as_str()) {
                (Some(paid), _) => Some(*paid),
                (None, "USDT") => Some(entry.amount),
                (None, asset) if asset == product => {
                    Some(usdt_of(entry.amount, price_at(&prices, entry.at)))
                }
                _ => None,
            };
            Valued { entry, usdt_value }
        })
        .collect()
}

/// The price in force at `at`: the last change at or before it (a change in the same second as
/// the entry counts: block times have seconds only), else the deployment's.
fn price_at(sorted: &[Price], at: i64) -> Units {
    match sorted.partition_point(|p| p.at <= at) {
        0 => DEFAULT_PRICE,
        n => sorted[n - 1].price,
    }
}

/// USDT base units `lvlx` base units are worth at `price`, rounded half up; saturating on
/// amounts no member holds (over 10^20 LVLX at a price of 10^12 USDT).
fn usdt_of(lvlx: Units, price: Units) -> Units {
    match lvlx.checked_mul(price) {
        Some(product) => product / LVLX_ONE + Units::from(product % LVLX_ONE >= LVLX_ONE / 2),
        None => Units::MAX,
    }
}

/// The history as CSV, one line an entry in the given order: the UTC time (ISO 8601), the
/// kind, the amount and its asset as exact decimals, the USDT value, the transaction and
/// whether it is final. Plain decimals with a point, as spreadsheets and tax tools read them:
/// the stable machine form ([`csv_in`] is the member's language).
pub fn csv(entries: &[Valued], product_decimals: u32) -> String {
    let header = [
        "date_utc",
        "type",
        "amount",
        "asset",
        "usdt_value",
        "tx_hash",
        "status",
    ];
    write_csv(entries, product_decimals, &header, None)
}

/// The words of the history's CSV in the member's language, as the page translates them.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CsvWords {
    /// The language the page is in (how dates and decimals are written).
    pub language: String,
    /// The seven column names, in [`csv`]'s order.
    pub header: [String; 7],
    /// Each kind's name by [`Kind::name`]; a kind left out keeps its machine name.
    pub kinds: std::collections::BTreeMap<String, String>,
    pub pending: String,
    #[serde(rename = "final")]
    pub final_: String,
}

/// The history as CSV in the member's language (the same columns and rows as [`csv`]): its
/// words, dates as the language writes them (UTC, to the minute), exact decimals with the
/// language's decimal mark and no grouping; where the mark is a comma (es, pt) the fields are
/// separated by semicolons, as spreadsheets set to those languages read them.
pub fn csv_in(entries: &[Valued], product_decimals: u32, words: &CsvWords) -> String {
    let header = words.header.each_ref().map(String::as_str);
    write_csv(entries, product_decimals, &header, Some(words))
}

fn write_csv(
    entries: &[Valued],
    product_decimals: u32,
    header: &[&str; 7],
    words: Option<&CsvWords>,
) -> String {
    let language = words.map(|w| w.language.as_str()).unwrap_or("en");
    let comma_decimals = amount::localize("0.5", language) == "0,5";
    let separator = if words.is_some() && comma_decimals {
        ';'
    } else {
        ','
    };
    let decimal = |plain: String| {
        if words.is_some() && comma_decimals {
            plain.replace('.', ",")
        } else {
            plain
        }
    };
    let mut out = String::new();
    let line = |out: &mut String, fields: &[&str]| {
        for (i, text) in fields.iter().enumerate() {
            if i > 0 {
                out.push(separator);
            }
            // Quoted where it holds the separator (a decimal comma only where commas separate),
            // and never a spreadsheet formula.
            crate::admin::csv_field_in(out, text, separator);
        }
        out.push('\n');
    };
    line(&mut out, header);
    for v in entries {
        let e = &v.entry;
        let decimals = match e.asset.as_str() {
            NFT_ASSET => 0,
            "USDT" => crate::USDT_DECIMALS,
            _ => product_decimals,
        };
        let time = chrono::DateTime::from_timestamp_millis(e.at);
        let date = match (time, words) {
            (Some(t), None) => t.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
            (Some(t), Some(w)) => {
                let day = t.format("%Y-%m-%d").to_string();
                let local = crate::date::format_local_day(&day, &w.language).unwrap_or(day);
                format!("{local} {}", t.format("%H:%M"))
            }
            (None, _) => String::new(),
        };
        let exact =
            |units, decimals| decimal(amount::format_units(units, decimals).unwrap_or_default());
        let kind = match words {
            Some(w) => w
                .kinds
                .get(e.kind.name())
                .map_or(e.kind.name(), String::as_str),
            None => e.kind.name(),
        };
        let status = match (words, e.pending) {
            (Some(w), true) => w.pending.as_str(),
            (Some(w), false) => w.final_.as_str(),
            (None, true) => "pending",
            (None, false) => "final",
        };
        let amount = exact(e.amount, decimals);
        let usdt = v
            .usdt_value
            .map(|u| exact(u, crate::USDT_DECIMALS))
            .unwrap_or_default();
        let tx = e.tx_hash.clone().unwrap_or_default();
        line(
            &mut out,
            &[&date, kind, &amount, &e.asset, &usdt, &tx, status],
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LVLX: Units = 1_000_000_000_000_000_000;
    const DAY: i64 = 86_400_000;

    fn entry(kind: Kind, at: i64, asset: &str, amount: Units) -> Entry {
        Entry {
            kind,
            at,
            asset: asset.into(),
            amount,
            usdt_paid: None,
            tx_hash: Some(format!("0x{:064x}", at)),
            pending: false,
        }
    }

    #[test]
    fn lvlx_is_valued_at_the_sale_price_of_its_day_and_a_purchase_at_what_was_paid() {
        let prices = [
            Price {
                at: 10 * DAY,
                price: 250_000,
            },
            Price {
                at: 5 * DAY,
                price: 120_000,
            },
        ];
        let mut bought = entry(Kind::Purchase, 6 * DAY, "LVLX", 100 * LVLX);
        bought.usdt_paid = Some(12_000_000);
        let valued = value(
            vec![
                entry(Kind::Commission, DAY, "LVLX", 3 * LVLX),
                bought,
                entry(Kind::Interest, 10 * DAY, "LVLX", LVLX / 3),
                entry(Kind::Bonus, 7 * DAY, "LVLX", 100 * LVLX),
                entry(Kind::Release, 11 * DAY, NFT_ASSET, 2),
                entry(Kind::Retirement, 12 * DAY, "USDT", 5_000_000),
            ],
            "LVLX",
            &prices,
        );
        let got: Vec<(Kind, Option<Units>)> = valued
            .iter()
            .map(|v| (v.entry.kind, v.usdt_value))
            .collect();
        assert_eq!(
            got,
            vec![
                (Kind::Retirement, Some(5_000_000)),
                (Kind::Release, None),
                // 1/3 LVLX at 0.25 USDT (the change takes effect at its own instant):
                // 83333.33… base units, rounded to 83333.
                (Kind::Interest, Some(83_333)),
                (Kind::Bonus, Some(12_000_000)),
                (Kind::Purchase, Some(12_000_000)),
                // Before any price change: the deployment's 0.1 USDT.
                (Kind::Commission, Some(300_000)),
            ]
        );
        // Half a base unit rounds up, less rounds down.
        assert_eq!(usdt_of(LVLX / 2, 1), 1);
        assert_eq!(usdt_of(LVLX / 2 - 1, 1), 0);
        assert_eq!(usdt_of(Units::MAX, 2), Units::MAX);
    }

    #[test]
    fn the_csv_has_exact_decimals_utc_times_and_every_entry() {
        let mut pending = entry(
            Kind::Claim,
            1_764_201_600_000,
            "LVLX",
            1_500_000_000_000_000_001,
        );
        pending.pending = true;
        let mut bonus = entry(Kind::Bonus, 1_764_115_200_000, "LVLX", 100 * LVLX);
        bonus.tx_hash = None;
        let nft = entry(Kind::Release, 1_764_028_800_000, NFT_ASSET, 3);
        let csv = csv(&value(vec![nft, bonus, pending], "LVLX", &[]), 18);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "date_utc,type,amount,asset,usdt_value,tx_hash,status"
        );
        assert_eq!(
            lines[1],
            format!(
                "2025-11-27T00:00:00Z,claim,1.500000000000000001,LVLX,0.15,0x{:064x},pending",
                1_764_201_600_000i64
            )
        );
        assert_eq!(lines[2], "2025-11-26T00:00:00Z,bonus,100,LVLX,10,,final");
        assert!(lines[3].starts_with("2025-11-25T00:00:00Z,release,3,NFT,,0x"));
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn the_members_csv_is_in_their_language_with_the_same_rows() {
        let mut pending = entry(
            Kind::Claim,
            1_764_201_600_000,
            "LVLX",
            1_500_000_000_000_000_001,
        );
        pending.pending = true;
        let nft = entry(Kind::NftPurchase, 1_764_028_800_000 + 90_000, NFT_ASSET, 3);
        let valued = value(vec![nft, pending], "LVLX", &[]);
        let words = |language: &str| CsvWords {
            language: language.into(),
            header: [
                "Fecha (UTC)",
                "Tipo",
                "Cantidad",
                "Activo",
                "Valor (USDT)",
                "Transacción",
                "Estado",
            ]
            .map(String::from),
            kinds: [
                ("claim", "Cobro"),
                ("nft-purchase", "Compra de NFT; tienda"),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .into(),
            pending: "Pendiente".into(),
            final_: "Final".into(),
        };
        let es = csv_in(&valued, 18, &words("es"));
        let lines: Vec<&str> = es.lines().collect();
        assert_eq!(
            lines[0],
            "Fecha (UTC);Tipo;Cantidad;Activo;Valor (USDT);Transacción;Estado"
        );
        assert_eq!(
            lines[1],
            format!(
                "27/11/2025 00:00;Cobro;1,500000000000000001;LVLX;0,15;0x{:064x};Pendiente",
                1_764_201_600_000i64
            )
        );
        // A separator inside a word is quoted.
        assert!(lines[2].starts_with("25/11/2025 00:01;\"Compra de NFT; tienda\";3;NFT;;0x"));
        assert_eq!(lines.len(), 3);
        let en = csv_in(&valued, 18, &words("en"));
        assert!(en
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("11/27/2025 00:00,Cobro,1.500000000000000001,LVLX,0.15,"));
        // The machine form is unchanged beside it.
        assert!(
            csv(&valued, 18).starts_with("date_utc,type,amount,asset,usdt_value,tx_hash,status\n")
        );
    }

    #[test]
    fn entries_read_back_as_the_server_wrote_them() {
        let mut bought = entry(Kind::Purchase, DAY, "LVLX", 7 * LVLX);
        bought.usdt_paid = Some(700_000);
        let valued = value(
            vec![bought, entry(Kind::Release, DAY, NFT_ASSET, 1)],
            "LVLX",
            &[],
        );
        let json = serde_json::to_value(&valued).unwrap();
        assert_eq!(json[0]["kind"], "purchase");
        assert_eq!(json[0]["usdtPaid"], "700000");
        assert_eq!(json[0]["usdtValue"], "700000");
        assert_eq!(json[1]["usdtValue"], serde_json::Value::Null);
        let back: Vec<Valued> = serde_json::from_value(json).unwrap();
        assert_eq!(back, valued);
    }

    #[test]
    fn a_kind_at_its_limit_cuts_the_history_where_it_stops_being_whole() {
        let entries = vec![
            entry(Kind::Commission, 9 * DAY, "LVLX", 1),
            entry(Kind::Commission, 8 * DAY, "LVLX", 1),
            entry(Kind::Purchase, 7 * DAY, "LVLX", 1),
            entry(Kind::Purchase, 2 * DAY, "LVLX", 1),
            entry(Kind::Bonus, DAY, "LVLX", 1),
        ];
        // Two commissions read, the limit: older ones may be missing, so everything before the
        // oldest of them goes.
        let (kept, from) = whole(entries.clone(), 2);
        assert_eq!(from, Some(8 * DAY));
        assert_eq!(kept.len(), 2);
        let (kept, from) = whole(entries, 3);
        assert_eq!((kept.len(), from), (5, None));
    }

    #[test]
    fn a_product_named_like_a_formula_or_with_a_comma_is_quoted() {
        let csv = csv(
            &value(
                vec![entry(Kind::Bonus, DAY, "=HYPERLINK(1,2)", 1)],
                "x",
                &[],
            ),
            0,
        );
        assert!(
            csv.lines()
                .nth(1)
                .unwrap()
                .contains(",\"'=HYPERLINK(1,2)\","),
            "{csv}"
        );
    }

    #[test]
    fn every_kind_has_its_name_once() {
        let mut names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        for k in Kind::ALL {
            let json = serde_json::to_value(k).unwrap();
            assert_eq!(json.as_str(), Some(k.name()));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Kind::ALL.len());
    }

    /// A position's events in the history: a release gives the principal back in its pool's
    /// asset and the interest paid then; interest withdrawn is interest; nothing else shows, and
    /// the store reads these two.
    #[test]
    fn a_positions_events_in_the_history() {
        let release = of_staking_event(AppliedEvent::Released, 3, 500, Pool::Nft, "LVLX");
        let expected = vec![
            (Kind::Release, NFT_ASSET.to_string(), 500),
            (Kind::Interest, "LVLX".to_string(), 3),
        ];
        assert_eq!(release, expected);
        let release = of_staking_event(AppliedEvent::Released, 0, LVLX, Pool::Lvlx, "LVLX");
        assert_eq!(release, vec![(Kind::Release, "LVLX".to_string(), LVLX)]);
        let interest = of_staking_event(AppliedEvent::Interest, 7, LVLX, Pool::Lvlx, "LVLX");
        assert_eq!(interest, vec![(Kind::Interest, "LVLX".to_string(), 7)]);
        let shown = [AppliedEvent::Interest, AppliedEvent::Released];
        assert_eq!(staking_events(), shown);
    }
}
