//! Result files: written to a temporary name in the output folder and renamed, so a crash or a
//! bad input never leaves a half-written file or destroys an earlier result.

use super::experiment::Experiment;
use super::stats::{mean_interval, wilson, Tally};
use crate::text::thousands;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file being written: `NAME.<pid>.tmp` until [`AtomicFile::commit`] renames it to `NAME`.
pub struct AtomicFile {
    tmp: PathBuf,
    path: PathBuf,
    writer: std::io::BufWriter<std::fs::File>,
}

impl AtomicFile {
    /// Creates `dir/name.<pid>.tmp` (one per process, so concurrent runs never share it).
    pub fn create(dir: &Path, name: &str) -> std::io::Result<AtomicFile> {
        let path = dir.join(name);
        let tmp = dir.join(format!("{name}.{}.tmp", std::process::id()));
        let file = std::fs::File::create(&tmp).map_err(|e| with_path(e, &tmp))?;
        Ok(AtomicFile {
            tmp,
            path,
            writer: std::io::BufWriter::new(file),
        })
    }

    /// The writer.
    pub fn writer(&mut self) -> &mut std::io::BufWriter<std::fs::File> {
        &mut self.writer
    }

    /// Flushes and renames to the final name.
    pub fn commit(mut self) -> std::io::Result<()> {
        self.writer.flush().map_err(|e| with_path(e, &self.tmp))?;
        self.writer
            .get_ref()
            .sync_all()
            .map_err(|e| with_path(e, &self.tmp))?;
        std::fs::rename(&self.tmp, &self.path).map_err(|e| with_path(e, &self.path))
    }
}

/// An I/O error that names the file.
fn with_path(e: std::io::Error, path: &Path) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Writes a whole file atomically.
pub fn write_atomic(dir: &Path, name: &str, contents: &[u8]) -> std::io::Result<()> {
    let mut f = AtomicFile::create(dir, name)?;
    f.writer().write_all(contents)?;
    f.commit()
}

/// A CSV figure: six decimals, or empty when it is not finite (no deals, or one).
pub fn fmt(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        String::new()
    }
}

/// The columns that open every row of `summary.csv`, `matches.csv` and `equity.csv`: what was
/// played and in what unit its payouts are, so that a CSV read alone says what its numbers are.
pub const STUDY_HEADER: [&str; 4] = ["game", "variant", "players", "payout_unit"];

/// The payout unit of `game` as the CSVs write it: the unit alone, without the explanation in
/// brackets the console prints (`points`, `half-cược`); `payout units` for an unknown game.
pub fn csv_payout_unit(game: &str) -> String {
    crate::games::game_info(game).map_or_else(
        |_| "payout units".to_string(),
        |g| {
            let unit = g.payout_unit;
            unit.split(" (").next().unwrap_or(unit).trim().to_string()
        },
    )
}

/// The values of [`STUDY_HEADER`] for `players` seats of `game` `variant`.
pub fn study_columns(game: &str, variant: &str, players: usize) -> Vec<String> {
    vec![
        game.to_string(),
        variant.to_string(),
        players.to_string(),
        csv_payout_unit(game),
    ]
}

/// The header of `summary.csv`: [`STUDY_HEADER`], then the figures. `seats` is the number of
/// seats an agent held in every game, `seat_games` the games summed over those seats (a game in
/// which an agent held two seats counts twice): win rates and mean payouts are per seat-game.
pub const SUMMARY_HEADER: [&str; 24] = [
    "game",
    "variant",
    "players",
    "payout_unit",
    "kind",
    "agent",
    "versus",
    "seats",
    "seat_games",
    "wins",
    "draws",
    "win_rate",
    "win_rate_lo95",
    "win_rate_hi95",
    "mean_payout",
    "mean_payout_lo95",
    "mean_payout_hi95",
    "sd_payout",
    "mean_win_hand_value",
    "penalties",
    "deals",
    "mean_diff",
    "mean_diff_lo95",
    "mean_diff_hi95",
];

