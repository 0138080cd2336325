//! The CSV `bailab soak --output` writes: one row per table soaked, with its figures and how
//! it was played ([`SOAK_HEADER`]).

use crate::sim::files::atomic::write_atomic;
use crate::sim::files::schema::SOAK_HEADER;
use std::path::Path;

/// One table's row.
#[derive(Clone, Debug)]
pub(crate) struct SoakRow {
    /// The game.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// The seat count.
    pub players: usize,
    /// Games played.
    pub games: u64,
    /// Decisions taken.
    pub decisions: u64,
    /// Games checked deeply.
    pub(crate) deep_checked: u64,
    /// Games that broke a contract.
    pub faults: u64,
    /// Seconds taken.
    pub(crate) seconds: f64,
    /// Worker threads.
    pub threads: usize,
    /// The master seed.
    pub seed: u64,
    /// The first deal played.
    pub first_deal: u64,
    /// The rule sets the deals cycled through.
    pub rule_sets: usize,
    /// The agents seated.
    pub agents: Vec<String>,
}

impl SoakRow {
    /// The row as a CSV line (no line end).
    fn line(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{:.1},{:.0},{},{},{},{},{}",
            self.game,
            self.variant,
            self.players,
            self.games,
            self.decisions,
            self.deep_checked,
            self.faults,
            self.seconds,
            self.games as f64 / self.seconds.max(1e-9),
            self.threads,
            self.seed,
            self.first_deal,
            self.rule_sets,
            quoted(&self.agents.join(" "))
        )
    }
}

/// A CSV field in double quotes (a spec may hold commas), its own quotes doubled.
fn quoted(field: &str) -> String {
    format!("\"{}\"", field.replace('"', "\"\""))
}

/// Writes the rows so far to `path` (a temporary file renamed over it).
pub(crate) fn write_soak_csv(path: &Path, rows: &[SoakRow]) -> anyhow::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let dir = dir.unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str());
    let name = name.ok_or_else(|| anyhow::anyhow!("{}: not a file name", path.display()))?;
    let text = std::iter::once(SOAK_HEADER.join(","))
        .chain(rows.iter().map(SoakRow::line))
        .collect::<Vec<_>>()
        .join("\n");
    write_atomic(dir, name, format!("{text}\n").as_bytes())?;
    Ok(())
}
