//! The analysis capability: the hand analyser (`bailab analyze`), position files
//! (`docs/equity.md`) and a game's own benchmark figures (`bailab bench`).

use super::error::GameError;
use super::game_core::GameCore;
use crate::games::position::{Position, PositionError};

/// What the hand analyser is asked, beside the hand itself.
#[derive(Clone, Debug, Default)]
pub struct AnalyzeOptions {
    /// The variant.
    pub variant: String,
    /// Cards visible elsewhere (for games whose analysis counts unseen cards).
    pub seen: String,
    /// A play to classify (games with plays).
    pub play: Option<String>,
    /// A play on the table to compare `play` with.
    pub against: Option<String>,
}

/// The analyser's answer: JSON and the readable report.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The JSON object.
    pub json: serde_json::Value,
    /// The readable report.
    pub text: String,
}
/// A benchmark figure a game adds to `bailab bench`.
#[derive(Clone, Debug)]
pub struct BenchRow {
    /// What was measured.
    pub label: String,
    /// The rate.
    pub value: f64,
    /// Its unit (`hands/s`).
    pub unit: &'static str,
}

impl BenchRow {
    /// Times `body`, which processes `count` items once, as a row of `count / seconds`.
    pub fn time(label: &str, unit: &'static str, count: u64, body: impl FnOnce()) -> BenchRow {
        let start = std::time::Instant::now();
        body();
        BenchRow {
            label: label.to_string(),
            value: count as f64 / start.elapsed().as_secs_f64(),
            unit,
        }
    }

    /// Times `rounds` passes of `f` over `items` (each argument and result passed through
    /// `black_box`), as a row of items per second.
    pub fn over<T, R>(
        label: &str,
        unit: &'static str,
        items: &[T],
        rounds: u64,
        mut f: impl FnMut(&T) -> R,
    ) -> BenchRow {
        BenchRow::time(label, unit, rounds * items.len() as u64, || {
            for _ in 0..rounds {
                for item in items {
                    std::hint::black_box(f(std::hint::black_box(item)));
                }
            }
        })
    }
}

/// The hand analyser, position files and benchmark figures of a game.
pub trait Analyzer: GameCore {
    /// Analyses a hand (or, with `opts.play`, a play) given in the game's notation.
    fn analyze(hand: &str, opts: &AnalyzeOptions) -> Result<Analysis, GameError>;
    /// Reads a position file (TOML `text` from `origin`, docs/equity.md): the game it is played
    /// in (variant `variant`, the file's players) and one seat's view as a [`Position`].
    /// Errors name the key, card or seat at fault. Games without position files keep this
    /// default, which says so.
    fn read_position(
        variant: &str,
        text: &str,
        origin: &str,
    ) -> Result<(Self, Position<Self::State>), GameError> {
        let _ = (variant, text, origin);
        Err(GameError::Position(PositionError::Unsupported {
            game: Self::INFO.name,
        }))
    }
    /// Extra figures for `bailab bench` of `variant` (e.g. hand evaluations per second),
    /// measured on `count` samples.
    fn bench_rows(variant: &str, count: u64) -> Vec<BenchRow> {
        let _ = (variant, count);
        Vec::new()
    }
}