/// The seats agent `name` holds in every game of `exp`: the count of the agents' specs that are
/// that agent, however spelled (by [`Experiment::agent_key`]).
pub fn seats_of(exp: &Experiment, name: &str) -> usize {
    let key = exp.agent_key(name);
    exp.agents
        .iter()
        .filter(|a| exp.agent_key(a) == key)
        .count()
}

/// The rows of `summary.csv`: one `agent` row per agent, one `pair` row per pair of agents
/// (the paired per-deal difference of mean payouts, `agent` minus `versus`).
pub fn summary_rows(exp: &Experiment, t: &Tally) -> Vec<Vec<String>> {
    let study = study_columns(&exp.game, exp.variant(), exp.players());
    let mut rows = Vec::new();
    for (name, a) in t.agents.iter().zip(&t.per_agent) {
        let (wr, wlo, whi) = wilson(a.wins, a.games);
        let (m, lo, hi, sd) = mean_interval(i128::from(a.payout_sum), a.payout_sq, a.games, 1.0);
        let win_value = if a.wins > 0 {
            a.win_value_sum as f64 / a.wins as f64
        } else {
            f64::NAN
        };
        let mut row = study.clone();
        row.extend([
            "agent".into(),
            name.clone(),
            String::new(),
            seats_of(exp, name).to_string(),
            a.games.to_string(),
            a.wins.to_string(),
            a.draws.to_string(),
            fmt(wr),
            fmt(wlo),
            fmt(whi),
            fmt(m),
            fmt(lo),
            fmt(hi),
            fmt(sd),
            fmt(win_value),
            a.penalties.to_string(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
        ]);
        rows.push(row);
    }
    for p in &t.pairs {
        let (m, lo, hi, _) = mean_interval(p.diff_sum, p.diff_sq, p.deals, p.scale as f64);
        let mut row = study.clone();
        row.resize(SUMMARY_HEADER.len(), String::new());
        let at = |name: &str| column(&SUMMARY_HEADER, name);
        row[at("kind")] = "pair".into();
        row[at("agent")] = t.agents[p.a].clone();
        row[at("versus")] = t.agents[p.b].clone();
        row[at("deals")] = p.deals.to_string();
        row[at("mean_diff")] = fmt(m);
        row[at("mean_diff_lo95")] = fmt(lo);
        row[at("mean_diff_hi95")] = fmt(hi);
        rows.push(row);
    }
    rows
}

/// The index of column `name` of `header` (a name of the header).
fn column(header: &[&str], name: &str) -> usize {
    header
        .iter()
        .position(|h| *h == name)
        .expect("a column of the header")
}

/// `summary.csv` as bytes.
pub fn summary_csv(exp: &Experiment, t: &Tally) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(SUMMARY_HEADER).expect("in memory");
    for row in summary_rows(exp, t) {
        w.write_record(&row).expect("in memory");
    }
    w.into_inner().expect("in memory")
}

/// The header of `matches.csv`: [`STUDY_HEADER`], then one agent's figures over its
/// seat-matches (a match played at one seat; an agent holding two seats plays two per match).
pub const MATCHES_HEADER: [&str; 13] = [
    "game",
    "variant",
    "players",
    "payout_unit",
    "agent",
    "seats",
    "seat_matches",
    "match_wins",
    "match_win_rate",
    "mean_match_payout",
    "mean_match_payout_lo95",
    "mean_match_payout_hi95",
    "sd_match_payout",
];

/// `matches.csv` as bytes: one row per agent over its seat-matches (a match's total payout at one
/// seat; a match win is the highest total of the match, alone).
pub fn matches_csv(exp: &Experiment, t: &Tally) -> Vec<u8> {
    let study = study_columns(&exp.game, exp.variant(), exp.players());
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(MATCHES_HEADER).expect("in memory");
    for (name, m) in t.agents.iter().zip(&t.matches) {
        let (m_mean, lo, hi, sd) =
            mean_interval(i128::from(m.payout_sum), m.payout_sq, m.matches, 1.0);
        let rate = m.wins as f64 / m.matches.max(1) as f64;
        let mut row = study.clone();
        row.extend([
            name.clone(),
            seats_of(exp, name).to_string(),
            m.matches.to_string(),
            m.wins.to_string(),
            fmt(rate),
            fmt(m_mean),
            fmt(lo),
            fmt(hi),
            fmt(sd),
        ]);
        w.write_record(&row).expect("in memory");
    }
    w.into_inner().expect("in memory")
}

