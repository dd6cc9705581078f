//! The demo's identity provider (`lvlx demo identity`): a local stand-in for Persona that speaks
//! the part of its documented API the platform uses, so a member of the run command's demo can
//! verify and then claim end to end. It is the demo's, never a production part: `lvlx serve`
//! does not start it and gains no route from it; like Persona it can only tell the server an
//! outcome through the signed webhook (`POST /api/v1/kyc/webhook`), whose secret it shares with
//! the server's `[kyc]` section.
//!
//! - `GET /verify?inquiry-template-id=…&reference-id=…` is the hosted flow the member's
//!   dashboard opens (`[kyc] flow_url`): a page, in the browser's language, saying it is the
//!   demo's and not a real verification, where the member approves or declines.
//! - `POST /verify/decision` sends Persona's inquiry event (`inquiry.approved` or
//!   `inquiry.declined`, JSON:API as Persona posts it) signed with
//!   `Persona-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`, then returns the member to
//!   the platform's dashboard.

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use hmac::{Hmac, Mac};
use lvlx_config::{self as config, Config};
use sha2::Sha256;
use warp::http::{header, StatusCode};
use warp::hyper::body::Bytes;
use warp::Filter;

/// The inquiry template of the demo's provider: a `[kyc]` section with it is the demo's.
pub const TEMPLATE: &str = "itmpl_lvlx_demo";

/// Where the run command serves the demo's provider.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8091";

/// The hosted flow's path, and the decision's.
const FLOW: &str = "verify";
const DECISION: &str = "decision";

/// The longest reference or inquiry id taken (the server takes 200).
const ID_MAX: usize = 200;

/// What [`configure`] found or did to the configuration file's `[kyc]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setup {
    /// No provider was configured: the demo's is now, with a new webhook secret.
    Written,
    /// The demo's provider at this address was configured already.
    Demo,
    /// Another provider is configured (its flow URL): the demo's is not used.
    Other(String),
}

/// The hosted flow's URL of a provider listening on `listen`.
pub fn flow_url(listen: SocketAddr) -> String {
    format!("http://{listen}/{FLOW}")
}

/// Makes the demo's provider at `listen` the configured one when `config` has none, writing a
/// `[kyc]` section with a new random webhook secret into the configuration file `file` (created
/// if missing; the rest of the file is kept as written). Leaves a configured provider alone.
pub fn configure(file: &Path, config: &Config, listen: SocketAddr) -> Result<Setup, String> {
    if let Some(kyc) = &config.kyc {
        return Ok(
            if kyc.flow_url == flow_url(listen) && kyc.template_id == TEMPLATE {
                Setup::Demo
            } else {
                Setup::Other(kyc.flow_url.clone())
            },
        );
    }
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: {e}", file.display())),
    };
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| format!("{}: {e}", file.display()))?;
    let mut table = toml_edit::Table::new();
    table.decor_mut().set_prefix(
        "\n# The demo's identity provider (`lvlx demo identity`, started by scripts/run.sh): not a\n\
         # real verification. Replace this section with Persona's to verify for real.\n",
    );
    table["webhook_secret"] = toml_edit::value(format!("wbhsec_demo_{}", random_hex(24)));
    table["template_id"] = toml_edit::value(TEMPLATE);
    table["flow_url"] = toml_edit::value(flow_url(listen));
    doc["kyc"] = toml_edit::Item::Table(table);
    std::fs::write(file, doc.to_string()).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(Setup::Written)
}

fn random_hex(bytes: usize) -> String {
    use rand::RngCore;
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut buf);
    hex::encode(buf)
}

/// The demo's provider: the webhook it signs for, where it returns members, its words.
pub struct Provider {
    secret: String,
    template_id: String,
    webhook_url: String,
    return_url: String,
    /// Language → the `demo-kyc-*` translations.
    texts: BTreeMap<&'static str, HashMap<String, String>>,
}

impl Provider {
    /// The provider of `kyc` (the server's `[kyc]`), posting to the platform at `site`
    /// (`http://127.0.0.1:8080`) and reading its words from `locales_dir`.
    pub fn new(kyc: &config::Kyc, site: &str, locales_dir: &Path) -> Result<Provider, String> {
        let site = site.trim_end_matches('/');
        let mut texts = BTreeMap::new();
        for lng in lvlx_core::LANGUAGES {
            let path = locales_dir.join(lng).join(format!("{lng}.json"));
            let all: HashMap<String, String> = std::fs::read_to_string(&path)
                .map_err(|e| e.to_string())
                .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let mine = all
                .into_iter()
                .filter(|(k, _)| k.starts_with("demo-kyc-"))
                .collect();
            texts.insert(lng, mine);
        }
        Ok(Provider {
            secret: kyc.webhook_secret.expose().to_string(),
            template_id: kyc.template_id.clone(),
            webhook_url: format!("{site}/api/v1/kyc/webhook"),
            return_url: format!("{site}/dashboard#kyc"),
            texts,
        })
    }

