//! Experiment specs (TOML): game, variant, rule options, one agent spec per seat, number of deals,
//! games per match, master seed, seat rotation, output folder and whether to write per-game rows.

use crate::agents::catalogue::check_specs;
use crate::games::{
    check_players, check_variant, game_info, with_game, GameKind, GameVisitor, RuleMap,
};
use serde::{Deserialize, Serialize};

/// The embedded default experiment (also `experiments/default.toml`).
pub const DEFAULT_EXPERIMENT: &str = include_str!("../../experiments/default.toml");

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
    pub match_games: u32,
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
    /// Reads and checks an experiment. `origin` names the file in error messages.
    pub fn parse(text: &str, origin: &str) -> Result<Experiment, String> {
        let mut exp: Experiment = toml::from_str(text).map_err(|e| format!("{origin}: {e}"))?;
        if exp.variant.is_empty() {
            if let Ok(info) = game_info(&exp.game) {
                exp.variant = info.variants[0].to_string();
            }
        }
        exp.check().map_err(|e| format!("{origin}: {e}"))?;
        Ok(exp)
    }

    /// Reads an experiment file.
    pub fn load(path: &str) -> Result<Experiment, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        Experiment::parse(&text, path)
    }

    /// The embedded default.
    pub fn default_experiment() -> Experiment {
        Experiment::parse(DEFAULT_EXPERIMENT, "experiments/default.toml (embedded)")
            .expect("the default is valid")
    }

    /// Checks values the TOML types cannot: known game and variant, seat count, rule options,
    /// agent specs.
    pub fn check(&self) -> Result<(), String> {
        let info = game_info(&self.game).map_err(|e| format!("key 'game': {e}"))?;
        check_variant(info, self.variant()).map_err(|e| format!("key 'variant': {e}"))?;
        check_players(info, self.players()).map_err(|_| {
            format!(
                "key 'agents': {} agent(s) for the seats, but {} {} seats {} to {}",
                self.players(),
                self.game,
                self.variant(),
                info.seats.0,
                info.seats.1
            )
        })?;
        struct Check<'a>(&'a Experiment);
        impl GameVisitor for Check<'_> {
            type Output = Result<(), String>;
            fn visit<G: GameKind>(self) -> Result<(), String> {
                let e = self.0;
                G::build(e.variant(), e.players(), &e.rules)
                    .map_err(|m| format!("table [rules]: {}", m.trim_start_matches("rules: ")))?;
                check_specs::<G>(&e.agents).map_err(|m| format!("key 'agents', {m}"))
            }
        }
        with_game(&self.game, Check(self))??;
        if self.deals == 0 {
            return Err("key 'deals': must be at least 1".into());
        }
        if self.match_games == 0 {
            return Err("key 'match_games': must be at least 1".into());
        }
        Ok(())
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

    /// The output folder.
    pub fn output_dir(&self) -> String {
        self.output
            .clone()
            .unwrap_or_else(|| format!("results/{}", self.name))
    }
}
