//! Tournaments (TOML, docs/tournament.md): many agents of one game compared in tables the
//! runner plays. Each table is an experiment of its own (seeds, rotation, paired differences,
//! checkpoints, shards) in `tables/NN` of the tournament's folder; the tournament pools their
//! paired payout differences per pair of agents into a cross-table and fits ratings from them.

use super::experiment::{project_dir, Experiment, MAX_EXPERIMENT_BYTES};
use super::output::{fmt, study_columns};
use super::ratings::{fit, PairResult, Rating};
use super::sprt::SprtConfig;
use super::stats::{mean_interval, Tally};
use crate::agent::host::Host;
use crate::agent::AgentKey;
use crate::agents::catalogue::agent_key_in;
use crate::game::RuleMap;
use crate::games::game_info;
use crate::text::toml_error;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The value of `tournament.json`'s `format` key.
pub const TOURNAMENT_FORMAT: &str = "bailab-tournament-1";

/// How the agents are seated in tables.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatingScheme {
    /// Every pair of agents head to head: the two alternate round the table (A, B, A, B, …) and
    /// every deal is played in every rotation, so each sits in every seat.
    #[default]
    Pairs,
    /// Every set of as many agents as seats, in listed order, every deal in every rotation.
    Subsets,
}

/// A tournament as written in its TOML file. Unknown keys are errors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tournament {
    /// A short name (the default output folder is `results/tournament-<name>`).
    #[serde(default = "default_name")]
    pub name: String,
    /// The game.
    pub game: String,
    /// The variant (default: the game's first).
    #[serde(default)]
    pub variant: String,
    /// Seats at each table (default 4, or the most the variant seats if fewer).
    #[serde(default)]
    pub players: usize,
    /// Rule options that differ from the variant's.
    #[serde(default, skip_serializing_if = "RuleMap::is_empty")]
    pub rules: RuleMap,
    /// The agent specs compared, each once.
    pub agents: Vec<String>,
    /// Deals per table (each played in every rotation).
    pub deals: u64,
    /// The master seed: every table plays the same deals.
    #[serde(default)]
    pub seed: u64,
    /// How agents are seated.
    #[serde(default)]
    pub seating: SeatingScheme,
    /// The agent whose rating is 0 (default: the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<String>,
    /// Output folder (default `results/tournament-<name>`), relative to the project folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// Early stopping per pair (`seating = "pairs"` only): each table stops once its sequential
    /// test of the first agent minus the second is decided; `deals` is then the budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtConfig>,
    /// Stop after this many minutes of play (the table under way keeps a checkpoint;
    /// `--resume` goes on). Not part of the study: results do not depend on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_minutes: Option<f64>,
    /// The project folder agent files are read from (see [`Experiment::project`]).
    #[serde(skip)]
    pub project: Option<PathBuf>,
}

fn default_name() -> String {
    "tournament".into()
}

/// One table of a tournament: its experiment and which tournament agent sits in each slot.
#[derive(Clone, Debug)]
pub struct Table {
    /// Its index (its folder is `tables/NN`).
    pub index: usize,
    /// The experiment the runner plays.
    pub experiment: Experiment,
    /// The folder, relative to the tournament's.
    pub dir: String,
}

impl Tournament {
    /// Reads and checks a tournament; `origin` names the file in errors, `project` is where its
    /// agent files are read from.
    pub fn parse(text: &str, origin: &str, project: Option<PathBuf>) -> Result<Tournament, String> {
        let mut t: Tournament = toml::from_str(text).map_err(|e| toml_error(text, origin, &e))?;
        t.project = project;
        t.fill_defaults()?;
        t.check().map_err(|e| format!("{origin}: {e}"))?;
        Ok(t)
    }