    /// The translation of `key` in `lng` with its `{{placeholders}}` filled, HTML-escaped.
    fn text(&self, lng: &str, key: &str, values: &[(&str, &str)]) -> String {
        let mut text = self
            .texts
            .get(lng)
            .and_then(|t| t.get(key))
            .or_else(|| self.texts.get("en").and_then(|t| t.get(key)))
            .cloned()
            .unwrap_or_else(|| key.to_string());
        for (name, value) in values {
            text = text.replace(&format!("{{{{{name}}}}}"), value);
        }
        escape(&text)
    }

    /// A whole page in `lng`: the demo's badge, its title and warning, then `body`.
    fn page(&self, lng: &str, body: &str) -> String {
        let title = self.text(lng, "demo-kyc-title", &[]);
        let warning = self.text(lng, "demo-kyc-warning", &[]);
        format!(
            "<!doctype html>\n<html lang=\"{lng}\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{title}</title><style>{STYLE}</style></head><body><main>\
             <h1>{title}</h1><p class=\"warning\" role=\"note\" data-testid=\"demo-kyc-warning\">{warning}</p>\
             {body}</main></body></html>\n"
        )
    }

    /// The hosted flow for the inquiry of `reference`, with a new inquiry id.
    fn flow(&self, lng: &str, query: &HashMap<String, String>) -> (StatusCode, String) {
        let template = query.get("inquiry-template-id").map(String::as_str);
        let reference = query.get("reference-id").map(String::as_str).unwrap_or("");
        if template != Some(self.template_id.as_str()) || !valid_id(reference) {
            let bad = self.text(lng, "demo-kyc-bad-link", &[]);
            let body = format!("<p role=\"alert\">{bad}</p>");
            return (StatusCode::BAD_REQUEST, self.page(lng, &body));
        }
        let inquiry = format!("inq_{}", random_hex(12));
        let hidden = |name: &str, value: &str| {
            format!(
                "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
                escape(value)
            )
        };
        let body = format!(
            "<p>{reference_line}</p><form method=\"post\" action=\"/{FLOW}/{DECISION}\">\
             {h1}{h2}{h3}{h4}<p>{choose}</p><p class=\"actions\">\
             <button type=\"submit\" name=\"decision\" value=\"approved\">{approve}</button>\
             <button type=\"submit\" name=\"decision\" value=\"declined\" class=\"secondary\">{decline}</button>\
             </p></form>",
            reference_line = self.text(lng, "demo-kyc-reference", &[("reference", reference)]),
            h1 = hidden("inquiry-template-id", &self.template_id),
            h2 = hidden("reference-id", reference),
            h3 = hidden("inquiry-id", &inquiry),
            h4 = hidden("lng", lng),
            choose = self.text(lng, "demo-kyc-choose", &[]),
            approve = self.text(lng, "demo-kyc-approve", &[]),
            decline = self.text(lng, "demo-kyc-decline", &[]),
        );
        (StatusCode::OK, self.page(lng, &body))
    }

    /// The member's decision: Persona's event for it, signed, posted to the platform; then the
    /// member goes back to it (303), or reads why the platform did not take it (502).
    async fn decide(self: Arc<Self>, form: HashMap<String, String>) -> warp::reply::Response {
        let (lng, signed) = self.sign_decision(&form);
        let Some((signature, body)) = signed else {
            let bad = self.text(&lng, "demo-kyc-bad-link", &[]);
            let body = format!("<p role=\"alert\">{bad}</p>");
            return html(StatusCode::BAD_REQUEST, self.page(&lng, &body));
        };
        let url = self.webhook_url.clone();
        let sent = tokio::task::spawn_blocking(move || post(&url, &signature, body))
            .await
            .unwrap_or_else(|e| Err(e.to_string()));
        match sent {
            Ok(()) => warp::http::Response::builder()
                .status(StatusCode::SEE_OTHER)
                .header(header::LOCATION, self.return_url.as_str())
                .body(Bytes::new().into())
                .expect("a redirect"),
            Err(status) => {
                let failed = self.text(&lng, "demo-kyc-not-delivered", &[("status", &status)]);
                let back = self.text(&lng, "demo-kyc-back", &[]);
                let body = format!(
                    "<p role=\"alert\">{failed}</p><p><a href=\"{}\">{back}</a></p>",
                    escape(&self.return_url)
                );
                html(StatusCode::BAD_GATEWAY, self.page(&lng, &body))
            }
        }
    }

