//! Reading an `ismcts` spec's settings: the defaults the `ismcts` agent and `net:…,search=N`
//! share (root sweep, deviate 2.5, depth 1), apart from the search itself (`super::ismcts`).

use super::ismcts::{FinalMove, IsmctsParams, Opponents, Root};
use crate::agent::spec::AgentSpec;
use crate::agent::{choice, number, AgentError, ParamInfo};

/// The `infer` setting, shared by `ismcts` and `net:…,search=N`.
pub const INFER_INFO: ParamInfo = ParamInfo {
    name: "infer",
    default: "off",
    about: "on: weight each determinization by what the public history further says of the \
            hidden hands. Only sisepai21 and dirtyking26 read more: a hand holding a pair of a \
            type its seat let pass in a window nobody took is weighted down (docs/ismcts.md); \
            elsewhere on and off are the same",
};

/// The search settings of an `ismcts` spec.
pub fn ismcts_params(spec: &AgentSpec) -> Result<IsmctsParams, AgentError> {
    let time_ms: u64 = number(spec, "time_ms", 0, (0, 3_600_000))?;
    let final_move = choice(
        spec,
        "final",
        "visits",
        &[("visits", FinalMove::Visits), ("mean", FinalMove::Mean)],
    )?;
    let root = choice(
        spec,
        "root",
        "sweep",
        &[
            ("sweep", Root::Sweep),
            ("halving", Root::Halving),
            ("ucb", Root::Ucb),
        ],
    )?;
    // on by default with the paired root it needs, off by default without
    let deviate = match spec.get("deviate") {
        Some("off") => None,
        None if root == Root::Ucb => None,
        _ => Some(number(spec, "deviate", 2.5, (0.0, 100.0))?),
    };
    if deviate.is_some() && root == Root::Ucb {
        return Err(AgentError::Params(
            "agent 'ismcts': deviate needs root=sweep or root=halving (paired comparisons)".into(),
        ));
    }
    Ok(IsmctsParams {
        iterations: number(spec, "iters", 1000, (1, 10_000_000))?,
        time_budget: (time_ms > 0).then(|| std::time::Duration::from_millis(time_ms)),
        exploration: number(spec, "c", 0.7, (0.0, 100.0))?,
        final_move,
        seed: number(spec, "seed", 0, (0, u64::MAX))?,
        opponents: choice(
            spec,
            "opponents",
            "tree",
            &[("tree", Opponents::Tree), ("rollout", Opponents::Rollout)],
        )?,
        root,
        deviate,
        // one level by default (SPARTA's one-step lookahead); off for the unlimited tree
        depth: match spec.get("depth") {
            Some("off") => None,
            _ => Some(number(spec, "depth", 1, (1, 1000))?),
        },
        infer: choice(spec, "infer", "off", &[("off", false), ("on", true)])?,
    })
}
