//! The migrations are the files in `migrations/` (SQLite) and `migrations/postgres/`, numbered
//! by their name's prefix: this writes the two lists the store runs, so a new file is a new
//! migration and no list is kept by hand.

use std::fmt::Write;
use std::path::Path;

fn list(dir: &Path) -> Vec<(i64, String)> {
    let mut files: Vec<(i64, String)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_name()?.to_str()?.to_string();
            let version = name.strip_suffix(".sql")?.split('_').next()?.parse().ok()?;
            Some((version, path.canonicalize().ok()?.display().to_string()))
        })
        .collect();
    files.sort();
    for pair in files.windows(2) {
        assert!(
            pair[0].0 != pair[1].0,
            "two migrations numbered {}",
            pair[0].0
        );
    }
    files
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    println!("cargo:rerun-if-changed={}", root.display());
    println!("cargo:rerun-if-changed={}", root.join("postgres").display());
    let mut out = String::new();
    for (name, dir) in [
        ("SQLITE", root.clone()),
        ("POSTGRES", root.join("postgres")),
    ] {
        writeln!(out, "pub const {name}: &[(i64, &str)] = &[").unwrap();
        for (version, path) in list(&dir) {
            writeln!(out, "    ({version}, include_str!({path:?})),").unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    let target = Path::new(&std::env::var("OUT_DIR").unwrap()).join("migrations.rs");
    std::fs::write(target, out).unwrap();
}
