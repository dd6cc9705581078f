//! An audit nobody can quietly edit (issue 33): every admin change is chained to the one before
//! it by hash in the same transaction, and `lvlx audit verify` (store::audit::verify) names the
//! first row edited, removed or inserted by hand in the database file, its triggers dropped.

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
