//! What an operator watches: Prometheus metrics on their own address
//! (`metrics_bind`), never on the public one. One registry per process: the request loop, the
//! indexer, sign-in and mail count into it where things happen; figures that live elsewhere
//! (open live channels, the reward reserves' weeks) are read when Prometheus scrapes.
//! `deploy/prometheus/lvlx-rules.yml` holds the alerts over them.

use std::sync::atomic::AtomicU64;
use std::sync::LazyLock;
use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct Request {
    pub route: String,
    pub method: String,
    pub status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct Route {
    pub route: String,
}

/// The indexer's metrics are counted where it runs, below this crate; registered here.
pub use lvlx_chain::metrics::Kind;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct Pool {
    pub pool: String,
}

/// Registers each `name, help, metric;` in `registry`.
macro_rules! register {
    ($registry:ident; $($name:literal, $help:literal, $metric:expr;)*) => {
        $($registry.register($name, $help, $metric.clone());)*
    };
}

/// Every metric of the process.
pub struct Metrics {
    registry: Registry,
    pub requests: Family<Request, Counter>,
    pub latency: Family<Route, Histogram>,
    pub connections: Gauge,
    pub live_channels: Gauge,
    pub sign_in_failures: Counter,
    pub sign_in_refused: Counter,
    pub mail_sent: Counter,
    pub mail_failures: Counter,
    pub reserve_weeks: Family<Pool, Gauge>,
    pub reserve_warning_weeks: Gauge,
    pub indexer_lag_alert: Gauge,
    pub books_differences: Gauge,
    pub books_checked: Gauge,
    pub books_every: Gauge,
    pub claims_owed: Gauge<f64, AtomicU64>,
    pub distributor_held: Gauge<f64, AtomicU64>,
    pub claims_uncovered: Gauge,
}

fn latency_histogram() -> Histogram {
    Histogram::new([
        0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
    ])
}

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::with_prefix("lvlx");
        let m = Metrics {
            requests: Family::default(),
            latency: Family::new_with_constructor(latency_histogram),
            connections: Gauge::default(),
            live_channels: Gauge::default(),
            sign_in_failures: Counter::default(),
            sign_in_refused: Counter::default(),
            mail_sent: Counter::default(),
            mail_failures: Counter::default(),
            reserve_weeks: Family::default(),
            reserve_warning_weeks: Gauge::default(),
            indexer_lag_alert: Gauge::default(),
            books_differences: Gauge::default(),
            books_checked: Gauge::default(),
            books_every: Gauge::default(),
            claims_owed: Gauge::default(),
            distributor_held: Gauge::default(),
            claims_uncovered: Gauge::default(),
            registry: Registry::default(),
        };
        register_serving(&mut registry, &m);
        register_chain(&mut registry, &m);
        register_money(&mut registry, &m);
        Metrics { registry, ..m }
    }
}

/// The server's answers, its connections, sign-ins and mail.
fn register_serving(registry: &mut Registry, m: &Metrics) {
    register!(
        registry;
        "http_requests", "Requests answered, by route, method and status", m.requests;
        "http_request_duration_seconds",
            "Time from a request's head to its answer, by route",
            m.latency;
        "connections_open", "Client connections open now", m.connections;
        "live_channels_open", "Authenticated live channels open now", m.live_channels;
        "sign_in_failures", "Sign-ins refused for a wrong email or password", m.sign_in_failures;
        "sign_in_refused",
            "Sign-ins refused because their address failed too often",
            m.sign_in_refused;
        "mail_sent", "Mails handed to the relay (or the outbox)", m.mail_sent;
        "mail_failures", "Mails the relay (or the outbox) refused", m.mail_failures;
    );
}

