//! Every code the server and the core can put in front of a person has a translation, in every
//! language: the server's error codes, the API edge's, and every key of the core (field rules,
//! wallet linking, explained reverts, purchase plans, amounts and tables).

use lvlx_backend::api::error::EDGE_CODES;
use lvlx_backend::error::Error;

fn locale(lng: &str) -> serde_json::Map<String, serde_json::Value> {
    let path = format!("{}/../locales/{lng}/{lng}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn every_code_the_server_or_the_core_emits_is_translated() {
    let mut codes: Vec<&str> = Error::CODES.to_vec();
    codes.extend(EDGE_CODES);
    codes.extend(lvlx_core::keys::all());
    assert!(codes.len() > 40, "{} codes", codes.len());
    for lng in lvlx_core::LANGUAGES {
        let texts = locale(lng);
        let missing: Vec<&&str> = codes
            .iter()
            .filter(|code| {
                texts
                    .get(**code)
                    .is_none_or(|t| t.as_str().is_none_or(|t| t.is_empty()))
            })
            .collect();
        assert!(missing.is_empty(), "{lng} lacks {missing:?}");
    }
}
