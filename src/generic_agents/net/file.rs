//! The network file of a `net:` agent: safetensors weights (`fc0.weight`, `fc0.bias`, …,
//! float32, PyTorch's `nn.Linear` layout) and, in the safetensors metadata under the one key
//! `bailab`, a JSON header naming what the network plays and how it was made ([`NetHeader`]).
//! One key keeps the file's bytes the same for the same network (safetensors writes its metadata
//! map in no fixed order). `docs/train.md` documents the format.

use super::qnet::{Layer, QNet};
use crate::agent::net_file::NetFileError;
use crate::game::RuleMap;
use crate::games::observe::Segment;
use crate::input::{read_bytes, NET};
use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// The version of the network's input convention: the view tensor, then the action's input (its
/// action vector as `docs/observations.md` lays it out, then its rule features, `docs/rules.md`,
/// each as `sign(x)·ln(1+|x|)`). A change to what the network reads bumps it.
pub const FEATURE_VERSION: u32 = 1;

/// The format name in every header.
pub const FORMAT: &str = "bailab-net";

/// The metadata key holding the header.
pub const HEADER_KEY: &str = "bailab";

/// What a network file says about its network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetHeader {
    /// Always [`FORMAT`].
    pub format: String,
    /// The game (`tusac`).
    pub game: String,
    /// The variant (`classic`).
    pub variant: String,
    /// Seats at the table.
    pub players: usize,
    /// Every rule option in force, defaults included (as `bailab rules` names them).
    pub rules: RuleMap,
    /// [`FEATURE_VERSION`] when it was trained.
    pub feature_version: u32,
    /// The view tensor's layout, `name:len` joined by `,`.
    pub state_layout: String,
    /// An action's input: the action vector's layout, then one `rule.NAME:1` per rule feature.
    pub action_layout: String,
    /// The architecture: `mlp` (ReLU between layers).
    pub architecture: String,
    /// The hidden layers' widths.
    pub hidden: Vec<usize>,
    /// Q is the seat's payout over this scale (the game's payout scale).
    pub payout_scale: f64,
    /// How it was trained (the command line).
    pub command: String,
    /// Training decisions it learned from.
    pub decisions: u64,
    /// Self-play games it learned from.
    pub games: u64,
    /// Wall seconds of training.
    pub seconds: f64,
    /// CPU seconds of training (all threads).
    pub cpu_seconds: f64,
    /// The `margin=` (points of payout) the network plays with when its `net:` spec gives none:
    /// the margin it was shipped with (`bailab agents --net FILE --set-margin M`). Left out of
    /// the file when there is none, so other files keep their bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<f64>,
    /// The lookahead the network plays with when its `net:` spec names none: the one it was
    /// shipped with (`bailab agents --net FILE --set-search N`). Left out of the file when there
    /// is none, so other files keep their bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<ShippedSearch>,
}

/// A lookahead written into a network file's header: the `search=`, `deviate=` and `prior=` of a
/// `net:` spec that names none of them.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShippedSearch {
    /// Determinizations per decision (`search=`, at least 1).
    pub iters: u32,
    /// The paired t-statistic another action must exceed (`deviate=`).
    pub deviate: f64,
    /// The network's own gains, counted as so many determinizations (`prior=`).
    pub prior: f64,
}

/// The largest `search=` a spec or a header may give.
pub const MAX_SEARCH: u32 = 10_000_000;
/// The `deviate=` of a lookahead that names none.
pub const DEFAULT_DEVIATE: f64 = 2.5;
/// The largest `deviate=`.
pub const MAX_DEVIATE: f64 = 100.0;
/// The largest `prior=`.
pub const MAX_PRIOR: f64 = 1e9;

impl ShippedSearch {
    /// What is wrong with this lookahead, if anything (each value within a spec's bounds).
    pub fn problem(&self) -> Option<String> {
        let within = |x: f64, hi: f64| x.is_finite() && (0.0..=hi).contains(&x);
        if !(1..=MAX_SEARCH).contains(&self.iters) {
            Some(format!(
                "a search of {} determinizations, not 1 to {MAX_SEARCH}",
                self.iters
            ))
        } else if !within(self.deviate, MAX_DEVIATE) {
            Some(format!(
                "a deviate of {}, not 0 to {MAX_DEVIATE}",
                self.deviate
            ))
        } else if !within(self.prior, MAX_PRIOR) {
            Some(format!("a prior of {}, not 0 to {MAX_PRIOR}", self.prior))
        } else {
            None
        }
    }
}

/// A network file: its header and its layers.
#[derive(Clone, Debug)]
pub struct NetFile {
    /// What the file says about the network.
    pub header: NetHeader,
    /// The network.
    pub net: std::sync::Arc<QNet>,
}

/// The text of a layout in a header: `name:len` joined by `,`.
pub fn layout_text(layout: &[Segment]) -> String {
    let parts: Vec<String> = layout
        .iter()
        .map(|s| format!("{}:{}", s.name, s.len))
        .collect();
    parts.join(",")
}

/// The total length of a header's layout text (0 for a malformed one).
fn layout_len(text: &str) -> Option<usize> {
    text.split(',')
        .map(|part| {
            part.rsplit_once(':')
                .and_then(|(_, n)| n.parse::<usize>().ok())
        })
        .sum()
}

