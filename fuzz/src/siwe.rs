//! The wallet-linking message (docs/product/chain.md#wallet-linking): whatever text a browser
//! posts, parsing never panics, what parses writes back to the same message, and verification
//! answers an error, not a crash. Inputs are raw text, or a real message from arbitrary fields with
//! one of its lines replaced.

use arbitrary::{Arbitrary, Result, Unstructured};
use lvlx_core::siwe::{verify, Expect, Message};

#[derive(Debug)]
struct Input {
    text: String,
    signature: String,
    now_ms: i64,
}

impl<'a> Arbitrary<'a> for Input {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Input> {
        let text = if u.ratio(1, 4)? {
            String::arbitrary(u)?
        } else {
            let message = Message {
                scheme: u.arbitrary()?,
                domain: u.arbitrary()?,
                address: u.arbitrary()?,
                statement: u.arbitrary()?,
                uri: u.arbitrary()?,
                chain_id: u.arbitrary()?,
                nonce: u.arbitrary()?,
                issued_at: u.arbitrary()?,
                expiration_time: u.arbitrary()?,
                not_before: u.arbitrary()?,
                request_id: u.arbitrary()?,
                resources: u.arbitrary()?,
            };
            let mut lines: Vec<String> =
                message.to_text().split('\n').map(str::to_string).collect();
            if u.arbitrary()? {
                let at = u.choose_index(lines.len())?;
                lines[at] = u.arbitrary()?;
            }
            lines.join("\n")
        };
        Ok(Input {
            text,
            signature: u.arbitrary()?,
            now_ms: u.arbitrary()?,
        })
    }
}

pub fn run(data: &[u8]) {
    crate::typed(data, |input: Input| {
        let origins = [lvlx_core::siwe::Origin::parse("http://127.0.0.1:8080").expect("an origin")];
        if let Ok(message) = Message::parse(&input.text) {
            let again = Message::parse(&message.to_text()).expect("a written message reads back");
            assert_eq!(again, message);
        }
        let expect = Expect {
            origins: &origins,
            chain_id: lvlx_core::siwe::CHAIN_ID,
            nonce: "0123456789abcdef",
            now_ms: input.now_ms,
        };
        let _ = verify(&input.text, &input.signature, &expect);
    });
}
