//! What can be wrong with an `[sprt]` table: a key out of range, or agents that do not name one
//! pair of the experiment's (or the tally's) agents.

use thiserror::Error;

/// An `[sprt]` table its experiment cannot run; each message names the key.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SprtError {
    /// `alpha` or `beta` outside `(0, 0.5)`.
    #[error("key '{key}': {value} is not an error rate strictly between 0 and 0.5")]
    Rate {
        /// The key.
        key: &'static str,
        /// Its value.
        value: f64,
    },
    /// `h0` or `h1` not finite.
    #[error("key '{key}': {value} is not a finite number")]
    NotFinite {
        /// The key.
        key: &'static str,
        /// Its value.
        value: f64,
    },
    /// `h0` not below `h1`.
    #[error("keys 'h0', 'h1': h0 = {h0} must be below h1 = {h1} (h1 is the difference to detect)")]
    Order {
        /// The null hypothesis.
        h0: f64,
        /// The alternative.
        h1: f64,
    },
    /// `chunk = 0`.
    #[error("key 'chunk': must be at least 1 deal")]
    Chunk,
    /// The experiment seats one distinct agent.
    #[error(
        "the experiment's key 'agents' holds one distinct agent spec ({}); a comparison needs \
         two different ones",
        quoted(.0)
    )]
    OneAgent(Vec<String>),
    /// No `agents` key, and more than two distinct agents to choose from.
    #[error(
        "key 'agents' missing: the experiment has {} distinct agent specs ({}); name the two to \
         compare, e.g. agents = [\"{}\", \"{}\"]",
        .0.len(),
        quoted(.0),
        .0[0],
        .0[1]
    )]
    Unnamed(Vec<String>),
    /// `agents` not of two specs.
    #[error("key 'agents': {0} spec(s); name exactly two, A and B (the test is on A − B)")]
    NotTwo(usize),
    /// A named agent the experiment does not seat.
    #[error(
        "key 'agents': '{name}' is not one of the experiment's agents ({})",
        quoted(specs)
    )]
    NotSeated {
        /// The agent named.
        name: String,
        /// The experiment's distinct agents.
        specs: Vec<String>,
    },
    /// The same agent named twice.
    #[error("key 'agents': '{0}' twice; name two different agents")]
    Twice(String),
    /// Agent A or B (the letter) missing from the tally.
    #[error("agent {0} not in the tally")]
    NotInTally(char),
    /// The pair of A and B missing from the tally.
    #[error("the pair is not in the tally")]
    PairNotInTally,
    /// A test of the luck-corrected differences in a study that does not tally them.
    #[error(
        "key 'estimator': the luck-corrected differences are tallied only with the study's \
         estimator = \"luck-corrected\" (docs/variance.md); add it, or leave this key out"
    )]
    Uncorrected,
}

/// The specs quoted and joined by commas.
fn quoted(specs: &[String]) -> String {
    (specs.iter())
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ")
}
