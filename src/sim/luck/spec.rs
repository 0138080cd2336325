//! How an experiment asks for luck-corrected estimates: its `estimator` key and `[value]`
//! table, and the corrector they build for each worker thread.

use super::corrector::Corrector;
use super::rollout::RolloutValue;
use crate::agent::spec::AgentSpec;
use crate::agent::Agent;
use crate::agent::AgentError;
use crate::game::MAX_SEATS;
use crate::games::kind::GameKind;
use crate::generic_agents::catalogue::{make_agent_with, Setting};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a study estimates the difference between two agents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Estimator {
    /// The paired difference of payouts alone.
    #[default]
    Plain,
    /// Also the paired difference of luck-corrected payouts (`docs/variance.md`).
    LuckCorrected,
}

impl Estimator {
    /// Whether this is the plain estimator (the default, left out of written experiments).
    pub fn is_plain(&self) -> bool {
        *self == Estimator::Plain
    }
}

/// The value function of a luck-corrected estimate (an experiment's `[value]` table): a seat's
/// value of a state is its mean payout over `playouts` games played on from it by `agent` at
/// every seat, or with `agent = "seated"` by the agents that sit at the game corrected (each
/// replaced by its `stand_in` if it has one), the hidden stock shuffled anew for each
/// ([`RolloutValue`]). It needs no training, so no evaluation seed can overlap its data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueSpec {
    /// The agent that plays the playouts (default `greedy`), or [`SEATED`].
    #[serde(default = "default_agent")]
    pub agent: String,
    /// Playouts per value (default 64).
    #[serde(default = "default_playouts")]
    pub playouts: u32,
    /// With [`SEATED`]: the agent that plays a seated agent's playouts in its place (a cheap
    /// stand-in for a search), by the seated agent's spec.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stand_in: BTreeMap<String, String>,
}

/// The `agent` of a value function whose playouts are played by the agents seated at the game
/// corrected (or their stand-ins).
pub const SEATED: &str = "seated";

impl Default for ValueSpec {
    fn default() -> Self {
        ValueSpec {
            agent: default_agent(),
            playouts: default_playouts(),
            stand_in: BTreeMap::new(),
        }
    }
}

fn default_agent() -> String {
    "greedy".into()
}
fn default_playouts() -> u32 {
    64
}

/// The most playouts per value.
pub const MAX_PLAYOUTS: u32 = 4096;

/// The seed of every value's playouts: fixed, so that the value function is chosen before any
/// game it corrects.
const PLAYOUT_SALT: u64 = 0x10CC_A11E;

/// A `[value]` table that cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValueSpecError {
    /// Playouts out of range.
    #[error("key 'playouts': {0} is not within 1..={MAX_PLAYOUTS}")]
    Playouts(u32),
    /// An agent that cannot play the playouts.
    #[error("key 'agent', {0}")]
    Agent(AgentError),
    /// A stand-in that cannot play the playouts.
    #[error("key 'stand_in', '{0}': {1}")]
    StandIn(String, Box<AgentError>),
    /// A stand-in for an agent the study does not seat.
    #[error(
        "key 'stand_in': '{0}' is not one of the agents ({1}); a stand-in plays a seated \
         agent's playouts"
    )]
    StandInFor(String, String),
    /// Stand-ins with a fixed playout agent.
    #[error(
        "key 'stand_in' is used only with agent = \"seated\" (here the playouts are played \
         by '{0}' in every seat)"
    )]
    StandInUnseated(String),
}

impl ValueSpec {
    /// Whether each seat's playouts are played by the agent seated there.
    pub fn is_seated(&self) -> bool {
        self.agent == SEATED
    }

    /// The specs of the agents that play the playouts of a study seating `agents`: one for every
    /// seat, or with [`SEATED`] one per agent slot (its stand-in, or itself).
    pub fn playout_agents(&self, agents: &[String]) -> Vec<String> {
        if !self.is_seated() {
            return vec![self.agent.clone()];
        }
        (agents.iter())
            .map(|a| self.stand_in.get(a).unwrap_or(a).clone())
            .collect()
    }

    /// This value function with only the stand-ins of `agents` (a tournament's table).
    pub(crate) fn for_agents(&self, agents: &[String]) -> ValueSpec {
        let mut spec = self.clone();
        spec.stand_in.retain(|seated, _| agents.contains(seated));
        spec
    }

    /// Checks the stand-ins' keys against the agents of the study (`agents`).
    pub(crate) fn check_stand_ins(&self, agents: &[String]) -> Result<(), ValueSpecError> {
        if !self.stand_in.is_empty() && !self.is_seated() {
            return Err(ValueSpecError::StandInUnseated(self.agent.clone()));
        }
        match self.stand_in.keys().find(|k| !agents.contains(k)) {
            Some(k) => Err(ValueSpecError::StandInFor(k.clone(), agents.join(", "))),
            None => Ok(()),
        }
    }

    /// Checks the table for game `G` in a study seating `agents`, built in `setting`.
    pub(crate) fn check<G: GameKind>(
        &self,
        agents: &[String],
        setting: Setting<'_>,
    ) -> Result<(), ValueSpecError> {
        if !(1..=MAX_PLAYOUTS).contains(&self.playouts) {
            return Err(ValueSpecError::Playouts(self.playouts));
        }
        self.check_stand_ins(agents)?;
        if !self.is_seated() {
            return (make_agent_with::<G>(&self.agent, setting).map(|_| ()))
                .map_err(ValueSpecError::Agent);
        }
        for (seated, stand_in) in &self.stand_in {
            make_agent_with::<G>(stand_in, setting)
                .map_err(|e| ValueSpecError::StandIn(seated.clone(), Box::new(e)))?;
        }
        Ok(())
    }

    /// A corrector with this value function for a study seating `agents` (checked by
    /// [`ValueSpec::check`]).
    pub(crate) fn corrector<G: GameKind>(
        &self,
        agents: &[String],
        setting: Setting<'_>,
    ) -> Corrector<G, RolloutValue<G::State>> {
        let playout_agents: Vec<Box<dyn Agent<G::State>>> = (self.playout_agents(agents).iter())
            .map(|a| make_agent_with::<G>(a, setting).expect("checked by ValueSpec::check"))
            .collect();
        let mut uniform = [false; MAX_SEATS];
        for (slot, spec) in agents.iter().enumerate().take(MAX_SEATS) {
            uniform[slot] = AgentSpec::parse(spec).is_ok_and(|s| s.name == "random");
        }
        Corrector::new(RolloutValue::with_agents(
            playout_agents,
            self.playouts,
            PLAYOUT_SALT,
        ))
        .with_uniform_slots(uniform)
    }
}
