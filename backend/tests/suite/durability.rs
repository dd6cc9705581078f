//! Crash durability: the server binary on a real loopback port is killed with SIGKILL
//! while 1,000 writes are in flight (signed KYC webhook events and admins' audited KYC changes,
//! each a distinct row), then started again on the same files. Every write it acknowledged with
//! a 2xx is there, nothing is half-written (each audit row reads whole), and SQLite's
//! `PRAGMA integrity_check` says ok. WAL with synchronous=NORMAL: a committed transaction
//! survives the process dying (an OS crash may lose the last ones, which this does not test).

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use hmac::{Hmac, Mac};
use rusqlite::OptionalExtension;
use serde_json::json;
use sha2::Sha256;

use common::process::{request, sign_in, Served};

const WRITES: usize = 1_000;
const SECRET: &str = "wbhsec_durability";

fn command(data: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_lvlx"));
    cmd.args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("LVLX_CONFIG", data.join("none.toml"))
        .env("LVLX_DATA_DIR", data)
        .env("LVLX_BIND", "127.0.0.1:0")
        .env("LVLX_LOG", "error")
        .env("LVLX_CAPTCHA_DIFFICULTY", "4")
        .env(
            "LVLX_KYC",
            format!("{{webhook_secret=\"{SECRET}\", template_id=\"itmpl_d\"}}"),
        );
    cmd
}

