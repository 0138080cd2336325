//! A run's `games.csv` read back into the exact tally it was written with, so `bailab merge`
//! can prove each shard's rows agree with its `tally.json` before combining them.

use crate::game::{Outcome, MAX_SEATS};
use crate::sim::run::experiment::Experiment;
use crate::sim::stats::tally::Tally;
use anyhow::{anyhow, bail};
use std::path::Path;

/// Why a `games.csv` header or row cannot be a game of the experiment (the text follows the
/// file's name, and the line's for a row).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum RowError {
    /// A column the tally needs is missing from the header.
    #[error("line 1: the header has no column '{0}'")]
    NoColumn(String),
    /// A cell that is not a number.
    #[error("column '{column}': '{text}' is not a valid number")]
    NotANumber {
        /// The column's name.
        column: String,
        /// The cell.
        text: String,
    },
    /// A seat cell past the table's seats.
    #[error("column '{column}': seat {seat} of {seats}")]
    NoSuchSeat {
        /// The column's name.
        column: String,
        /// The seat given.
        seat: u8,
        /// The seats at the table.
        seats: usize,
    },
    /// A rotation or match game the experiment does not play.
    #[error("rotation {rotation}, match game {match_game}: out of range")]
    OutOfRange {
        /// The row's rotation.
        rotation: usize,
        /// The row's game in its match.
        match_game: usize,
    },
    /// An agent the rotation does not seat there.
    #[error("agent_{seat} is '{found}', but rotation {rotation} seats '{want}' there")]
    WrongAgent {
        /// The seat.
        seat: usize,
        /// The agent in the row.
        found: String,
        /// The row's rotation.
        rotation: usize,
        /// The agent the rotation seats.
        want: String,
    },
    /// A winner_agent that is not the winner's seat's agent.
    #[error("winner_agent is '{found}', but the winner's seat holds '{want}'")]
    WrongWinnerAgent {
        /// The winner_agent in the row.
        found: String,
        /// The agent at the winner's seat ('' without a winner).
        want: String,
    },
    /// Payouts that do not sum to zero (their sum).
    #[error("the payouts sum to {0}, not 0 (an altered cell?)")]
    PayoutSum(i64),
    /// A row out of the run's order.
    #[error(
        "deal {} game {} where deal {} game {} was expected (deals {}..{}; rows missing, \
         repeated or altered)",
        found.0, found.1, expected.0, expected.1, deals.0, deals.1
    )]
    OutOfOrder {
        /// The row's deal and game.
        found: (u64, usize),
        /// The deal and game expected there.
        expected: (u64, usize),
        /// The deals of the shard.
        deals: (u64, u64),
    },
}

/// The columns a tally is rebuilt from, by index in the file's header.
struct Columns {
    deal: usize,
    rotation: usize,
    match_game: Option<usize>,
    agents: Vec<usize>,
    winner: usize,
    winner_agent: usize,
    payouts: Vec<usize>,
    hand_value: usize,
    penalized: usize,
}

impl Columns {
    fn find(header: &csv::StringRecord, exp: &Experiment) -> Result<Columns, RowError> {
        let col = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .ok_or_else(|| RowError::NoColumn(name.to_string()))
        };
        let n = exp.players();
        let seats = |prefix: &str| -> Result<Vec<usize>, RowError> {
            (0..n).map(|s| col(&format!("{prefix}_{s}"))).collect()
        };
        Ok(Columns {
            deal: col("deal")?,
            rotation: col("rotation")?,
            match_game: (exp.match_games > 1)
                .then(|| col("match_game"))
                .transpose()?,
            agents: seats("agent")?,
            winner: col("winner")?,
            winner_agent: col("winner_agent")?,
            payouts: seats("payout")?,
            hand_value: col("winning_hand_value")?,
            penalized: col("penalized")?,
        })
    }
}

/// One row: its deal, its game index within the deal, and the outcome it records.
struct Row {
    deal: u64,
    game: usize,
    outcome: Outcome,
}

/// The tally of the games in `path` (a `games.csv` of experiment `exp` covering deals
/// `deals.0..deals.1`), rebuilt as the run built it. A row that cannot be a game of the
/// experiment (a bad number, the wrong agents for its seats, payouts that do not sum to zero,
/// a game out of order) is an error naming the file and its line.
pub(crate) fn tally_of(
    exp: &Experiment,
    deals: (u64, u64),
    path: &Path,
    text: impl std::io::Read,
) -> anyhow::Result<Tally> {
    let at = |line: u64, e: RowError| anyhow!("{}: line {line}: {e}", path.display());
    let mut reader = csv::ReaderBuilder::new().from_reader(text);
    let header = reader
        .headers()
        .map_err(|e| anyhow!("{}: {e}", path.display()))?
        .clone();
    let cols = Columns::find(&header, exp).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let mut tally = exp.tally();
    let slots = exp.tally_slots(&tally.agents);
    let per_deal = exp.rotations() * exp.match_games as usize;
    let mut games: Vec<Outcome> = Vec::with_capacity(per_deal);
    let mut expected = (deals.0, 0usize);
    for record in reader.records() {
        let record = record.map_err(|e| anyhow!("{}: {e}", path.display()))?;
        let line = record.position().map_or(0, |p| p.line());
        let row = parse_row(exp, &cols, &record).map_err(|e| at(line, e))?;
        if (row.deal, row.game) != expected || row.deal >= deals.1 {
            let found = (row.deal, row.game);
            return Err(at(
                line,
                RowError::OutOfOrder {
                    found,
                    expected,
                    deals,
                },
            ));
        }
        games.push(row.outcome);
        expected.1 += 1;
        if expected.1 == per_deal {
            add_deal(exp, &slots, &mut tally, &games);
            games.clear();
            expected = (expected.0 + 1, 0);
        }
    }
    if expected != (deals.1, 0) {
        bail!(
            "{}: the rows end at deal {} game {}, but the shard holds deals {}..{} (rows missing)",
            path.display(),
            expected.0,
            expected.1,
            deals.0,
            deals.1
        );
    }
    Ok(tally)
}

