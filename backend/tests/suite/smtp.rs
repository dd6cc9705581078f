//! The SMTP path, for real: a local SMTP sink (Python's aiosmtpd, installed by
//! `scripts/setup.sh --test`) on loopback receives a code mail sent through lettre.

use crate::common::process::free_port;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use lvlx_backend::config::{Smtp, SmtpTls};
use lvlx_backend::mail::Mailer;
use lvlx_backend::Config;

struct Sink(Child);

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn a_code_mail_reaches_an_smtp_server() {
    let dir = tempfile::tempdir().unwrap();
    let maildir = dir.path().join("maildir");
    let port = free_port();
    let sink = Sink(
        Command::new("python3")
            .args([
                "-m",
                "aiosmtpd",
                "-n",
                "-l",
                &format!("127.0.0.1:{port}"),
                "-c",
                "aiosmtpd.handlers.Mailbox",
            ])
            .arg(&maildir)
            .spawn()
            .expect("python3 with aiosmtpd (scripts/setup.sh --test installs it)"),
    );
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "the SMTP sink did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let config = Config {
        data_dir: dir.path().join("data"),
        locales_dir: concat!(env!("CARGO_MANIFEST_DIR"), "/../locales").into(),
        smtp: Some(Smtp {
            host: "127.0.0.1".into(),
            port,
            tls: SmtpTls::None,
            username: None,
            password: None,
        }),
        ..Config::default()
    };
    let mailer = Mailer::new(&config).unwrap();
    mailer
        .send_code("ana@example.com", "pt", "login", "4821")
        .await
        .unwrap();
    let new = maildir.join("new");
    let mails: Vec<String> = std::fs::read_dir(&new)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(mails.len(), 1);
    let mail = &mails[0];
    assert!(mail.contains("To: ana@example.com"));
    assert!(mail.contains("4821"), "{mail}");
    assert!(
        !config.data_dir.join("outbox").exists(),
        "with SMTP configured nothing goes to the outbox"
    );
    drop(sink);
}
