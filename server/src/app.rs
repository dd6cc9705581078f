//! The composition root: the server's parts ([`App`]), assembled once at start from the
//! configuration and the store, and what each area of the domain is handed from them. The
//! domain never names the app: a handler passes a domain function the parts it takes (the
//! store, the configuration, the mailer, the hub …), or the small borrowed `Parts` an area
//! with many of them defines, built here by one method each.

use std::sync::Arc;

use lvlx_domain::{
    accounts, books, chain, crypto, faq, health, images, jwt, kyc, limits, live, mail, metrics,
    network, password, solvency, store, user, ChainReads, Config, Store,
};

/// The server's parts, assembled once at start: one shared [`Shared`], so that the clone each
/// route takes is one reference count (a deep copy of the keys and the mailer was an eighth of
/// a network card's time). Handlers hand a domain function the parts it takes, never the app.
#[derive(Clone)]
pub struct App(Arc<Shared>);

impl std::ops::Deref for App {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The app's parts. Holds no state a second instance would need (docs/architecture.md#scale): on
/// PostgreSQL even the per-IP rate limits are counted in the store.
pub struct Shared {
    pub config: Arc<Config>,
    pub store: Store,
    pub keys: jwt::Keys,
    /// Key for codes and captcha MACs, derived from the token key.
    pub mac_key: Arc<Vec<u8>>,
    pub passwords: password::Passwords,
    pub mailer: mail::Mailer,
    pub auth_limit: limits::PerIp,
    pub code_limit: limits::PerIp,
    /// Unauthenticated live-channel sockets, per IP and in all.
    pub sockets: limits::SocketGate,
    /// Chain reads shared across requests at a block (`chain::reads`).
    pub chain_reads: ChainReads,
    /// Turns to decode an uploaded image (`images::DECODES_AT_ONCE`).
    pub decodes: tokio::sync::Semaphore,
    /// Bytes of upload bodies held at once (`images::UPLOAD_BYTES`).
    pub uploads: tokio::sync::Semaphore,
    /// Authenticated live channels per account.
    pub channels: limits::Gate<user::UserId>,
    /// The last readiness answer and when it was checked (`GET /ready`).
    pub readiness: health::Readiness,
    /// Whether this instance's indexer moves (`chain::watch`).
    pub indexing: Arc<chain::watch::Watch>,
    /// Turns true when the server stops (SIGTERM, SIGINT): live channels close with 1001.
    pub stopping: tokio::sync::watch::Sender<bool>,
    /// Signs claim vouchers (its key never leaves the process).
    pub claim_signer: network::signer::ClaimSigner,
    /// Live pushes to open pages (indexed purchases).
    pub hub: live::Hub,
    /// Claims above this many LVLX base units need an approved identity (None = never).
    pub kyc_threshold: Option<lvlx_core::amount::Units>,
    /// The video provider's metadata, cached (FAQ).
    pub videos: faq::VideoCache,
    /// The public origins wallet-linking messages must name (`Config::origins`).
    pub origins: Vec<lvlx_core::siwe::Origin>,
    /// True while this instance checks the books (`books::schedule`).
    pub books_running: Arc<std::sync::atomic::AtomicBool>,
    /// The last solvency answer and when it was read (`solvency::read`).
    pub solvency: solvency::Cache,
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Keys(#[from] crypto::KeyError),
    #[error(transparent)]
    Mail(#[from] mail::MailSetupError),
    #[error("commission_levels_bps: {0}")]
    Levels(#[from] lvlx_core::network::NetworkError),
    #[error("{0}")]
    Config(String),
}

impl App {
    pub fn new(config: Config, store: Store) -> Result<App, StartError> {
        // The data folder holds the outbox and uploads on either backend (SQLite's file too).
        std::fs::create_dir_all(&config.data_dir).map_err(|e| {
            StartError::Config(format!("data_dir {}: {e}", config.data_dir.display()))
        })?;
        if config.database_url.is_some()
            && (config.jwt_secret.is_none() || config.claim_signing_key.is_none())
        {
            // Instances on one database must sign alike: a key generated into one machine's
            // data folder would void every other instance's sessions and vouchers.
            return Err(StartError::Config(
                "database_url is set: configure jwt_secret and claim_signing_key, the same on every instance".into(),
            ));
        }
        if config.database_url.is_some() && config.smtp.is_none() {
            // Each instance would keep the mail of the requests it handled in its own outbox:
            // members would get no codes from the others.
            tracing::error!(
                "database_url is set but smtp is not: several instances need an SMTP relay; mail now goes to this machine's {}/outbox only",
                config.data_dir.display()
            );
        }
        let secret = crypto::jwt_key(
            config.jwt_secret.as_ref().map(|s| s.expose()),
            &config.data_dir,
        )?;
        let mac_key = hex::decode(crypto::hmac_hex(&secret, &["lvlx mac key"])).expect("hex");
        lvlx_core::network::validate_levels(&config.commission_levels_bps)?;
        let claim_key = crypto::claim_key(
            config.claim_signing_key.as_ref().map(|s| s.expose()),
            &config.data_dir,
        )?;
        let claim_signer = network::signer::ClaimSigner::new(&claim_key)?;
        let kyc_threshold = kyc::claim_threshold(&config).map_err(StartError::Config)?;
        kyc::check_flow_url(&config).map_err(StartError::Config)?;
        let origins = config.origins().map_err(StartError::Config)?;
        // Instances sharing PostgreSQL share their per-IP counts; one SQLite instance keeps
        // them in memory, where they cost nothing.
        let per_ip = |per_minute: u32, bucket: &'static str| match store.dialect() {
            store::Dialect::Sqlite => limits::PerIp::per_minute(per_minute),
            store::Dialect::Postgres => limits::PerIp::shared(per_minute, bucket, store.clone()),
        };
        Ok(App(Arc::new(Shared {
            kyc_threshold,
            origins,
            videos: faq::VideoCache::default(),
            keys: jwt::Keys::new(&secret),
            mac_key: Arc::new(mac_key),
            passwords: password::Passwords::new(),
            mailer: mail::Mailer::new(&config)?,
            auth_limit: per_ip(config.auth_per_minute, "auth"),
            // Code checks: a few per form, far below guessing speed (3 tries void a code anyway).
            code_limit: per_ip(config.auth_per_minute.saturating_mul(3), "code"),
            hub: live::Hub::default(),
            sockets: limits::SocketGate::new(
                config.ws_unauthenticated_per_ip,
                config.ws_unauthenticated_total,
            ),
            chain_reads: ChainReads::default(),
            decodes: tokio::sync::Semaphore::new(images::DECODES_AT_ONCE),
            uploads: tokio::sync::Semaphore::new(images::UPLOAD_BYTES),
            channels: limits::Gate::new(config.live_channels_per_account, u32::MAX),
            claim_signer,
            stopping: tokio::sync::watch::channel(false).0,
            readiness: Default::default(),
            indexing: Default::default(),
            books_running: Default::default(),
            solvency: Default::default(),
            config: Arc::new(config),
            store,
        })))
    }

    /// The same app pushing through `hub`: set once at start, before the app is shared.
    pub fn with_hub(mut self, hub: live::Hub) -> Result<App, StartError> {
        let shared = Arc::get_mut(&mut self.0)
            .ok_or_else(|| StartError::Config("the app is shared already".into()))?;
        shared.hub = hub;
        Ok(self)
    }
}

impl App {
    /// What sign-in, registration and recovery work with.
    pub fn accounts(&self) -> accounts::Parts<'_> {
        accounts::Parts {
            store: &self.store,
            keys: &self.keys,
            mac_key: &self.mac_key,
            mailer: &self.mailer,
            passwords: &self.passwords,
            captcha_difficulty: self.config.captcha_difficulty,
        }
    }

    /// What a claim's request and confirmation work with.
    pub fn claims(&self) -> network::claims::Parts<'_> {
        network::claims::Parts {
            store: &self.store,
            config: &self.config,
            reads: &self.chain_reads,
            mac_key: &self.mac_key,
            kyc_threshold: self.kyc_threshold,
            code_limit: &self.code_limit,
            mailer: &self.mailer,
            claim_signer: &self.claim_signer,
        }
    }

    /// What the metrics read at scrape time.
    pub fn metrics(&self) -> metrics::Parts<'_> {
        metrics::Parts {
            store: &self.store,
            config: &self.config,
            reads: &self.chain_reads,
            solvency: &self.solvency,
            channels: &self.channels,
            indexing: &self.indexing,
        }
    }

    /// What the checks of the books work with (owned: a started check outlives its request).
    pub fn books(&self) -> books::schedule::Checks {
        books::schedule::Checks {
            store: self.store.clone(),
            config: self.config.clone(),
            running: self.books_running.clone(),
        }
    }
}

/// The parts an indexer works with: `Indexer::new(&app, &chain)`, `Indexer::spawn(&app)`.
impl From<&App> for chain::Parts {
    fn from(app: &App) -> Self {
        chain::Domain::parts(
            app.store.clone(),
            app.config.clone(),
            app.indexing.clone(),
            app.hub.clone(),
        )
    }
}
