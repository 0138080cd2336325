//! The catalogue of agents (`bailab agents`) and building an agent from its spec.

use super::greedy::{TieBreak, TuSacGreedy};
use super::spec::AgentSpec;
use super::{Agent, FirstAgent, RandomAgent};
use crate::games::tusac::TuSacState;

/// One parameter of an agent.
#[derive(Copy, Clone, Debug)]
pub struct ParamInfo {
    /// The key in the spec string.
    pub name: &'static str,
    /// The default value.
    pub default: &'static str,
    /// What it does and its allowed values.
    pub about: &'static str,
}

/// One agent of the catalogue.
#[derive(Copy, Clone, Debug)]
pub struct AgentInfo {
    /// The name in the spec string.
    pub name: &'static str,
    /// The games it plays.
    pub games: &'static str,
    /// What it does.
    pub about: &'static str,
    /// Its parameters.
    pub params: &'static [ParamInfo],
}

/// Every agent bailab knows.
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
        name: "greedy",
        games: "tusac",
        about:
            "greedy worst-card: discards a worst card (§5 OutsV1); melds when a meld is legal and \
                does not raise trash, preferring the lowest trash left, then the highest hand value",
        params: &[ParamInfo {
            name: "tiebreak",
            default: "canonical",
            about: "canonical (first in canonical order) or random (uniform among ties)",
        }],
    },
];

/// Checks that every parameter of `spec` is one `info` knows.
fn check_params(spec: &AgentSpec, info: &AgentInfo) -> Result<(), String> {
    for (k, _) in &spec.params {
        if !info.params.iter().any(|p| p.name == *k) {
            let known: Vec<&str> = info.params.iter().map(|p| p.name).collect();
            let known = if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            };
            return Err(format!(
                "agent '{}' has no parameter '{k}' (its parameters: {known})",
                info.name
            ));
        }
    }
    Ok(())
}

/// The catalogue entry of `spec`, with its parameters checked.
pub fn lookup(spec: &AgentSpec) -> Result<&'static AgentInfo, String> {
    let info = CATALOGUE
        .iter()
        .find(|a| a.name == spec.name)
        .ok_or_else(|| {
            let names: Vec<&str> = CATALOGUE.iter().map(|a| a.name).collect();
            format!(
                "unknown agent '{}' (known: {}; see `bailab agents`)",
                spec.name,
                names.join(", ")
            )
        })?;
    check_params(spec, info)?;
    Ok(info)
}

/// Builds a Tứ Sắc agent from its spec string.
pub fn tusac_agent(text: &str) -> Result<Box<dyn Agent<TuSacState>>, String> {
    let spec = AgentSpec::parse(text)?;
    lookup(&spec)?;
    Ok(match spec.name.as_str() {
        "random" => Box::new(RandomAgent),
        "first" => Box::new(FirstAgent),
        "greedy" => {
            let tiebreak = match spec.get("tiebreak").unwrap_or("canonical") {
                "canonical" => TieBreak::Canonical,
                "random" => TieBreak::Random,
                other => {
                    return Err(format!(
                        "agent 'greedy': tiebreak '{other}' is not canonical or random"
                    ));
                }
            };
            Box::new(TuSacGreedy { tiebreak })
        }
        other => return Err(format!("agent '{other}' does not play tusac")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        tusac_agent(text).err().expect("an error")
    }

    #[test]
    fn specs_build_or_name_the_problem() {
        assert!(tusac_agent("random").is_ok());
        assert!(tusac_agent("greedy:tiebreak=random").is_ok());
        assert!(err("grumpy").contains("unknown agent 'grumpy'"));
        assert!(err("greedy:depth=3").contains("no parameter 'depth'"));
        assert!(err("greedy:tiebreak=best").contains("tiebreak 'best'"));
        assert!(err("random:x=1").contains("no parameter 'x'"));
        assert!(err("greedy:tiebreak").contains("not key=value"));
    }
}