    /// Reads a tournament file (at most [`MAX_EXPERIMENT_BYTES`]).
    pub fn load(path: &str) -> Result<Tournament, String> {
        let meta = std::fs::metadata(path).map_err(|e| format!("{path}: {e}"))?;
        if meta.len() > MAX_EXPERIMENT_BYTES {
            return Err(format!(
                "{path}: {} bytes; a tournament file is at most 1 MiB",
                meta.len()
            ));
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        Tournament::parse(&text, path, Some(project_dir(Path::new(path))))
    }

    /// Fills the variant and the seat count when not given.
    pub fn fill_defaults(&mut self) -> Result<(), String> {
        let info = game_info(&self.game).map_err(|e| format!("key 'game': {e}"))?;
        if self.variant.is_empty() {
            self.variant = info.variants[0].to_string();
        }
        if self.players == 0 {
            let (lo, hi) = info.seats_of(&self.variant);
            self.players = 4.clamp(lo, hi);
        }
        Ok(())
    }

    /// Checks what the tables' own checks do not: distinct agents, enough of them for the
    /// seating, the anchor, the budget; then every table as an experiment.
    pub fn check(&self) -> Result<(), String> {
        let k = self.agents.len();
        if k < 2 {
            return Err("key 'agents': a tournament needs at least two agents".into());
        }
        // by key: two spellings of one agent would be one agent at a table
        let keys: Vec<AgentKey> = (self.agents.iter())
            .map(|a| agent_key_in(&self.game, a))
            .collect();
        if let Some((i, j)) =
            (0..k).find_map(|j| (0..j).find(|&i| keys[i] == keys[j]).map(|i| (i, j)))
        {
            let (first, dup) = (&self.agents[i], &self.agents[j]);
            return Err(if first == dup {
                format!("key 'agents': '{dup}' is listed twice")
            } else {
                format!("key 'agents': '{dup}' is listed twice (as '{first}': the same agent)")
            });
        }
        if self.seating == SeatingScheme::Subsets && k < self.players {
            return Err(format!(
                "key 'seating': subsets of {} agents need at least {} agents, not {k}",
                self.players, self.players
            ));
        }
        if self.seating == SeatingScheme::Subsets && self.sprt.is_some() {
            return Err("table [sprt]: early stopping tests one pair, so it needs \
                        seating = \"pairs\""
                .into());
        }
        if self.players < 2 {
            return Err("key 'players': at least 2".into());
        }
        if let Some(a) = &self.anchor {
            if !self.agents.contains(a) {
                return Err(format!("key 'anchor': '{a}' is not one of the agents"));
            }
        }
        if let Some(m) = self.budget_minutes {
            if !(m > 0.0 && m.is_finite()) {
                return Err(format!(
                    "key 'budget_minutes': {m} is not a positive number"
                ));
            }
        }
        for t in self.tables() {
            t.experiment.check().map_err(|e| {
                format!(
                    "table {} ({}): {e}",
                    t.index,
                    t.experiment.agents.join(" | ")
                )
            })?;
        }
        Ok(())
    }

    /// The anchor's index among the agents.
    pub fn anchor_index(&self) -> usize {
        self.anchor
            .as_ref()
            .and_then(|a| self.agents.iter().position(|x| x == a))
            .unwrap_or(0)
    }

    /// The output folder as written: `output`, or `results/tournament-<name>`.
    pub fn output_dir(&self) -> String {
        self.output
            .clone()
            .unwrap_or_else(|| format!("results/tournament-{}", self.name))
    }

    /// The output folder of a tournament read from `file`, under its project folder unless
    /// absolute (`None`: relative to the current folder).
    pub fn resolve_output(&self, file: Option<&Path>) -> PathBuf {
        let out = PathBuf::from(self.output_dir());
        match file {
            Some(f) if !out.is_absolute() => project_dir(f).join(out),
            _ => out,
        }
    }

    /// The agent indices of each table, in order: pairs `(i, j)`, `i < j`, or every subset.
    pub fn table_agents(&self) -> Vec<Vec<usize>> {
        let k = self.agents.len();
        match self.seating {
            SeatingScheme::Pairs => (0..k)
                .flat_map(|i| (i + 1..k).map(move |j| vec![i, j]))
                .collect(),
            SeatingScheme::Subsets => subsets(k, self.players),
        }
    }

    /// The tables, each an experiment with this tournament's game, rules, deals and seed.
    pub fn tables(&self) -> Vec<Table> {
        let out = self.output_dir();
        self.table_agents()
            .into_iter()
            .enumerate()
            .map(|(index, members)| {
                let seats: Vec<String> = (0..self.players)
                    .map(|s| self.agents[members[s % members.len()]].clone())
                    .collect();
                let dir = format!("tables/{index:02}");
                let sprt = self.sprt.clone().map(|s| SprtConfig {
                    agents: Some(vec![seats[0].clone(), seats[1].clone()]),
                    ..s
                });
                let experiment = Experiment {
                    name: format!("{}-table-{index:02}", self.name),
                    game: self.game.clone(),
                    variant: self.variant.clone(),
                    rules: self.rules.clone(),
                    agents: seats,
                    deals: self.deals,
                    match_games: 1,
                    seed: self.seed,
                    rotate: true,
                    output: Some(format!("{out}/{dir}")),
                    games_csv: false,
                    records: false,
                    deal: None,
                    sprt,
                    project: self.project.clone(),
                    host: Host::default(),
                };
                Table {
                    index,
                    experiment,
                    dir,
                }
            })
            .collect()
    }

    /// The same study as `other` (every key but `output` and `budget_minutes`).
    pub fn same_study(&self, other: &Tournament) -> bool {
        let strip = |t: &Tournament| Tournament {
            output: None,
            budget_minutes: None,
            project: None,
            ..t.clone()
        };
        strip(self) == strip(other)
    }
}

/// Every `n`-subset of `0..k`, in lexicographic order.
fn subsets(k: usize, n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..n).collect();
    loop {
        out.push(pick.clone());
        // the rightmost index that can still move right
        let Some(i) = (0..n).rev().find(|&i| pick[i] < k - n + i) else {
            return out;
        };
        pick[i] += 1;
        for j in i + 1..n {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// The deals a table's tally holds (every pair of a table plays every deal).
pub fn table_deals(tally: &Tally) -> u64 {
    tally.pairs.first().map_or(0, |p| p.deals)
}

/// The pooled paired results of one pair of agents over the tables where both sat.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairStat {
    /// Deals played.
    pub deals: u64,
    /// Games played.
    pub games: u64,
    /// `Σ D` of agent `a` minus `b` (see [`super::stats::PairTally`]).
    pub sum: i128,
    /// `Σ D²`.
    pub sum_sq: i128,
    /// `c_a · c_b`, the same in every table of a tournament.
    pub scale: i64,
}

impl PairStat {
    /// `(mean, lo, hi, sd)` of the per-deal difference, per game.
    pub fn interval(&self) -> (f64, f64, f64, f64) {
        mean_interval(self.sum, self.sum_sq, self.deals, self.scale.max(1) as f64)
    }
}

/// The results of a tournament: the pooled pair statistics (`pairs[i][j]`, `i < j`, agent `i`
/// minus `j`) and the ratings fitted from them.
#[derive(Clone, Debug)]
pub struct Standings {
    /// Pair statistics, indexed `[i][j]` for `i < j`.
    pub pairs: Vec<Vec<PairStat>>,
    /// One rating per agent.
    pub ratings: Vec<Rating>,
    /// Deals played per agent (over its tables).
    pub deals: Vec<u64>,
    /// Games played per agent (over its tables).
    pub games: Vec<u64>,
}

impl Tournament {
    /// Pools the tallies of the tables played so far (`None`: not started) into standings.
    pub fn standings(&self, tallies: &[Option<Tally>]) -> Result<Standings, String> {
        let k = self.agents.len();
        let mut pairs = vec![vec![PairStat::default(); k]; k];
        let (mut deals, mut games) = (vec![0u64; k], vec![0u64; k]);
        for tally in tallies.iter().flatten() {
            let idx = |spec: &String| self.agents.iter().position(|a| a == spec);
            let table_deals = table_deals(tally);
            for spec in &tally.agents {
                let i =
                    idx(spec).ok_or_else(|| format!("agent '{spec}' is not in the tournament"))?;
                deals[i] += table_deals;
                games[i] += tally.games;
            }
            for p in &tally.pairs {
                let (a, b) = (idx(&tally.agents[p.a]), idx(&tally.agents[p.b]));
                let (Some(a), Some(b)) = (a, b) else { continue };
                let (i, j, sign) = if a < b { (a, b, 1) } else { (b, a, -1) };
                let s = &mut pairs[i][j];
                if s.deals > 0 && p.deals > 0 && s.scale != p.scale {
                    return Err("tables weigh a pair's seats differently".into());
                }
                s.deals += p.deals;
                s.games += tally.games;
                s.sum += sign * p.diff_sum;
                s.sum_sq += p.diff_sq;
                s.scale = s.scale.max(p.scale);
            }
        }
        let results: Vec<PairResult> = (0..k)
            .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
            .map(|(i, j)| {
                let (mean, _, _, sd) = pairs[i][j].interval();
                PairResult {
                    a: i,
                    b: j,
                    mean,
                    variance: sd * sd / pairs[i][j].deals as f64,
                }
            })
            .collect();
        let ratings = fit(k, self.anchor_index(), &results);
        Ok(Standings {
            pairs,
            ratings,
            deals,
            games,
        })
    }
}

/// The header of `pairs.csv`.
pub const PAIRS_HEADER: [&str; 11] = [
    "game",
    "variant",
    "players",
    "payout_unit",
    "agent",
    "versus",
    "deals",
    "games",
    "mean_diff",
    "mean_diff_lo95",
    "mean_diff_hi95",
];

/// The header of `ratings.csv`.
pub const RATINGS_HEADER: [&str; 11] = [
    "game",
    "variant",
    "players",
    "payout_unit",
    "rank",
    "agent",
    "rating",
    "rating_lo95",
    "rating_hi95",
    "deals",
    "games",
];

impl Standings {
    /// The result of agent `i` minus agent `j` (`i != j`): `(mean, lo, hi)`, and the pair's stats.
    pub fn versus(&self, i: usize, j: usize) -> ((f64, f64, f64), &PairStat) {
        let s = &self.pairs[i.min(j)][i.max(j)];
        let (m, lo, hi, _) = s.interval();
        if i < j {
            ((m, lo, hi), s)
        } else {
            // `+ 0.0` turns a negated zero into zero (no "-0.000000" in the files)
            ((-m + 0.0, -hi + 0.0, -lo + 0.0), s)
        }
    }

    /// The agents in rank order: highest rating first, unrated last, ties in listed order.
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.ratings.len()).collect();
        let key = |i: usize| {
            let r = self.ratings[i].rating;
            if r.is_nan() {
                f64::NEG_INFINITY
            } else {
                r
            }
        };
        order.sort_by(|&a, &b| key(b).total_cmp(&key(a)));
        order
    }
}

