//! The test command's smoke of every fuzz target: the inputs libFuzzer kept for it, if any (its
//! corpus and crashes under fuzz/libfuzzer/), then pseudo-random inputs for a moment each. A
//! target that panics fails the test with the input that did it. The coverage-guided runs are
//! `scripts/fuzz.sh [seconds]`.

use std::path::Path;
use std::time::{Duration, Instant};

/// Each target's share of the smoke.
const BUDGET: Duration = Duration::from_millis(1_000);

/// SplitMix64: the same inputs on every run, so a failure here fails again.
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Mostly short inputs, some up to 4 KB, as libFuzzer starts.
    fn input(&mut self) -> Vec<u8> {
        let len = match self.next() % 8 {
            0 => (self.next() % 4096) as usize,
            _ => (self.next() % 128) as usize,
        };
        (0..len).map(|_| self.next() as u8).collect()
    }
}

fn kept(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("libfuzzer");
    let mut inputs = Vec::new();
    for folder in [
        root.join("corpus").join(target),
        root.join("artifacts").join(target),
    ] {
        let Ok(files) = std::fs::read_dir(&folder) else {
            continue;
        };
        for file in files.flatten() {
            if let Ok(bytes) = std::fs::read(file.path()) {
                inputs.push((file.path().display().to_string(), bytes));
            }
        }
    }
    inputs
}

fn run_caught(run: lvlx_fuzz::Target, input: &[u8]) -> bool {
    std::panic::catch_unwind(|| run(input)).is_ok()
}

#[test]
fn every_target_survives_its_kept_inputs_and_random_ones() {
    for &(name, run) in lvlx_fuzz::TARGETS {
        for (file, bytes) in kept(name) {
            assert!(run_caught(run, &bytes), "{name} panicked on {file}");
        }
        let mut bytes = Bytes(name.len() as u64);
        let start = Instant::now();
        let mut runs = 0u32;
        while start.elapsed() < BUDGET {
            let input = bytes.input();
            if !run_caught(run, &input) {
                let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{name}.bin"));
                std::fs::write(&file, &input).expect("the input kept");
                panic!(
                    "{name} panicked on random input {runs}, kept in {} (libFuzzer replays it: \
                     scripts/fuzz.sh's `cargo fuzz run -s none {name} <file>` in fuzz/libfuzzer)",
                    file.display()
                );
            }
            runs += 1;
        }
        println!("{name}: {runs} random inputs");
        assert!(runs >= 10, "{name} ran only {runs} inputs in {BUDGET:?}");
    }
}
