//! A training's files: `checkpoint.safetensors` (the weights, Adam's moments and, in the metadata,
//! the whole [`TrainState`] with a checksum of the tensors), `network.safetensors` (the network
//! file `net:` plays) and `curve.csv` (the learning curve). Each is written to a temporary name
//! and renamed, so a kill at any moment leaves the last complete set.

use super::config::{adam, TrainConfig, MAX_MEMBERS};
use super::learner::{LearnError, Learner, MemberLayers};
use crate::generic_agents::net::file::{f32_bytes, f32_values, to_bytes, NetHeader};
use crate::generic_agents::net::qnet::Layer;
use crate::input::{read_bytes, TRAIN_CHECKPOINT};
use crate::learn::selfplay::Gain;
use crate::sim::files::atomic::write_atomic;
use crate::sim::files::schema::CURVE_HEADER;
use crate::sim::files::seal::digest;
use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// The checkpoint's file name.
pub(crate) const CHECKPOINT: &str = "checkpoint.safetensors";
/// The network file's name.
pub(crate) const NETWORK: &str = "network.safetensors";
/// The learning curve's file name.
pub(crate) const CURVE: &str = "curve.csv";

/// The metadata key of the state.
const STATE_KEY: &str = "bailab_train";

/// One evaluation: where training was and the network's paired gain over greedy per game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct CurveRow {
    /// Training decisions so far.
    pub(crate) decisions: u64,
    /// Self-play games so far.
    pub(crate) games: u64,
    /// CPU seconds so far.
    pub(crate) cpu_seconds: f64,
    /// Wall seconds so far.
    pub(crate) wall_seconds: f64,
    /// The paired gain over greedy per game, with its 95% interval.
    pub(crate) gain: (f64, f64, f64),
    /// Evaluation deals played (each in every rotation).
    pub(crate) eval_deals: u64,
    /// The mean minibatch loss of the generation before it.
    pub(crate) loss: f64,
}

impl CurveRow {
    /// The row of an evaluation with `gain` at `state`.
    pub(crate) fn new(state: &TrainState, gain: Gain) -> CurveRow {
        CurveRow {
            decisions: state.decisions,
            games: state.games,
            cpu_seconds: state.cpu_seconds,
            wall_seconds: state.seconds,
            gain: (gain.mean, gain.lo, gain.hi),
            eval_deals: state.config.eval_deals,
            loss: state.loss,
        }
    }
}

/// Where a training stands: its settings and counters, its curve so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct TrainState {
    /// The settings (a resume keeps them).
    pub(crate) config: TrainConfig,
    /// The command that started the training (resumes keep it).
    pub(crate) command: String,
    /// Generations done.
    pub(crate) generation: u64,
    /// Self-play games played.
    pub(crate) games: u64,
    /// Training decisions (samples) learned from.
    pub(crate) decisions: u64,
    /// Decisions taken, forced ones included.
    pub(crate) all_decisions: u64,
    /// The decision count of the next evaluation.
    pub(crate) next_eval: u64,
    /// The last generation's mean minibatch loss.
    pub(crate) loss: f64,
    /// Wall seconds, all sessions together.
    pub(crate) seconds: f64,
    /// CPU seconds, all sessions together.
    pub(crate) cpu_seconds: f64,
    /// Adam steps taken.
    pub(crate) adam_steps: u64,
    /// The evaluations so far.
    pub(crate) curve: Vec<CurveRow>,
    /// The checksum of the checkpoint's tensors (FNV-1a 64 of their bytes in name order).
    pub(crate) checksum: String,
}

impl TrainState {
    /// The state before any training.
    pub(crate) fn new(config: TrainConfig, command: String) -> TrainState {
        TrainState {
            command,
            next_eval: config.eval_every,
            config,
            generation: 0,
            games: 0,
            decisions: 0,
            all_decisions: 0,
            loss: 0.0,
            seconds: 0.0,
            cpu_seconds: 0.0,
            adam_steps: 0,
            curve: Vec::new(),
            checksum: String::new(),
        }
    }
}

