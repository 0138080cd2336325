//! Experiment specs (TOML): game, variant, rule options, one agent spec per seat, number of deals,
//! games per match, master seed, seat rotation, output folder and whether to write per-game rows.

use crate::agent::host::Host;
use crate::agent::AgentKey;
use crate::deal_spec::DealSpec;
use crate::game::RuleMap;
use crate::games::kind::{check_players, check_variant, GameError, GameKind};
use crate::games::{game_info, with_game, GameVisitor};
use crate::generic_agents::catalogue::{agent_key_in, check_specs_with, Setting};
use crate::input::{read_text, InputProblem, EXPERIMENT};
use crate::sim::files::guard::is_plain_name;
use crate::sim::luck::{Estimator, ValueSpec};
use crate::sim::run::experiment_error::{CheckError, ExperimentError, NumberError};
use crate::sim::stats::sprt::SprtConfig;
use crate::sim::stats::tally::Tally;
use crate::text::toml_error;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The embedded default experiment (also `experiments/default.toml`).
pub(crate) const DEFAULT_EXPERIMENT: &str = include_str!("../../../experiments/default.toml");

/// The largest experiment file read (an experiment is a few lines; this bounds the allocation):
/// the cap of [`EXPERIMENT`] files.
pub(crate) const MAX_EXPERIMENT_BYTES: u64 = EXPERIMENT.max;

/// An experiment as written in its TOML file. Unknown keys are errors.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// A short name (used for the default output folder).
    #[serde(default = "default_name")]
    pub name: String,
    /// The game (a name of the registry, `bailab agents` lists them).
    pub game: String,
    /// The variant (default: the game's first).
    #[serde(default)]
    pub variant: String,
    /// Rule options that differ from the variant's (`[rules]` table; names as in records).
    #[serde(default, skip_serializing_if = "RuleMap::is_empty")]
    pub rules: RuleMap,
    /// One agent spec per seat (the number of players is their count).
    pub agents: Vec<String>,
    /// Number of deals.
    pub deals: u64,
    /// Games per match: each deal (and rotation) is a match of this many games, each game
    /// carrying over what the rules carry (who leads next); 1 = single games.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub(crate) match_games: u32,
    /// The master seed.
    #[serde(default)]
    pub seed: u64,
    /// Replay every deal once per rotation of the agents through the seats.
    #[serde(default = "default_true")]
    pub rotate: bool,
    /// Output folder (default `results/<name>`).
    #[serde(default)]
    pub output: Option<String>,
    /// Write `games.csv`, one row per game.
    #[serde(default)]
    pub games_csv: bool,
    /// Write `records.jsonl`, one JSON game record per game (docs/records.md).
    #[serde(default)]
    pub records: bool,
    /// A deal specification (`[deal]` table, docs/deals-spec.md): cards fixed in every deal,
    /// the rest dealt at random per deal index; the fixed hands stay with their seats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<DealSpec>,
    /// Early stopping: an `[sprt]` table stops the run once a sequential test between two agents
    /// is decided (docs/sprt.md); `deals` is then the budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtConfig>,
    /// `"luck-corrected"`: `summary.csv` also gives each pair's luck-corrected difference
    /// (docs/variance.md); default `"plain"`.
    #[serde(default, skip_serializing_if = "Estimator::is_plain")]
    pub estimator: Estimator,
    /// The luck-corrected estimate's value function (`[value]` table; its defaults when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<ValueSpec>,
}

/// What running an experiment needs beyond its file: the folder its agent files (`rules:PATH`,
/// `greedy:PATH`) are read from and the embedding program's agents. Not part of the study, so
/// never written into its results nor compared: an [`Experiment`] is the file's data only.
#[derive(Clone, Debug, Default)]
pub struct Runtime {
    /// The project folder the agent files are read from, as the experiment's `output` is (see
    /// [`project_dir`]); `None`: the current folder.
    pub project: Option<PathBuf>,
    /// The embedding program's agents (Python callables), seated by name.
    pub host: Host,
}

