//! The learner of deep Monte-Carlo training: the Q network as candle tensors, fitted to the
//! Monte-Carlo returns by minibatch Adam on the mean squared error. With several members it
//! fits as many networks of their own first weights to the same minibatches, and plays their
//! ensemble (the mean of their Q). Its layers go to the actors as a [`QNet`] and to checkpoints
//! and network files as plain [`Layer`]s.

use crate::generic_agents::net::ensemble::join_members;
use crate::generic_agents::net::qnet::{Layer, QNet};
use crate::rng::{stream_rng, GameRng};
use candle_core::{DType, Device, Tensor, Var};
use rand::Rng;

/// Adam's settings.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Adam {
    /// The learning rate.
    pub(crate) lr: f64,
    /// The first moment's decay.
    pub(crate) beta1: f64,
    /// The second moment's decay.
    pub(crate) beta2: f64,
    /// Added to the root of the second moment.
    pub(crate) eps: f64,
}

impl Default for Adam {
    fn default() -> Adam {
        Adam {
            lr: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
        }
    }
}

/// The networks being trained (the members of an ensemble; usually one) and Adam's moments.
pub(crate) struct Learner {
    state_len: usize,
    members: Vec<Member>,
    /// Adam steps taken (by every member alike).
    steps: u64,
    adam: Adam,
}

/// One network of the learner.
struct Member {
    /// Weight and bias of each layer, in order.
    params: Vec<Var>,
    /// Adam's first and second moments, one per parameter.
    moments: Vec<(Tensor, Tensor)>,
}

/// A member's layers and, for a checkpoint, Adam's first then second moments laid out as layers.
pub(crate) struct MemberLayers {
    /// The layers, first to last.
    pub(crate) layers: Vec<Layer>,
    /// The first moments then the second, as many layers each (none: zero, a fresh start).
    pub(crate) moments: Option<Vec<Layer>>,
}

/// What a training error says (candle's errors carry text only).
pub(crate) type LearnError = candle_core::Error;

impl Learner {
    /// Adam's learning rate from now on.
    pub(crate) fn set_lr(&mut self, lr: f64) {
        self.adam.lr = lr;
    }

    /// `members` new networks of `hidden` widths over `state_len + action_len` inputs, each
    /// initialised as PyTorch's `nn.Linear` is (uniform in ±1/√inputs) from its own stream of
    /// `seed` (member 0's is the one a training of one network has always drawn from).
    pub(crate) fn new(
        state_len: usize,
        action_len: usize,
        hidden: &[usize],
        seed: u64,
        adam: Adam,
        members: usize,
    ) -> Learner {
        let fresh = (0..members as u64).map(|m| {
            let mut rng = stream_rng(seed, m, INIT_STREAM);
            let mut inputs = state_len + action_len;
            let mut layers = Vec::new();
            for &outputs in hidden.iter().chain(&[1]) {
                layers.push(init_layer(outputs, inputs, &mut rng));
                inputs = outputs;
            }
            MemberLayers {
                layers,
                moments: None,
            }
        });
        let fresh: Vec<MemberLayers> = fresh.collect();
        Learner::from_layers(state_len, &fresh, 0, adam).expect("fresh layers fit")
    }

    /// The learner of `members` (each its layers and Adam's moments) after `steps` steps.
    pub(crate) fn from_layers(
        state_len: usize,
        members: &[MemberLayers],
        steps: u64,
        adam: Adam,
    ) -> Result<Learner, LearnError> {
        let members = (members.iter())
            .map(|m| Member::from_layers(&m.layers, m.moments.as_deref()))
            .collect::<Result<_, _>>()?;
        Ok(Learner {
            state_len,
            members,
            steps,
            adam,
        })
    }

    /// Adam steps taken so far.
    pub(crate) fn steps(&self) -> u64 {
        self.steps
    }

    /// One Adam step of every member on a minibatch: `inputs` holds `targets.len()` rows of view
    /// tensor and action vector side by side. Returns the members' mean squared error before the
    /// step, averaged over the members.
    pub(crate) fn step(&mut self, inputs: &[f32], targets: &[f32]) -> Result<f32, LearnError> {
        let rows = targets.len();
        let x = Tensor::from_slice(inputs, (rows, inputs.len() / rows), &Device::Cpu)?;
        let y = Tensor::from_slice(targets, (rows, 1), &Device::Cpu)?;
        self.steps += 1;
        let mut total = 0.0;
        for member in &mut self.members {
            total += member.step(&x, &y, self.adam, self.steps)?;
        }
        Ok(total / self.members.len() as f32)
    }

    /// Q of each row of `inputs` (as [`Learner::step`] lays them out) by the first member,
    /// without learning.
    #[cfg(test)]
    pub(crate) fn predict(&self, inputs: &[f32], rows: usize) -> Result<Vec<f32>, LearnError> {
        let x = Tensor::from_slice(inputs, (rows, inputs.len() / rows), &Device::Cpu)?;
        self.members[0].forward(&x)?.flatten_all()?.to_vec1::<f32>()
    }

