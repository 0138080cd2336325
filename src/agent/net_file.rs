//! The typed errors of network files (`net:FILE`): a file that cannot be read, whose layers do
//! not make a network, or whose network is for another table. They live beside the agent
//! contracts, like the errors of rule lists and weight files, so that [`super::AgentError`] can
//! carry them.

use std::sync::Arc;

/// Why a list of layers is not a Q network.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShapeError {
    /// No layers at all.
    #[error("the network has no layers")]
    Empty,
    /// A layer's weight or bias does not hold `outputs × inputs` or `outputs` numbers.
    #[error("layer {layer}: {what} holds {found} numbers, not {expected}")]
    Size {
        /// The layer.
        layer: usize,
        /// `weight` or `bias`.
        what: &'static str,
        /// What its shape says.
        expected: usize,
        /// What it holds.
        found: usize,
    },
    /// A layer's inputs are not the previous layer's outputs (or the first layer's are not the
    /// view's and action's lengths).
    #[error("layer {layer} reads {found} inputs, not {expected}")]
    Inputs {
        /// The layer.
        layer: usize,
        /// What the previous layer gives.
        expected: usize,
        /// What it reads.
        found: usize,
    },
    /// The last layer gives more than one value.
    #[error("the last layer gives {0} values, not 1")]
    Output(usize),
    /// A weight or bias is NaN or infinite.
    #[error("layer {0} holds a number that is not finite")]
    NotFinite(usize),
}

/// Why a network file cannot be read (every message names the file).
#[derive(Debug, thiserror::Error)]
pub enum NetFileError {
    /// The file cannot be read.
    #[error("{0}")]
    Read(#[from] crate::input::InputError),
    /// Not a safetensors file, or a damaged one.
    #[error("{path}: not a readable safetensors file ({reason})")]
    Safetensors {
        /// The file.
        path: String,
        /// What the safetensors reader said.
        reason: String,
    },
    /// A safetensors file without bailab's header, or with a header that does not parse.
    #[error("{path}: {problem}")]
    Header {
        /// The file.
        path: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A weight tensor that is missing or of the wrong type or shape.
    #[error("{path}: tensor '{tensor}': {problem}")]
    Tensor {
        /// The file.
        path: String,
        /// The tensor's name.
        tensor: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Layers that do not make a network of the header's lengths.
    #[error("{path}: {error}")]
    Shape {
        /// The file.
        path: String,
        /// The shape problem.
        error: ShapeError,
    },
}

/// Why a network cannot play the game asked for.
#[derive(Clone, Debug, thiserror::Error)]
pub enum NetError {
    /// The file cannot be read.
    #[error("{0}")]
    File(Arc<NetFileError>),
    /// The file's table (its variant, seats and rule options) cannot be built by this bailab.
    #[error("{path}: its table ({variant}, {players} players) cannot be played here: {reason}")]
    Unbuildable {
        /// The file.
        path: String,
        /// The file's variant.
        variant: String,
        /// The file's seat count.
        players: usize,
        /// Why the game refuses it.
        reason: String,
    },
    /// The file's network is for another table or another feature layout.
    #[error("{path} is a network for {what} {file}, not {played}")]
    Mismatch {
        /// The file.
        path: String,
        /// What differs (`game`, `variant`, `players`, `rules`, `feature version`, …).
        what: &'static str,
        /// The file's value.
        file: String,
        /// The value of the game played.
        played: String,
    },
}

impl PartialEq for NetError {
    fn eq(&self, other: &NetError) -> bool {
        self.to_string() == other.to_string()
    }
}
