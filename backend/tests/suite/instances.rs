//! Two instances on one PostgreSQL behind the repository's nginx configuration
//! (`deploy/nginx/lvlx.conf`): `lvlx serve` twice as separate processes, the development chain,
//! Debian's nginx proxying to both. A purchase indexed by instance A reaches a live socket open
//! on B; an image uploaded through the proxy (over nginx's default body limit) is served by
//! both; a quiet live channel outlives the proxy's read timeout; a session signed out on A is
//! refused on B; the login rate limit counts across both, per client behind the proxy
//! (X-Forwarded-For from the trusted proxy only); freezing A (SIGSTOP) hands indexing to B
//! within the lease's time and waking it changes nothing; killing B hands it back with every
//! purchase recorded once; SIGTERM drains A.
//!
//! Needs LVLX_TEST_POSTGRES and nginx (the test command's second pass has both); without them,
//! says so and passes, but without nginx it fails under the test command (`REQUIRE_TEST_TOOLS`).

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::anvil::Anvil;
use common::process::{
    captcha, free_port, lvlx_serve, request, request_from, sign_in, sign_in_from, Killed, Served,
};
use lvlx_backend::args;
use lvlx_backend::chain::deploy;
use lvlx_backend::cli::accounts::DEMO_USER;
use lvlx_backend::store::Store;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const AUTH_PER_MINUTE: usize = 6;
/// The indexer's lease: a frozen holder loses it this long after its last renewal.
const LEASE_SECS: u64 = 3;

/// `lvlx serve` on `data` (its outbox there), with `config`.
fn instance(config: &Path, data: &Path) -> Served {
    Served::start(&mut lvlx_serve(config, data))
}

/// The proxy's read timeout in the test: the repository's 60 s, shortened so a test can
/// outlive it (the instances then ping every second).
const PROXY_READ_SECS: u64 = 3;

/// Debian's nginx in the foreground with the repository's `deploy/nginx/lvlx.conf`, as an
/// operator installs it: its EDIT lines pointed at `upstreams` (round robin) and loopback
/// ports, TLS left out, the read timeout shortened to [`PROXY_READ_SECS`]. Nothing else of it
/// is changed.
struct Proxy {
    _running: Killed,
}

/// The repository's proxy configuration rendered for this test.
fn proxy_config(dir: &Path, port: u16, upstreams: &[&str]) -> String {
    let site = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../deploy/nginx/lvlx.conf"
    ))
    .unwrap();
    let mut upstream = upstreams.iter();
    let mut rendered = String::new();
    for line in site.lines() {
        let code = line.split('#').next().unwrap().trim();
        let line = if line.contains("# EDIT: instance") {
            format!(
                "    server {} max_fails=1 fail_timeout=5s;",
                upstream.next().expect("one EDIT line per instance")
            )
        } else if code == "listen 80;" {
            format!("    listen 127.0.0.1:{};", free_port())
        } else if code == "listen 443 ssl http2;" {
            format!("    listen 127.0.0.1:{port};")
        } else if code.starts_with("ssl_certificate") {
            continue;
        } else if code == "proxy_read_timeout 60s;" {
            format!("    proxy_read_timeout {PROXY_READ_SECS}s;")
        } else {
            line.to_string()
        };
        rendered.push_str(&line);
        rendered.push('\n');
    }
    assert!(upstream.next().is_none(), "the file names both instances");
    assert!(
        rendered.contains(&format!("proxy_read_timeout {PROXY_READ_SECS}s;")),
        "the read timeout is the file's"
    );
    format!(
        "worker_processes 1;\nerror_log {dir}/nginx-error.log;\npid {dir}/nginx.pid;\n\
         events {{ worker_connections 256; }}\n\
         http {{\n access_log off;\n client_body_temp_path {dir}/body;\n proxy_temp_path {dir}/proxy;\n\
         fastcgi_temp_path {dir}/fcgi; uwsgi_temp_path {dir}/uwsgi; scgi_temp_path {dir}/scgi;\n\
         {rendered}}}\n",
        dir = dir.display()
    )
}