    /// The page's language, and the decision's event with its signature (`None` when the form is
    /// not one the demo's page sends).
    fn sign_decision(&self, form: &HashMap<String, String>) -> (String, Option<(String, String)>) {
        let field = |name: &str| form.get(name).map(String::as_str).unwrap_or("");
        let lng = lvlx_core::language_or(Some(field("lng")), "en").to_string();
        let name = match field("decision") {
            "approved" => "inquiry.approved",
            "declined" => "inquiry.declined",
            _ => return (lng, None),
        };
        let (reference, inquiry) = (field("reference-id"), field("inquiry-id"));
        if field("inquiry-template-id") != self.template_id
            || !valid_id(reference)
            || !valid_id(inquiry)
        {
            return (lng, None);
        }
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        let body = event(
            &format!("evt_{}", random_hex(12)),
            name,
            now_ms,
            inquiry,
            reference,
        );
        let signature = signature(&self.secret, now_ms / 1000, body.as_bytes());
        (lng, Some((signature, body)))
    }
}

/// Persona's inquiry event as its webhook posts it (JSON:API): `name` about inquiry `inquiry`
/// of `reference`, created at `at_ms`.
pub fn event(id: &str, name: &str, at_ms: i64, inquiry: &str, reference: &str) -> String {
    let created = chrono::DateTime::from_timestamp_millis(at_ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let status = name.trim_start_matches("inquiry.");
    serde_json::json!({"data": {"type": "event", "id": id, "attributes": {
    "name": name,
    "created-at": created,
    "payload": {"data": {"type": "inquiry", "id": inquiry, "attributes": {
        "status": status,
        "reference-id": reference,
        "inquiry-template-id": TEMPLATE,
    }}}}}})
    .to_string()
}

/// Persona's `Persona-Signature` header for `body` sent at `t` (unix seconds).
pub fn signature(secret: &str, t: i64, body: &[u8]) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(format!("{t}.").as_bytes());
    mac.update(body);
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

/// Posts the signed event; `Err` holds the answer's status (or why there was none).
fn post(url: &str, signature: &str, body: String) -> Result<(), String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(std::time::Duration::from_secs(10)))
        .http_status_as_error(false)
        .build()
        .into();
    let answer = agent
        .post(url)
        .header("content-type", "application/json")
        .header("persona-signature", signature)
        .send(body)
        .map_err(|e| e.to_string())?;
    let status = answer.status();
    if status.is_success() {
        Ok(())
    } else {
        Err(status.as_u16().to_string())
    }
}

