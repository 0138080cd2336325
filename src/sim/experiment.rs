//! Experiment specs (TOML): game, variant, one agent spec per seat, number of deals, master seed,
//! seat rotation, output folder and whether to write per-game rows.

use crate::agents::catalogue::tusac_agent;
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
    /// The game: `tusac`.
    pub game: String,
    /// The variant: `classic`.
    #[serde(default = "default_variant")]
    pub variant: String,
    /// One agent spec per seat (the number of players is their count).
    pub agents: Vec<String>,
    /// Number of deals.
    pub deals: u64,
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
fn default_variant() -> String {
    "classic".into()
}
fn default_true() -> bool {
    true
}

impl Experiment {
    /// Reads and checks an experiment. `origin` names the file in error messages.
    pub fn parse(text: &str, origin: &str) -> Result<Experiment, String> {
        let exp: Experiment = toml::from_str(text).map_err(|e| format!("{origin}: {e}"))?;
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

    /// Checks values the TOML types cannot: known game and variant, seat count, agent specs.
    pub fn check(&self) -> Result<(), String> {
        if self.game != "tusac" {
            return Err(format!(
                "key 'game': unknown game '{}' (known: tusac)",
                self.game
            ));
        }
        if self.variant != "classic" {
            return Err(format!(
                "key 'variant': '{}' is not implemented for tusac (known: classic)",
                self.variant
            ));
        }
        if !(2..=4).contains(&self.agents.len()) {
            return Err(format!(
                "key 'agents': {} agent(s) for the seats, but tusac classic seats 2 to 4",
                self.agents.len()
            ));
        }
        for (i, spec) in self.agents.iter().enumerate() {
            tusac_agent(spec).map_err(|e| format!("key 'agents', seat {i}: {e}"))?;
        }
        if self.deals == 0 {
            return Err("key 'deals': must be at least 1".into());
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Experiment::parse(text, "x.toml").unwrap_err()
    }

    #[test]
    fn the_default_is_valid() {
        let e = Experiment::default_experiment();
        assert_eq!(e.players(), 4);
        assert_eq!(e.rotations(), 4);
    }

    #[test]
    fn bad_experiments_name_the_key() {
        let ok = "game = \"tusac\"\nagents = [\"greedy\", \"random\"]\ndeals = 10\n";
        assert!(Experiment::parse(ok, "x.toml").is_ok());
        assert!(err(&format!("{ok}colour = 3\n")).contains("unknown field `colour`"));
        assert!(err(&format!("{ok}colour = 3\n")).contains("line 4"));
        assert!(err("game = \"tusac\"\nagents = [\"greedy\"]\ndeals = 10\n").contains("1 agent(s)"));
        assert!(
            err("game = \"chess\"\nagents = [\"greedy\", \"random\"]\ndeals = 10\n")
                .contains("unknown game 'chess'")
        );
        assert!(
            err("game = \"tusac\"\nagents = [\"greedy\", \"bogus\"]\ndeals = 10\n")
                .contains("seat 1: unknown agent 'bogus'")
        );
        assert!(
            err("game = \"tusac\"\nagents = [\"greedy:x=1\", \"random\"]\ndeals = 10\n")
                .contains("no parameter 'x'")
        );
        assert!(
            err("game = \"tusac\"\nagents = [\"greedy\", \"random\"]\ndeals = -1\n")
                .contains("deals")
        );
        assert!(err("game = \"tusac\"\nagents = [\"greedy\", \"random\"]\n")
            .contains("missing field `deals`"));
        assert!(
            err("game = \"tusac\"\nagents = [\"greedy\", \"random\"]\ndeals = 0\n")
                .contains("at least 1")
        );
        assert!(err("game = tusac\n").contains("x.toml"));
    }
}
