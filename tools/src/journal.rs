//! The deployment journal: one JSON object a line, written and flushed to disk as each
//! transaction of a deployment to a real network leaves (`sent`: its nonce and hash, known
//! before the node sees it) and as it is mined (`mined`: what it did, its hash, the contract it
//! created). A deployment that stops part way (a crash, a kill, a network gone) is run again
//! with the same command: what the journal holds is checked on the chain and skipped, and the
//! rest is sent, so one run or several leave one set of contracts.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// Why a journal cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("cannot read the journal {0}: {1}")]
    Read(String, String),
    #[error("cannot write the journal {0}: {1}")]
    Write(String, String),
    #[error("the journal {0} is not a deployment journal (line {1})")]
    Format(String, usize),
    #[error("the journal {path} is of another deployment ({key} {journal}, not {now}): run the same command as the one that wrote it, or move the journal away to start another deployment")]
    Other {
        path: String,
        key: String,
        journal: String,
        now: String,
    },
    #[error("step {step} of the journal {path} was \"{journal}\" but the deployment's step {step} is \"{now}\": the journal belongs to another version of the deployment")]
    Step {
        path: String,
        step: usize,
        journal: String,
        now: String,
    },
    #[error("the journal {path} records {what} as {hash}, but the chain {problem}")]
    Chain {
        path: String,
        what: String,
        hash: String,
        problem: String,
    },
}

/// One mined transaction as the journal holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mined {
    pub step: usize,
    pub nonce: u64,
    pub what: String,
    pub hash: String,
    /// The contract it created.
    pub address: Option<String>,
}

/// A transaction the journal saw leave but not mined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    pub step: usize,
    pub nonce: u64,
    pub what: String,
    pub hash: String,
}

/// A journal file: what it holds, and (unless read only, for a dry run) the file to add to.
#[derive(Debug)]
pub struct Journal {
    pub path: PathBuf,
    file: Option<File>,
    /// The first line: the chain, the deployer, the options, the deployer's first nonce.
    pub header: Value,
    pub mined: Vec<Mined>,
    /// The last transaction sent, when no `mined` line follows it.
    pub sent: Option<Sent>,
}