/// The indexer and the chain it reads (its figures are the chain crate's, `lvlx_chain::metrics`).
fn register_chain(registry: &mut Registry, m: &Metrics) {
    let c = &*lvlx_chain::metrics::METRICS;
    register!(
        registry;
        "chain_head_block", "The chain's head as the indexer last read it", c.chain_head;
        "chain_final_block", "The highest block counted final", c.chain_final;
        "indexer_next_block", "The next block the indexer reads", c.indexer_next;
        "indexer_leader", "1 while this instance holds the indexer's lease", c.indexer_leader;
        "indexer_step_errors", "Indexer steps that failed, by kind", c.indexer_errors;
        "indexer_chain_mismatch",
            "1 while the indexer's node serves another chain than the one the store indexed (a chain reset, the wrong node): nothing is indexed",
            c.indexer_chain_mismatch;
        "indexer_stalled",
            "1 while the indexer has not moved for indexer_stall_secs with blocks left to read",
            c.indexer_stalled;
        "indexer_seconds_since_progress",
            "Seconds since the indexer last read a range or was caught up",
            c.indexer_idle_seconds;
        "indexer_final_reversals",
            "Events already counted final that a reorganisation deeper than finality took back",
            c.final_reversals;
        "indexer_lag_alert_blocks",
            "indexer_lag_alert_blocks: the indexer alert's threshold",
            m.indexer_lag_alert;
    );
}

/// Whether the platform holds what it owes: the reserves, the books, the claims.
fn register_money(registry: &mut Registry, m: &Metrics) {
    register!(
        registry;
        "reserve_weeks_covered",
            "Weeks of new stakes the free reward reserve covers at the last 30 days' pace, by pool",
            m.reserve_weeks;
        "reserve_warning_weeks",
            "chain.reserve_warning_weeks: the reserve alert's threshold",
            m.reserve_warning_weeks;
        "books_differences",
            "Lines the newest check of the books found differing from the chain",
            m.books_differences;
        "books_checked_timestamp_seconds",
            "When the newest check of the books that ran ended (0: never)",
            m.books_checked;
        "books_every_seconds",
            "books_every_hours in seconds: the stale-books alert's period (0: no schedule)",
            m.books_every;
        "claims_owed_lvlx",
            "LVLX members are owed: rewards credited less what the distributor paid them",
            m.claims_owed;
        "distributor_held_lvlx", "LVLX the claim distributor holds", m.distributor_held;
        "claims_uncovered",
            "1 while members are owed more LVLX than the distributor holds (compared exactly)",
            m.claims_uncovered;
    );
}

/// The process's metrics.
pub static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// A request's route for its labels: `/api/v1/` paths with ids, hashes, codes and languages
/// folded (so one label per endpoint, never one per member), everything else by its kind.
pub fn route(path: &str) -> String {
    let Some(rest) = path.strip_prefix("/api/v1/") else {
        return match path.split('/').nth(1) {
            Some("avatars") => "/avatars".into(),
            Some("content") => "/content".into(),
            Some("locales") => "/locales".into(),
            Some("static") | Some("guides") => "/static".into(),
            _ => "/app".into(),
        };
    };
    let mut out = String::from("/api/v1");
    for (i, part) in rest.split('/').take(4).enumerate() {
        let variable = part.is_empty()
            || part.chars().any(|c| c.is_ascii_digit())
            || part.len() > 24
            || (i > 0 && matches!(part, "en" | "es" | "pt"));
        out.push('/');
        out.push_str(if variable { ":id" } else { part });
    }
    out
}

/// Counts one answered request.
pub fn answered(path: &str, method: &str, status: u16, took: Duration) {
    // Paths nothing answers are one label, whatever they are; a refused request (401, 400,
    // 429 …) on a route with a parameter keeps the route's first segment only (a refusal can
    // come before its parameter is checked): a client cannot make labels.
    let route = match status {
        404 | 405 => "unrouted".to_string(),
        400..=499 => {
            let mut folded = route(path);
            if let Some(first) = folded.get(8..).and_then(|rest| rest.find('/')) {
                folded.truncate(8 + first);
                folded.push_str("/…");
            }
            folded
        }
        _ => route(path),
    };
    let method = match method {
        "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" => method,
        _ => "other",
    };
    METRICS
        .latency
        .get_or_create(&Route {
            route: route.clone(),
        })
        .observe(took.as_secs_f64());
    METRICS
        .requests
        .get_or_create(&Request {
            route,
            method: method.to_string(),
            status,
        })
        .inc();
}

/// What the metrics read at scrape time, borrowed from the server's parts (the layer above
/// builds it: `App::metrics`).
#[derive(Clone, Copy)]
pub struct Parts<'a> {
    pub store: &'a crate::Store,
    pub config: &'a crate::Config,
    pub reads: &'a crate::ChainReads,
    /// The last solvency answer (`solvency::read`).
    pub solvency: &'a crate::solvency::Cache,
    /// Authenticated live channels per account.
    pub channels: &'a crate::limits::Gate<crate::user::UserId>,
    /// Whether this instance's indexer moves.
    pub indexing: &'a crate::chain::watch::Watch,
}

