//! An audit nobody can quietly edit: every admin change is chained to the one before
//! it by hash in the same transaction, and `lvlx audit verify` (store::audit::verify) names the
//! first row edited, removed or inserted by hand in the database file, its triggers dropped.

use crate::common;

use lvlx_backend::store::audit::{self, Broken};
use lvlx_backend::store::{backup, users, Store};
use rusqlite::Connection;

/// A copy of the database at `data` (a backup restored into `name`), changed by `tamper` as
/// someone holding the file would, then opened as the server would.
async fn tampered(
    dir: &std::path::Path,
    data: &std::path::Path,
    name: &str,
    tamper: &str,
) -> audit::Verdict {
    let file = dir.join(format!("{name}.sqlite3"));
    backup::backup(data, &file).unwrap();
    let copy = dir.join(name);
    backup::restore(&file, &copy).unwrap();
    let conn = Connection::open(copy.join("lvlx.sqlite3")).unwrap();
    conn.execute_batch(&format!(
        "DROP TRIGGER admin_audit_no_update; DROP TRIGGER admin_audit_no_delete;
         DROP TRIGGER audit_chain_no_update; DROP TRIGGER audit_chain_no_delete; {tamper}"
    ))
    .unwrap();
    drop(conn);
    let store = Store::open(&copy).unwrap();
    store.read(audit::verify).await.unwrap()
}