/// Float32 values as safetensors stores them (little-endian bytes).
pub(crate) fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Float32 values from safetensors' little-endian bytes.
pub(crate) fn f32_values(bytes: &[u8]) -> Vec<f32> {
    (bytes.chunks_exact(4))
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// The name of layer `k`'s tensor `part` (`weight` or `bias`).
fn tensor_name(k: usize, part: &str) -> String {
    format!("fc{k}.{part}")
}

/// The bytes of a network file holding `net` under `header`.
pub fn to_bytes(header: &NetHeader, net: &QNet) -> Vec<u8> {
    let le = f32_bytes;
    let mut data: Vec<(String, Vec<usize>, Vec<u8>)> = Vec::new();
    for (k, l) in net.layers().iter().enumerate() {
        data.push((
            tensor_name(k, "weight"),
            vec![l.outputs, l.inputs],
            le(&l.weight),
        ));
        data.push((tensor_name(k, "bias"), vec![l.outputs], le(&l.bias)));
    }
    let views = data.iter().map(|(name, shape, bytes)| {
        let view = TensorView::new(Dtype::F32, shape.clone(), bytes).expect("sizes match");
        (name.as_str(), view)
    });
    let json = serde_json::to_string(header).expect("a header serializes");
    let meta = HashMap::from([(HEADER_KEY.to_string(), json)]);
    safetensors::serialize(views, Some(meta)).expect("a network serializes")
}

/// Reads the network file at `path` (its size capped, its header and shapes checked).
pub fn read_net(path: &Path) -> Result<NetFile, NetFileError> {
    let bytes = read_bytes(path, NET)?;
    from_bytes(&bytes, &path.display().to_string())
}

/// The network file in `bytes` (`path` names it in errors).
pub fn from_bytes(bytes: &[u8], path: &str) -> Result<NetFile, NetFileError> {
    let st = |e: safetensors::SafeTensorError| NetFileError::Safetensors {
        path: path.into(),
        reason: e.to_string(),
    };
    let header_error = |problem: String| NetFileError::Header {
        path: path.into(),
        problem,
    };
    let (_, meta) = SafeTensors::read_metadata(bytes).map_err(st)?;
    let text = (meta.metadata().as_ref())
        .and_then(|m| m.get(HEADER_KEY))
        .ok_or_else(|| {
            header_error(format!(
                "a safetensors file without bailab's header (metadata key '{HEADER_KEY}'): not \
                 a network written by `bailab train` or examples/train_dmc.py"
            ))
        })?;
    let header: NetHeader = serde_json::from_str(text)
        .map_err(|e| header_error(format!("its header does not parse: {e}")))?;
    if header.format != FORMAT {
        return Err(header_error(format!(
            "header format '{}', not '{FORMAT}'",
            header.format
        )));
    }
    if header.margin.is_some_and(|m| !(m.is_finite() && m >= 0.0)) {
        return Err(header_error(
            "its header's margin is not a number of points at least 0".into(),
        ));
    }
    if let Some(problem) = header.search.as_ref().and_then(ShippedSearch::problem) {
        return Err(header_error(format!("its header's lookahead: {problem}")));
    }
    let lengths = (
        layout_len(&header.state_layout),
        layout_len(&header.action_layout),
    );
    let (Some(state_len), Some(action_len)) = lengths else {
        return Err(header_error("a layout in its header does not parse".into()));
    };
    let tensors = SafeTensors::deserialize(bytes).map_err(st)?;
    let layers = read_layers(&tensors, header.hidden.len() + 1, path)?;
    let net = QNet::new(state_len, action_len, layers).map_err(|error| NetFileError::Shape {
        path: path.into(),
        error,
    })?;
    Ok(NetFile {
        header,
        net: std::sync::Arc::new(net),
    })
}

/// Layers `fc0` to `fc{count-1}` of a safetensors file.
fn read_layers(
    tensors: &SafeTensors,
    count: usize,
    path: &str,
) -> Result<Vec<Layer>, NetFileError> {
    let problem = |tensor: &str, problem: String| NetFileError::Tensor {
        path: path.into(),
        tensor: tensor.into(),
        problem,
    };
    let read = |name: &str, dims: usize| -> Result<(Vec<usize>, Vec<f32>), NetFileError> {
        let view = tensors
            .tensor(name)
            .map_err(|_| problem(name, "missing".into()))?;
        if view.dtype() != Dtype::F32 {
            return Err(problem(name, format!("{:?}, not F32", view.dtype())));
        }
        if view.shape().len() != dims {
            return Err(problem(
                name,
                format!("shape {:?}, not {dims}-dimensional", view.shape()),
            ));
        }
        let values = f32_values(view.data());
        Ok((view.shape().to_vec(), values))
    };
    let mut layers = Vec::with_capacity(count);
    for k in 0..count {
        let (shape, weight) = read(&tensor_name(k, "weight"), 2)?;
        let (bias_shape, bias) = read(&tensor_name(k, "bias"), 1)?;
        if bias_shape[0] != shape[0] {
            let name = tensor_name(k, "bias");
            return Err(problem(
                &name,
                format!("{} values for {} outputs", bias_shape[0], shape[0]),
            ));
        }
        layers.push(Layer {
            outputs: shape[0],
            inputs: shape[1],
            weight,
            bias,
        });
    }
    Ok(layers)
}
