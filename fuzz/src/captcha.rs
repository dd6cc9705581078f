//! The captcha answer a form posts (docs/product/accounts.md#captcha): the challenge's parts and
//! the proof of work.

use lvlx_core::captcha::{verify, Issued, MAX_DIFFICULTY};

pub fn run(data: &[u8]) {
    crate::typed(data, |input: (&str, u64, u32)| {
        let (challenge, solution, difficulty) = input;
        if let Some(issued) = Issued::read(challenge) {
            assert!(challenge.starts_with(issued.body) && challenge.ends_with(issued.mac));
            assert_eq!(issued.body.len() + 1 + issued.mac.len(), challenge.len());
        }
        if verify(challenge, solution, difficulty) {
            assert!(difficulty <= MAX_DIFFICULTY);
        }
    });
}
