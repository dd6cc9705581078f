//! Contract event logs and call answers as the JSON-RPC node gives them (the indexer's input):
//! a real event's topic0 with arbitrary topics and data, or anything at all, decodes or errs.

use arbitrary::{Arbitrary, Result, Unstructured};
use lvlx_core::chain;

#[derive(Debug)]
struct Log {
    topics: Vec<String>,
    data: String,
    kind: u32,
}

fn hex(bytes: &[u8]) -> String {
    chain::hex0x(bytes)
}

impl<'a> Arbitrary<'a> for Log {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Log> {
        let known = chain::topics();
        let mut topics = Vec::new();
        if u.arbitrary()? {
            topics.push(u.choose(&known)?.clone());
        }
        for _ in 0..u.int_in_range(0..=4)? {
            topics.push(if u.ratio(1, 8)? {
                String::arbitrary(u)?
            } else {
                hex(&<[u8; 32]>::arbitrary(u)?)
            });
        }
        let data = if u.ratio(1, 8)? {
            String::arbitrary(u)?
        } else {
            let words: Vec<[u8; 32]> = (0..u.int_in_range(0..=8)?)
                .map(|_| <[u8; 32]>::arbitrary(u))
                .collect::<Result<_>>()?;
            let mut bytes = words.concat();
            let cut = u.int_in_range(0..=bytes.len())?;
            bytes.truncate(if u.ratio(1, 4)? { cut } else { bytes.len() });
            hex(&bytes)
        };
        Ok(Log {
            topics,
            data,
            kind: u.arbitrary()?,
        })
    }
}

pub fn run(data: &[u8]) {
    crate::typed(data, |log: Log| {
        let topics: Vec<&str> = log.topics.iter().map(String::as_str).collect();
        for (contract, _) in chain::indexed() {
            let _ = chain::decode(contract, &topics, &log.data);
        }
        let _ = chain::decode_terms(log.kind, &log.data);
        let _ = chain::decode_uint(&log.data);
        let _ = chain::decode_address(&log.data);
        let _ = chain::revert_key(&log.data);
    });
}
