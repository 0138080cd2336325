//! What every game's `greedy` agent shares: the tie-break rule among equally good actions.
//! Each game's greedy policy lives in its own folder (`src/games/<game>/greedy.rs`).

use crate::agent::spec::{AgentSpec, PATH};
use crate::agent::weight_file::{WeightError, WeightFileError, WeightKeyError};
use crate::agent::{choice, uniform_index, AgentError, ParamInfo};
use crate::input::{read_text, WEIGHTS};
use crate::rng::GameRng;
use crate::text::{const_eq, toml_comment, toml_error, toml_string};

/// How a greedy agent chooses among equally good actions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// The first in canonical order.
    Canonical,
    /// Uniform among the tied actions.
    Random,
}

/// The `tiebreak` parameter every greedy agent takes.
pub(crate) const TIEBREAK_PARAM: ParamInfo = ParamInfo {
    name: "tiebreak",
    default: "canonical",
    about: "canonical (first in canonical order) or random (uniform among ties)",
};

impl TieBreak {
    /// Reads the `tiebreak` parameter of a spec.
    pub fn from_spec(spec: &AgentSpec) -> Result<TieBreak, AgentError> {
        choice(
            spec,
            "tiebreak",
            "canonical",
            &[
                ("canonical", TieBreak::Canonical),
                ("random", TieBreak::Random),
            ],
        )
    }

    /// Among `(index, key)` pairs, the index whose key is the smallest, by this tie-break rule.
    pub fn pick<K: Ord + Copy>(
        self,
        keys: impl Iterator<Item = (usize, K)> + Clone,
        rng: &mut GameRng,
    ) -> Option<usize> {
        let best = keys.clone().map(|(_, k)| k).min()?;
        let tied = keys.filter(move |&(_, k)| k == best).map(|(i, _)| i);
        match self {
            TieBreak::Canonical => tied.clone().next(),
            TieBreak::Random => {
                let n = tied.clone().count();
                tied.clone().nth(uniform_index(n, rng))
            }
        }
    }
}

/// The most tunable weights a game's greedy has.
pub(crate) const MAX_WEIGHTS: usize = 12;

/// One tunable weight of a game's greedy: a number read from the spec (`greedy:outs=1.5`) or
/// from a parameter file (`greedy:PATH`). Its default makes greedy play exactly as the
/// unparameterised rule.
#[derive(Copy, Clone, Debug)]
pub struct Weight {
    /// The parameter name.
    pub name: &'static str,
    /// The value that keeps greedy's original rule.
    pub default: f64,
    /// The allowed values, inclusive; `bailab tune` samples within them.
    pub range: (f64, f64),
    /// Values are multiples of this (1 for counts and switches; 0.01 for real weights).
    pub step: f64,
    /// What it weighs.
    pub about: &'static str,
}

/// Declares a game's greedy weights: the slot constants, the table [`Weight`]s and the
/// catalogue's parameter list (`tiebreak`, `path`, then the weights), from one list.
#[macro_export]
macro_rules! greedy_weights {
    (params: [$($extra:expr),*];
     $($slot:ident $name:literal = $default:literal in $lo:literal ..= $hi:literal step $step:literal,
       $about:literal;)*) => {
        /// Slots of the weights, in the order of [`WEIGHTS`].
        #[allow(non_camel_case_types, dead_code)]
        #[derive(Copy, Clone)]
        enum W {
            $($slot),*
        }
        /// The tunable weights of this greedy (`bailab tune`), defaults first.
        pub const WEIGHTS: &[$crate::agent::greedy::Weight] = &[$($crate::agent::greedy::Weight {
            name: $name,
            default: $default,
            range: ($lo, $hi),
            step: $step,
            about: $about,
        }),*];
        /// The catalogue's parameters of this greedy.
        const GREEDY_PARAMS: &[$crate::agent::ParamInfo] = &[
            $($extra,)*
            $crate::agent::greedy::WEIGHTS_PATH_PARAM,
            $($crate::agent::ParamInfo {
                name: $name,
                default: stringify!($default),
                about: $about,
            }),*
        ];
    };
}

/// The `path` parameter of a greedy with weights: a TOML file of weights (`greedy:PATH`).
pub(crate) const WEIGHTS_PATH_PARAM: ParamInfo = ParamInfo {
    name: "path",
    default: "none",
    about: "a TOML file of the weights below (written by `bailab tune`; weights given in the \
            spec override the file's), written first, without `path=`: relative to the current \
            folder on the command line, to the project folder in an experiment file",
};

