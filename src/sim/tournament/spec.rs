//! Tournaments (TOML, docs/tournament.md): many agents of one game compared in tables the
//! runner plays. Each table is an experiment of its own (seeds, rotation, paired differences,
//! checkpoints, shards) in `tables/NN` of the tournament's folder; the tournament pools their
//! paired payout differences per pair of agents into a cross-table and fits ratings from them.

use crate::agent::host::Host;
use crate::agent::AgentKey;
use crate::game::RuleMap;
use crate::games::game_info;
use crate::generic_agents::catalogue::agent_key_in;
use crate::input::{read_text, InputProblem, TOURNAMENT};
use crate::sim::files::guard::is_plain_name;
use crate::sim::luck::{Estimator, ValueSpec};
use crate::sim::run::experiment::{project_dir, Experiment, Runtime};
use crate::sim::stats::sprt::SprtConfig;
use crate::sim::tournament::spec_error::{TournamentError, TournamentKeyError};
use crate::text::toml_error;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How the agents are seated in tables.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum SeatingScheme {
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
    /// Seats at each table (default 4, or the most the variant seats if fewer; 0 until filled
    /// by `Tournament::fill_defaults`, and refused when written).
    #[serde(default, deserialize_with = "seats")]
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
    pub(crate) seating: SeatingScheme,
    /// The agent whose rating is 0 (default: the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) anchor: Option<String>,
    /// Output folder (default `results/tournament-<name>`), relative to the project folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// Early stopping per pair (`seating = "pairs"` only): each table stops once its sequential
    /// test of the first agent minus the second is decided; `deals` is then the budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtConfig>,
    /// `"luck-corrected"`: every table also tallies luck-corrected differences, and
    /// `pairs.csv` gives them (docs/variance.md); default `"plain"`.
    #[serde(default, skip_serializing_if = "Estimator::is_plain")]
    pub estimator: Estimator,
    /// The luck-corrected estimate's value function (`[value]` table, as in an experiment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<ValueSpec>,
    /// Stop after this many minutes of play (the table under way keeps a checkpoint;
    /// `--resume` goes on). Not part of the study: results do not depend on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) budget_minutes: Option<f64>,
    /// The project folder agent files are read from (see [`Runtime::project`]).
    #[serde(skip)]
    pub project: Option<PathBuf>,
}

/// `players` as written: 0 is refused (the key left out is the default, not 0).
fn seats<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    match usize::deserialize(d)? {
        0 => Err(serde::de::Error::custom(format!(
            "key 'players': {ZERO_SEATS}"
        ))),
        n => Ok(n),
    }
}

