//! Agent spec strings: `name` or `name:key=value,key=value` (e.g. `greedy:tiebreak=random`).
//! The first parameter may be a bare value, which is the parameter `path`
//! (`rules:agents/tusac-classic.toml` is `rules:path=agents/tusac-classic.toml`).

use std::fmt;
use std::path::{Path, PathBuf};

/// The most parameters an agent spec may carry (no agent has nearly as many).
pub const MAX_PARAMS: usize = 32;

/// The longest agent spec, in bytes.
pub const MAX_SPEC_BYTES: usize = 1024;

/// The parameter a bare first value stands for.
pub const PATH: &str = "path";

/// A parsed agent spec: the agent's name and its parameters in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent's name (`random`, `greedy`, ...).
    pub name: String,
    /// `key=value` parameters.
    pub params: Vec<(String, String)>,
    /// The folder a relative file parameter (`path`) is read from: `None` for the current folder
    /// (a spec on the command line), an experiment's project folder for a spec in it.
    pub base: Option<PathBuf>,
    /// The variant the agent is built to play, when known: a rule list written for another
    /// variant of the game is refused.
    pub variant: Option<String>,
}

impl AgentSpec {
    /// Reads a spec string. Errors say what is malformed.
    ///
    /// # Examples
    /// ```
    /// use bailab::agent::spec::AgentSpec;
    /// let s = AgentSpec::parse("greedy:tiebreak=random").unwrap();
    /// assert_eq!(s.name, "greedy");
    /// assert_eq!(s.params, [("tiebreak".to_string(), "random".to_string())]);
    /// let r = AgentSpec::parse("rules:agents/x.toml").unwrap();
    /// assert_eq!(r.get("path"), Some("agents/x.toml"));
    /// assert!(AgentSpec::parse("greedy:tiebreak=random,canonical").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<AgentSpec, String> {
        let text = text.trim();
        let given = text
            .split_once(':')
            .map_or(0, |(_, r)| r.split(',').count());
        if given > MAX_PARAMS {
            return Err(format!(
                "agent spec '{}…': {given} parameters, at most {MAX_PARAMS}",
                text.chars().take(24).collect::<String>()
            ));
        }
        if text.len() > MAX_SPEC_BYTES {
            return Err(format!(
                "agent spec '{}…': {} characters, at most {MAX_SPEC_BYTES}",
                text.chars().take(24).collect::<String>(),
                text.len()
            ));
        }
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (text, None),
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(format!(
                "agent spec '{text}': expected a name such as 'greedy' or 'greedy:tiebreak=random'"
            ));
        }
        if rest.is_some_and(|r| r.trim().is_empty()) {
            return Err(format!(
                "agent spec '{text}': nothing after ':' (write '{name}' alone for its defaults, \
                 or {name}:key=value,...)"
            ));
        }
        let mut params = Vec::new();
        for (i, part) in rest.into_iter().flat_map(|r| r.split(',')).enumerate() {
            if part.trim().is_empty() {
                return Err(format!(
                    "agent spec '{text}': an empty parameter (a comma too many?)"
                ));
            }
            let bare = (i == 0 && !part.contains('=')).then(|| format!("{PATH}={part}"));
            let part = bare.as_deref().unwrap_or(part);
            let (k, v) = part.split_once('=').ok_or_else(|| {
                format!("agent spec '{text}': parameter '{part}' is not key=value")
            })?;
            let (k, v) = (k.trim(), v.trim());
            if k.is_empty() {
                return Err(format!(
                    "agent spec '{text}': parameter '{part}' has no name before '='"
                ));
            }
            if v.is_empty() {
                return Err(format!(
                    "agent spec '{text}': parameter '{k}' has no value after '='"
                ));
            }
            if params.iter().any(|(seen, _): &(String, String)| seen == k) {
                return Err(format!(
                    "agent spec '{text}': parameter '{k}' is given twice"
                ));
            }
            params.push((k.to_string(), v.to_string()));
        }
        AgentSpec {
            name: name.to_string(),
            params,
            base: None,
            variant: None,
        }
        .written_within_bound(text)
    }

    /// The spec, if its written form (the one records and run files keep, `path=` spelled
    /// out) is within [`MAX_SPEC_BYTES`] too, so that it reads back; `text` is the spec as given.
    fn written_within_bound(self, text: &str) -> Result<AgentSpec, String> {
        let written = self.to_string().len();
        if written > MAX_SPEC_BYTES {
            return Err(format!(
                "agent spec '{}…': {written} characters written in full (with '{PATH}='), at \
                 most {MAX_SPEC_BYTES}",
                text.chars().take(24).collect::<String>()
            ));
        }
        Ok(self)
    }

    /// The file of parameter `path`, if given: relative paths are taken from [`AgentSpec::base`].
    pub fn file(&self) -> Option<PathBuf> {
        let path = Path::new(self.get(PATH)?);
        Some(match &self.base {
            Some(base) if path.is_relative() && base != Path::new(".") => base.join(path),
            _ => path.to_path_buf(),
        })
    }

    /// The value of parameter `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}