impl Proxy {
    fn start(dir: &Path, port: u16, upstreams: &[&str]) -> Proxy {
        let path = dir.join("nginx.conf");
        std::fs::write(&path, proxy_config(dir, port, upstreams)).unwrap();
        let child = Command::new("nginx")
            .args(["-e", &dir.join("nginx-error.log").display().to_string()])
            .args(["-p", &dir.display().to_string(), "-c"])
            .arg(&path)
            .args(["-g", "daemon off;"])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nginx");
        Proxy {
            _running: Killed(child),
        }
    }
}

/// A live channel on `addr`, authenticated with `token`.
async fn live_channel(addr: &str, token: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(
            format!(
                "GET /api/v1/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                 Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(stream.read(&mut byte).await.unwrap(), 1, "upgrade answered");
        head.push(byte[0]);
    }
    assert!(String::from_utf8_lossy(&head).starts_with("HTTP/1.1 101"));
    // One masked text frame (mask of zeros: the payload as is).
    let hello = json!({"type": "auth", "token": token}).to_string();
    let mut frame = vec![0x81, 0x80 | 126];
    frame.extend_from_slice(&(hello.len() as u16).to_be_bytes());
    frame.extend_from_slice(&[0, 0, 0, 0]);
    frame.extend_from_slice(hello.as_bytes());
    stream.write_all(&frame).await.unwrap();
    stream
}

/// The next text message on a live channel within `within` (pings skipped).
async fn next_message(stream: &mut TcpStream, within: Duration) -> Option<Value> {
    tokio::time::timeout(within, async {
        loop {
            let mut two = [0u8; 2];
            stream.read_exact(&mut two).await.ok()?;
            let len = match two[1] & 0x7f {
                126 => {
                    let mut n = [0u8; 2];
                    stream.read_exact(&mut n).await.ok()?;
                    u16::from_be_bytes(n) as usize
                }
                127 => {
                    let mut n = [0u8; 8];
                    stream.read_exact(&mut n).await.ok()?;
                    u64::from_be_bytes(n) as usize
                }
                n => n as usize,
            };
            let mut payload = vec![0u8; len];
            stream.read_exact(&mut payload).await.ok()?;
            if two[0] & 0x0f == 1 {
                return serde_json::from_slice(&payload).ok();
            }
        }
    })
    .await
    .ok()
    .flatten()
}

/// Purchases on the live channel within `within`, by transaction hash.
async fn purchases_heard(stream: &mut TcpStream, want: usize, within: Duration) -> Vec<String> {
    let deadline = Instant::now() + within;
    let mut heard = Vec::new();
    while heard.len() < want {
        let left = deadline.saturating_duration_since(Instant::now());
        match next_message(stream, left).await {
            Some(m) if m["type"] == "purchase" => heard.push(m["txHash"].as_str().unwrap().into()),
            Some(_) => {}
            None => break,
        }
    }
    heard
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_behind_a_proxy_share_pushes_sessions_limits_and_the_indexer() {
    let Some(url) = lvlx_backend::store::test_database().await else {
        eprintln!("LVLX_TEST_POSTGRES unset: the two-instance test needs PostgreSQL");
        return;
    };
    if Command::new("nginx").arg("-v").output().is_err() {
        common::cannot_run("nginx missing: the two-instance test needs it", false);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let config = dir.path().join("lvlx.toml");
    let repo = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    std::fs::write(
        &config,
        format!(
            "bind = \"127.0.0.1:0\"\ndatabase_url = \"{url}\"\nlog = \"info\"\n\
             jwt_secret = \"{}\"\nclaim_signing_key = \"{}\"\n\
             captcha_difficulty = 4\nauth_per_minute = {AUTH_PER_MINUTE}\n\
             trusted_proxies = [\"127.0.0.1/32\"]\nws_ping_secs = 1\n\
             web_dir = \"{repo}/web/dist\"\nlocales_dir = \"{repo}/locales\"\n",
            "ab".repeat(32),
            "11".repeat(32)
        ),
    )
    .unwrap();
    let section = lvlx_backend::config::Chain {
        poll_ms: 100,
        lease_secs: LEASE_SECS,
        ..deploy::dev_section(&anvil.url, &d)
    };
    deploy::write_section(&config, &section).unwrap();
    // The demo accounts, written once into the shared database.
    let demo = Command::new(env!("CARGO_BIN_EXE_lvlx"))
        .arg("demo")
        .env("LVLX_CONFIG", &config)
        .env("LVLX_DATA_DIR", dir.path().join("setup"))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(demo.success());

    let (a_data, b_data) = (dir.path().join("a"), dir.path().join("b"));
    let a = instance(&config, &a_data);
    a.wait_for_log("indexer lease taken", Duration::from_secs(10))
        .await;
    let b = instance(&config, &b_data);
    let port = free_port();
    let _proxy = Proxy::start(dir.path(), port, &[&a.addr, &b.addr]);
    let proxy = format!("127.0.0.1:{port}");
    let mut up = false;
    for _ in 0..100 {
        if let Some((200, _)) = request(&proxy, "GET", "/api/v1/health", None, &[], "").await {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(up, "the proxy answers");
    for _ in 0..4 {
        let (status, health) = request(&proxy, "GET", "/api/v1/health", None, &[], "")
            .await
            .unwrap();
        assert_eq!((status, health["schema"].as_i64()), (200, Some(21)));
    }
    assert!(!b.logged("indexer lease taken"), "one indexer at a time");

    // Signed in on A; its session opens a live channel on B.
    let minute = || lvlx_backend::now_ms() / 60_000;
    let signed_in_from = minute();
    let admin = sign_in(
        &a.addr,
        &a_data.join("outbox"),
        "admin@lvlx.local",
        "Admin#2026",
    )
    .await;
    let mut on_b = live_channel(&b.addr, &admin).await;
    let buyers = anvil.accounts();
    let first = anvil.buy(&d, &buyers[2], 5_000_000, None);
    assert_eq!(
        purchases_heard(&mut on_b, 1, Duration::from_secs(15)).await,
        std::slice::from_ref(&first),
        "a purchase indexed on A reaches a socket on B"
    );
    let store = Store::open_postgres(&url).await.unwrap();

    // An image uploaded through the proxy (1.4 MB: nginx's default limit is 1 MB) is served by
    // both instances, whichever received it.
    let image = noise_png(700, 700);
    assert!(image.len() > 1_400_000, "{} bytes", image.len());
    let (status, uploaded) = upload_avatar(&proxy, &admin, image).await;
    assert_eq!(status, 200, "through the proxy: {uploaded}");
    let admin_id: i64 = store
        .read(|c| {
            c.query_one(
                "SELECT id FROM users WHERE email = 'admin@lvlx.local'",
                args![],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    let avatar = format!(
        "{}{admin_id}.png?k={}",
        uploaded["path"].as_str().unwrap(),
        uploaded["key"].as_str().unwrap()
    );
    for addr in [&a.addr, &b.addr, &proxy, &proxy] {
        let (status, body) = fetch(addr, &avatar).await;
        assert_eq!(status, 200, "{addr}{avatar}");
        assert!(body.starts_with(b"\x89PNG"));
    }

    // A live channel through the proxy outlives the proxy's read timeout: the instances ping.
    let mut through = live_channel(&proxy, &admin).await;
    tokio::time::sleep(Duration::from_secs(2 * PROXY_READ_SECS + 1)).await;
    let quiet_then = anvil.buy(&d, &buyers[8], 1_000_000, None);
    assert_eq!(
        purchases_heard(&mut through, 1, Duration::from_secs(15)).await,
        std::slice::from_ref(&quiet_then),
        "a channel quiet for twice the proxy's read timeout still hears pushes"
    );

    // The login limit counts across both: one sign-in above, five more alternating, then 429.
    // The limit counts per clock minute: when that sign-in is not surely in this minute, or too
    // little of it is left, the count starts over with a sign-in in the next one.
    let seconds = (lvlx_backend::now_ms() / 1000) % 60;
    if seconds > 40 || signed_in_from != minute() {
        tokio::time::sleep(Duration::from_secs(62 - seconds as u64)).await;
        // A new minute: its first count is the sign-in below.
        sign_in(
            &a.addr,
            &a_data.join("outbox"),
            "admin@lvlx.local",
            "Admin#2026",
        )
        .await;
    }
    for (i, addr) in [&b.addr, &a.addr, &b.addr, &a.addr, &b.addr]
        .iter()
        .enumerate()
    {
        let body = json!({"email": "nobody@lvlx.local", "password": "Wrong#2026", "captcha": captcha(addr).await});
        let (status, answer) = request(addr, "POST", "/api/v1/login", None, &[], &body.to_string())
            .await
            .unwrap();
        assert_ne!(
            status,
            429,
            "attempt {} of {AUTH_PER_MINUTE}: {answer}",
            i + 2
        );
    }
    for addr in [&a.addr, &b.addr] {
        let body = json!({"email": "nobody@lvlx.local", "password": "Wrong#2026", "captcha": captcha(addr).await});
        let (status, _) = request(addr, "POST", "/api/v1/login", None, &[], &body.to_string())
            .await
            .unwrap();
        assert_eq!(status, 429, "the limit is one for both instances");
    }

    // Through the proxy the limit is each client's, not the proxy's: nginx names the client in
    // X-Forwarded-For, which the instances take only from it (trusted_proxies). 127.0.0.1, the
    // proxy's own address, has just spent its minute above; were the header ignored, every
    // client behind the proxy would now be refused. A client at 127.0.0.2 spends its own minute
    // across both instances (round robin); what it writes into the header itself changes
    // nothing; a client at 127.0.0.3 still gets in.
    let seconds = (lvlx_backend::now_ms() / 1000) % 60;
    if seconds > 45 {
        tokio::time::sleep(Duration::from_secs(61 - seconds as u64)).await;
    }
    let [x, y]: [std::net::IpAddr; 2] = [[127, 0, 0, 2].into(), [127, 0, 0, 3].into()];
    let attempt = |from: std::net::IpAddr, forged: Option<&'static str>| {
        let proxy = proxy.clone();
        async move {
            let body = json!({"email": "nobody@lvlx.local", "password": "Wrong#2026", "captcha": captcha(&proxy).await});
            let headers: Vec<(&str, String)> = forged
                .map(|f| ("X-Forwarded-For", f.to_string()))
                .into_iter()
                .collect();
            request_from(
                Some(from),
                &proxy,
                "POST",
                "/api/v1/login",
                None,
                &headers,
                &body.to_string(),
            )
            .await
            .unwrap()
        }
    };
    for i in 0..AUTH_PER_MINUTE {
        let (status, answer) = attempt(x, None).await;
        assert_ne!(
            status,
            429,
            "127.0.0.2's attempt {} through the proxy: {answer}",
            i + 1
        );
    }
    let (status, _) = attempt(x, Some("127.0.0.9")).await;
    assert_eq!(
        status, 429,
        "a client cannot name itself anew in X-Forwarded-For"
    );
    let (status, answer) = attempt(y, None).await;
    assert_ne!(
        status, 429,
        "another client behind the same proxy: {answer}"
    );

    // Signed out on A: refused on B.
    let (status, _) = request(&b.addr, "GET", "/api/v1/tokenVerify", Some(&admin), &[], "")
        .await
        .unwrap();
    assert_eq!(status, 200);
    let signout = json!({ "token": admin }).to_string();
    let (status, _) = request(
        &a.addr,
        "POST",
        "/api/v1/signout",
        Some(&admin),
        &[],
        &signout,
    )
    .await
    .unwrap();
    assert_eq!(status, 200);
    let (status, _) = request(&b.addr, "GET", "/api/v1/tokenVerify", Some(&admin), &[], "")
        .await
        .unwrap();
    assert_eq!(status, 401, "a session ended on A is refused on B");

    // A freezes (SIGSTOP: a stalled VM, a host cut off without closing its connections): its
    // lease lapses and B indexes within the lease's time.
    let mut hashes = vec![first, quiet_then];
    hashes.push(anvil.buy(&d, &buyers[3], 7_000_000, None));
    let (mut a, mut b) = (a, b);
    signal(&a, "STOP");
    let frozen = Instant::now();
    hashes.push(anvil.buy(&d, &buyers[4], 4_000_000, None));
    b.wait_for_log("indexer lease taken", Duration::from_secs(LEASE_SECS + 10))
        .await;
    let took_over = frozen.elapsed();
    let bought = hashes.clone();
    let mut indexed = false;
    // Up to 75 s: when the freeze lands while A holds the write lock, every instance's writes
    // wait until PostgreSQL ends A's session (a minute idle, in a transaction or not: see
    // `pg::WRITER_LIMITS`); CI met that twice with a shorter wait.
    for _ in 0..750 {
        indexed = recorded(&store).await.len() == bought.len();
        if indexed {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // If not, what B's indexer said (a write waiting on A's lock, steps failing, or nothing).
    let said: Vec<String> = b
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.contains("indexer"))
        .cloned()
        .collect();
    assert!(
        indexed,
        "B indexes what was bought while A was frozen: {} of {} after {took_over:?} to take over \
         and 75 s; B's indexer said {said:#?}",
        recorded(&store).await.len(),
        bought.len()
    );
    // A wakes: it finds its lease gone and leaves the indexing to B; whatever step it was
    // in the middle of writes nothing (the cursor moved: see reorg.rs).
    signal(&a, "CONT");
    a.wait_for_log("indexer lease lost", Duration::from_secs(10))
        .await;
    hashes.push(anvil.buy(&d, &buyers[5], 2_000_000, None));

    // B dies: A takes the indexer over within a second; nothing is lost or recorded twice.
    // A's log is emptied before the kill: A may take the lease while the next purchase is
    // being mined (a CI run on PostgreSQL once did, and its line was wiped).
    a.log.lock().unwrap().clear();
    b.kill();
    let killed = Instant::now();
    hashes.push(anvil.buy(&d, &buyers[6], 3_000_000, None));
    a.wait_for_log("indexer lease taken", Duration::from_secs(10))
        .await;
    let took_over_death = killed.elapsed();
    let rows = loop {
        let rows = recorded(&store).await;
        if rows.len() >= hashes.len() || killed.elapsed() > Duration::from_secs(30) {
            break rows;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let expected: Vec<(String, i64)> = hashes.iter().map(|h| (h.clone(), 1)).collect();
    assert_eq!(rows, expected, "every purchase once, in chain order");
    eprintln!(
        "indexing moved to B {:.1} s after A froze (lease {LEASE_SECS} s), back to A {:.1} s after B was killed",
        took_over.as_secs_f64(),
        took_over_death.as_secs_f64()
    );
    assert!(took_over < Duration::from_secs(LEASE_SECS + 3));
    assert!(took_over_death < Duration::from_secs(5));

    // SIGTERM (systemd's and Kubernetes' stop) drains: no new connections, the request under
    // way is answered, the live channel is told 1001 ("going away"), and the process exits 0.
    let member = sign_in_from(
        Some([127, 0, 0, 5].into()),
        &a.addr,
        &a_data.join("outbox"),
        DEMO_USER.0,
        DEMO_USER.1,
    )
    .await;
    let mut channel = live_channel(&a.addr, &member).await;
    assert_eq!(
        next_message(&mut channel, Duration::from_secs(5))
            .await
            .unwrap()["type"],
        "ready"
    );
    let body = json!({ "token": member }).to_string();
    let (first_half, second_half) = body.split_at(body.len() / 2);
    let mut slow = TcpStream::connect(&a.addr).await.unwrap();
    slow.write_all(
        format!(
            "POST /api/v1/signout HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {member}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{first_half}",
            a.addr,
            body.len()
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    signal(&a, "TERM");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        TcpStream::connect(&a.addr).await.is_err(),
        "a stopping instance takes no new connection"
    );
    slow.write_all(second_half.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), slow.read_to_end(&mut answer))
        .await
        .expect("answered while draining")
        .unwrap();
    assert!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"),
        "the request under way is answered: {}",
        String::from_utf8_lossy(&answer)
    );
    assert_eq!(close_code(&mut channel).await, Some(1001));
    let stopped = Instant::now();
    let status = loop {
        if let Some(status) = a.child.try_wait().unwrap() {
            break status;
        }
        assert!(stopped.elapsed() < Duration::from_secs(10), "A exits");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "SIGTERM exits 0, not 143: {status:?}");
}

/// The close code of the next close frame on a live channel (other frames skipped).
async fn close_code(stream: &mut TcpStream) -> Option<u16> {
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let mut two = [0u8; 2];
            stream.read_exact(&mut two).await.ok()?;
            let len = match two[1] & 0x7f {
                126 => {
                    let mut n = [0u8; 2];
                    stream.read_exact(&mut n).await.ok()?;
                    u16::from_be_bytes(n) as usize
                }
                n => n as usize,
            };
            let mut payload = vec![0u8; len];
            stream.read_exact(&mut payload).await.ok()?;
            if two[0] & 0x0f == 8 {
                return Some(u16::from_be_bytes([payload[0], payload[1]]));
            }
        }
    })
    .await
    .ok()
    .flatten()
}

/// A PNG of random pixels (it does not compress): `width` × `height` × 3 bytes and a little.
fn noise_png(width: u32, height: u32) -> Vec<u8> {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let pixels = (0..width * height * 3)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect();
    let image = image::RgbImage::from_raw(width, height, pixels).unwrap();
    let mut png = std::io::Cursor::new(Vec::new());
    image.write_to(&mut png, image::ImageFormat::Png).unwrap();
    png.into_inner()
}

/// POST /api/v1/image at `addr` with `png` as the part "profile".
async fn upload_avatar(addr: &str, token: &str, png: Vec<u8>) -> (u16, Value) {
    let url = format!("http://{addr}/api/v1/image");
    let token = token.to_string();
    tokio::task::spawn_blocking(move || {
        let boundary = "lvlxinstancesboundary";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"profile\"; filename=\"a.png\"\r\n\
             Content-Type: image/png\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(&png);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let mut answer = ureq::post(&url)
            .config()
            .http_status_as_error(false)
            .build()
            .header("authorization", &format!("Bearer {token}"))
            .header(
                "content-type",
                &format!("multipart/form-data; boundary={boundary}"),
            )
            .send(&body[..])
            .unwrap();
        let status = answer.status().as_u16();
        let text = answer.body_mut().read_to_string().unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    })
    .await
    .unwrap()
}

/// GET `path` at `addr`: (status, body bytes).
async fn fetch(addr: &str, path: &str) -> (u16, Vec<u8>) {
    let url = format!("http://{addr}{path}");
    tokio::task::spawn_blocking(move || {
        let mut answer = ureq::get(&url)
            .config()
            .http_status_as_error(false)
            .build()
            .call()
            .unwrap();
        let status = answer.status().as_u16();
        let body = answer
            .body_mut()
            .with_config()
            .limit(10 << 20)
            .read_to_vec()
            .unwrap();
        (status, body)
    })
    .await
    .unwrap()
}

/// The purchases recorded, each with how many times, in the order recorded.
async fn recorded(store: &Store) -> Vec<(String, i64)> {
    store
        .read(|c| {
            c.query_all(
                "SELECT tx_hash, COUNT(*) FROM ico_transactions WHERE token = 'LVLX' GROUP BY tx_hash ORDER BY MIN(id)",
                args![],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
        .await
        .unwrap()
}

/// Sends `kill -SIG` to an instance.
fn signal(instance: &Served, sig: &str) {
    let sent = Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(instance.child.id().to_string())
        .status()
        .unwrap();
    assert!(sent.success());
}