impl Runtime {
    /// The runtime of an experiment read from `file`: its agent files are read from the file's
    /// project folder ([`project_dir`]), and no program's own agents.
    pub(crate) fn of_file(file: &Path) -> Runtime {
        Runtime {
            project: Some(project_dir(file)),
            host: Host::default(),
        }
    }
}

fn default_name() -> String {
    "experiment".into()
}
fn one() -> u32 {
    1
}
fn is_one(x: &u32) -> bool {
    *x == 1
}
fn default_true() -> bool {
    true
}

impl Experiment {
    /// Reads and checks an experiment whose agent files are read from the current folder.
    /// `origin` names the file in error messages.
    pub fn parse(text: &str, origin: &str) -> Result<Experiment, ExperimentError> {
        Experiment::parse_in(text, origin, &Runtime::default())
    }

    /// Reads an experiment and checks it as it will run in `runtime`: its agent files read from
    /// the runtime's project folder, its seats free to name the runtime's host agents. `origin`
    /// names the file in error messages.
    pub fn parse_in(
        text: &str,
        origin: &str,
        runtime: &Runtime,
    ) -> Result<Experiment, ExperimentError> {
        let origin_of = || origin.to_string();
        check_numbers(text).map_err(|error| ExperimentError::Number {
            origin: origin_of(),
            error: Box::new(error),
        })?;
        let mut exp: Experiment = toml::from_str(text)
            .map_err(|e| ExperimentError::Syntax(toml_error(text, origin, &e, EXPERIMENT.what)))?;
        if exp.variant.is_empty() {
            if let Ok(info) = game_info(&exp.game) {
                exp.variant = info.variants[0].to_string();
            }
        }
        exp.check(runtime).map_err(|error| ExperimentError::Check {
            origin: origin_of(),
            error: Box::new(error),
        })?;
        Ok(exp)
    }

    /// Reads an experiment file, checked in `Runtime::of_file`: its agent files are read from
    /// its project folder ([`project_dir`]), as its `output` is written there.
    /// Files larger than `MAX_EXPERIMENT_BYTES` are refused before they are read.
    pub fn load(path: &str) -> Result<Experiment, ExperimentError> {
        let read = |error| ExperimentError::Read {
            path: path.to_string(),
            error,
        };
        let text = read_text(Path::new(path), EXPERIMENT).map_err(|e| match e.problem {
            InputProblem::Read(error) => read(error),
            InputProblem::TooLarge { size, .. } => ExperimentError::TooLarge {
                path: path.to_string(),
                size,
                max: MAX_EXPERIMENT_BYTES,
            },
            InputProblem::NotText { .. } => ExperimentError::Syntax(e.to_string()),
        })?;
        Experiment::parse_in(&text, path, &Runtime::of_file(Path::new(path)))
    }

    /// The embedded default.
    pub fn default_experiment() -> Experiment {
        Experiment::parse(DEFAULT_EXPERIMENT, "experiments/default.toml (embedded)")
            .expect("the default is valid")
    }

