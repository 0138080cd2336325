//! A minimal bailab agent in Rust (docs/agent-protocol.md), as examples/agents/first.py: it takes
//! the first legal action, or with `random` as its argument a uniform one drawn from the seed
//! bailab sends (so its games replay exactly). Build and seat it:
//!
//!     cargo build --release --example first-agent
//!     agents = ["exec:target/release/examples/first-agent", "greedy"]   # or "... first-agent random"

use serde::de::IgnoredAny;
use serde::Deserialize;
use std::io::{BufRead, Write};

/// The fields this agent reads; the observation and the rest are skipped without being built.
#[derive(Deserialize)]
struct Message {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    legal: Vec<IgnoredAny>, // the legal actions in the game's notation; only their number is used
}

fn main() -> std::io::Result<()> {
    let choose_randomly = std::env::args().skip(1).eq(["random"]);
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let message: Message = match serde_json::from_str(&line?) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("first.rs: a line it could not read ({e})");
                continue;
            }
        };
        match message.kind.as_str() {
            "hello" => writeln!(out, r#"{{"type":"hello","name":"first.rs","protocol":1}}"#)?,
            "decide" => {
                let n = message.legal.len() as u64;
                let index = if choose_randomly {
                    below(message.seed, n)
                } else {
                    0
                };
                writeln!(out, r#"{{"action":{index}}}"#)?;
            }
            _ => continue, // messages this agent does not need
        }
        out.flush()?;
    }
    Ok(())
}

/// A uniform index below `n` from `seed`: SplitMix64's mix, then a multiply-shift to `0..n`.
fn below(seed: u64, n: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    ((u128::from(z) * u128::from(n)) >> 64) as u64
}
