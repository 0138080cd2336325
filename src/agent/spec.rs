//! Agent spec strings: `name` or `name:key=value,key=value` (e.g. `greedy:tiebreak=random`).
//! The first parameter may be a bare value, which is the parameter `path`
//! (`rules:agents/tusac-classic.toml` is `rules:path=agents/tusac-classic.toml`).

use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The most parameters an agent spec may carry (no agent has nearly as many).
pub(crate) const MAX_PARAMS: usize = 32;

/// The longest agent spec, in bytes.
pub const MAX_SPEC_BYTES: usize = 1024;

/// The parameter a bare first value stands for.
pub(crate) const PATH: &str = "path";

/// What is malformed in an agent spec string. `head` is the spec's first 24 characters (a spec
/// too long to quote whole), `text` the spec as given (trimmed).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// More than `MAX_PARAMS` parameters.
    #[error("agent spec '{head}…': {given} parameters, at most {MAX_PARAMS}")]
    TooManyParams {
        /// The spec's first characters.
        head: String,
        /// How many parameters it gives.
        given: usize,
    },
    /// More than [`MAX_SPEC_BYTES`] bytes, as given or as written in full (`written`).
    #[error(
        "agent spec '{head}…': {len} characters{}, at most {MAX_SPEC_BYTES}",
        if *written { format!(" written in full (with '{PATH}=')") } else { String::new() }
    )]
    TooLong {
        /// The spec's first characters.
        head: String,
        /// Its length in bytes.
        len: usize,
        /// Whether the length is that of the written form (`path=` spelled out).
        written: bool,
    },
    /// The name is empty or holds other characters than letters, digits, `_` and `-`.
    #[error("agent spec '{text}': expected a name such as 'greedy' or 'greedy:tiebreak=random'")]
    BadName {
        /// The spec.
        text: String,
    },
    /// A `:` with nothing after it.
    #[error(
        "agent spec '{text}': nothing after ':' (write '{name}' alone for its defaults, or \
         {name}:key=value,...)"
    )]
    NothingAfterColon {
        /// The spec.
        text: String,
        /// The agent's name.
        name: String,
    },
    /// An empty parameter between commas.
    #[error("agent spec '{text}': an empty parameter (a comma too many?)")]
    EmptyParam {
        /// The spec.
        text: String,
    },
    /// A parameter (not the first) without `=`.
    #[error("agent spec '{text}': parameter '{part}' is not key=value")]
    NotKeyValue {
        /// The spec.
        text: String,
        /// The parameter as written.
        part: String,
    },
    /// A parameter with nothing before `=`.
    #[error("agent spec '{text}': parameter '{part}' has no name before '='")]
    NoKey {
        /// The spec.
        text: String,
        /// The parameter as written.
        part: String,
    },
    /// A parameter with nothing after `=`.
    #[error("agent spec '{text}': parameter '{key}' has no value after '='")]
    NoValue {
        /// The spec.
        text: String,
        /// The parameter's key.
        key: String,
    },
    /// A parameter given twice.
    #[error("agent spec '{text}': parameter '{key}' is given twice")]
    Twice {
        /// The spec.
        text: String,
        /// The parameter's key.
        key: String,
    },
}

/// The first 24 characters of a spec, to quote one too long to quote whole.
fn head(text: &str) -> String {
    text.chars().take(24).collect()
}

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
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        let text = text.trim();
        let given = text
            .split_once(':')
            .map_or(0, |(_, r)| r.split(',').count());
        if given > MAX_PARAMS {
            return Err(SpecError::TooManyParams {
                head: head(text),
                given,
            });
        }
        if text.len() > MAX_SPEC_BYTES {
            return Err(SpecError::TooLong {
                head: head(text),
                len: text.len(),
                written: false,
            });
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
            return Err(SpecError::BadName { text: text.into() });
        }
        if rest.is_some_and(|r| r.trim().is_empty()) {
            return Err(SpecError::NothingAfterColon {
                text: text.into(),
                name: name.into(),
            });
        }
        let mut params = Vec::new();
        for (i, part) in rest.into_iter().flat_map(|r| r.split(',')).enumerate() {
            if part.trim().is_empty() {
                return Err(SpecError::EmptyParam { text: text.into() });
            }
            let bare = (i == 0 && !part.contains('=')).then(|| format!("{PATH}={part}"));
            let part = bare.as_deref().unwrap_or(part);
            let (k, v) = part.split_once('=').ok_or_else(|| SpecError::NotKeyValue {
                text: text.into(),
                part: part.into(),
            })?;
            let (k, v) = (k.trim(), v.trim());
            if k.is_empty() {
                return Err(SpecError::NoKey {
                    text: text.into(),
                    part: part.into(),
                });
            }
            if v.is_empty() {
                return Err(SpecError::NoValue {
                    text: text.into(),
                    key: k.into(),
                });
            }
            if params.iter().any(|(seen, _): &(String, String)| seen == k) {
                return Err(SpecError::Twice {
                    text: text.into(),
                    key: k.into(),
                });
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
    fn written_within_bound(self, text: &str) -> Result<AgentSpec, SpecError> {
        let written = self.to_string().len();
        if written > MAX_SPEC_BYTES {
            return Err(SpecError::TooLong {
                head: head(text),
                len: written,
                written: true,
            });
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