    /// Checks values the TOML types cannot: known game and variant, seat count, rule options,
    /// agent specs (as they are built in `runtime`).
    pub fn check(&self, runtime: &Runtime) -> Result<(), CheckError> {
        if self.output.is_none() && !is_plain_name(&self.name) {
            return Err(CheckError::Name(self.name.clone()));
        }
        let info = game_info(&self.game).map_err(|e| CheckError::Game(e.into()))?;
        check_variant(info, self.variant()).map_err(CheckError::Variant)?;
        let (low, high) = info.seats_of(self.variant());
        let seats = |rules: Option<Box<GameError>>| CheckError::Seats {
            players: self.players(),
            game: self.game.clone(),
            variant: self.variant().to_string(),
            low,
            high,
            rules,
        };
        check_players(info, self.players()).map_err(|_| seats(None))?;
        let seats_refused = !(low..=high).contains(&self.players());
        struct Check<'a, F>((&'a Experiment, &'a Runtime), Option<F>);
        impl<F: Fn(Option<Box<GameError>>) -> CheckError> GameVisitor for Check<'_, F> {
            type Output = Result<(), CheckError>;
            fn visit<G: GameKind>(self) -> Result<(), CheckError> {
                let (e, runtime) = self.0;
                let game = G::build(e.variant(), e.players(), &e.rules).map_err(|m| {
                    // the seats of the variant first, when its rules keep it to fewer
                    match &self.1 {
                        Some(seats) => seats(Some(Box::new(m))),
                        None => CheckError::Rules(Box::new(m)),
                    }
                })?;
                if let Some(deal) = &e.deal {
                    deal.check(&game).map_err(CheckError::Deal)?;
                    if e.match_games > 1 {
                        return Err(CheckError::DealMatch);
                    }
                }
                if let Some(value) = e.luck_value() {
                    value
                        .check::<G>(&e.agents, e.setting(runtime))
                        .map_err(CheckError::Value)?;
                }
                check_specs_with::<G>(&e.agents, e.setting(runtime)).map_err(CheckError::Agents)
            }
        }
        with_game(
            &self.game,
            Check((self, runtime), seats_refused.then_some(seats)),
        )
        .map_err(|e| CheckError::Game(e.into()))??;
        if self.deals == 0 {
            return Err(CheckError::Zero("deals"));
        }
        if self.value.is_some() && self.estimator.is_plain() {
            return Err(CheckError::ValueWithoutEstimator);
        }
        if self.match_games == 0 {
            return Err(CheckError::Zero("match_games"));
        }
        if let Some(sprt) = &self.sprt {
            (sprt.check(&self.tally().agents, self.estimator)).map_err(CheckError::Sprt)?;
        }
        Ok(())
    }

    /// Where its agents play in `runtime`: its variant and table, the runtime's project folder
    /// for their files and its host agents.
    pub fn setting<'a>(&'a self, runtime: &'a Runtime) -> Setting<'a> {
        Setting {
            variant: Some(self.variant()),
            base: runtime.project.as_deref(),
            host: Some(&runtime.host),
            table: Some((&self.rules, self.players())),
            stderr_log: None,
        }
    }

    /// The value function of a luck-corrected study (`None`: a plain one).
    pub fn luck_value(&self) -> Option<ValueSpec> {
        match self.estimator {
            Estimator::Plain => None,
            Estimator::LuckCorrected => Some(self.value.clone().unwrap_or_default()),
        }
    }

    /// The variant played.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.agents.len()
    }

    /// Number of rotations each deal is played in.
    pub fn rotations(&self) -> usize {
        if self.rotate {
            self.players()
        } else {
            1
        }
    }

    /// The agent spec index at `seat` in rotation `r`: seat `s` plays `agents[(s + r) mod n]`.
    pub fn slot(&self, rotation: usize, seat: usize) -> usize {
        (seat + rotation) % self.players()
    }

    /// The key the agent of `spec` is tallied by in this experiment's game (see [`AgentKey`]).
    pub(crate) fn agent_key(&self, spec: &str) -> AgentKey {
        agent_key_in(&self.game, spec)
    }

    /// An empty tally of this experiment's agents (see [`Tally::new`]).
    pub fn tally(&self) -> Tally {
        Tally::new(&self.agents, |s| self.agent_key(s))
    }

    /// The index in `agents` (a tally's agents) of the agent of every spec of
    /// [`Experiment::agents`], by key.
    pub fn tally_slots(&self, agents: &[String]) -> Vec<usize> {
        let keys: Vec<AgentKey> = agents.iter().map(|a| self.agent_key(a)).collect();
        (self.agents.iter())
            .map(|spec| {
                let key = self.agent_key(spec);
                (keys.iter().position(|k| *k == key)).expect("every seat spec is in the tally")
            })
            .collect()
    }

    /// The output folder as written: `output`, or `results/<name>`; relative to the project
    /// folder (see [`project_dir`]).
    pub(crate) fn output_dir(&self) -> String {
        self.output
            .clone()
            .unwrap_or_else(|| format!("results/{}", self.name))
    }

    /// The output folder of an experiment read from `file` (`None`: the embedded default, read
    /// as if it were `experiments/default.toml` of the current folder): [`Experiment::output_dir`]
    /// under the experiment's project folder, unless it is absolute.
    pub(crate) fn resolve_output(&self, file: Option<&Path>) -> PathBuf {
        let out = PathBuf::from(self.output_dir());
        if out.is_absolute() {
            return out;
        }
        match file {
            Some(f) => project_dir(f).join(out),
            None => out,
        }
    }

    /// The same study as `other`: every key equal but where the results go (`output`) and which
    /// optional per-game files are written (`games_csv`, `records`). Otherwise the keys that
    /// differ, each as `key: A there, B here` (self is "here").
    pub(crate) fn differences(&self, there: &Experiment) -> Vec<String> {
        let (a, b) = (study_keys(there), study_keys(self));
        let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
        keys.sort();
        keys.dedup();
        keys.into_iter()
            .filter(|k| a.get(*k) != b.get(*k))
            .map(|k| {
                let show = |v: Option<&serde_json::Value>| {
                    v.map_or_else(|| "(not set)".to_string(), |v| v.to_string())
                };
                format!("{k}: {} there, {} here", show(a.get(k)), show(b.get(k)))
            })
            .collect()
    }
}