/// A rate as a percentage with one decimal.
fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The summary printed after a run, readable without the docs: what was played, per agent the
/// games it played, its seats per game, wins, win rate per seat with its 95% interval, penalties
/// and mean payout per seat-game with its 95% interval, the reference win rate of equal play, the
/// payout unit, and the paired differences with their 95% intervals.
pub fn console_summary(exp: &Experiment, t: &Tally) -> String {
    let (title, unit) = crate::games::game_info(&exp.game)
        .map_or((exp.game.as_str(), "payout units"), |g| {
            (g.title, g.payout_unit)
        });
    let n = exp.players();
    let per_deal = (exp.rotations() * exp.match_games as usize) as u64;
    let deals = t.games / per_deal.max(1);
    let drawn = t.per_agent.iter().map(|a| a.draws).sum::<u64>() / n.max(1) as u64;
    let games = t.games.max(1);
    let mut out = format!(
        "{title} {}, {n} players: {} deals",
        exp.variant(),
        thousands(deals)
    );
    if exp.rotations() > 1 {
        out += &format!(" × {} seat rotations", exp.rotations());
    }
    if exp.match_games > 1 {
        out += &format!(" × {} games per match", exp.match_games);
    }
    out += &format!(
        " = {} games; {} won, {} drawn ({})\n",
        thousands(t.games),
        thousands(t.games - drawn),
        thousands(drawn),
        percent(drawn as f64 / games as f64)
    );
    out += &agent_table(t);
    let equal = 1.0 / n.max(1) as f64;
    out += &format!(
        "reference: equal play wins 1/{n} = {} of seat-games ({} with the {} drawn)\n",
        percent(equal),
        percent(equal * (1.0 - drawn as f64 / games as f64)),
        percent(drawn as f64 / games as f64)
    );
    out += &format!(
        "payouts are in {unit}; intervals are 95% (Wilson for win rates, Student t for means)\n"
    );
    for p in &t.pairs {
        let (m, lo, hi, _) = mean_interval(p.diff_sum, p.diff_sq, p.deals, p.scale as f64);
        out += &format!(
            "paired: {} − {}, mean over {} deals of the per-deal difference of mean payouts: \
             {m:+.3} {unit}, 95% interval [{lo:+.3}, {hi:+.3}]\n",
            t.agents[p.a],
            t.agents[p.b],
            thousands(p.deals)
        );
    }
    out
}

/// The per-agent table of [`console_summary`]: games, seats, wins, win rate, penalties and mean
/// payout, one aligned row per agent under a header.
fn agent_table(t: &Tally) -> String {
    let games = t.games.max(1);
    let mut out = String::new();
    let header = [
        "agent",
        "games",
        "seats",
        "wins",
        "win rate per seat [95%]",
        "penalties",
        "mean payout per seat-game [95%]",
    ];
    let mut rows: Vec<[String; 7]> = vec![header.map(String::from)];
    for (name, a) in t.agents.iter().zip(&t.per_agent) {
        let (wr, wlo, whi) = wilson(a.wins, a.games);
        let (m, lo, hi, _) = mean_interval(i128::from(a.payout_sum), a.payout_sq, a.games, 1.0);
        rows.push([
            name.clone(),
            thousands(t.games),
            (a.games / games).to_string(),
            thousands(a.wins),
            format!("{} [{}, {}]", percent(wr), percent(wlo), percent(whi)),
            thousands(a.penalties),
            format!("{m:+.3} [{lo:+.3}, {hi:+.3}]"),
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for r in &rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            match c {
                0 | 4 | 6 => {
                    line += cell;
                    line += &" ".repeat(pad);
                }
                _ => {
                    line += &" ".repeat(pad);
                    line += cell;
                }
            }
            line += "  ";
        }
        out += line.trim_end();
        out += "\n";
    }
    out
}