/// The refusal of 0 seats (the key or `--players`).
pub const ZERO_SEATS: &str = "0 seats: a table seats at least 2, and at most what the variant \
                              seats (leave it out for the default: 4, or the variant's most)";

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
    pub fn parse(
        text: &str,
        origin: &str,
        project: Option<PathBuf>,
    ) -> Result<Tournament, TournamentError> {
        let mut t: Tournament = toml::from_str(text)
            .map_err(|e| TournamentError::Syntax(toml_error(text, origin, &e, TOURNAMENT.what)))?;
        t.project = project;
        (t.fill_defaults()).map_err(|e| TournamentError::Defaults(Box::new(e)))?;
        t.check().map_err(|e| TournamentError::Check {
            origin: origin.to_string(),
            error: Box::new(e),
        })?;
        Ok(t)
    }

    /// Reads a tournament file (at most [`TOURNAMENT`]'s cap, 1 MiB).
    pub fn load(path: &str) -> Result<Tournament, TournamentError> {
        let text = read_text(Path::new(path), TOURNAMENT).map_err(|e| match e.problem {
            InputProblem::Read(error) => TournamentError::Read {
                path: path.to_string(),
                error,
            },
            InputProblem::TooLarge { size, .. } => TournamentError::TooLarge {
                path: path.to_string(),
                size,
            },
            InputProblem::NotText { .. } => TournamentError::Syntax(e.to_string()),
        })?;
        Tournament::parse(&text, path, Some(project_dir(Path::new(path))))
    }

    /// Fills the variant and the seat count when not given.
    pub(crate) fn fill_defaults(&mut self) -> Result<(), TournamentKeyError> {
        let info = game_info(&self.game).map_err(|e| TournamentKeyError::Game(e.into()))?;
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
    pub fn check(&self) -> Result<(), TournamentKeyError> {
        if self.output.is_none() && !is_plain_name(&self.name) {
            return Err(TournamentKeyError::Name(self.name.clone()));
        }
        let k = self.agents.len();
        if k < 2 {
            return Err(TournamentKeyError::TooFew);
        }
        // by key: two spellings of one agent would be one agent at a table
        let keys: Vec<AgentKey> = (self.agents.iter())
            .map(|a| agent_key_in(&self.game, a))
            .collect();
        if let Some((i, j)) =
            (0..k).find_map(|j| (0..j).find(|&i| keys[i] == keys[j]).map(|i| (i, j)))
        {
            let (first, dup) = (&self.agents[i], &self.agents[j]);
            return Err(TournamentKeyError::Twice {
                spec: dup.clone(),
                first: (first != dup).then(|| first.clone()),
            });
        }
        if self.seating == SeatingScheme::Subsets && k < self.players {
            return Err(TournamentKeyError::Subsets {
                players: self.players,
                agents: k,
            });
        }
        if self.seating == SeatingScheme::Subsets && self.sprt.is_some() {
            return Err(TournamentKeyError::SprtSubsets);
        }
        let (low, high) = game_info(&self.game)
            .map_err(|e| TournamentKeyError::Game(e.into()))?
            .seats_of(&self.variant);
        if !(low.max(2)..=high).contains(&self.players) {
            return Err(TournamentKeyError::Players {
                players: self.players,
                game: self.game.clone(),
                variant: self.variant.clone(),
                low: low.max(2),
                high,
            });
        }
        if let Some(a) = &self.anchor {
            if !self.agents.contains(a) {
                return Err(TournamentKeyError::Anchor(a.clone()));
            }
        }
        if let Some(m) = self.budget_minutes {
            if !(m > 0.0 && m.is_finite()) {
                return Err(TournamentKeyError::Budget(m));
            }
        }
        if let Some(v) = &self.value {
            v.check_stand_ins(&self.agents)
                .map_err(TournamentKeyError::Value)?;
        }
        let runtime = self.runtime();
        for t in self.tables() {
            t.experiment
                .check(&runtime)
                .map_err(|e| TournamentKeyError::Table {
                    index: t.index,
                    agents: t.experiment.agents.join(" | "),
                    error: Box::new(e),
                })?;
        }
        Ok(())
    }

    /// Where its tables run: agent files read from its project folder, no host agents.
    pub fn runtime(&self) -> Runtime {
        Runtime {
            project: self.project.clone(),
            host: Host::default(),
        }
    }

    /// The anchor's index among the agents.
    pub(crate) fn anchor_index(&self) -> usize {
        self.anchor
            .as_ref()
            .and_then(|a| self.agents.iter().position(|x| x == a))
            .unwrap_or(0)
    }

    /// The output folder as written: `output`, or `results/tournament-<name>`.
    pub(crate) fn output_dir(&self) -> String {
        self.output
            .clone()
            .unwrap_or_else(|| format!("results/tournament-{}", self.name))
    }

    /// The output folder of a tournament read from `file`, under its project folder unless
    /// absolute (`None`: relative to the current folder).
    pub(crate) fn resolve_output(&self, file: Option<&Path>) -> PathBuf {
        let out = PathBuf::from(self.output_dir());
        match file {
            Some(f) if !out.is_absolute() => project_dir(f).join(out),
            _ => out,
        }
    }

    /// The agent indices of each table, in order: pairs `(i, j)`, `i < j`, or every subset.
    pub(crate) fn table_agents(&self) -> Vec<Vec<usize>> {
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
                let value = self.value.as_ref().map(|v| v.for_agents(&seats));
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
                    estimator: self.estimator,
                    value,
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
    pub(crate) fn same_study(&self, other: &Tournament) -> bool {
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