#[tokio::test]
async fn verify_names_each_row_edited_removed_or_inserted_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let store = Store::open(&data).unwrap();
    lvlx_backend::cli::accounts::demo(&store).await.unwrap();
    let admin = store
        .read(|c| users::by_email(c, "admin@lvlx.local"))
        .await
        .unwrap()
        .unwrap()
        .id;
    for n in 1..=5_i64 {
        store
            .write(move |c| {
                c.transaction(|tx| {
                    audit::append(
                        tx,
                        "rank",
                        Some(n),
                        admin,
                        1_700_000_000_000 + n,
                        (n > 1).then(|| serde_json::json!({"bonus": n - 1})),
                        &serde_json::json!({"bonus": n, "note": "a \"quoted\" text, with commas"}),
                    )
                })
            })
            .await
            .unwrap();
    }
    let clean = store.read(audit::verify).await.unwrap();
    // The five, and the demo admin's creation before them.
    assert_eq!((clean.rows, clean.broken.clone()), (6, None));
    let head = clean.head.clone().unwrap();
    let ids: Vec<i64> = store
        .read(|c| {
            c.query_all(
                "SELECT id FROM admin_audit ORDER BY id",
                lvlx_backend::args![],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    let third = ids[3];
    let newest = *ids.last().unwrap();
    let d = dir.path();

    let edited = tampered(
        d,
        &data,
        "edited",
        &format!("UPDATE admin_audit SET after = '{{\"bonus\":1000}}' WHERE id = {third}"),
    )
    .await;
    assert_eq!(edited.broken, Some(Broken::Changed { id: third }));

    let who = tampered(
        d,
        &data,
        "who",
        &format!("UPDATE admin_audit SET admin_id = admin_id + 1 WHERE id = {third}"),
    )
    .await;
    assert_eq!(
        who.broken,
        Some(Broken::Changed { id: third }),
        "who did it is chained too"
    );

    let removed = tampered(
        d,
        &data,
        "removed",
        &format!("DELETE FROM admin_audit WHERE id = {third}"),
    )
    .await;
    assert_eq!(removed.broken, Some(Broken::Removed { id: third }));

    let removed_with_link = tampered(d, &data, "removed-with-link", &format!(
        "DELETE FROM admin_audit WHERE id = {third}; DELETE FROM audit_chain WHERE audit_id = {third}"
    ))
    .await;
    assert_eq!(
        removed_with_link.broken,
        Some(Broken::Removed { id: third })
    );

    let last_removed = tampered(
        d,
        &data,
        "last-removed",
        &format!(
            "DELETE FROM admin_audit WHERE id = {newest}; DELETE FROM audit_chain WHERE audit_id = {newest}"
        ),
    )
    .await;
    // The newest row and its link gone leave a shorter chain that holds: only the head
    // recorded elsewhere tells (the server logs it at every start).
    assert_eq!(last_removed.broken, None);
    assert_ne!(last_removed.head.as_deref(), Some(head.as_str()));

    let inserted = tampered(
        d,
        &data,
        "inserted",
        &format!(
            "INSERT INTO admin_audit (subject, item, admin_id, at, before, after)
         VALUES ('kyc', 1, {}, 1700000000009, NULL, '{{\"status\":\"approved\"}}')",
            admin.0
        ),
    )
    .await;
    assert_eq!(inserted.broken, Some(Broken::Inserted { id: newest + 1 }));

    // A row inserted by hand stays named after honest appends and restarts: neither adopts it.
    let adopted = {
        let file = d.join("adopted.sqlite3");
        backup::backup(&data, &file).unwrap();
        let copy = d.join("adopted");
        backup::restore(&file, &copy).unwrap();
        let conn = Connection::open(copy.join("lvlx.sqlite3")).unwrap();
        conn.execute_batch(&format!(
            "DROP TRIGGER admin_audit_no_update; DROP TRIGGER admin_audit_no_delete;
             INSERT INTO admin_audit (subject, item, admin_id, at, before, after)
             VALUES ('kyc', 1, {}, 1700000000009, NULL, '{{}}')",
            admin.0
        ))
        .unwrap();
        drop(conn);
        let copied = Store::open(&copy).unwrap();
        copied
            .write(move |c| {
                audit::seal(c)?;
                audit::append(
                    c,
                    "rank",
                    Some(9),
                    admin,
                    1_700_000_000_010,
                    None,
                    &serde_json::json!({}),
                )
            })
            .await
            .unwrap();
        copied.read(audit::verify).await.unwrap()
    };
    assert_eq!(adopted.broken, Some(Broken::Inserted { id: newest + 1 }));

    // Rewriting a row's link to match its new content breaks the next one.
    let relinked = {
        let file = d.join("relinked.sqlite3");
        backup::backup(&data, &file).unwrap();
        let copy = d.join("relinked");
        backup::restore(&file, &copy).unwrap();
        let copied = Store::open(&copy).unwrap();
        copied
            .write(move |c| {
                c.batch("DROP TRIGGER admin_audit_no_update; DROP TRIGGER audit_chain_no_update")?;
                c.execute(
                    "UPDATE admin_audit SET after = '{}' WHERE id = ?1",
                    lvlx_backend::args![third],
                )?;
                c.execute(
                    "UPDATE audit_chain SET hash = 'recomputed' WHERE audit_id = ?1",
                    lvlx_backend::args![third],
                )
            })
            .await
            .unwrap();
        copied.read(audit::verify).await.unwrap()
    };
    assert!(relinked.broken.is_some(), "{relinked:?}");

    // The untouched database still holds, with the same head.
    let again = store.read(audit::verify).await.unwrap();
    assert_eq!((again.broken, again.head), (None, Some(head)));
}

/// Admins read the audit newest first, filtered by subject, admin and time, a page at a time or
/// as CSV (read back with a CSV reader nobody here wrote: Python's `csv`); members may not.
#[tokio::test(flavor = "multi_thread")]
async fn admins_list_the_audit_filtered_and_as_csv() {
    use serde_json::json;
    let w = common::world().await;
    let (admin, _) = w
        .login(
            lvlx_backend::cli::accounts::DEMO_ADMIN.0,
            lvlx_backend::cli::accounts::DEMO_ADMIN.1,
        )
        .await;
    let (member, _) = w
        .login(
            lvlx_backend::cli::accounts::DEMO_USER.0,
            lvlx_backend::cli::accounts::DEMO_USER.1,
        )
        .await;
    let already = w.count("admin_audit").await;
    // Three rank edits, one with a comma, a quote and a formula in its name.
    for (id, name) in [(1, "Bronze"), (2, "=Silver, \"the\" one"), (3, "Gold")] {
        let body = json!({"name": name, "threshold": format!("{}", id * 10_000_000_000u64), "bonus": "1000000000000000000"});
        let put = w
            .call(
                "PUT",
                &format!("/api/v1/ranks/{id}"),
                Some(&admin),
                Some(body),
            )
            .await;
        assert_eq!(put.status, 200, "{}", put.body);
    }
    for path in ["/api/v1/audit", "/api/v1/audit/csv"] {
        assert_eq!(w.call("GET", path, Some(&member), None).await.status, 403);
        assert_eq!(w.call("GET", path, None, None).await.status, 401);
    }
    let all = w.call("GET", "/api/v1/audit", Some(&admin), None).await;
    assert_eq!(all.status, 200, "{}", all.body);
    assert_eq!(all.body["total"], already + 3);
    assert!(all.body["subjects"]
        .as_array()
        .unwrap()
        .contains(&json!("rank")));
    let rows = all.body["rows"].as_array().unwrap();
    assert_eq!(rows[0]["item"], 3, "newest first");
    assert_eq!(rows[0]["adminEmail"], "admin@lvlx.local");
    let filtered = |query: &str| {
        let (w, admin, path) = (&w, admin.clone(), format!("/api/v1/audit?{query}"));
        async move { w.call("GET", &path, Some(&admin), None).await.body }
    };
    assert_eq!(filtered("subject=content").await["total"], 0);
    assert_eq!(filtered("subject=rank").await["total"], 3);
    assert_eq!(
        filtered("subject=rank&admin=ADMIN%40LVLX").await["total"],
        3
    );
    assert_eq!(
        filtered("admin=%25").await["total"],
        0,
        "a % is a character"
    );
    assert_eq!(filtered("admin=nobody").await["total"], 0);
    let newest = rows[0]["at"].as_i64().unwrap();
    assert_eq!(filtered(&format!("from={}", newest + 1)).await["total"], 0);
    assert_eq!(
        filtered(&format!("subject=rank&to={}", newest + 1)).await["total"],
        3
    );
    assert_eq!(
        w.call("GET", "/api/v1/audit?page=x", Some(&admin), None)
            .await
            .status,
        400
    );
    // The CSV, read by Python's csv module: every row, its fields whole, formulas defused.
    let csv = w
        .call("GET", "/api/v1/audit/csv?subject=rank", Some(&admin), None)
        .await;
    assert_eq!(csv.status, 200);
    let text = String::from_utf8(csv.bytes.clone()).unwrap();
    let parsed = std::process::Command::new("python3")
        .args([
            "-c",
            "import csv,io,json,sys; print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read())))))",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(text.as_bytes())?;
            child.wait_with_output()
        })
        .expect("python3");
    let table: Vec<Vec<String>> = serde_json::from_slice(&parsed.stdout).unwrap();
    assert_eq!(
        table[0],
        ["id", "at", "admin", "subject", "item", "before", "after"]
    );
    assert_eq!(table.len(), 4);
    assert_eq!(table[2][4], "2");
    let after: serde_json::Value =
        serde_json::from_str(table[2][6].trim_start_matches('\'')).unwrap();
    assert_eq!(after["name"], "=Silver, \"the\" one");
}
