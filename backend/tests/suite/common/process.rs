//! Servers as separate processes on loopback, and plain HTTP/1.1 to them (the durability and
//! the two-instance tests).

use std::path::Path;

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
    let (_, c) = request(addr, "GET", "/api/v1/captcha", None, &[], "")
        .await
        .unwrap();
    let challenge = c["challenge"].as_str().unwrap().to_string();
    let solution =
        lvlx_core::captcha::solve(&challenge, c["difficulty"].as_u64().unwrap() as u32).unwrap();
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
