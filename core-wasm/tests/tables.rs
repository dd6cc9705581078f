//! Runs `testdata/tables.json` (expected answers from Python) against the admin table engine,
//! through the real Arrow writer (arrow-rs) and this crate's reader. The encoded streams are
//! left in CARGO_TARGET_TMPDIR so `web/test/core.test.mjs` runs the same cases on the wasm build.

use lvlx_core::admin::engine::Table;
use lvlx_core::admin::{ico, users, Query};
use serde_json::{json, Value};

fn vectors() -> Value {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/tables.json"))
            .expect("tables.json");
    serde_json::from_str(&text).expect("valid JSON")
}

fn units(v: &Value) -> u128 {
    v.as_str()
        .expect("amount string")
        .parse()
        .expect("base units")
}

fn keep(name: &str, bytes: &[u8]) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(dir.join(name), bytes).expect("write stream for the wasm tests");
}

fn ico_stream(rows: &Value) -> Vec<u8> {
    let rows: Vec<ico::Transaction> = serde_json::from_value(rows.clone()).expect("ledger rows");
    ico::encode(&rows).unwrap()
}

fn user_stream(rows: &Value) -> Vec<u8> {
    let rows: Vec<users::User> = serde_json::from_value(rows.clone()).expect("user rows");
    users::encode(&rows).unwrap()
}

#[test]
fn ico_vectors() {
    let v = vectors();
    let bytes = ico_stream(&v["ico"]["rows"]);
    keep("ico.arrow", &bytes);
    let mut table = ico::IcoTable::load(&bytes, "LVLX").unwrap();
    for case in v["ico"]["cases"].as_array().unwrap() {
        let query: Query = serde_json::from_value(case["query"].clone()).unwrap();
        let totals = table.query(&query).unwrap().to_json();
        let expect = &case["expect"];
        assert_eq!(totals, expect["totals"], "totals of {query:?}");
        assert_eq!(table.kept() as u64, expect["kept"].as_u64().unwrap());
        let page: Vec<Value> = table
            .page(0, 10)
            .into_iter()
            .map(|r| json!([r.n, r.created_at, r.email]))
            .collect();
        let want: Vec<Value> = expect["page"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let row = &v["ico"]["rows"][p[1].as_u64().unwrap() as usize];
                json!([p[0], row["createdAt"], row["email"]])
            })
            .collect();
        assert_eq!(page, want, "page of {query:?}");
    }
}

#[test]
fn user_vectors() {
    let v = vectors();
    let bytes = user_stream(&v["users"]["rows"]);
    keep("users.arrow", &bytes);
    let mut table = users::UserTable::load(&bytes).unwrap();
    for case in v["users"]["cases"].as_array().unwrap() {
        let query: Query = serde_json::from_value(case["query"].clone()).unwrap();
        let summary = serde_json::to_value(table.query(&query).unwrap()).unwrap();
        let expect = &case["expect"];
        assert_eq!(summary, expect["summary"], "summary of {query:?}");
        assert_eq!(table.kept() as u64, expect["kept"].as_u64().unwrap());
        let page: Vec<Value> = table
            .page(0, 10)
            .into_iter()
            .map(|r| json!([r.n, r.email]))
            .collect();
        let want: Vec<Value> = expect["page"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                json!([
                    p[0],
                    v["users"]["rows"][p[1].as_u64().unwrap() as usize]["email"]
                ])
            })
            .collect();
        assert_eq!(page, want, "page of {query:?}");
    }
}

#[test]
fn page_rows_carry_display_values() {
    let v = vectors();
    let table = users::UserTable::load(&user_stream(&v["users"]["rows"])).unwrap();
    let row = &table.page(1, 1)[0];
    let source = &v["users"]["rows"][1];
    assert_eq!(row.n, 2);
    assert_eq!(row.wallet, source["wallet"].as_str().unwrap_or(""));
    if !row.wallet.is_empty() {
        assert_eq!(
            row.wallet_short,
            format!("{}...{}", &row.wallet[..6], &row.wallet[38..])
        );
    }
    assert_eq!(
        row.total_usdt,
        lvlx_core::amount::lvlx_to_usdt(units(&source["lvlx"]))
    );
}

/// The users table's columns are declared once (`users::COLUMNS`): each is a field of the row
/// the page receives, and the CSV writes exactly those columns, amounts exact.
#[test]
fn the_users_columns_are_the_rows_fields_and_the_csvs() {
    let v = vectors();
    let table = users::UserTable::load(&user_stream(&v["users"]["rows"])).unwrap();
    let row = serde_json::to_value(&table.page(0, 1)[0]).unwrap();
    for column in users::COLUMNS {
        assert!(
            row.get(column.id).is_some(),
            "{} is not a row field",
            column.id
        );
    }
    let csv = table.csv();
    let mut lines = csv.lines();
    let ids: Vec<&str> = users::COLUMNS.iter().map(|c| c.id).collect();
    assert_eq!(lines.next().unwrap(), ids.join(","));
    assert_eq!(lines.count(), table.kept());
    let source = &v["users"]["rows"][0];
    let exact = lvlx_core::amount::format_units(units(&source["lvlx"]), 18).unwrap();
    assert!(csv.contains(&format!(",{exact},")), "{csv} lacks {exact}");
    assert_eq!(
        table.sortable(),
        users::COLUMNS
            .iter()
            .filter(|c| c.sort)
            .map(|c| c.id)
            .collect::<Vec<_>>()
    );
}

