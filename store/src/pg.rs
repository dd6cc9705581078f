//! PostgreSQL behind the store: kept client connections, their statements prepared
//! once each, the schema's migrations applied at start under an advisory lock (two instances
//! starting at once apply each once).
//!
//! The client is tokio-postgres; its connections run as tasks on the server's runtime. Store
//! functions are synchronous and run on tokio's blocking pool (as on SQLite), where they wait
//! for the client's answers with `Handle::block_on`, so one function serves both backends.
//!
//! Writes: one writing connection per instance, and every write of every instance holds
//! [`WRITE_LOCK`] while it runs, so writes keep SQLite's one-at-a-time order (the domain reads a
//! balance and writes the next one; two instances must not interleave there). Reads run on
//! their own connections beside them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use futures_util::StreamExt;
use tokio::runtime::Handle;
use tokio_postgres::{Client, NoTls, Statement};

use super::sql::{postgres_text, Arg, Row};
use super::{Conn, OpenError, Result, StoreError};

/// The advisory lock every instance's writes hold (an arbitrary 63-bit key: "LVLXwrit").
pub const WRITE_LOCK: i64 = 0x4C56_4C58_7772_6974;
/// The advisory lock migrations hold at start.
const MIGRATE_LOCK: i64 = 0x4C56_4C58_6D69_6772;

/// One client connection and the statements it has prepared. Its methods block: call them on
/// the blocking pool (or any thread outside the runtime), never on the runtime's own threads.
pub struct Session {
    client: Client,
    handle: Handle,
    statements: HashMap<String, Statement>,
    /// Open transactions: the outermost is BEGIN, the ones inside it savepoints.
    depth: u32,
}

