//! Who plays on after an action is tried: greedy, the network at the deciding seat, or the
//! network at every seat. Training's rollout targets (`bailab train --rollout-policy`) and the
//! `net:` lookahead's playouts (`net:…,search=N,playout=`) share it.

#[cfg(feature = "train")]
use crate::game::Seat;
use serde::{Deserialize, Serialize};

/// Who plays a rollout or a playout after the action it judges.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RolloutPolicy {
    /// The rollout agent (greedy unless `--rollout-agent` names another) at every seat: the
    /// targets judge an action followed by its play.
    #[default]
    Greedy,
    /// The deciding seat by the current network (its highest Q), the others by the rollout
    /// agent: the targets judge an action followed by the seat's own play, a step of policy
    /// iteration beyond what the rollout agent's rollouts give.
    Own,
    /// Every seat by the current network: the targets judge an action followed by self-play,
    /// the policy iteration of the network against itself rather than against greedy.
    All,
}

/// What training's actors and config ask of a policy (without `train` nothing does).
#[cfg(feature = "train")]
impl RolloutPolicy {
    /// Whether it is the default, greedy at every seat.
    pub(crate) fn is_greedy(&self) -> bool {
        *self == RolloutPolicy::Greedy
    }

    /// Whether the network plays `mover`'s choice in a rollout of `deciding`'s action.
    pub(crate) fn by_net(self, mover: Seat, deciding: Seat) -> bool {
        match self {
            RolloutPolicy::Greedy => false,
            RolloutPolicy::Own => mover == deciding,
            RolloutPolicy::All => true,
        }
    }
}

/// Who plays a `net:` lookahead's playouts (`playout=`) and, with the network at the searching
/// seat only, for how many of its choices in each (`horizon=`; greedy after them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Playouts {
    /// Who plays.
    pub(crate) policy: RolloutPolicy,
    /// With [`RolloutPolicy::Own`], the searching seat's choices the network makes in each
    /// playout (`u32::MAX`: all of them).
    pub(crate) horizon: u32,
}

#[cfg(all(test, feature = "train"))]
mod tests {
    use super::RolloutPolicy;

    #[test]
    fn the_network_plays_the_seats_its_policy_names() {
        let who =
            |policy: RolloutPolicy| [(0, 0), (1, 0), (3, 3)].map(|(m, d)| policy.by_net(m, d));
        assert_eq!(who(RolloutPolicy::Greedy), [false, false, false]);
        assert_eq!(who(RolloutPolicy::Own), [true, false, true]);
        assert_eq!(who(RolloutPolicy::All), [true, true, true]);
    }
}