/// The ICO columns are declared once (`ico::COLUMNS`): each is a field of the row the page
/// receives, but the wallet and transaction the page asks for by the entry's id.
#[test]
fn the_ico_columns_are_the_rows_fields() {
    let v = vectors();
    let table = ico::IcoTable::load(&ico_stream(&v["ico"]["rows"]), "LVLX").unwrap();
    let row = serde_json::to_value(&table.page(0, 1)[0]).unwrap();
    for column in ico::COLUMNS {
        if !["wallet", "txHash"].contains(&column.id) {
            assert!(
                row.get(column.row_field()).is_some(),
                "{} is not a row field",
                column.id
            );
        }
    }
    let csv = table.csv();
    assert_eq!(csv.lines().count() - 1, table.kept());
}

/// Every declared column's label is a key of the translations (en is their source of truth;
/// the source test holds es and pt to its keys).
#[test]
fn every_declared_label_is_translated() {
    let en: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../locales/en/en.json"
        ))
        .expect("en.json"),
    )
    .expect("valid JSON");
    for (table, columns) in lvlx_core::admin::DECLARED {
        for column in *columns {
            assert!(
                en.get(column.label).is_some(),
                "{table}: {} has no translation {}",
                column.id,
                column.label
            );
        }
    }
}

#[test]
fn csv_has_exactly_the_kept_rows_with_exact_amounts() {
    let v = vectors();
    let mut table = ico::IcoTable::load(&ico_stream(&v["ico"]["rows"]), "LVLX").unwrap();
    let query: Query = serde_json::from_value(json!({"search": "correo"})).unwrap();
    table.query(&query).unwrap();
    let csv = table.csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "n,email,createdAt,operation,coin,amount,wallet,txHash,amountExact"
    );
    assert_eq!(lines.len() - 1, table.kept());
    assert!(lines[1..].iter().all(|l| l.contains("@correo.es,")));
    // 10^27 + 7 base units of LVLX = 1000000000.000000000000000007, not a rounded float.
    let big = v["ico"]["rows"].as_array().unwrap().iter().any(|r| {
        r["amount"] == "1000000000000000000000000007"
            && r["email"].as_str().unwrap().contains("correo")
    });
    assert!(
        big,
        "the vectors keep a 10^27 + 7 amount among the kept rows"
    );
    // As the table shows it, then every digit last; no wallet or transaction without trails.
    assert!(csv.contains(",1000000000.00,,,1000000000.000000000000000007\n"));
    // With them, each row gets its own, by the entry's id.
    let ids = table.kept_ids();
    assert_eq!(ids.len(), table.kept());
    let trails: ico::Trails = ids
        .iter()
        .map(|&id| (id, (format!("0x{id:040x}"), format!("0x{id:064x}"))))
        .collect();
    let with = table.csv_with(&trails);
    for (line, id) in with.lines().skip(1).zip(&ids) {
        assert!(
            line.contains(&format!(",0x{id:040x},0x{id:064x},")),
            "{line}"
        );
    }
}

#[test]
fn reader_refuses_what_it_cannot_read_exactly() {
    let v = vectors();
    let bytes = ico_stream(&v["ico"]["rows"]);
    // Truncated anywhere: an error, never a panic or a partial table.
    for cut in [0, 3, 8, 100, bytes.len() / 2, bytes.len() - 9] {
        assert!(
            ico::IcoTable::load(&bytes[..cut], "LVLX").is_err(),
            "cut at {cut}"
        );
    }
    // A users stream is not an ICO stream.
    let users = user_stream(&v["users"]["rows"]);
    assert!(ico::IcoTable::load(&users, "LVLX").is_err());
    // Rows out of date order are refused (N° numbering depends on it).
    // A field added to the row later takes its default here.
    #[allow(clippy::needless_update)]
    let row = |created_at: i64| ico::Transaction {
        created_at,
        email: "a@b.co".into(),
        token: "LVLX".into(),
        amount: 1,
        ..Default::default()
    };
    let mut rows = vec![row(2), row(1)];
    assert!(ico::IcoTable::load(&ico::encode(&rows).unwrap(), "LVLX").is_err());
    rows.reverse();
    let table = ico::IcoTable::load(&ico::encode(&rows).unwrap(), "LVLX").unwrap();
    assert_eq!(table.len(), 2);
    // An empty ledger loads, and its range is today.
    let empty = ico::IcoTable::load(&ico::encode(&[]).unwrap(), "LVLX").unwrap();
    assert_eq!(
        empty.range(0, 1_709_251_200_000),
        ("2024-03-01".into(), "2024-03-01".into())
    );
}

