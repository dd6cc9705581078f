//! The identity provider's webhook (docs/product/help.md#kyc): whatever signature header and body
//! a delivery carries, checking the one and reading the other answer, never panic; an event read
//! holds every field the webhook needs, each 1 to 200 bytes.

use lvlx_core::kyc::webhook::{verify_signature, Event};

pub fn run(data: &[u8]) {
    crate::typed(data, |input: (&str, i64, u64, &[u8])| {
        let (header, now_secs, tolerance_secs, body) = input;
        let _ = verify_signature(header, body, "wbhsec_fuzz", now_secs, tolerance_secs);
        if let Ok(event) = Event::parse(body) {
            for field in [&event.id, &event.name] {
                assert!((1..=200).contains(&field.len()), "{event:?}");
            }
            for field in [&event.inquiry, &event.reference].into_iter().flatten() {
                assert!((1..=200).contains(&field.len()), "{event:?}");
            }
        }
    });
}
