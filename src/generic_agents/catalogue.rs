//! The catalogue of agents (`bailab agents`) and building an agent for a game from its spec.
//!
//! `random`, `first` and `ismcts` play every game; each game adds its own agents (such as its
//! `greedy`) through [`GameInfo::agents`](crate::games::kind::GameInfo) and builds them itself.

use super::exec::{make_exec, StderrLog};
use super::ismcts::Ismcts;
use super::ismcts_spec::{ismcts_params, INFER_INFO};
use super::net::{net_agent, Table};
use super::{FirstAgent, RandomAgent};
use crate::agent::host::Host;
use crate::agent::spec::{AgentSpec, SpecError, PATH};
use crate::agent::{choice, Agent, AgentError, AgentInfo, AgentKey, ParamInfo};
use crate::game::RuleMap;
use crate::games::kind::GameKind;
use std::path::Path;

/// The agents that play every game.
pub const CATALOGUE: &[AgentInfo] = &[
    AgentInfo {
        name: "random",
        games: "all",
        about: "uniform over the legal actions",
        params: &[],
    },
    AgentInfo {
        name: "first",
        games: "all",
        about: "always the first legal action (canonical order)",
        params: &[],
    },
    AgentInfo {
        name: "ismcts",
        games: "all",
        about: "SO-ISMCTS (Cowling, Powley, Whitehouse 2012): one tree over the seat's information \
                sets, a determinization per iteration, UCB1 with availability counts; skips the search \
                when one action is legal. By default the root sweeps every action on each \
                determinization and keeps the rollout policy's move unless another is clearly better \
                (deviate); below the root's children every seat plays the rollout policy (depth=1, \
                SPARTA's one-step lookahead). root=ucb,deviate=off,depth=off is the paper's search",
        params: &[
            ParamInfo { name: "iters", default: "1000", about: "iterations per decision (1 to 10,000,000)" },
            ParamInfo {
                name: "time_ms",
                default: "0",
                about: "time budget per decision in ms instead of iters (0 = off; not reproducible)",
            },
            ParamInfo { name: "c", default: "0.7", about: "UCB1 exploration constant (rewards in [0, 1])" },
            ParamInfo { name: "rollout", default: "greedy", about: "rollout policy (also the policy deviate starts from): random or greedy" },
            ParamInfo { name: "final", default: "visits", about: "final move with root=ucb and no deviate: visits (most visited) or mean (a sweep always uses the mean)" },
            ParamInfo { name: "seed", default: "0", about: "mixed into the search RNG (independent replicas)" },
            ParamInfo {
                name: "root",
                default: "sweep",
                about: "root action per iteration: sweep (each determinization through every root action: common random numbers), halving (sweeps in rounds that each drop the worse half of the root actions; for decisions with many legal actions) or ucb (UCB1 as at every node, the paper)",
            },
            ParamInfo {
                name: "deviate",
                default: "2.5 with root=sweep or halving, else off",
                about: "keep the rollout policy's move unless another beats it by a paired t-statistic above this (SPARTA; needs root=sweep or halving); off for the final move of `final` (the highest mean with a paired root)",
            },
            ParamInfo {
                name: "opponents",
                default: "tree",
                about: "how other seats act in the tree: tree (UCB1 on their own rewards) or rollout (the rollout policy)",
            },
            INFER_INFO,
            ParamInfo {
                name: "depth",
                default: "1",
                about: "the most levels of decisions the tree holds below the root (1 to 1000; off = no limit, the paper's tree); past them every seat plays the rollout policy. depth=1 with a paired root is SPARTA's one-step lookahead, the default: against three greedy it gained more than the unlimited tree in 4sac, sisepai21 and Tiến Lên and no less elsewhere (Chắn: no difference on the same deals), and unlike it stays above greedy in every game and variant (results/*-ismcts-depth1-vs-greedy against results/*-ismcts-vs-greedy; docs/ismcts.md)",
            },
        ],
    },
    super::rules::RULES_INFO,
    super::exec::EXEC_INFO,
    super::net::NET_INFO,
];

/// Checks that every parameter of `spec` is one `info` knows.
fn check_params(spec: &AgentSpec, info: &AgentInfo) -> Result<(), AgentError> {
    for (k, _) in &spec.params {
        if !info.params.iter().any(|p| p.name == *k) {
            if k == PATH {
                return Err(AgentError::NoBareValue {
                    agent: info.name,
                    value: spec.get(k).unwrap_or_default().into(),
                    takes: takes(info),
                });
            }
            return Err(AgentError::UnknownParam {
                agent: info.name,
                key: k.clone(),
                known: info.params.iter().map(|p| p.name).collect(),
            });
        }
    }
    Ok(())
}

/// What an agent's spec may hold, for error messages: `ismcts takes iters=, time_ms=, ...`.
fn takes(info: &AgentInfo) -> String {
    if info.params.is_empty() {
        return format!("{} takes no parameters", info.name);
    }
    let keys: Vec<String> = info.params.iter().map(|p| format!("{}=", p.name)).collect();
    format!("{} takes {}", info.name, keys.join(", "))
}

/// A malformed spec's error, with the parameters its agent takes when its name is one of the
/// common agents or game `G`'s.
fn parse_error<G: GameKind>(text: &str, error: SpecError) -> AgentError {
    let name = text.trim().split(':').next().unwrap_or_default();
    let info = CATALOGUE
        .iter()
        .chain(G::INFO.agents)
        .find(|a| a.name == name);
    AgentError::Spec {
        error,
        takes: info.map(takes),
    }
}