/// Values of a greedy's weights, in the order of its [`Weight`] table.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Weights {
    values: [f64; MAX_WEIGHTS],
    len: usize,
}

impl Weights {
    /// The defaults of `table`: greedy's original rule.
    pub fn defaults(table: &[Weight]) -> Weights {
        assert!(table.len() <= MAX_WEIGHTS, "at most {MAX_WEIGHTS} weights");
        let mut values = [0.0; MAX_WEIGHTS];
        for (v, w) in values.iter_mut().zip(table) {
            *v = w.default;
        }
        Weights {
            values,
            len: table.len(),
        }
    }

    /// The value in slot `i`.
    pub fn get(&self, i: usize) -> f64 {
        self.values[i]
    }

    /// The values, in table order.
    pub fn values(&self) -> &[f64] {
        &self.values[..self.len]
    }

    /// Sets slot `i`.
    pub fn set(&mut self, i: usize, value: f64) {
        assert!(i < self.len, "no weight slot {i}");
        self.values[i] = value;
    }

    /// Whether every weight has its default (greedy plays its original rule).
    pub fn is_default(&self, table: &[Weight]) -> bool {
        *self == Weights::defaults(table)
    }

    /// The weights of a greedy spec: the file of `path` if given, then the spec's own weights.
    /// `game` is the game's name (a file written for another game is refused).
    pub fn from_spec(
        spec: &AgentSpec,
        table: &[Weight],
        game: &str,
    ) -> Result<Weights, AgentError> {
        let mut w = Weights::defaults(table);
        if let (Some(path), Some(resolved)) = (spec.get(PATH), spec.file()) {
            let file = cached_file(&resolved.to_string_lossy(), table, game).map_err(|e| {
                // `greedy:tiebreak`: more likely a parameter without its value than a file
                let bare = !path.contains(['.', '/', '\\']) && !resolved.exists();
                if bare {
                    AgentError::NotKeyValueNorFile {
                        agent: spec.name.clone(),
                        value: path.into(),
                    }
                } else {
                    AgentError::Weights(e)
                }
            })?;
            for (name, value) in file {
                let i = slot_of(table, &name).expect("checked when read");
                w.values[i] = value;
            }
        }
        for (i, weight) in table.iter().enumerate() {
            if let Some(text) = spec.get(weight.name) {
                w.values[i] = parse_weight(weight, text).map_err(|e| e.of_agent(&spec.name))?;
            }
        }
        Ok(w)
    }

