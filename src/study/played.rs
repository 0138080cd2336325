//! `bailab deals --games PATH`: distributions of played games from a run's `games.csv` (written
//! with `games_csv = true`): the winning hand value per winning agent and the payout per agent.

use super::deals::Distribution;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a run folder says about its game (from `meta.json`, empty when absent).
#[derive(Clone, Debug, Default)]
pub(crate) struct RunGame {
    /// The game's name.
    pub game: String,
    /// The variant.
    pub variant: String,
}

/// The `games.csv` a path names: the file itself, or `games.csv` inside a folder.
pub(crate) fn games_file(path: &Path) -> anyhow::Result<PathBuf> {
    let file = if path.is_dir() {
        path.join("games.csv")
    } else {
        path.to_path_buf()
    };
    let hint = "give a run's games.csv or its folder; a run writes it with games_csv = true";
    match std::fs::metadata(&file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            anyhow::bail!("{}: no such file ({hint})", file.display())
        }
        Err(e) => anyhow::bail!("{}: {e} ({hint})", file.display()),
        Ok(m) if !m.is_file() => {
            anyhow::bail!(
                "{}: not a regular file (a device, a pipe or a socket; {hint})",
                file.display()
            )
        }
        Ok(_) => {}
    }
    // the reason a file that exists cannot be read (its permissions), before any work
    std::fs::File::open(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    Ok(file)
}

/// The game and variant of the run that wrote `games_csv`, read from its `meta.json`.
pub(crate) fn run_game(games_csv: &Path) -> RunGame {
    let meta = games_csv.with_file_name("meta.json");
    let json: Option<serde_json::Value> = crate::input::read_text(&meta, crate::input::RESULT)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    let field = |k: &str| {
        json.as_ref()
            .and_then(|j| j["experiment"][k].as_str())
            .unwrap_or_default()
            .to_string()
    };
    RunGame {
        game: field("game"),
        variant: field("variant"),
    }
}

/// The columns of `games.csv` these distributions read.
struct Columns {
    agents: Vec<usize>,
    payouts: Vec<usize>,
    winner_agent: usize,
    hand_value: usize,
}

impl Columns {
    fn of(header: &csv::StringRecord, file: &Path) -> anyhow::Result<Columns> {
        let find = |name: &str| {
            header.iter().position(|h| h == name).ok_or_else(|| {
                anyhow::anyhow!(
                    "{} line 1: the header has no column '{name}' (is it a run's games.csv?)",
                    file.display()
                )
            })
        };
        let seats = header.iter().filter(|h| h.starts_with("agent_")).count();
        if seats == 0 {
            find("agent_0")?;
        }
        Ok(Columns {
            agents: (0..seats)
                .map(|s| find(&format!("agent_{s}")))
                .collect::<anyhow::Result<_>>()?,
            payouts: (0..seats)
                .map(|s| find(&format!("payout_{s}")))
                .collect::<anyhow::Result<_>>()?,
            winner_agent: find("winner_agent")?,
            hand_value: find("winning_hand_value")?,
        })
    }
}

/// The distributions of a `games.csv`: `winning_hand_value` per winning agent (per game with a
/// winner, `per` = `deal`) and `payout` per agent (per seat, `per` = `hand`). Errors name the
/// file, the line and the column.
pub(crate) fn read_games(file: &Path) -> anyhow::Result<Vec<Distribution>> {
    let mut reader = csv::ReaderBuilder::new().from_reader(crate::input::open_csv(file)?);
    let header = reader
        .headers()
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?
        .clone();
    let cols = Columns::of(&header, file)?;
    let mut values: BTreeMap<String, Distribution> = BTreeMap::new();
    let mut payouts: BTreeMap<String, Distribution> = BTreeMap::new();
    let mut rows = 0u64;
    for record in reader.records() {
        let record = record.map_err(|e| csv_error(&e, file))?;
        let line = record.position().map_or(0, |p| p.line());
        let int = |col: usize| -> anyhow::Result<i64> {
            let text = &record[col];
            text.trim().parse().map_err(|_| {
                anyhow::anyhow!(
                    "{} line {line}, column '{}': '{}' is not an integer",
                    file.display(),
                    &header[col],
                    crate::input::excerpt(text, crate::input::EXCERPT_CHARS)
                )
            })
        };
        let winner = &record[cols.winner_agent];
        if !winner.is_empty() {
            let v = int(cols.hand_value)?;
            add(&mut values, "winning_hand_value", "deal", winner, v);
        }
        for (&a, &p) in cols.agents.iter().zip(&cols.payouts) {
            let v = int(p)?;
            add(&mut payouts, "payout", "hand", &record[a], v);
        }
        rows += 1;
    }
    if rows == 0 {
        anyhow::bail!("{}: no games (only a header)", file.display());
    }
    Ok(values.into_values().chain(payouts.into_values()).collect())
}

/// A CSV reading error naming the file and the line.
fn csv_error(e: &csv::Error, file: &Path) -> anyhow::Error {
    match e.kind() {
        csv::ErrorKind::UnequalLengths {
            pos: Some(pos),
            expected_len,
            len,
        } => anyhow::anyhow!(
            "{} line {}: {len} fields, but the header has {expected_len}",
            file.display(),
            pos.line()
        ),
        _ => anyhow::anyhow!("{}: {e}", file.display()),
    }
}

fn add(
    dists: &mut BTreeMap<String, Distribution>,
    measure: &str,
    per: &'static str,
    group: &str,
    v: i64,
) {
    let d = dists
        .entry(group.to_string())
        .or_insert_with(|| Distribution {
            measure: measure.to_string(),
            group: group.to_string(),
            per,
            counts: BTreeMap::new(),
        });
    *d.counts.entry(v).or_insert(0) += 1;
}