/// A reference or inquiry id as the demo makes and takes them: 1–200 of `[A-Za-z0-9_-]`.
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= ID_MAX
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn html(status: StatusCode, page: String) -> warp::reply::Response {
    warp::http::Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
        .header(header::CACHE_CONTROL, "no-store")
        .body(Bytes::from(page).into())
        .expect("a page")
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0;background:#f4f4f6;color:#1d1d1f}\
main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px}\
h1{font-size:1.4rem}.warning{background:#fff4d6;border:2px solid #b7791f;padding:.75rem;border-radius:8px}\
.actions{display:flex;flex-wrap:wrap;gap:.75rem}button{font-size:1rem;padding:.7rem 1.2rem;border-radius:8px;\
border:0;background:#1d4ed8;color:#fff;cursor:pointer}button.secondary{background:#6b7280}";

/// Serves `provider` on `listener` until `shutdown` resolves.
pub async fn serve(
    provider: Provider,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) {
    let provider = Arc::new(provider);
    let with = {
        let provider = provider.clone();
        warp::any().map(move || provider.clone())
    };
    let language = warp::header::optional::<String>("accept-language")
        .map(|h: Option<String>| lvlx_core::preferred_language(h.as_deref()).to_string());
    // GET /verify
    let flow = warp::path!("verify")
        .and(warp::get())
        .and(language)
        .and(warp::query::<HashMap<String, String>>())
        .and(with.clone())
        .map(
            |lng: String, query: HashMap<String, String>, p: Arc<Provider>| {
                let (status, page) = p.flow(&lng, &query);
                html(status, page)
            },
        );
    // POST /verify/decision
    let decision = warp::path!("verify" / "decision")
        .and(warp::post())
        .and(warp::body::content_length_limit(16 * 1024))
        .and(warp::body::form::<HashMap<String, String>>())
        .and(with)
        .then(|form, p: Arc<Provider>| p.decide(form));
    warp::serve(flow.or(decision).unify())
        .incoming(listener)
        .graceful(shutdown)
        .run()
        .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_signs_as_persona_does() {
        // The header the server's check (lvlx_core::kyc::webhook::verify_signature) takes: t and
        // v1 of HMAC-SHA256 over "t.body"; a known vector.
        let header = signature("wbhsec_x", 1_790_000_000, b"{}");
        let mut mac = Hmac::<Sha256>::new_from_slice(b"wbhsec_x").unwrap();
        mac.update(b"1790000000.{}");
        let want = hex::encode(mac.finalize().into_bytes());
        assert_eq!(header, format!("t=1790000000,v1={want}"));
        let body = event(
            "evt_1",
            "inquiry.approved",
            1_795_428_000_000,
            "inq_1",
            "ref",
        );
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["data"]["attributes"]["name"], "inquiry.approved");
        assert_eq!(
            v["data"]["attributes"]["created-at"],
            "2026-11-23T10:00:00.000Z"
        );
        let inquiry = &v["data"]["attributes"]["payload"]["data"];
        assert_eq!(inquiry["type"], "inquiry");
        assert_eq!(inquiry["attributes"]["reference-id"], "ref");
    }

    #[test]
    fn configuring_writes_a_section_once_and_leaves_another_provider_alone() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("lvlx.toml");
        std::fs::write(&file, "log = \"warn\"\n").unwrap();
        let listen: SocketAddr = DEFAULT_LISTEN.parse().unwrap();
        let config = Config::default();
        assert_eq!(configure(&file, &config, listen), Ok(Setup::Written));
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.starts_with("log = \"warn\"\n"), "{text}");
        let written: toml::Table = toml::from_str(&text).unwrap();
        let kyc: config::Kyc = written["kyc"].clone().try_into().unwrap();
        assert_eq!(kyc.flow_url, "http://127.0.0.1:8091/verify");
        assert!(kyc.webhook_secret.expose().len() > 40);
        let configured = Config {
            kyc: Some(kyc.clone()),
            ..Config::default()
        };
        assert_eq!(configure(&file, &configured, listen), Ok(Setup::Demo));
        let persona = Config {
            kyc: Some(config::Kyc {
                flow_url: "https://withpersona.com/verify".into(),
                ..kyc
            }),
            ..Config::default()
        };
        assert_eq!(
            configure(&file, &persona, listen),
            Ok(Setup::Other("https://withpersona.com/verify".into()))
        );
    }

    #[test]
    fn ids_and_text_are_kept_to_what_the_page_can_show() {
        assert!(valid_id("0123abcdef"));
        assert!(!valid_id(""));
        assert!(!valid_id("a\"><script>"));
        assert!(!valid_id(&"a".repeat(201)));
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[tokio::test]
    async fn the_hosted_flow_says_it_is_the_demos_in_the_browsers_language() {
        let kyc = config::Kyc {
            webhook_secret: config::Secret::new("wbhsec_x"),
            template_id: TEMPLATE.into(),
            environment_id: String::new(),
            flow_url: String::new(),
            tolerance_secs: 300,
        };
        let locales = Path::new(env!("CARGO_MANIFEST_DIR")).join("../locales");
        let provider = Provider::new(&kyc, "http://127.0.0.1:9/", &locales).unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(serve(provider, listener, std::future::pending()));
        let get = move |query: String, language: &'static str| {
            tokio::task::spawn_blocking(move || {
                let agent: ureq::Agent = ureq::Agent::config_builder()
                    .http_status_as_error(false)
                    .build()
                    .into();
                let mut answer = agent
                    .get(format!("http://{addr}/verify?{query}"))
                    .header("accept-language", language)
                    .call()
                    .unwrap();
                let status = answer.status().as_u16();
                (status, answer.body_mut().read_to_string().unwrap())
            })
        };
        let (status, page) = get(
            format!("inquiry-template-id={TEMPLATE}&reference-id=abc123"),
            "es-MX,es;q=0.9",
        )
        .await
        .unwrap();
        assert_eq!(status, 200);
        assert!(page.contains("<html lang=\"es\">"), "{page}");
        assert!(page.contains("Proveedor de identidad de la demostración"));
        assert!(page.contains("name=\"reference-id\" value=\"abc123\""));
        let (status, _) = get("inquiry-template-id=itmpl_x&reference-id=abc".into(), "en")
            .await
            .unwrap();
        assert_eq!(status, 400);
        let (status, page) = get(
            format!("inquiry-template-id={TEMPLATE}&reference-id=%3Cscript%3E"),
            "en",
        )
        .await
        .unwrap();
        assert_eq!(status, 400);
        assert!(!page.contains("<script>"));
    }
}