/// Why a checkpoint cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CheckpointError {
    /// A file cannot be written (the error names it).
    #[error("{0}")]
    Write(std::io::Error),
    /// The checkpoint cannot be read.
    #[error("{0}")]
    Read(#[from] crate::input::InputError),
    /// The checkpoint is damaged or not a training checkpoint.
    #[error("{path}: {problem}")]
    Damaged {
        /// The file.
        path: String,
        /// What is wrong.
        problem: String,
    },
    /// The learner cannot take or give its tensors.
    #[error("{0}")]
    Learner(#[from] LearnError),
}

/// The tensors of a checkpoint, by name (weights `fcK.*`, moments `adam_m.fcK.*`,
/// `adam_v.fcK.*`; a member after the first with its own prefix, [`member_prefix`]), in name
/// order.
fn named_tensors(members: &[MemberLayers]) -> Vec<(String, Vec<usize>, Vec<u8>)> {
    let le = f32_bytes;
    let mut out = Vec::new();
    for (m, member) in members.iter().enumerate() {
        let layers = &member.layers[..];
        let moments = member.moments.as_deref().unwrap_or_default();
        let (first, second) = moments.split_at(moments.len() / 2);
        let member = member_prefix(m);
        for (prefix, set) in [("", layers), ("adam_m.", first), ("adam_v.", second)] {
            for (k, l) in set.iter().enumerate() {
                out.push((
                    format!("{member}{prefix}fc{k}.weight"),
                    vec![l.outputs, l.inputs],
                    le(&l.weight),
                ));
                let bias = format!("{member}{prefix}fc{k}.bias");
                out.push((bias, vec![l.outputs], le(&l.bias)));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The prefix of member `m`'s tensors: none for the first (a training of one network's names),
/// `mM.` for the others.
fn member_prefix(m: usize) -> String {
    match m {
        0 => String::new(),
        _ => format!("m{m}."),
    }
}

/// The checksum of named tensors: FNV-1a 64 over names, shapes and bytes in order.
fn checksum(tensors: &[(String, Vec<usize>, Vec<u8>)]) -> String {
    let mut all = Vec::new();
    for (name, shape, bytes) in tensors {
        all.extend_from_slice(name.as_bytes());
        for d in shape {
            all.extend_from_slice(&(*d as u64).to_le_bytes());
        }
        all.extend_from_slice(bytes);
    }
    digest(&all)
}

/// Writes the checkpoint, the network file and the curve of `state` into `dir`.
pub(crate) fn save(
    dir: &Path,
    state: &TrainState,
    learner: &Learner,
    header: &NetHeader,
) -> Result<(), CheckpointError> {
    let tensors = named_tensors(&learner.member_layers()?);
    let mut state = state.clone();
    state.adam_steps = learner.steps();
    state.checksum = checksum(&tensors);
    let views = tensors.iter().map(|(name, shape, bytes)| {
        let view = TensorView::new(Dtype::F32, shape.clone(), bytes).expect("sizes match");
        (name.as_str(), view)
    });
    let json = serde_json::to_string(&state).expect("a state serializes");
    let meta = HashMap::from([(STATE_KEY.to_string(), json)]);
    let bytes = safetensors::serialize(views, Some(meta)).expect("a checkpoint serializes");
    let write = |name: &str, contents: &[u8]| {
        write_atomic(dir, name, contents).map_err(CheckpointError::Write)
    };
    write(NETWORK, &to_bytes(header, &learner.qnet()?))?;
    write(CURVE, curve_csv(&state.curve).as_bytes())?;
    write(CHECKPOINT, &bytes)
}

/// The text of `curve.csv`.
pub(crate) fn curve_csv(rows: &[CurveRow]) -> String {
    let mut out = CURVE_HEADER.join(",");
    out.push('\n');
    for r in rows {
        let (mean, lo, hi) = r.gain;
        out.push_str(&format!(
            "{},{},{:.1},{:.1},{mean:.4},{lo:.4},{hi:.4},{},{:.6}\n",
            r.decisions, r.games, r.cpu_seconds, r.wall_seconds, r.eval_deals, r.loss
        ));
    }
    out
}

/// Reads the checkpoint of `dir`: the state and the learner it holds (checksum checked).
pub(crate) fn load(dir: &Path) -> Result<(TrainState, Learner), CheckpointError> {
    let path = dir.join(CHECKPOINT);
    let shown = path.display().to_string();
    let damaged = |problem: String| CheckpointError::Damaged {
        path: shown.clone(),
        problem,
    };
    let bytes = read_bytes(&path, TRAIN_CHECKPOINT)?;
    let (_, meta) = SafeTensors::read_metadata(&bytes).map_err(|e| damaged(e.to_string()))?;
    let text = (meta.metadata().as_ref())
        .and_then(|m| m.get(STATE_KEY))
        .ok_or_else(|| damaged("not a training checkpoint (no training state)".into()))?;
    let state: TrainState = serde_json::from_str(text).map_err(|e| damaged(e.to_string()))?;
    let st = SafeTensors::deserialize(&bytes).map_err(|e| damaged(e.to_string()))?;
    let mut tensors = Vec::new();
    for (name, view) in st.tensors() {
        if view.dtype() != Dtype::F32 {
            return Err(damaged(format!("tensor {name} is not F32")));
        }
        tensors.push((name, view.shape().to_vec(), view.data().to_vec()));
    }
    tensors.sort_by(|a, b| a.0.cmp(&b.0));
    if checksum(&tensors) != state.checksum {
        return Err(damaged("its tensors do not match their checksum".into()));
    }
    let layers_in = |prefix: &str| -> Result<Vec<Layer>, CheckpointError> {
        let count = state.config.hidden.len() + 1;
        (0..count)
            .map(|k| {
                layer_of(&tensors, prefix, k)
                    .ok_or_else(|| damaged(format!("no tensor {prefix}fc{k}")))
            })
            .collect()
    };
    if !(1..=MAX_MEMBERS).contains(&state.config.members) {
        return Err(damaged(format!("{} members", state.config.members)));
    }
    let mut members = Vec::new();
    for m in 0..state.config.members {
        let member = member_prefix(m);
        let layers = layers_in(&member)?;
        let mut moments = layers_in(&format!("{member}adam_m."))?;
        moments.extend(layers_in(&format!("{member}adam_v."))?);
        members.push(MemberLayers {
            layers,
            moments: Some(moments),
        });
    }
    let state_len = members[0].layers[0].inputs - action_len(&state.config)?;
    let learner = Learner::from_layers(state_len, &members, state.adam_steps, adam(&state.config))?;
    Ok((state, learner))
}

/// The action vector length of the table of `cfg`.
fn action_len(cfg: &TrainConfig) -> Result<usize, CheckpointError> {
    struct Len<'a>(&'a TrainConfig);
    impl crate::games::GameVisitor for Len<'_> {
        type Output = Result<usize, crate::games::kind::GameError>;
        fn visit<G: crate::games::kind::GameKind>(self) -> Self::Output {
            let game = G::build(&self.0.variant, self.0.players, &self.0.rules)?;
            Ok(crate::generic_agents::net::input_lengths(&game).1)
        }
    }
    let len = crate::games::with_game(&cfg.game, Len(cfg));
    len.ok()
        .and_then(Result::ok)
        .ok_or_else(|| CheckpointError::Damaged {
            path: CHECKPOINT.into(),
            problem: format!("its table ({} {}) cannot be built", cfg.game, cfg.variant),
        })
}

/// Layer `k` of the tensors named with `prefix`.
fn layer_of(tensors: &[(String, Vec<usize>, Vec<u8>)], prefix: &str, k: usize) -> Option<Layer> {
    let find = |part: &str| {
        let name = format!("{prefix}fc{k}.{part}");
        tensors.iter().find(|t| t.0 == name)
    };
    let (w, b) = (find("weight")?, find("bias")?);
    Some(Layer {
        outputs: *w.1.first()?,
        inputs: *w.1.get(1)?,
        weight: f32_values(&w.2),
        bias: f32_values(&b.2),
    })
}