/// Starts `lvlx serve` on `data` once it says it is serving.
fn serve(data: &Path) -> (Served, String) {
    let served = Served::start(
        command(data, &["serve"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    let addr = served.addr.clone();
    (served, addr)
}

fn signed(body: &str) -> String {
    let t = lvlx_backend::now_ms() / 1000;
    let mut mac = Hmac::<Sha256>::new_from_slice(SECRET.as_bytes()).unwrap();
    mac.update(format!("{t}.{body}").as_bytes());
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

#[derive(Debug)]
enum Write {
    Event(String),
    Audit(String),
}

/// The demo accounts in `data`, the server serving them: (server, address, admin token, the
/// demo member's id).
async fn started(data: &Path) -> (Served, String, String, i64) {
    assert!(command(data, &["demo"])
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .success());
    let (child, addr) = serve(data);
    let token = sign_in(
        &addr,
        &data.join("outbox"),
        "admin@lvlx.local",
        "Admin#2026",
    )
    .await;
    let member: i64 = rusqlite::Connection::open(data.join("lvlx.sqlite3"))
        .unwrap()
        .query_row(
            "SELECT id FROM users WHERE email = 'demo@lvlx.local'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    (child, addr, token, member)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_killed_server_keeps_every_write_it_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let (mut child, addr, token, member) = started(&data).await;

    // 1,000 writes at once: 900 webhook events, 100 admin changes, each its own row.
    let answered = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for i in 0..WRITES {
        let (addr, token, answered) = (addr.clone(), token.clone(), answered.clone());
        tasks.push(tokio::spawn(async move {
            let (write, reply) = if i % 10 != 9 {
                let id = format!("evt_kill_{i}");
                let body = json!({"data": {"type": "event", "id": id, "attributes": {"name": "inquiry.started",
                    "created-at": "2026-11-23T10:00:00.000Z", "payload": {"data": {"type": "inquiry", "id": format!("inq_{i}"),
                    "attributes": {"reference-id": format!("ref_{i}")}}}}}}).to_string();
                let reply = request(&addr, "POST", "/api/v1/kyc/webhook", None, &[("Persona-Signature", signed(&body))], &body).await;
                (Write::Event(id), reply)
            } else {
                let reason = format!("kill test change {i}");
                let body = json!({"status": if i % 20 == 9 { "approved" } else { "rejected" }, "reason": reason}).to_string();
                let reply = request(&addr, "PUT", &format!("/api/v1/users/{member}/kyc"), Some(&token), &[], &body).await;
                (Write::Audit(reason), reply)
            };
            if reply.is_some() {
                answered.fetch_add(1, Ordering::SeqCst);
            }
            (write, reply)
        }));
    }
    // Kill it mid-flight: once some writes are answered, far from all.
    while answered.load(Ordering::SeqCst) < WRITES / 4 {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    child.kill(); // SIGKILL
    let mut acked = Vec::new();
    for task in tasks {
        let (write, reply) = task.await.unwrap();
        match reply {
            Some((status, _)) if (200..300).contains(&status) => acked.push(write),
            Some((status, body)) => panic!("{write:?} answered {status} {body}"),
            None => {}
        }
    }
    assert!(
        !acked.is_empty() && acked.len() < WRITES,
        "killed mid-flight ({} acknowledged)",
        acked.len()
    );

    // Started again on the same files: it opens, and every acknowledged write is there.
    let (mut again, addr) = serve(&data);
    assert_eq!(
        request(&addr, "GET", "/api/v1/health", None, &[], "")
            .await
            .unwrap()
            .0,
        200
    );
    let db = rusqlite::Connection::open(data.join("lvlx.sqlite3")).unwrap();
    let integrity: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
    let mut found = 0;
    for write in &acked {
        let present: bool = match write {
            Write::Event(id) => db.query_row("SELECT COUNT(*) = 1 FROM kyc_events WHERE event_id = ?1", [id], |r| r.get(0)),
            Write::Audit(reason) => db.query_row(
                "SELECT COUNT(*) = 1 FROM admin_audit WHERE subject = 'kyc' AND json_extract(after, '$.reason') = ?1",
                [reason],
                |r| r.get(0),
            ),
        }
        .unwrap();
        assert!(present, "{write:?} was acknowledged but is gone");
        found += 1;
    }
    // Nothing half-written: every audit row reads whole, every event names its event.
    let torn: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM admin_audit WHERE subject = 'kyc' AND (json_valid(after) = 0 OR json_extract(after, '$.status') IS NULL OR json_valid(before) = 0)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(torn, 0);
    let status: String = db
        .query_row(
            "SELECT kyc_status FROM users WHERE id = ?1",
            [member],
            |r| r.get(0),
        )
        .unwrap();
    // The member's status is what the newest admin change that stayed set: the webhook events
    // name unknown references and change no account; "none" only if no change stayed at all.
    let last_change: Option<String> = db
        .query_row(
            "SELECT json_extract(after, '$.status') FROM admin_audit WHERE subject = 'kyc' AND item = ?1 ORDER BY id DESC LIMIT 1",
            [member],
            |r| r.get(0),
        )
        .optional()
        .unwrap();
    assert_eq!(status, last_change.as_deref().unwrap_or("none"));
    if acked.iter().any(|w| matches!(w, Write::Audit(_))) {
        assert_ne!(status, "none", "an acknowledged change is in force");
    }
    println!(
        "durability: {WRITES} writes in flight, {} acknowledged before SIGKILL, {found} found after restart, integrity ok",
        acked.len()
    );
    again.kill();
}

/// Mounts a small tmpfs (a disk that fills); None where this process may not mount (not root,
/// or no CAP_SYS_ADMIN), which the test then says loudly.
fn small_disk(at: &Path, megabytes: u32) -> Option<()> {
    std::fs::create_dir_all(at).ok()?;
    let ok = Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
        .arg(at)
        .status()
        .ok()?
        .success();
    ok.then_some(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_is_a_clear_error_and_writes_resume_when_space_returns() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("disk");
    if small_disk(&data, 8).is_none() {
        common::cannot_run(
            "cannot mount a tmpfs here: the disk-full test did not run",
            true,
        );
        return;
    }
    struct Unmount(std::path::PathBuf);
    impl Drop for Unmount {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg(&self.0).status();
        }
    }
    let _unmount = Unmount(data.clone());
    let (mut child, addr, token, member) = started(&data).await;
    let change = |n: usize| {
        let (addr, token) = (addr.clone(), token.clone());
        async move {
            let body = json!({"status": "pending", "reason": format!("{n} {}", "x".repeat(480))})
                .to_string();
            request(
                &addr,
                "PUT",
                &format!("/api/v1/users/{member}/kyc"),
                Some(&token),
                &[],
                &body,
            )
            .await
            .unwrap()
        }
    };
    assert_eq!(change(0).await.0, 200);

    // Fill the disk to the last byte.
    let filler = data.join("filler");
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&filler).unwrap();
        let block = vec![7u8; 64 * 1024];
        while f.write_all(&block).is_ok() {}
        let byte = [7u8; 1];
        while f.write_all(&byte).is_ok() {}
        let _ = f.sync_all();
    }
    // Writes now fail with the clear, translated 503 — never a 500 — until SQLite has no room.
    let mut acked = vec![0];
    let mut full = None;
    for n in 1..400 {
        let (status, body) = change(n).await;
        match status {
            200 => acked.push(n),
            503 => {
                full = Some(body);
                break;
            }
            other => panic!("write {n} on a full disk answered {other} {body}"),
        }
    }
    let full = full.expect("a write failed once the disk was full");
    assert_eq!(full["code"], "error-storage-full");
    // Reads still answer.
    assert_eq!(
        request(&addr, "GET", "/api/v1/health", None, &[], "")
            .await
            .unwrap()
            .0,
        200
    );

    // Space returns: the same write goes through, without a restart.
    std::fs::remove_file(&filler).unwrap();
    let (status, body) = change(1000).await;
    assert_eq!(status, 200, "{body}");
    acked.push(1000);
    child.kill();
    let db = rusqlite::Connection::open(data.join("lvlx.sqlite3")).unwrap();
    let integrity: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
    for n in &acked {
        let present: bool = db
            .query_row(
                "SELECT COUNT(*) = 1 FROM admin_audit WHERE subject = 'kyc' AND json_extract(after, '$.reason') LIKE ?1",
                [format!("{n} x%")],
                |r| r.get(0),
            )
            .unwrap();
        assert!(present, "acknowledged change {n} is gone");
    }
    println!("disk full: {} writes acknowledged before and after, the full disk answered 503 error-storage-full, integrity ok", acked.len());
}

/// `lvlx config | head`: a reader that closes the pipe early ends the output, and
/// the command still exits 0 instead of panicking (it did: status 101, "failed printing to
/// stdout: Broken pipe").
#[test]
fn config_into_a_closed_pipe_exits_cleanly() {
    for _ in 0..3 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_lvlx"))
            .arg("config")
            .env(
                "LVLX_CONFIG",
                concat!(env!("CARGO_MANIFEST_DIR"), "/../lvlx.example.toml"),
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader is gone before the command writes.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
