//! How an experiment asks for luck-corrected estimates: its `estimator` key and `[value]`
//! table, and the corrector they build for each worker thread.

use super::corrector::Corrector;
use super::rollout::RolloutValue;
use crate::agent::AgentError;
use crate::games::kind::GameKind;
use crate::generic_agents::catalogue::{make_agent_with, Setting};
use serde::{Deserialize, Serialize};

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
/// every seat, the hidden stock shuffled anew for each ([`RolloutValue`]). It needs no training,
/// so no evaluation seed can overlap its data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueSpec {
    /// The agent that plays the playouts (default `greedy`).
    #[serde(default = "default_agent")]
    pub agent: String,
    /// Playouts per value (default 64).
    #[serde(default = "default_playouts")]
    pub playouts: u32,
}

impl Default for ValueSpec {
    fn default() -> Self {
        ValueSpec {
            agent: default_agent(),
            playouts: default_playouts(),
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
}

impl ValueSpec {
    /// Checks the table for game `G` with its agents built in `setting`.
    pub(crate) fn check<G: GameKind>(&self, setting: Setting<'_>) -> Result<(), ValueSpecError> {
        if !(1..=MAX_PLAYOUTS).contains(&self.playouts) {
            return Err(ValueSpecError::Playouts(self.playouts));
        }
        make_agent_with::<G>(&self.agent, setting)
            .map(|_| ())
            .map_err(ValueSpecError::Agent)
    }

    /// A corrector with this value function (checked by [`ValueSpec::check`]).
    pub(crate) fn corrector<G: GameKind>(
        &self,
        setting: Setting<'_>,
    ) -> Corrector<G, RolloutValue<G::State>> {
        let agent =
            make_agent_with::<G>(&self.agent, setting).expect("checked by ValueSpec::check");
        Corrector::new(RolloutValue::new(agent, self.playouts, PLAYOUT_SALT))
    }
}