/// The metrics as Prometheus scrapes them, with the figures read at scrape time brought up to
/// date first (the reserves within 2 s, or left as they were).
pub async fn render(parts: Parts<'_>) -> String {
    let m = &*METRICS;
    m.live_channels
        .set(i64::from(parts.channels.pending_total()));
    if let Some(chain) = &parts.config.chain {
        m.reserve_warning_weeks
            .set(chain.reserve_warning_weeks as i64);
        if let Ok(Ok(solvency)) = tokio::time::timeout(
            Duration::from_secs(2),
            crate::solvency::read(parts.store, parts.config, parts.reads, parts.solvency),
        )
        .await
        {
            for (pool, weeks) in solvency.weeks_covered() {
                if let Some(weeks) = weeks {
                    m.reserve_weeks
                        .get_or_create(&Pool { pool: pool.into() })
                        .set(weeks.min(i64::MAX as u64) as i64);
                }
            }
            // Gauges are floats: whole LVLX, for dashboards (the exact figures are the API's).
            let lvlx = |units: lvlx_core::amount::Units| {
                lvlx_core::amount::format_units(units, 18)
                    .ok()
                    .and_then(|t| t.parse::<f64>().ok())
            };
            let cover = solvency.cover();
            if let Some(owed) = lvlx(cover.owed) {
                m.claims_owed.set(owed);
            }
            if let Some(held) = cover.held.and_then(lvlx) {
                m.distributor_held.set(held);
            }
            m.claims_uncovered
                .set(i64::from(cover.covered == Some(false)));
        }
        // The period only where checks are scheduled (the stale-books alert reads it).
        m.books_every
            .set(parts.config.books_every_hours.saturating_mul(3600) as i64);
    }
    if let Ok(Some(check)) = parts.store.read(crate::store::books_checks::latest).await {
        books_checked(&check);
    }
    m.indexer_lag_alert
        .set(parts.config.indexer_lag_alert_blocks as i64);
    parts
        .indexing
        .check(crate::chain::watch::stall_after(parts.config));
    let mut text = String::new();
    if encode(&mut text, &m.registry).is_err() {
        tracing::warn!("metrics could not be encoded");
    }
    text
}

/// Sets the books' metrics from a check that ran (a check that could not run leaves them).
pub fn books_checked(check: &crate::store::books_checks::Check) {
    if check.lines > 0 {
        METRICS.books_differences.set(check.differences);
        METRICS.books_checked.set(check.at / 1000);
    }
}

#[cfg(test)]
mod tests {
    use super::{answered, route, METRICS};

    #[test]
    fn refusals_cannot_make_labels() {
        for name in ["zzzz", "yyyy", "xxxx"] {
            answered(
                &format!("/api/v1/content/{name}"),
                "GET",
                401,
                std::time::Duration::ZERO,
            );
            answered(
                &format!("/api/v1/{name}"),
                "GET",
                404,
                std::time::Duration::ZERO,
            );
            answered(
                &format!("/api/v1/admin/content/{name}/es"),
                "PUT",
                400,
                std::time::Duration::ZERO,
            );
        }
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &METRICS.registry).unwrap();
        assert!(!text.contains("zzzz") && !text.contains("yyyy"), "{text}");
        assert!(text.contains("route=\"/api/v1/content/…\""));
        assert!(text.contains("route=\"/api/v1/admin/…\""));
        assert!(text.contains("route=\"unrouted\""));
    }

    #[test]
    fn routes_fold_what_varies() {
        assert_eq!(route("/api/v1/health"), "/api/v1/health");
        assert_eq!(route("/api/v1/admin/users"), "/api/v1/admin/users");
        assert_eq!(
            route("/api/v1/admin/content/home/es"),
            "/api/v1/admin/content/home/:id"
        );
        assert_eq!(
            route("/api/v1/register/inviter/3f9a0c11aa"),
            "/api/v1/register/inviter/:id"
        );
        assert_eq!(
            route("/api/v1/admin/users/42/kyc"),
            "/api/v1/admin/users/:id/kyc"
        );
        assert_eq!(route("/avatars/12.png"), "/avatars");
        assert_eq!(route("/dashboard"), "/app");
        assert_eq!(route("/main.0123abcd.js"), "/app");
    }
}