/// Adds one deal's games as the runner does; `slots` is [`Experiment::tally_slots`].
fn add_deal(exp: &Experiment, slots: &[usize], tally: &mut Tally, games: &[Outcome]) {
    let k = exp.match_games as usize;
    let index = |g: usize, s: usize| slots[exp.slot(g / k, s)];
    let seat_agent: Vec<Vec<usize>> = (0..games.len())
        .map(|g| (0..exp.players()).map(|s| index(g, s)).collect())
        .collect();
    tally.add_deal(games, |g, s| seat_agent[g][s]);
    if k > 1 {
        tally.add_matches(games, k, |g, s| seat_agent[g][s]);
    }
}

fn parse_row(exp: &Experiment, c: &Columns, r: &csv::StringRecord) -> Result<Row, RowError> {
    let field = |i: usize| r.get(i).unwrap_or("");
    let n = exp.players();
    let deal: u64 = number(field(c.deal), "deal")?;
    let rotation: usize = number(field(c.rotation), "rotation")?;
    let match_game: usize = match c.match_game {
        Some(i) => number(field(i), "match_game")?,
        None => 0,
    };
    if rotation >= exp.rotations() || match_game >= exp.match_games as usize {
        return Err(RowError::OutOfRange {
            rotation,
            match_game,
        });
    }
    for (s, &i) in c.agents.iter().enumerate() {
        let want = &exp.agents[exp.slot(rotation, s)];
        if field(i) != want {
            return Err(RowError::WrongAgent {
                seat: s,
                found: field(i).to_string(),
                rotation,
                want: want.clone(),
            });
        }
    }
    let winner = seat(field(c.winner), n, "winner")?;
    let winner_agent = winner.map_or("", |w| field(c.agents[w as usize]));
    if field(c.winner_agent) != winner_agent {
        return Err(RowError::WrongWinnerAgent {
            found: field(c.winner_agent).to_string(),
            want: winner_agent.to_string(),
        });
    }
    let mut payouts = [0i64; MAX_SEATS];
    for (s, &i) in c.payouts.iter().enumerate() {
        payouts[s] = number(field(i), &format!("payout_{s}"))?;
    }
    let total: i64 = payouts.iter().sum();
    if total != 0 {
        return Err(RowError::PayoutSum(total));
    }
    let outcome = Outcome {
        seats: n as u8,
        winner,
        reason: "",
        payouts,
        hand_value: number(field(c.hand_value), "winning_hand_value")?,
        turns: 0,
        penalized: seat(field(c.penalized), n, "penalized")?,
        places: [0; MAX_SEATS],
    };
    Ok(Row {
        deal,
        game: rotation * exp.match_games as usize + match_game,
        outcome,
    })
}

fn number<T: std::str::FromStr>(text: &str, column: &str) -> Result<T, RowError> {
    text.parse().map_err(|_| RowError::NotANumber {
        column: column.to_string(),
        text: text.to_string(),
    })
}

/// An optional seat: empty, or a seat below `n`.
fn seat(text: &str, n: usize, column: &str) -> Result<Option<u8>, RowError> {
    if text.is_empty() {
        return Ok(None);
    }
    let s: u8 = number(text, column)?;
    if usize::from(s) >= n {
        return Err(RowError::NoSuchSeat {
            column: column.to_string(),
            seat: s,
            seats: n,
        });
    }
    Ok(Some(s))
}

/// The first difference between the tally rebuilt from a games.csv and the one stored beside
/// it, in words (`None` when they agree).
pub fn difference(rows: &Tally, stored: &Tally) -> Option<String> {
    if rows.games != stored.games {
        return Some(format!(
            "{} games in the rows, {} in the tally",
            rows.games, stored.games
        ));
    }
    if rows.agents != stored.agents {
        return Some(format!(
            "agents {:?} in the rows, {:?} in the tally",
            rows.agents, stored.agents
        ));
    }
    for (name, (a, b)) in rows
        .agents
        .iter()
        .zip(rows.per_agent.iter().zip(&stored.per_agent))
    {
        let fields = [
            ("seat-games", a.games as i128, b.games as i128),
            ("wins", a.wins.into(), b.wins.into()),
            ("draws", a.draws.into(), b.draws.into()),
            ("payout sum", a.payout_sum.into(), b.payout_sum.into()),
            ("sum of squared payouts", a.payout_sq, b.payout_sq),
            (
                "sum of winning hand values",
                a.win_value_sum.into(),
                b.win_value_sum.into(),
            ),
            ("penalties", a.penalties.into(), b.penalties.into()),
        ];
        if let Some((what, x, y)) = fields.iter().find(|(_, x, y)| x != y) {
            return Some(format!(
                "agent '{name}': {what} {x} in the rows, {y} in the tally"
            ));
        }
    }
    if rows.pairs != stored.pairs {
        return Some("the paired differences of the rows differ from the tally's".into());
    }
    if rows.matches != stored.matches {
        return Some("the match tallies of the rows differ from the tally's".into());
    }
    (rows != stored).then(|| "the rows differ from the tally".into())
}