impl Journal {
    /// The journal at `path`, if there is one (`writable`: opened to add to).
    pub fn open(path: &Path, writable: bool) -> Result<Option<Journal>, JournalError> {
        let name = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(JournalError::Read(name, e.to_string())),
        };
        // A line cut short by the interruption itself (no newline yet) is as if unwritten, and
        // cut off before anything is added.
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let mut lines = text[..whole].lines().enumerate();
        let bad = |n: usize| JournalError::Format(name.clone(), n + 1);
        let header: Value = match lines.next() {
            Some((n, line)) => serde_json::from_str(line).map_err(|_| bad(n))?,
            None => return Err(bad(0)),
        };
        if header["journal"] != "lvlx deployment" {
            return Err(bad(0));
        }
        let (mut mined, mut sent) = (Vec::<Mined>::new(), None::<Sent>);
        for (n, line) in lines {
            let entry: Value = serde_json::from_str(line).map_err(|_| bad(n))?;
            let text = |key: &str| {
                entry[key]
                    .as_str()
                    .map(str::to_string)
                    .ok_or_else(|| bad(n))
            };
            let step = entry["step"].as_u64().ok_or_else(|| bad(n))? as usize;
            let nonce = entry["nonce"].as_u64().ok_or_else(|| bad(n))?;
            match entry["kind"].as_str() {
                Some("sent") => {
                    sent = Some(Sent {
                        step,
                        nonce,
                        what: text("what")?,
                        hash: text("hash")?,
                    })
                }
                Some("mined") => {
                    if step != mined.len() {
                        return Err(bad(n));
                    }
                    mined.push(Mined {
                        step,
                        nonce,
                        what: text("what")?,
                        hash: text("hash")?,
                        address: entry["address"].as_str().map(str::to_string),
                    });
                    sent = None;
                }
                _ => return Err(bad(n)),
            }
        }
        let file = if writable {
            let fail = |e: std::io::Error| JournalError::Write(name.clone(), e.to_string());
            let file = std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(fail)?;
            if whole < text.len() {
                file.set_len(whole as u64).map_err(fail)?;
            }
            Some(file)
        } else {
            None
        };
        Ok(Some(Journal {
            path: path.to_path_buf(),
            file,
            header,
            mined,
            sent,
        }))
    }

    /// A new journal at `path` (which must not exist) starting with `header`.
    pub fn create(path: &Path, header: Value) -> Result<Journal, JournalError> {
        let name = path.display().to_string();
        let fail = |e: std::io::Error| JournalError::Write(name.clone(), e.to_string());
        let mut header = header;
        header["journal"] = json!("lvlx deployment");
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(fail)?;
        let mut journal = Journal {
            path: path.to_path_buf(),
            file: Some(file),
            header: header.clone(),
            mined: Vec::new(),
            sent: None,
        };
        journal.append(&header)?;
        // The file's name in its folder is durable too.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            File::open(dir).and_then(|d| d.sync_all()).map_err(fail)?;
        }
        Ok(journal)
    }

    /// A read-only journal with nothing in it (a dry run without one).
    pub fn empty(path: &Path, header: Value) -> Journal {
        Journal {
            path: path.to_path_buf(),
            file: None,
            header,
            mined: Vec::new(),
            sent: None,
        }
    }

    /// Whether lines are added to the file (not a dry run's read-only copy).
    pub fn writable(&self) -> bool {
        self.file.is_some()
    }

    /// The nonce the deployer's next transaction must have according to the journal.
    pub fn next_nonce(&self) -> u64 {
        self.mined.last().map_or_else(
            || self.header["nonce"].as_u64().unwrap_or(0),
            |m| m.nonce + 1,
        )
    }

    /// Refuses a journal written for other options than `header`'s.
    pub fn check_header(&self, header: &Value) -> Result<(), JournalError> {
        for (key, now) in header.as_object().into_iter().flatten() {
            if key == "nonce" {
                continue;
            }
            let journal = &self.header[key];
            if journal != now {
                return Err(JournalError::Other {
                    path: self.path.display().to_string(),
                    key: key.clone(),
                    journal: journal.to_string(),
                    now: now.to_string(),
                });
            }
        }
        Ok(())
    }

    /// Notes that step `step` (`what`) left with `nonce` as `hash`.
    pub fn note_sent(
        &mut self,
        step: usize,
        nonce: u64,
        what: &str,
        hash: &str,
    ) -> Result<(), JournalError> {
        self.sent = Some(Sent {
            step,
            nonce,
            what: what.to_string(),
            hash: hash.to_string(),
        });
        let line =
            json!({"kind": "sent", "step": step, "nonce": nonce, "what": what, "hash": hash});
        self.append(&line)
    }

    /// Notes that `mined` was mined (with its receipt's figures for the reader).
    pub fn note_mined(&mut self, mined: Mined, extra: Value) -> Result<(), JournalError> {
        let mut line = json!({
            "kind": "mined",
            "step": mined.step,
            "nonce": mined.nonce,
            "what": mined.what,
            "hash": mined.hash,
        });
        if let Some(address) = &mined.address {
            line["address"] = json!(address);
        }
        for (k, v) in extra.as_object().into_iter().flatten() {
            line[k] = v.clone();
        }
        self.sent = None;
        self.mined.push(mined);
        self.append(&line)
    }

    /// Adds `line` and waits until it is on disk (a dry run's journal writes nothing).
    fn append(&mut self, line: &Value) -> Result<(), JournalError> {
        let name = self.path.display().to_string();
        let Some(file) = self.file.as_mut() else {
            return Ok(());
        };
        file.write_all(format!("{line}\n").as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(|e| JournalError::Write(name, e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_reads_back_what_it_wrote_and_a_torn_last_line_is_unwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deployment.jsonl");
        let header = json!({"chain_id": 137, "deployer": "0xA", "nonce": 3});
        let mut journal = Journal::create(&path, header.clone()).unwrap();
        journal.note_sent(0, 3, "create LVLX()", "0x01").unwrap();
        let mined = Mined {
            step: 0,
            nonce: 3,
            what: "create LVLX()".into(),
            hash: "0x01".into(),
            address: Some("0xC".into()),
        };
        journal
            .note_mined(mined.clone(), json!({"block": 9}))
            .unwrap();
        journal.note_sent(1, 4, "LVLX.transfer()", "0x02").unwrap();
        drop(journal);
        // A kill in the middle of a write leaves part of a line.
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        file.write_all(b"{\"kind\":\"mi").unwrap();
        let mut again = Journal::open(&path, true).unwrap().unwrap();
        assert_eq!(again.mined, vec![mined.clone()]);
        assert_eq!(again.sent.as_ref().map(|s| s.nonce), Some(4));
        assert_eq!(again.next_nonce(), 4);
        again.check_header(&header).unwrap();
        // Added to after the torn part is cut off, it reads back whole.
        let second = Mined {
            step: 1,
            nonce: 4,
            what: "LVLX.transfer()".into(),
            hash: "0x02".into(),
            address: None,
        };
        again.note_mined(second.clone(), json!({})).unwrap();
        let read = Journal::open(&path, false).unwrap().unwrap();
        assert_eq!(read.mined, vec![mined, second]);
        assert_eq!((read.next_nonce(), read.sent), (5, None));
        let other = json!({"chain_id": 137, "deployer": "0xB", "nonce": 0});
        assert!(matches!(
            again.check_header(&other),
            Err(JournalError::Other { key, .. }) if key == "deployer"
        ));
        assert!(Journal::open(&dir.path().join("none"), true)
            .unwrap()
            .is_none());
        assert!(
            Journal::create(&path, header).is_err(),
            "never over a journal"
        );
    }
}