fn csv_bytes(header: &[&str], rows: Vec<Vec<String>>) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).expect("in memory");
    for row in rows {
        w.write_record(&row).expect("in memory");
    }
    w.into_inner().expect("in memory")
}

impl Tournament {
    fn study(&self) -> Vec<String> {
        study_columns(&self.game, &self.variant, self.players)
    }

    /// `pairs.csv`: one row per ordered pair that played, agent minus versus, per game.
    pub fn pairs_csv(&self, s: &Standings) -> Vec<u8> {
        let k = self.agents.len();
        let rows = (0..k)
            .flat_map(|i| (0..k).filter(move |&j| j != i).map(move |j| (i, j)))
            .filter(|&(i, j)| s.versus(i, j).1.deals > 0)
            .map(|(i, j)| {
                let ((m, lo, hi), p) = s.versus(i, j);
                let mut row = self.study();
                row.extend([
                    self.agents[i].clone(),
                    self.agents[j].clone(),
                    p.deals.to_string(),
                    p.games.to_string(),
                    fmt(m),
                    fmt(lo),
                    fmt(hi),
                ]);
                row
            })
            .collect();
        csv_bytes(&PAIRS_HEADER, rows)
    }

    /// `crosstable.csv`: row agent minus column agent, mean paired payout difference per game.
    pub fn crosstable_csv(&self, s: &Standings) -> Vec<u8> {
        let k = self.agents.len();
        let mut header = vec!["agent"];
        header.extend(self.agents.iter().map(String::as_str));
        let rows = (0..k)
            .map(|i| {
                let mut row = vec![self.agents[i].clone()];
                row.extend((0..k).map(|j| match (i == j, s.versus(i, j)) {
                    (false, ((m, _, _), p)) if p.deals > 0 => fmt(m),
                    _ => String::new(),
                }));
                row
            })
            .collect();
        csv_bytes(&header, rows)
    }

    /// `ratings.csv`: the agents by rating, with their intervals.
    pub fn ratings_csv(&self, s: &Standings) -> Vec<u8> {
        let rows = s
            .order()
            .into_iter()
            .enumerate()
            .map(|(rank, i)| {
                let r = s.ratings[i];
                let mut row = self.study();
                row.extend([
                    (rank + 1).to_string(),
                    self.agents[i].clone(),
                    fmt(r.rating),
                    fmt(r.lo),
                    fmt(r.hi),
                    s.deals[i].to_string(),
                    s.games[i].to_string(),
                ]);
                row
            })
            .collect();
        csv_bytes(&RATINGS_HEADER, rows)
    }
}
