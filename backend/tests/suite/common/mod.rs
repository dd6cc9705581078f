//! The test world shared by the API test files: a temp-file database with the demo accounts,
//! requests through warp::test, sign-in with the mailed code.
#![allow(dead_code)] // each test file uses its own part

pub mod anvil;
pub mod process;
pub mod rpc_proxy;

use std::net::SocketAddr;

use lvlx_backend::cli::accounts;
use lvlx_backend::store::{Conn, StoreError};
use lvlx_backend::{routes, App, Config};
use serde_json::{json, Value};
use warp::http::StatusCode;

pub struct World {
    pub dir: tempfile::TempDir,
    pub app: App,
}

pub async fn world_with(edit: impl FnOnce(&mut Config)) -> World {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config {
        data_dir: dir.path().join("data"),
        web_dir: dir.path().join("web"),
        locales_dir: concat!(env!("CARGO_MANIFEST_DIR"), "/../locales").into(),
        captcha_difficulty: 4,
        auth_per_minute: 1000,
        ..Config::default()
    };
    edit(&mut config);
    let store = lvlx_backend::store::open_for_test(&config.data_dir).await;
    accounts::demo(&store).await.unwrap();
    World {
        app: App::new(config, store).unwrap(),
        dir,
    }
}

pub async fn world() -> World {
    world_with(|_| {}).await
}

pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
    pub headers: warp::http::HeaderMap,
    pub bytes: Vec<u8>,
}

impl Reply {
    fn of(res: warp::http::Response<bytes::Bytes>) -> Reply {
        Reply {
            status: res.status(),
            headers: res.headers().clone(),
            body: serde_json::from_slice(res.body()).unwrap_or(Value::Null),
            bytes: res.body().to_vec(),
        }
    }
}

