//! Servers as separate processes on loopback, and plain HTTP/1.1 to them (the durability,
//! two-instance, logs, metrics, stuck-indexer and rollout tests).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One HTTP/1.1 request on its own connection → (status, body); None when the connection
/// failed or closed before a whole answer (not acknowledged).
pub async fn request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, String)],
    body: &str,
) -> Option<(u16, Value)> {
    request_from(None, addr, method, path, token, headers, body).await
}

/// [`request`] from the loopback address `source` (127.0.0.2, …: another client on this
/// machine, as a proxy and the server see it).
pub async fn request_from(
    source: Option<std::net::IpAddr>,
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, String)],
    body: &str,
) -> Option<(u16, Value)> {
    let mut stream = match source {
        None => TcpStream::connect(addr).await.ok()?,
        Some(ip) => {
            let socket = tokio::net::TcpSocket::new_v4().ok()?;
            socket.bind(std::net::SocketAddr::new(ip, 0)).ok()?;
            socket.connect(addr.parse().ok()?).await.ok()?
        }
    };
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n", body.len());
    if let Some(t) = token {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.ok()?;
    stream.write_all(body.as_bytes()).await.ok()?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.ok()?;
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    // The server answers with Content-Length; a body cut short is not an answer.
    let length: usize = head.lines().find_map(|l| {
        l.to_ascii_lowercase()
            .strip_prefix("content-length:")
            .map(|v| v.trim().parse().unwrap_or(0))
    })?;
    if body.len() != length {
        return None;
    }
    Some((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

/// Signs in through the server at `addr`, reading the code from `outbox`; answers the session.
pub async fn sign_in(addr: &str, outbox: &Path, email: &str, password: &str) -> String {
    sign_in_from(None, addr, outbox, email, password).await
}

/// [`sign_in`] from the loopback address `source` (its own per-address limits).
pub async fn sign_in_from(
    source: Option<std::net::IpAddr>,
    addr: &str,
    outbox: &Path,
    email: &str,
    password: &str,
) -> String {
    let request = |method: &'static str,
                   path: &'static str,
                   token: Option<String>,
                   body: String| async move {
        request_from(source, addr, method, path, token.as_deref(), &[], &body).await
    };
    let (_, c) = request("GET", "/api/v1/captcha", None, String::new())
        .await
        .unwrap();
    let challenge = c["challenge"].as_str().unwrap();
    let solution =
        lvlx_core::captcha::solve(challenge, c["difficulty"].as_u64().unwrap() as u32).unwrap();
    let body = json!({"email": email, "password": password, "captcha": {"challenge": challenge, "solution": solution}});
    let (status, step1) = request("POST", "/api/v1/login", None, body.to_string())
        .await
        .unwrap();
    assert_eq!(status, 200, "{step1}");
    let code = super::newest_code(outbox, email, 4);
    let (status, done) = request(
        "POST",
        "/api/v1/verifycode",
        step1["token"].as_str().map(str::to_string),
        json!({"code": code}).to_string(),
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{done}");
    done["token"].as_str().unwrap().to_string()
}

/// A captcha answer solved against the server at `addr`.
pub async fn captcha(addr: &str) -> Value {
    let (_, challenge) = request(addr, "GET", "/api/v1/captcha", None, &[], "")
        .await
        .unwrap();
    solved(&challenge)
}

/// The answer to a `GET /api/v1/captcha` challenge.
pub fn solved(c: &Value) -> Value {
    let challenge = c["challenge"].as_str().unwrap();
    let solution =
        lvlx_core::captcha::solve(challenge, c["difficulty"].as_u64().unwrap() as u32).unwrap();
    json!({"challenge": challenge, "solution": solution})
}

/// A loopback port nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A process killed (SIGKILL) and waited for when dropped, however the test ends.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `lvlx serve` from the repository's root with `config` and `data`, its output piped (for
/// [`Served::start`]).
pub fn lvlx_serve(config: &Path, data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lvlx"));
    command
        .arg("serve")
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("LVLX_CONFIG", config)
        .env("LVLX_DATA_DIR", data)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    command
}

/// An `lvlx serve` process: its address and every line it wrote (standard output, and standard
/// error when that is piped too). Killed (SIGKILL) when dropped, so a failed assertion leaves
/// nothing running that holds the test command's output; a failing test prints its last lines.
pub struct Served {
    pub child: Child,
    pub addr: String,
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Served {
    /// Spawns `command` (standard output piped) and waits until the server says where it serves.
    pub fn start(command: &mut Command) -> Served {
        let mut child = command.spawn().expect("lvlx starts");
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let out = child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>);
        let err = child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>);
        for stream in [out.expect("standard output piped")].into_iter().chain(err) {
            let log = log.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    log.lock().unwrap().push(line);
                }
            });
        }
        let mut served = Served {
            child,
            addr: String::new(),
            log,
        };
        let started = Instant::now();
        served.addr = loop {
            let found = served.log.lock().unwrap().iter().find_map(|l| {
                let rest = l.split("serving at http://").nth(1)?;
                Some(
                    rest.split_whitespace()
                        .next()?
                        .trim_end_matches('/')
                        .to_string(),
                )
            });
            if let Some(addr) = found {
                break addr;
            }
            let exited = served.child.try_wait().unwrap();
            assert!(
                exited.is_none() && started.elapsed() < Duration::from_secs(60),
                "the server never said where it serves ({exited:?})"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        served
    }

    pub fn logged(&self, text: &str) -> bool {
        self.log.lock().unwrap().iter().any(|l| l.contains(text))
    }

    /// Waits until a line holds `text`; fails with the log after `within`.
    pub async fn wait_for_log(&self, text: &str, within: Duration) {
        let start = Instant::now();
        while !self.logged(text) {
            assert!(
                start.elapsed() < within,
                "{} never logged {text:?}: {:?}",
                self.addr,
                self.log.lock().unwrap()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGKILL, and waits for it to end.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.kill();
        if std::thread::panicking() {
            let log = self.log.lock().unwrap_or_else(|e| e.into_inner());
            let from = log.len().saturating_sub(40);
            eprintln!(
                "the server at {} logged, last:\n{}",
                self.addr,
                log[from..].join("\n")
            );
        }
    }
}