/// Found by the arrow_ipc fuzz target: a users stream whose record batch claims more rows than
/// its columns hold. It loaded, and the first query indexed past a column's end.
#[test]
fn a_batch_longer_than_its_columns_is_refused() {
    let bytes = include_bytes!("data/users-batch-longer-than-columns.arrow");
    let loaded = users::UserTable::load(bytes);
    assert!(
        matches!(loaded, Err(ref e) if e.to_string().contains("length")),
        "{:?}",
        loaded.err()
    );
}

/// The streams are LZ4-compressed: arrow-rs's own reader reads ours, and ours reads arrow-rs's
/// uncompressed writing of the same batch, with the same answers.
#[test]
fn compressed_and_plain_streams_read_the_same() {
    use arrow_ipc::reader::StreamReader;
    use arrow_ipc::writer::StreamWriter;

    let v = vectors();
    let compressed = user_stream(&v["users"]["rows"]);
    let batches: Vec<_> = StreamReader::try_new(&compressed[..], None)
        .expect("arrow-rs reads the compressed stream")
        .collect::<Result<_, _>>()
        .expect("its batches decode");
    let mut plain = Vec::new();
    {
        let mut writer = StreamWriter::try_new(&mut plain, &batches[0].schema()).unwrap();
        for batch in &batches {
            writer.write(batch).unwrap();
        }
        writer.finish().unwrap();
    }
    assert_ne!(plain, compressed);
    let mut a = users::UserTable::load(&compressed).unwrap();
    let mut b = users::UserTable::load(&plain).unwrap();
    assert_eq!(a.len(), b.len());
    for case in v["users"]["cases"].as_array().unwrap() {
        let query: Query = serde_json::from_value(case["query"].clone()).unwrap();
        let sa = serde_json::to_value(a.query(&query).unwrap()).unwrap();
        let sb = serde_json::to_value(b.query(&query).unwrap()).unwrap();
        assert_eq!(sa, sb, "{query:?}");
        let emails = |t: &users::UserTable| -> Vec<String> {
            t.page(0, 10).into_iter().map(|r| r.email).collect()
        };
        assert_eq!(emails(&a), emails(&b), "{query:?}");
    }
}

/// A compressed buffer claiming a huge uncompressed length is refused before anything that
/// size is allocated (the test aborts on allocation failure if it is not). Each compressed
/// buffer is its uncompressed length (i64) followed by an LZ4 frame (magic 04 22 4D 18): every
/// such length is tampered in turn, and each tampered stream must be refused.
#[test]
fn a_compressed_buffer_claiming_too_much_is_refused() {
    const LZ4_MAGIC: [u8; 4] = [0x04, 0x22, 0x4d, 0x18];
    let v = vectors();
    let bytes = user_stream(&v["users"]["rows"]);
    let lengths: Vec<usize> = (8..bytes.len().saturating_sub(4))
        .filter(|&at| bytes[at..at + 4] == LZ4_MAGIC)
        .map(|at| at - 8)
        .collect();
    assert!(lengths.len() >= 5, "the stream's buffers are compressed");
    for at in lengths {
        let mut tampered = bytes.clone();
        tampered[at..at + 8].copy_from_slice(&(1i64 << 40).to_le_bytes());
        assert!(
            users::UserTable::load(&tampered).is_err(),
            "a buffer claiming 1 TB at byte {at} is refused"
        );
    }
}

/// Streams written by pyarrow (testdata/pyarrow_streams.py): the ICO vectors in three batches,
/// each with its own, replacing dictionaries (larger after the first). They read as the same
/// table as arrow-rs's one-batch stream, plain and LZ4-compressed; a zstd stream is refused
/// cleanly. The reader kept the first dictionary: totals came out wrong, and a later, larger
/// dictionary's keys indexed past it (a panic).
#[test]
fn pyarrow_streams_with_replaced_dictionaries_read_as_the_same_table() {
    let v = vectors();
    let mut reference = ico::IcoTable::load(&ico_stream(&v["ico"]["rows"]), "LVLX").unwrap();
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    for name in ["plain", "lz4"] {
        let bytes = std::fs::read(format!("{data}/ico-pyarrow-{name}.arrow")).unwrap();
        let mut table = ico::IcoTable::load(&bytes, "LVLX").unwrap();
        assert_eq!(table.len(), reference.len(), "{name}");
        for case in v["ico"]["cases"].as_array().unwrap() {
            let query: Query = serde_json::from_value(case["query"].clone()).unwrap();
            let totals = table.query(&query).unwrap().to_json();
            assert_eq!(
                totals, case["expect"]["totals"],
                "{name}: totals of {query:?}"
            );
            assert_eq!(
                totals,
                reference.query(&query).unwrap().to_json(),
                "{name}: {query:?}"
            );
            let rows = |t: &ico::IcoTable| -> Vec<Value> {
                t.page(0, 50)
                    .into_iter()
                    .map(|r| json!([r.n, r.created_at, r.email]))
                    .collect()
            };
            assert_eq!(rows(&table), rows(&reference), "{name}: page of {query:?}");
        }
    }
    let zstd = std::fs::read(format!("{data}/ico-pyarrow-zstd.arrow")).unwrap();
    assert!(ico::IcoTable::load(&zstd, "LVLX").is_err());
}