impl World {
    /// SQL run on the server's own database (SQLite or PostgreSQL, whichever the test runs
    /// on): tests look at (and tamper with) what was stored without going through the store.
    pub async fn sql<T: Send + 'static>(
        &self,
        work: impl FnOnce(Conn) -> Result<T, StoreError> + Send + 'static,
    ) -> T {
        self.app.store.write(work).await.unwrap()
    }

    /// The id of the account with `email`.
    pub async fn user_id(&self, email: &'static str) -> i64 {
        self.sql(move |c| {
            c.query_one(
                "SELECT id FROM users WHERE email = ?1",
                lvlx_backend::args![email],
                |r| r.get(0),
            )
        })
        .await
    }

    /// How many rows `table` holds.
    pub async fn count(&self, table: &'static str) -> i64 {
        self.sql(move |c| {
            c.query_one(
                &format!("SELECT COUNT(*) FROM {table}"),
                lvlx_backend::args![],
                |r| r.get(0),
            )
        })
        .await
    }

    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        self.call_from(method, path, token, body, "127.0.0.1:4000")
            .await
    }

    pub async fn call_from(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        ip: &str,
    ) -> Reply {
        let mut req = warp::test::request()
            .method(method)
            .path(path)
            .remote_addr(ip.parse::<SocketAddr>().unwrap());
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        if let Some(b) = body {
            req = req
                .header("content-type", "application/json")
                .body(b.to_string());
        }
        Reply::of(req.reply(&routes(self.app.clone())).await)
    }

    /// POSTs `bytes` as the file `file_name` of the multipart part `part` to `path`, as the
    /// browser uploads an image.
    pub async fn upload(
        &self,
        token: &str,
        path: &str,
        part: &str,
        file_name: &str,
        bytes: &[u8],
    ) -> Reply {
        let boundary = "lvlxtestboundary";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{part}\"; filename=\"{file_name}\"\r\nContent-Type: image/png\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let res = warp::test::request()
            .method("POST")
            .path(path)
            .header("authorization", format!("Bearer {token}"))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .header("content-length", body.len())
            .body(body)
            .reply(&routes(self.app.clone()))
            .await;
        Reply::of(res)
    }

    /// Links anvil dev account `index`'s wallet to the signed-in account as the browser does:
    /// a nonce, a SIWE message signed by the account's key, the link call. Answers the status.
    pub async fn link_dev_wallet(&self, token: &str, index: usize) -> StatusCode {
        use lvlx_core::siwe::dev::{address, key, sign};
        const HOST: &str = "127.0.0.1:8080";
        let api = routes(self.app.clone());
        let post = |path: &'static str, body: Value| {
            warp::test::request()
                .method("POST")
                .path(path)
                .header("host", HOST)
                .header("authorization", format!("Bearer {token}"))
                .header("content-type", "application/json")
                .body(body.to_string())
                .reply(&api)
        };
        let n: Value =
            serde_json::from_slice(post("/api/v1/wallet/nonce", json!({})).await.body()).unwrap();
        let k = key(index);
        let text = lvlx_core::siwe::Message {
            domain: HOST.into(),
            address: address(&k),
            statement: Some("Link this wallet to your LVLX account.".into()),
            uri: format!("http://{HOST}"),
            chain_id: n["chainId"].as_u64().unwrap(),
            nonce: n["nonce"].as_str().unwrap().into(),
            issued_at: n["issuedAt"].as_i64().unwrap(),
            expiration_time: Some(n["expirationTime"].as_i64().unwrap()),
            ..Default::default()
        }
        .to_text();
        let signature = sign(&k, &text);
        post(
            "/api/v1/wallet/link",
            json!({"message": text, "signature": signature}),
        )
        .await
        .status()
    }

    pub async fn captcha(&self) -> Value {
        process::solved(&self.call("GET", "/api/v1/captcha", None, None).await.body)
    }

    /// The newest code mailed to `to` (from the outbox).
    pub fn last_code(&self, to: &str) -> String {
        self.last_code_of(to, 4)
    }

    /// The `digits`-digit code of the newest mail to `to` in the outbox.
    pub fn last_code_of(&self, to: &str, digits: usize) -> String {
        newest_code(&self.dir.path().join("data/outbox"), to, digits)
    }

    pub async fn login_step1(&self, email: &str, password: &str) -> Reply {
        self.login_step1_from(email, password, "127.0.0.1:4000")
            .await
    }

    /// Step 1 of a sign-in (captcha, email, password) from the address `ip`.
    pub async fn login_step1_from(&self, email: &str, password: &str, ip: &str) -> Reply {
        let captcha = self.captcha().await;
        self.call_from(
            "POST",
            "/api/v1/login",
            None,
            Some(json!({"email": email, "password": password, "captcha": captcha})),
            ip,
        )
        .await
    }

    /// Full login; returns the session token and the answer.
    pub async fn login(&self, email: &str, password: &str) -> (String, Value) {
        let done = self.sign_in_steps(email, password).await;
        (done.session, done.body)
    }

    /// A sign-in's two steps, with each secret they handle.
    pub async fn sign_in_steps(&self, email: &str, password: &str) -> SignIn {
        let step1 = self.login_step1(email, password).await;
        assert_eq!(step1.status, StatusCode::OK, "{}", step1.body);
        let verify = step1.body["token"].as_str().unwrap().to_string();
        let code = self.last_code(email);
        let done = self
            .call(
                "POST",
                "/api/v1/verifycode",
                Some(&verify),
                Some(json!({"code": code})),
            )
            .await;
        assert_eq!(done.status, StatusCode::OK, "{}", done.body);
        SignIn {
            session: done.body["token"].as_str().unwrap().to_string(),
            verify,
            code,
            body: done.body,
        }
    }
}

/// A finished sign-in: the verify token of step 1, the mailed code, the session token and the
/// answer of step 2.
pub struct SignIn {
    pub verify: String,
    pub code: String,
    pub session: String,
    pub body: Value,
}

/// A test that cannot run here for want of `what` says so and passes, except under the test
/// command (`REQUIRE_TEST_TOOLS`), which installs every tool: there it fails, so a missing tool
/// is never a pass no one sees. `root` marks what only root can do (mounting a small disk),
/// which fails there only when running as root.
pub fn cannot_run(what: &str, root: bool) {
    use std::os::unix::fs::MetadataExt;
    let as_root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
    let required = std::env::var_os("REQUIRE_TEST_TOOLS").is_some() && (!root || as_root);
    assert!(
        !required,
        "{what}, under the test command, which provides it"
    );
    eprintln!("SKIPPED: {what}");
}

/// The `digits`-digit code of the newest mail to `to` in an outbox folder.
pub fn newest_code(outbox: &std::path::Path, to: &str, digits: usize) -> String {
    let mut mails: Vec<_> = std::fs::read_dir(outbox)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap()))
        .filter(|(_, text)| text.contains(&format!("To: {to}")))
        .collect();
    // The server names outbox mails in sending order.
    mails.sort_by(|(a, _), (b, _)| a.cmp(b));
    let text = &mails.last().expect("a mail").1;
    let body = text.split("\r\n\r\n").nth(1).unwrap();
    body.split(|c: char| !c.is_ascii_digit())
        .find(|w| w.len() == digits)
        .expect("a code")
        .to_string()
}