/// The catalogue entry of `spec` among the common agents and game `G`'s own, with its
/// parameters checked.
pub(crate) fn lookup<G: GameKind>(spec: &AgentSpec) -> Result<&'static AgentInfo, AgentError> {
    let all = || CATALOGUE.iter().chain(G::INFO.agents);
    let info = all()
        .find(|a| a.name == spec.name)
        .ok_or_else(|| AgentError::UnknownAgent {
            name: spec.name.clone(),
            game: G::INFO.name,
            elsewhere: (crate::games::GAMES.iter())
                .filter(|g| g.agents.iter().any(|a| a.name == spec.name))
                .map(|g| g.name)
                .collect(),
            known: all().map(|a| a.name).collect(),
        })?;
    check_params(spec, info)?;
    Ok(info)
}

/// The key results tally the agent of spec `text` by, for game `G` (see [`AgentKey`]): a text
/// that is not the spec of an agent of `G` is its own key.
pub(crate) fn agent_key<G: GameKind>(text: &str) -> AgentKey {
    match AgentSpec::parse(text) {
        Ok(spec) => match lookup::<G>(&spec) {
            Ok(info) => AgentKey::new(&spec, info.params),
            Err(_) => AgentKey::written(text),
        },
        Err(_) => AgentKey::written(text),
    }
}

/// [`agent_key`] for the game named `game` (a game of no name the registry knows: the text).
pub(crate) fn agent_key_in(game: &str, text: &str) -> AgentKey {
    struct Key<'a>(&'a str);
    impl crate::games::GameVisitor for Key<'_> {
        type Output = AgentKey;
        fn visit<G: GameKind>(self) -> AgentKey {
            agent_key::<G>(self.0)
        }
    }
    crate::games::with_game(game, Key(text)).unwrap_or_else(|_| AgentKey::written(text))
}

/// Where an agent is built to play: what its spec's file and checks depend on beside the spec.
#[derive(Copy, Clone, Debug, Default)]
pub struct Setting<'a> {
    /// The variant played (`None`: not known here; a rule list for another variant is refused).
    pub variant: Option<&'a str>,
    /// The folder a relative file in the spec is read from (`None`: the current folder).
    pub base: Option<&'a Path>,
    /// The embedding program's agents, seated by their plain names (`None`: none).
    pub host: Option<&'a Host>,
    /// The rule options and players of the game played, for agents that build it (`exec`);
    /// `None` where a command does not give them.
    pub table: Option<(&'a RuleMap, usize)>,
    /// The file an outside program's standard error is appended to (`None`: bailab's own
    /// standard error).
    pub stderr_log: Option<&'a Path>,
}

/// Builds an agent of game `G` from its spec string, its file (if any) read from the current
/// folder.
pub fn make_agent<G: GameKind>(text: &str) -> Result<Box<dyn Agent<G::State>>, AgentError> {
    make_agent_with::<G>(text, Setting::default())
}

/// Builds an agent of game `G` from its spec string in `setting`: a relative file is read from
/// its folder, and a rule list for another variant than its variant is refused.
pub fn make_agent_with<G: GameKind>(
    text: &str,
    setting: Setting<'_>,
) -> Result<Box<dyn Agent<G::State>>, AgentError> {
    if let Some(host) = setting.host.filter(|h| h.has(text)) {
        return host.build::<G::State>(G::INFO.name, text);
    }
    let mut spec = AgentSpec::parse(text).map_err(|e| parse_error::<G>(text, e))?;
    spec.base = setting.base.map(Path::to_path_buf);
    spec.variant = setting.variant.map(str::to_string);
    lookup::<G>(&spec)?;
    Ok(match spec.name.as_str() {
        "random" => Box::new(RandomAgent),
        "first" => Box::new(FirstAgent),
        "rules" => super::rules::rules_agent::<G>(&spec)?,
        "ismcts" => Box::new(make_ismcts::<G>(&spec)?),
        "net" => {
            let table = Table {
                variant: setting.variant,
                rules: setting.table,
            };
            net_agent::<G>(&spec, &table)?
        }
        "exec" => {
            let log = setting
                .stderr_log
                .map_or(StderrLog::Terminal, |p| StderrLog::File(p.to_path_buf()));
            Box::new(make_exec::<G>(&spec, text, setting.table, log)?)
        }
        _ => G::own_agent(&spec)?,
    })
}

/// Builds the `ismcts` agent of a spec (checked by [`lookup`]) for game `G`.
pub(crate) fn make_ismcts<G: GameKind>(spec: &AgentSpec) -> Result<Ismcts<G::State>, AgentError> {
    let params = ismcts_params(spec)?;
    let rollout = choice(
        spec,
        "rollout",
        "greedy",
        &[("greedy", "greedy"), ("random", "random")],
    )?;
    Ok(Ismcts::new(params, make_agent::<G>(rollout)?))
}

/// Checks every agent spec for game `G` in `setting` (see [`make_agent_with`]).
pub(crate) fn check_specs_with<G: GameKind>(
    specs: &[String],
    setting: Setting<'_>,
) -> Result<(), AgentError> {
    for (seat, spec) in specs.iter().enumerate() {
        make_agent_with::<G>(spec, setting).map_err(|e| AgentError::Seat {
            seat,
            error: Box::new(e),
        })?;
    }
    Ok(())
}
