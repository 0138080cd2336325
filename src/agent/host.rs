//! Agents supplied by the program that embeds bailab (the Python package's callables), by
//! name: an experiment may seat them like any agent spec, and every worker thread builds its
//! own through the host.

use super::{Agent, AgentError, HostError};
use crate::game::GameState;
use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// A program's own agents, by name.
pub trait AgentHost: Send + Sync {
    /// Whether `name` is one of the host's agents.
    fn has(&self, name: &str) -> bool;
    /// Builds the host's agent `name` for the game named `game`: a `Box<dyn Agent<S>>` of that
    /// game's state type `S`, boxed as [`Any`].
    fn build(&self, game: &'static str, name: &str) -> Result<Box<dyn Any>, HostError>;
}

/// The host of a run, if any. Not part of the study: it is never written into results or
/// checkpoints (it travels in a run's `Runtime`, beside the experiment).
#[derive(Clone, Default)]
pub struct Host(pub Option<Arc<dyn AgentHost>>);

impl Host {
    /// Whether the host has an agent `name`.
    pub fn has(&self, name: &str) -> bool {
        self.0.as_ref().is_some_and(|h| h.has(name))
    }
    /// Builds the host's agent `name` of a game whose state type is `S`.
    pub fn build<S: GameState + 'static>(
        &self,
        game: &'static str,
        name: &str,
    ) -> Result<Box<dyn Agent<S>>, AgentError> {
        let host = (self.0.as_ref()).ok_or(AgentError::Host(HostError::NoHost))?;
        let any = host.build(game, name).map_err(AgentError::Host)?;
        any.downcast::<Box<dyn Agent<S>>>()
            .map(|b| *b)
            .map_err(|_| {
                AgentError::Host(HostError::BuiltForAnotherGame {
                    name: name.to_string(),
                })
            })
    }
}

impl fmt::Debug for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "Host(..)"
        } else {
            "Host(none)"
        })
    }
}