    /// How many networks it trains.
    pub(crate) fn member_count(&self) -> usize {
        self.members.len()
    }

    /// Each member's layers and Adam's moments as they are now.
    pub(crate) fn member_layers(&self) -> Result<Vec<MemberLayers>, LearnError> {
        (self.members.iter())
            .map(|m| {
                Ok(MemberLayers {
                    layers: m.layers()?,
                    moments: Some(m.moments()?),
                })
            })
            .collect()
    }

    /// The network as the evaluation and the network file play it: the one member, or the
    /// members' ensemble (the mean of their Q, [`join_members`]).
    pub(crate) fn qnet(&self) -> Result<QNet, LearnError> {
        let members = (self.members.iter())
            .map(Member::layers)
            .collect::<Result<Vec<_>, _>>()?;
        self.qnet_of(join_members(&members))
    }

    /// Member `m` alone, as the actors play it.
    pub(crate) fn member_qnet(&self, m: usize) -> Result<QNet, LearnError> {
        self.qnet_of(self.members[m].layers()?)
    }

    fn qnet_of(&self, layers: Vec<Layer>) -> Result<QNet, LearnError> {
        let action_len = layers[0].inputs - self.state_len;
        QNet::new(self.state_len, action_len, layers)
            .map_err(|e| candle_core::Error::Msg(e.to_string()))
    }
}

impl Member {
    /// The member of `layers` with Adam's `moments` (first then second; zero if `None`).
    fn from_layers(layers: &[Layer], moments: Option<&[Layer]>) -> Result<Member, LearnError> {
        let dev = Device::Cpu;
        let mut params = Vec::new();
        for l in layers {
            params.push(Var::from_slice(&l.weight, (l.outputs, l.inputs), &dev)?);
            params.push(Var::from_slice(&l.bias, l.outputs, &dev)?);
        }
        let moments = match moments {
            Some(m) => {
                let (first, second) = m.split_at(layers.len());
                let tensors = |ls: &[Layer]| -> Result<Vec<Tensor>, LearnError> {
                    let mut out = Vec::new();
                    for l in ls {
                        out.push(Tensor::from_slice(&l.weight, (l.outputs, l.inputs), &dev)?);
                        out.push(Tensor::from_slice(&l.bias, l.outputs, &dev)?);
                    }
                    Ok(out)
                };
                tensors(first)?.into_iter().zip(tensors(second)?).collect()
            }
            None => (params.iter())
                .map(|p| Ok((p.zeros_like()?, p.zeros_like()?)))
                .collect::<Result<_, LearnError>>()?,
        };
        Ok(Member { params, moments })
    }

    /// Adam's step number `t` on the minibatch `x`, `y`; the mean squared error before it.
    fn step(&mut self, x: &Tensor, y: &Tensor, adam: Adam, t: u64) -> Result<f32, LearnError> {
        let q = self.forward(x)?;
        let loss = (q - y)?.sqr()?.mean_all()?;
        let grads = loss.backward()?;
        let Adam {
            lr,
            beta1,
            beta2,
            eps,
        } = adam;
        let t = t as i32;
        let (c1, c2) = (1.0 - beta1.powi(t), 1.0 - beta2.powi(t));
        for (p, (m, v)) in self.params.iter().zip(self.moments.iter_mut()) {
            let Some(g) = grads.get(p.as_tensor()) else {
                continue;
            };
            *m = (m.affine(beta1, 0.0)? + g.affine(1.0 - beta1, 0.0)?)?;
            *v = (v.affine(beta2, 0.0)? + g.sqr()?.affine(1.0 - beta2, 0.0)?)?;
            let denom = v.affine(1.0 / c2, 0.0)?.sqrt()?.affine(1.0, eps)?;
            let update = (m.affine(lr / c1, 0.0)? / denom)?;
            p.set(&(p.as_tensor() - update)?)?;
        }
        loss.to_scalar::<f32>()
    }

    /// Q of each row of `x`, as a column.
    fn forward(&self, x: &Tensor) -> Result<Tensor, LearnError> {
        let mut h = x.clone();
        let layers = self.params.len() / 2;
        for k in 0..layers {
            let (w, b) = (&self.params[2 * k], &self.params[2 * k + 1]);
            h = h
                .matmul(&w.as_tensor().t()?)?
                .broadcast_add(b.as_tensor())?;
            if k + 1 < layers {
                h = h.relu()?;
            }
        }
        Ok(h)
    }

    /// The layers as they are now.
    fn layers(&self) -> Result<Vec<Layer>, LearnError> {
        let tensors: Vec<&Tensor> = self.params.iter().map(Var::as_tensor).collect();
        layers_of(&tensors)
    }