fn params<'a>(args: &'a [Arg<'a>]) -> Vec<&'a (dyn tokio_postgres::types::ToSql + Sync)> {
    args.iter()
        .map(|a| a as &(dyn tokio_postgres::types::ToSql + Sync))
        .collect()
}

impl Session {
    /// Connects (from a blocking thread of `handle`'s runtime); the connection's task runs there.
    pub fn connect(config: &tokio_postgres::Config, handle: &Handle) -> Result<Session> {
        let (client, connection) = handle.block_on(config.connect(NoTls))?;
        handle.spawn(async move {
            if let Err(e) = connection.await {
                tracing::warn!(error = %e, "database connection ended");
            }
        });
        Ok(Session {
            client,
            handle: handle.clone(),
            statements: HashMap::new(),
            depth: 0,
        })
    }

    fn statement(&mut self, sql: &str) -> Result<Statement> {
        if let Some(s) = self.statements.get(sql) {
            return Ok(s.clone());
        }
        let statement = self
            .handle
            .block_on(self.client.prepare(&postgres_text(sql)))?;
        self.statements.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }

    pub fn execute(&mut self, sql: &str, args: &[Arg]) -> Result<usize> {
        let statement = self.statement(sql)?;
        let n = self
            .handle
            .block_on(self.client.execute(&statement, &params(args)))?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    pub fn batch(&mut self, sql: &str) -> Result<()> {
        Ok(self.handle.block_on(self.client.batch_execute(sql))?)
    }

    pub fn query_opt(&mut self, sql: &str, args: &[Arg]) -> Result<Option<tokio_postgres::Row>> {
        let statement = self.statement(sql)?;
        // The first row only, as SQLite's stepping does (no error for a second row).
        let client = &self.client;
        Ok(self.handle.block_on(async {
            let rows = client.query_raw(&statement, params(args)).await?;
            let mut rows = std::pin::pin!(rows);
            rows.next().await.transpose()
        })?)
    }

    /// Rows as they arrive from the server, not all held at once (10^6-row admin reads).
    pub fn query_each(
        &mut self,
        sql: &str,
        args: &[Arg],
        mut each: impl FnMut(&Row) -> Result<()>,
    ) -> Result<()> {
        let statement = self.statement(sql)?;
        let rows = self
            .handle
            .block_on(self.client.query_raw(&statement, params(args)))?;
        let mut rows = std::pin::pin!(rows);
        while let Some(r) = self.handle.block_on(rows.next()) {
            each(&Row::Postgres(&r?))?;
        }
        Ok(())
    }

    /// `COPY … FROM STDIN`: `fill` hands the rows' text to the server in chunks; answers how
    /// many rows were copied. A failure in `fill` abandons the copy.
    pub fn copy_in(
        &mut self,
        sql: &str,
        fill: impl FnOnce(&mut dyn FnMut(bytes::Bytes) -> Result<()>) -> Result<()>,
    ) -> Result<u64> {
        use futures_util::SinkExt;
        let handle = self.handle.clone();
        let sink = handle.block_on(self.client.copy_in::<_, bytes::Bytes>(sql))?;
        let mut sink = Box::pin(sink);
        {
            let mut send = |chunk| Ok(handle.block_on(sink.as_mut().send(chunk))?);
            fill(&mut send)?;
        }
        Ok(handle.block_on(sink.as_mut().finish())?)
    }

    pub fn begin(&mut self) -> Result<()> {
        let sql = match self.depth {
            0 => "BEGIN".to_owned(),
            n => format!("SAVEPOINT s{n}"),
        };
        self.batch(&sql)?;
        self.depth += 1;
        Ok(())
    }

    pub fn commit(&mut self) -> Result<()> {
        self.depth = self.depth.saturating_sub(1);
        let sql = match self.depth {
            0 => "COMMIT".to_owned(),
            n => format!("RELEASE SAVEPOINT s{n}"),
        };
        self.batch(&sql)
    }

    pub fn rollback(&mut self) -> Result<()> {
        self.depth = self.depth.saturating_sub(1);
        let sql = match self.depth {
            0 => "ROLLBACK".to_owned(),
            n => format!("ROLLBACK TO SAVEPOINT s{n}"),
        };
        self.batch(&sql)
    }

    /// A connection left inside a transaction by a failure is not lent again as it is.
    fn reset(&mut self) -> Result<()> {
        if self.depth > 0 {
            self.depth = 0;
            self.batch("ROLLBACK")?;
        }
        Ok(())
    }

    fn is_closed(&self) -> bool {
        self.client.is_closed()
    }
}

/// Work only one instance may do at a time (the indexer): a session-level advisory lock, held
/// while its own connection lives, and that connection lives only while it is renewed. The
/// server ends a session idle for longer than the lease's time (`idle_session_timeout`), and a
/// task renews it several times within that time. An instance that dies, is frozen (SIGSTOP, a
/// stalled VM) or loses its host without closing its TCP connection stops renewing; the
/// database ends its session, and with it the lease, once that time has passed; another
/// instance takes it at its next try.
pub struct Lease {
    client: Arc<Client>,
    keeper: tokio::task::JoinHandle<()>,
}

impl Lease {
    /// Whether the lease is still this instance's (its connection answers).
    pub async fn held(&self) -> bool {
        !self.client.is_closed()
            && !self.keeper.is_finished()
            && self.client.simple_query("SELECT 1").await.is_ok()
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.keeper.abort();
    }
}

/// The writer holds the write lock that every instance's writes wait for. A writer whose process
/// freezes while it holds it (SIGSTOP, a stalled VM) is ended by the server after a minute, the
/// lock freed with its session, instead of stalling every instance until it wakes: inside a
/// transaction by `idle_in_transaction_session_timeout`; outside one (between the lock and its
/// BEGIN, between statements that commit one by one, after COMMIT) by `idle_session_timeout`,
/// which [`LOCK`] sets and [`UNLOCK`] puts back as the session had it (the role's or the
/// database's setting; none by default), so a writer idle between writes is kept.
const WRITER_LIMITS: &str = "SET idle_in_transaction_session_timeout = 60000";
/// One statement, so no freeze falls between the lock and its limit.
const LOCK: &str =
    "SELECT set_config('idle_session_timeout', '60000', false), pg_advisory_lock(?1)";
const UNLOCK: &str = "SELECT pg_advisory_unlock(?1), set_config(name, reset_val, false)
     FROM pg_settings WHERE name = 'idle_session_timeout'";
/// The oldest server with `idle_session_timeout` (`server_version_num`).
const OLDEST_SERVER: i64 = 140_000;

/// Whether a server of `server_version_num` has what the write lock needs.
fn supported(server_version_num: &str) -> bool {
    server_version_num.parse::<i64>().unwrap_or(0) >= OLDEST_SERVER
}

/// The instance's connections: one writer, up to `readers` readers.
pub struct Pool {
    config: tokio_postgres::Config,
    handle: Handle,
    writer: Mutex<RefCell<Session>>,
    readers: Mutex<Vec<RefCell<Session>>>,
    keep: usize,
    pub(super) permits: Arc<tokio::sync::Semaphore>,
}

impl Pool {
    /// Connects and migrates; call from a blocking thread of the runtime that will run it.
    pub fn open(url: &str, readers: usize, handle: Handle) -> Result<Pool, OpenError> {
        let config = tokio_postgres::Config::from_str(url).map_err(StoreError::from)?;
        let mut writer = Session::connect(&config, &handle)?;
        let version = writer
            .query_opt("SHOW server_version_num", crate::args![])?
            .map(|row| row.get::<_, String>(0))
            .unwrap_or_default();
        if !supported(&version) {
            return Err(OpenError::PostgresTooOld(version));
        }
        migrate(&mut writer)?;
        writer.batch(WRITER_LIMITS)?;
        Ok(Pool {
            config,
            handle,
            writer: Mutex::new(RefCell::new(writer)),
            readers: Mutex::new(Vec::new()),
            keep: readers,
            permits: Arc::new(tokio::sync::Semaphore::new(readers)),
        })
    }

    /// Takes the lease `key` if no other session holds it, for `ttl` at a time (at least 1 s).
    pub async fn try_lease(&self, key: i64, ttl: std::time::Duration) -> Result<Option<Lease>> {
        let ttl = ttl.max(std::time::Duration::from_secs(1));
        let (client, connection) = self.config.connect(NoTls).await?;
        tokio::spawn(connection);
        client
            .batch_execute(&format!("SET idle_session_timeout = {}", ttl.as_millis()))
            .await?;
        let row = client
            .query_one("SELECT pg_try_advisory_lock($1)", &[&key])
            .await?;
        if !row.get::<_, bool>(0) {
            return Ok(None);
        }
        let client = Arc::new(client);
        let renewed = client.clone();
        let keeper = tokio::spawn(async move {
            let mut every = tokio::time::interval(ttl / 4);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                if renewed.simple_query("SELECT 1").await.is_err() {
                    return;
                }
            }
        });
        Ok(Some(Lease { client, keeper }))
    }

    /// A new connection of the pool's database (the snapshots keep one of their own).
    pub fn session(&self) -> Result<Session> {
        Session::connect(&self.config, &self.handle)
    }

    pub fn write<T, E: From<StoreError>>(
        &self,
        work: impl FnOnce(Conn<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        let writer = self
            .writer
            .lock()
            .map_err(|_| StoreError::Task("database lock poisoned".into()))?;
        {
            let mut session = writer.borrow_mut();
            let locked = session
                .reset()
                .and_then(|()| session.execute(LOCK, crate::args![WRITE_LOCK]));
            if let Err(e) = locked {
                // A session that still answers refused the lock itself (a `lock_timeout` on the
                // role, say): that is the answer. One that was ended (the database restarted,
                // or this instance frozen past the limit above) is replaced, and the lock taken
                // once more on the new one, before any work has run.
                if session.batch("SELECT 1").is_ok() {
                    return Err(e.into());
                }
                *session = self.writer()?;
                session.execute(LOCK, crate::args![WRITE_LOCK])?;
            }
        }
        let out = work(Conn::postgres(&writer));
        let mut session = writer.borrow_mut();
        let unlocked = session
            .reset()
            .and_then(|()| session.execute(UNLOCK, crate::args![WRITE_LOCK]));
        if let Err(e) = unlocked {
            // The work's answer stands (what it committed is committed); the lock must not
            // outlive it: the session is replaced, and the server frees its locks with it.
            tracing::warn!(error = %e, "the write lock's release failed: the writer reconnects");
            match self.writer() {
                Ok(new) => *session = new,
                Err(e) => tracing::warn!(error = %e, "the writer cannot reconnect"),
            }
        }
        out
    }

    /// A new writing connection, with its limits.
    fn writer(&self) -> Result<Session> {
        let mut session = self.session()?;
        session.batch(WRITER_LIMITS)?;
        Ok(session)
    }

    pub fn read<T, E: From<StoreError>>(
        &self,
        work: impl FnOnce(Conn<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        let pooled = self.readers.lock().ok().and_then(|mut pool| pool.pop());
        let session = match pooled {
            Some(s) if !s.borrow().is_closed() => s,
            _ => RefCell::new(self.session()?),
        };
        let out = work(Conn::postgres(&session));
        if session.borrow_mut().reset().is_ok() {
            if let Ok(mut pool) = self.readers.lock() {
                if pool.len() < self.keep {
                    pool.push(session);
                }
            }
        }
        out
    }
}

/// Applies the migrations the database has not seen, each in its own transaction, holding
/// [`MIGRATE_LOCK`] (another instance starting meanwhile waits, then finds them applied).
fn migrate(session: &mut Session) -> Result<()> {
    session.execute("SELECT pg_advisory_lock(?1)", crate::args![MIGRATE_LOCK])?;
    let result = apply(session);
    let unlocked = session.execute("SELECT pg_advisory_unlock(?1)", crate::args![MIGRATE_LOCK]);
    result.and(unlocked.map(|_| ()))
}

fn apply(session: &mut Session) -> Result<()> {
    session.batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version    BIGINT PRIMARY KEY,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )",
    )?;
    let at: i64 = match session.query_opt(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        crate::args![],
    )? {
        Some(row) => Row::Postgres(&row).get(0)?,
        None => 0,
    };
    for (version, sql) in super::migrations::POSTGRES.iter().filter(|(v, _)| *v > at) {
        session.begin()?;
        let applied = session.batch(sql).and_then(|()| {
            session.execute(
                "INSERT INTO schema_migrations (version) VALUES (?1)",
                crate::args![*version],
            )
        });
        match applied {
            Ok(_) => session.commit()?,
            Err(e) => {
                session.rollback()?;
                return Err(e);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// PostgreSQL 13 and older lack `idle_session_timeout` and are refused at open; 14 and later
    /// are served (no older server runs here: the rule is tested, not the refusal's path).
    #[test]
    fn a_server_older_than_14_is_refused() {
        for (version, served) in [
            ("130016", false),
            ("139999", false),
            ("", false),
            ("14beta", false),
            ("140000", true),
            ("160004", true),
            ("180000", true),
        ] {
            assert_eq!(super::supported(version), served, "{version}");
        }
    }
}
