//! Outgoing mail: SMTP through lettre when configured, otherwise an .eml file per message in the
//! data folder's outbox (and a log line saying where). Texts come from locales/, so a message is
//! in the recipient's language.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lettre::message::{Mailbox, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{FileTransport, Message, SmtpTransport, Transport};

use crate::config::{Config, SmtpTls};
use crate::error::Error;

#[derive(Clone)]
enum Delivery {
    Smtp(SmtpTransport),
    Outbox(PathBuf),
}

#[derive(Clone)]
pub struct Mailer {
    from: Mailbox,
    transport: Delivery,
    /// Every language's texts, shared: the app (and so the mailer) is cloned per request.
    texts: std::sync::Arc<HashMap<String, HashMap<String, String>>>,
    product: String,
}

#[derive(Debug, thiserror::Error)]
pub enum MailSetupError {
    #[error("mail_from is not an address: {0}")]
    From(String),
    #[error("smtp: {0}")]
    Smtp(String),
    #[error("cannot read translations {0}: {1}")]
    Texts(String, String),
    #[error("cannot create the outbox {0}: {1}")]
    Outbox(String, std::io::Error),
}

impl Mailer {
    pub fn new(config: &Config) -> Result<Mailer, MailSetupError> {
        let from = config
            .mail_from
            .parse()
            .map_err(|e| MailSetupError::From(format!("{e}")))?;
        let transport = match &config.smtp {
            Some(smtp) => {
                let builder = match smtp.tls {
                    SmtpTls::None => SmtpTransport::builder_dangerous(&smtp.host),
                    SmtpTls::Starttls => SmtpTransport::starttls_relay(&smtp.host)
                        .map_err(|e| MailSetupError::Smtp(e.to_string()))?,
                    SmtpTls::Tls => SmtpTransport::relay(&smtp.host)
                        .map_err(|e| MailSetupError::Smtp(e.to_string()))?,
                };
                let mut builder = builder.port(smtp.port);
                if let (Some(user), Some(password)) = (&smtp.username, &smtp.password) {
                    builder = builder.credentials(Credentials::new(
                        user.clone(),
                        password.expose().to_string(),
                    ));
                }
                Delivery::Smtp(builder.build())
            }
            None => {
                let outbox = config.data_dir.join("outbox");
                std::fs::create_dir_all(&outbox)
                    .map_err(|e| MailSetupError::Outbox(outbox.display().to_string(), e))?;
                Delivery::Outbox(outbox)
            }
        };
        Ok(Mailer {
            from,
            transport,
            texts: std::sync::Arc::new(load_texts(&config.locales_dir)?),
            product: config.product.clone(),
        })
    }

    fn text(&self, language: &str, key: &str, values: &[(&str, &str)]) -> String {
        let table = self.texts.get(language).or_else(|| self.texts.get("en"));
        let mut text = table
            .and_then(|t| t.get(key))
            .cloned()
            .unwrap_or_else(|| key.to_string());
        for (name, value) in values
            .iter()
            .chain([("product", self.product.as_str())].iter())
        {
            text = text.replace(&format!("{{{{{name}}}}}"), value);
        }
        text
    }

    /// Sends an email code for `purpose` ("login" | "register" | "recover" | "claim").
    pub async fn send_code(
        &self,
        to: &str,
        language: &str,
        purpose: &str,
        code: &str,
    ) -> Result<(), Error> {
        let subject = self.text(language, &format!("mail-{purpose}-subject"), &[]);
        let body = self.text(language, &format!("mail-{purpose}-body"), &[("code", code)]);
        self.send(to, subject, body).await
    }

    /// Sends the notice `kind` (mail-{kind}-subject and -body), which carries no code.
    pub async fn send_notice(&self, to: &str, language: &str, kind: &str) -> Result<(), Error> {
        let subject = self.text(language, &format!("mail-{kind}-subject"), &[]);
        let body = self.text(language, &format!("mail-{kind}-body"), &[]);
        self.send(to, subject, body).await
    }

    async fn send(&self, to: &str, subject: String, body: String) -> Result<(), Error> {
        let to_box: Mailbox = to
            .parse()
            .map_err(|_| Error::Internal("recipient address".into()))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to_box)
            .subject(subject)
            .singlepart(SinglePart::plain(body))
            .map_err(|e| Error::Internal(format!("mail: {e}")))?;
        let transport = self.transport.clone();
        let sent = tokio::task::spawn_blocking(move || match transport {
            Delivery::Smtp(smtp) => smtp.send(&message).map(|_| ()).map_err(|e| Error::Internal(format!("smtp: {e}"))),
            Delivery::Outbox(dir) => {
                let id = FileTransport::new(&dir).send(&message).map_err(|e| Error::Internal(format!("outbox: {e}")))?;
                // Named in sending order (lettre names files by a random id, and file times tie
                // within a clock tick), so the newest mail is the last name.
                let sent = dir.join(format!("{id}.eml"));
                let ordered = dir.join(format!("{:020}-{id}.eml", next_in_order()));
                std::fs::rename(&sent, &ordered).map_err(|e| Error::Internal(format!("outbox: {e}")))?;
                // The address is not logged, and never the code.
                tracing::info!(file = %ordered.display(), "mail written to the outbox (no SMTP configured)");
                Ok(())
            }
        })
        .await
        .map_err(|e| Error::Internal(format!("mail task: {e}")))
        .and_then(|sent| sent);
        match &sent {
            Ok(()) => crate::metrics::METRICS.mail_sent.inc(),
            Err(_) => crate::metrics::METRICS.mail_failures.inc(),
        };
        sent
    }
}

/// Every language's translations (`locales/<lng>/<lng>.json`), by language then key.
pub fn load_texts(dir: &Path) -> Result<HashMap<String, HashMap<String, String>>, MailSetupError> {
    lvlx_core::LANGUAGES
        .iter()
        .map(|lng| {
            let path = dir.join(lng).join(format!("{lng}.json"));
            let text = std::fs::read_to_string(&path)
                .map_err(|e| MailSetupError::Texts(path.display().to_string(), e.to_string()))?;
            let table = serde_json::from_str(&text)
                .map_err(|e| MailSetupError::Texts(path.display().to_string(), e.to_string()))?;
            Ok((lng.to_string(), table))
        })
        .collect()
}

/// A number that grows with every outbox mail, across restarts: the time in microseconds, or
/// one more than the last one handed out when the clock has not moved on.
fn next_in_order() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static LAST: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64);
    let mut last = LAST.load(Ordering::Relaxed);
    loop {
        let next = now.max(last + 1);
        match LAST.compare_exchange_weak(last, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next,
            Err(seen) => last = seen,
        }
    }
}