    /// Adam's first moments then second moments, laid out as layers.
    fn moments(&self) -> Result<Vec<Layer>, LearnError> {
        let first: Vec<&Tensor> = self.moments.iter().map(|(m, _)| m).collect();
        let second: Vec<&Tensor> = self.moments.iter().map(|(_, v)| v).collect();
        let mut all = layers_of(&first)?;
        all.extend(layers_of(&second)?);
        Ok(all)
    }
}

/// The stream the initial weights are drawn from.
const INIT_STREAM: u64 = 0x696e_6974; // "init"

/// A layer drawn uniformly in ±1/√inputs, weights then biases.
fn init_layer(outputs: usize, inputs: usize, rng: &mut GameRng) -> Layer {
    let bound = 1.0 / (inputs as f32).sqrt();
    let mut draw = || (rng.random::<f32>() * 2.0 - 1.0) * bound;
    let weight = (0..outputs * inputs).map(|_| draw()).collect();
    let bias = (0..outputs).map(|_| draw()).collect();
    Layer {
        outputs,
        inputs,
        weight,
        bias,
    }
}

/// Weight and bias tensors, in pairs, as layers.
fn layers_of(tensors: &[&Tensor]) -> Result<Vec<Layer>, LearnError> {
    let mut layers = Vec::new();
    for pair in tensors.chunks(2) {
        let (outputs, inputs) = pair[0].dims2()?;
        layers.push(Layer {
            outputs,
            inputs,
            weight: pair[0].flatten_all()?.to_vec1::<f32>()?,
            bias: pair[1].to_dtype(DType::F32)?.to_vec1::<f32>()?,
        });
    }
    Ok(layers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 300 Adam steps on rows of `width` uniform inputs whose target is linear in two of them;
    /// the last minibatch's loss.
    fn fit_a_linear_target(learner: &mut Learner, width: usize) -> f32 {
        let mut rng = stream_rng(9, 0, 0);
        let mut last = f32::MAX;
        for _ in 0..300 {
            let x: Vec<f32> = (0..64 * width).map(|_| rng.random::<f32>()).collect();
            let y: Vec<f32> = x.chunks(width).map(|r| r[0] - 0.5 * r[7]).collect();
            last = learner.step(&x, &y).unwrap();
        }
        last
    }

    #[test]
    fn learns_a_linear_target_and_agrees_with_the_actors_net() {
        let (s, a) = (6, 2);
        let mut learner = Learner::new(s, a, &[16, 8], 3, Adam::default(), 1);
        let last = fit_a_linear_target(&mut learner, s + a);
        assert!(last < 0.01, "loss {last}");
        let net = learner.qnet().unwrap();
        let mut scratch = net.scratch(1);
        let x: Vec<f32> = (0..(s + a)).map(|i| i as f32 / 8.0).collect();
        net.begin(&x[..s], &mut scratch);
        let q = net.q(&x[s..], &mut scratch);
        let predicted = learner.predict(&x, 1).unwrap()[0];
        assert!((q - predicted).abs() < 1e-5, "{q} vs {predicted}");
    }

    #[test]
    fn layers_and_moments_round_trip() {
        for members in [1, 2] {
            let mut learner = Learner::new(3, 1, &[5], 1, Adam::default(), members);
            learner.step(&[1.0, 0.0, 2.0, 1.0], &[0.5]).unwrap();
            let saved = learner.member_layers().unwrap();
            let again = Learner::from_layers(3, &saved, 1, Adam::default()).unwrap();
            let reread = again.member_layers().unwrap();
            assert_eq!(reread.len(), members);
            for (a, b) in saved.iter().zip(&reread) {
                assert_eq!((&a.layers, &a.moments), (&b.layers, &b.moments));
            }
            assert_eq!(again.steps(), 1);
        }
    }

    #[test]
    fn members_start_apart_learn_alike_and_play_as_their_mean() {
        let (s, a) = (6, 2);
        let one = Learner::new(s, a, &[16, 8], 3, Adam::default(), 1);
        let mut three = Learner::new(s, a, &[16, 8], 3, Adam::default(), 3);
        let first = |l: &Learner| l.member_layers().unwrap().remove(0).layers;
        assert_eq!(
            first(&one),
            first(&three),
            "member 0 starts as a lone network"
        );
        let starts = three.member_layers().unwrap();
        assert_ne!(starts[0].layers, starts[1].layers);
        let last = fit_a_linear_target(&mut three, s + a);
        assert!(last < 0.01, "every member learns: mean loss {last}");
        let x: Vec<f32> = (0..(s + a)).map(|i| i as f32 / 8.0).collect();
        let q = |net: QNet| {
            let mut scratch = net.scratch(1);
            net.begin(&x[..s], &mut scratch);
            net.q(&x[s..], &mut scratch)
        };
        let mean = (0..3)
            .map(|m| q(three.member_qnet(m).unwrap()))
            .sum::<f32>()
            / 3.0;
        let ensemble = q(three.qnet().unwrap());
        assert!((ensemble - mean).abs() < 1e-5, "{ensemble} vs {mean}");
    }
}