    /// The weights as spec parameters, `name=value,...` (every weight, in table order).
    pub fn to_params(&self, table: &[Weight]) -> String {
        table
            .iter()
            .zip(self.values())
            .map(|(w, v)| format!("{}={v}", w.name))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The weights as a parameter file: `header` lines as comments, the game and variant, then
    /// one `name = value` line per weight.
    pub fn to_toml(
        &self,
        table: &[Weight],
        header: &[String],
        game: &str,
        variant: &str,
    ) -> String {
        let mut out = String::new();
        for line in header {
            out += &toml_comment(line);
        }
        let (game, variant) = (toml_string(game), toml_string(variant));
        out += &format!("game = {game}\nvariant = {variant}\n\n");
        for (w, v) in table.iter().zip(self.values()) {
            out += &format!("# {}\n{} = {v:?}\n", w.about, w.name);
        }
        out
    }
}

/// The slot of weight `name` in `table`.
pub(crate) fn slot_of(table: &[Weight], name: &str) -> Option<usize> {
    table.iter().position(|w| w.name == name)
}

impl WeightError {
    /// The same error as a parameter of agent `agent` (`agent 'greedy': outs ...`).
    pub(crate) fn of_agent(self, agent: &str) -> AgentError {
        let agent = agent.to_string();
        match self {
            WeightError::NotANumber { name, text } => AgentError::NotANumber {
                agent,
                key: name.into(),
                text,
            },
            WeightError::OutOfRange {
                name,
                value,
                low,
                high,
            } => AgentError::OutOfRange {
                agent,
                key: name.into(),
                value: value.to_string(),
                low: low.to_string(),
                high: high.to_string(),
            },
        }
    }
}

/// Reads a weight's value, checking it is a finite number within the weight's range.
pub(crate) fn parse_weight(weight: &Weight, text: &str) -> Result<f64, WeightError> {
    let v: f64 = text
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .ok_or_else(|| WeightError::NotANumber {
            name: weight.name,
            text: crate::input::excerpt(text, crate::input::EXCERPT_CHARS),
        })?;
    let (low, high) = weight.range;
    if v < low || v > high {
        return Err(WeightError::OutOfRange {
            name: weight.name,
            value: v,
            low,
            high,
        });
    }
    Ok(v)
}

/// Reads a weight file: `game = "..."`, optional `variant = "..."`, and `name = number` lines.
/// Errors name the file, the line and the problem.
pub(crate) fn read_weights_file(
    path: &str,
    table: &[Weight],
    game: &str,
) -> Result<Vec<(String, f64)>, WeightFileError> {
    let text =
        read_text(std::path::Path::new(path), WEIGHTS).map_err(|e| WeightFileError::Read {
            path: path.to_string(),
            reason: e.problem.to_string(),
        })?;
    parse_weights(&text, path, table, game)
}

/// Parses the text of a weight file (see `read_weights_file`); `origin` names it in errors.
pub fn parse_weights(
    text: &str,
    origin: &str,
    table: &[Weight],
    game: &str,
) -> Result<Vec<(String, f64)>, WeightFileError> {
    let doc: toml::Table = toml::from_str(text)
        .map_err(|e| WeightFileError::Syntax(toml_error(text, origin, &e, WEIGHTS.what)))?;
    // the line of `key = ...`, `[key]` or `[[key]]`
    let line_of = |key: &str| {
        text.lines()
            .position(|l| {
                let l = l.trim();
                l.strip_prefix(key)
                    .is_some_and(|r| r.trim_start().starts_with('='))
                    || l.trim_matches(|c| c == '[' || c == ']').trim() == key
            })
            .map(|n| n + 1)
    };
    let refused = |key: &str, problem| WeightFileError::Key {
        file: origin.to_string(),
        line: line_of(key),
        problem,
    };
    let mut out = Vec::new();
    let mut file_game = None;
    for (key, value) in &doc {
        match key.as_str() {
            "game" | "variant" => {
                let s = (value.as_str())
                    .ok_or_else(|| refused(key, WeightKeyError::NotAString(key.clone())))?;
                if key == "game" {
                    file_game = Some(s.to_string());
                }
            }
            _ => {
                let weight = table.iter().find(|w| w.name == key).ok_or_else(|| {
                    let problem = WeightKeyError::NotAWeight {
                        key: key.clone(),
                        game: game.to_string(),
                        known: table.iter().map(|w| w.name).collect(),
                    };
                    refused(key, problem)
                })?;
                let text = match value {
                    toml::Value::Float(f) => f.to_string(),
                    toml::Value::Integer(i) => i.to_string(),
                    other => other.to_string(),
                };
                let v = parse_weight(weight, &text)
                    .map_err(|e| refused(key, WeightKeyError::Value(e)))?;
                out.push((key.clone(), v));
            }
        }
    }
    match file_game {
        Some(g) if g == game => Ok(out),
        Some(found) => Err(refused(
            "game",
            WeightKeyError::OtherGame {
                found,
                game: game.to_string(),
            },
        )),
        None => Err(WeightFileError::Key {
            file: origin.to_string(),
            line: None,
            problem: WeightKeyError::NoGame(game.to_string()),
        }),
    }
}

/// Weight files already read in this process, by path and game.
static LOADED: std::sync::Mutex<Option<LoadedWeights>> = std::sync::Mutex::new(None);

/// Weight files' contents by (path, game).
type LoadedWeights = std::collections::HashMap<(String, String), Vec<(String, f64)>>;

/// A weight file's contents, read once per process.
fn cached_file(
    path: &str,
    table: &[Weight],
    game: &str,
) -> Result<Vec<(String, f64)>, WeightFileError> {
    let key = (path.to_string(), game.to_string());
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    let cache = loaded.get_or_insert_with(Default::default);
    if let Some(w) = cache.get(&key) {
        return Ok(w.clone());
    }
    let w = read_weights_file(path, table, game)?;
    cache.insert(key, w.clone());
    Ok(w)
}

/// A weighted sum in thousandths, rounded: an exact integer key (so that ties are exact).
pub(crate) fn milli(score: f64) -> i64 {
    (score * 1000.0).round() as i64
}

/// The slot of feature `name` in a game's feature list (a compile-time error if absent).
pub const fn feature_slot(features: &[crate::agent::features::FeatureInfo], name: &str) -> usize {
    let mut i = 0;
    while i < features.len() {
        if const_eq(features[i].name, name) {
            return i;
        }
        i += 1;
    }
    panic!("no such feature")
}