/// The keys of an experiment that define its results.
fn study_keys(e: &Experiment) -> serde_json::Map<String, serde_json::Value> {
    let mut m = match serde_json::to_value(e) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    for k in ["output", "games_csv", "records"] {
        m.remove(k);
    }
    m
}

/// The project folder of an experiment file, against which its `output` resolves: the folder
/// holding the file, or that folder's parent when it is named `experiments` (so that
/// `experiments/x.toml` with `output = "results/x"` writes `results/x` beside `experiments/`,
/// wherever the command is run from).
pub fn project_dir(file: &Path) -> PathBuf {
    let folder = file.parent().unwrap_or(Path::new(""));
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    if folder.file_name().is_some_and(|n| n == "experiments") {
        folder.parent().map_or_else(
            || PathBuf::from("."),
            |p| {
                if p.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    p.to_path_buf()
                }
            },
        )
    } else {
        folder.to_path_buf()
    }
}

/// The whole-number keys of an experiment: table (empty for the top level), key, what its
/// value counts, and its smallest and largest value.
const WHOLE_NUMBERS: [(&str, &str, &str, i64, i64); 4] = [
    ("", "deals", "a number of deals", 1, i64::MAX),
    (
        "",
        "match_games",
        "a number of games per match",
        1,
        u32::MAX as i64,
    ),
    ("", "seed", "a seed", 0, i64::MAX),
    (
        "sprt",
        "chunk",
        "a number of deals between looks",
        1,
        i64::MAX,
    ),
];

/// Checks the whole-number keys of an experiment's text before it is read into its types, so
/// that `deals = -1` is told in words (the parser would say `expected u64`). Text that is not
/// TOML is left to the parser to report.
fn check_numbers(text: &str) -> Result<(), NumberError> {
    let Ok(doc) = toml::from_str::<toml::Table>(text) else {
        return Ok(());
    };
    for (table, key, what, low, high) in WHOLE_NUMBERS {
        let holder = if table.is_empty() {
            Some(&doc)
        } else {
            doc.get(table).and_then(toml::Value::as_table)
        };
        let Some(value) = holder.and_then(|t| t.get(key)) else {
            continue;
        };
        if value
            .as_integer()
            .is_some_and(|n| (low..=high).contains(&n))
        {
            continue;
        }
        let line = text
            .lines()
            .position(|l| {
                l.trim_start()
                    .strip_prefix(key)
                    .is_some_and(|r| r.trim_start().starts_with('='))
            })
            .map(|n| n + 1);
        return Err(NumberError {
            line,
            table,
            key,
            value: value.to_string(),
            what,
            low,
            high,
        });
    }
    Ok(())
}
