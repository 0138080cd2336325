//! The action-value network of the `net:` agent: a multilayer perceptron that reads a seat's
//! view tensor and one action's vector side by side and gives Q, the seat's expected payout
//! (over the game's payout scale) after that action. Evaluated on the CPU into buffers made
//! once: a decision computes the view's share of the first layer once, then each action's
//! share and the layers above, allocating nothing.
//!
//! The layers are kept as a file holds them ([`Layer`], PyTorch's `nn.Linear` layout: weight
//! `[out][in]`, bias `[out]`, ReLU between layers, one output). The first layer is also kept
//! transposed, input by input, so that the zero entries of a view or action vector (most of
//! them) cost nothing. Above the first layer each row's weights are read only over the span
//! that holds its nonzero weights (whole lanes of eight), so that a block-diagonal layer (an
//! ensemble's, `bailab.net.ensemble`) costs its blocks only; skipping zero weights leaves every
//! sum as it was.

use crate::agent::net_file::ShapeError;

/// One fully connected layer: `out = weight · in + bias`.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Outputs.
    pub outputs: usize,
    /// Inputs.
    pub inputs: usize,
    /// The weights, row by row (`outputs × inputs`).
    pub weight: Vec<f32>,
    /// The biases (`outputs`).
    pub bias: Vec<f32>,
}

/// A Q network: `layers[0]` reads `state_len + action_len` inputs (the view tensor, then the
/// action vector), each hidden layer is followed by a ReLU, the last gives one value.
#[derive(Clone, Debug)]
pub struct QNet {
    state_len: usize,
    layers: Vec<Layer>,
    /// `layers[0]`'s weights input by input (`inputs × outputs`).
    first_by_input: Vec<f32>,
    /// For each layer above the first, each row's span of nonzero weights ([`nonzero_spans`]).
    spans: Vec<Vec<Span>>,
    kernel: Kernel,
}

/// The inputs `lo..hi` of a row that hold all its nonzero weights, `lo` a whole number of lanes.
type Span = (usize, usize);

/// Buffers of one decision: the view's share of the first layer and two hidden activations.
#[derive(Clone, Debug)]
pub struct Scratch {
    state: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
}

impl QNet {
    /// The network of `layers` over views of `state_len` and actions of `action_len` entries.
    pub fn new(
        state_len: usize,
        action_len: usize,
        layers: Vec<Layer>,
    ) -> Result<QNet, ShapeError> {
        check_shapes(state_len + action_len, &layers)?;
        let first = &layers[0];
        let mut first_by_input = vec![0.0; first.inputs * first.outputs];
        for o in 0..first.outputs {
            for i in 0..first.inputs {
                first_by_input[i * first.outputs + o] = first.weight[o * first.inputs + i];
            }
        }
        let spans = layers.iter().skip(1).map(nonzero_spans).collect();
        Ok(QNet {
            state_len,
            layers,
            first_by_input,
            spans,
            kernel: Kernel::detect(),
        })
    }

    /// The layers, as a file holds them.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The length of the view tensor it reads.
    pub fn state_len(&self) -> usize {
        self.state_len
    }

    /// The length of the action vector it reads.
    pub fn action_len(&self) -> usize {
        self.layers[0].inputs - self.state_len
    }

    /// The hidden widths (`256,128`).
    pub fn hidden(&self) -> Vec<usize> {
        let n = self.layers.len();
        self.layers[..n - 1].iter().map(|l| l.outputs).collect()
    }

    /// Buffers for [`QNet::begin`] and [`QNet::q_batch`] over at most `actions` actions.
    pub fn scratch(&self, actions: usize) -> Scratch {
        let widest = self.layers.iter().map(|l| l.outputs).max().unwrap_or(1);
        Scratch {
            state: vec![0.0; self.layers[0].outputs],
            a: vec![0.0; widest * actions.max(1)],
            b: vec![0.0; widest * actions.max(1)],
        }
    }

    /// Starts a decision: the view tensor `state`'s share of the first layer, kept in `scratch`.
    pub fn begin(&self, state: &[f32], scratch: &mut Scratch) {
        debug_assert_eq!(state.len(), self.state_len);
        let first = &self.layers[0];
        scratch.state.copy_from_slice(&first.bias);
        self.kernel
            .accumulate(&mut scratch.state, &self.first_by_input, 0, state);
    }

    /// Q of the action with input `action` in the decision [`QNet::begin`] started.
    pub fn q(&self, action: &[f32], scratch: &mut Scratch) -> f32 {
        let mut out = [0.0];
        self.q_batch(action, &mut out, scratch);
        out[0]
    }

    /// Q of `out.len()` actions whose inputs lie one after another in `inputs`, in the decision
    /// [`QNet::begin`] started. Each layer above the first reads its weights once for all the
    /// actions, four actions at a time.
    pub fn q_batch(&self, inputs: &[f32], out: &mut [f32], scratch: &mut Scratch) {
        let (count, width) = (out.len(), self.layers[0].outputs);
        let action_len = self.action_len();
        debug_assert_eq!(inputs.len(), count * action_len);
        let Scratch { state, a, b } = scratch;
        let (mut x, mut y) = (&mut a[..], &mut b[..]);
        for (i, input) in inputs.chunks_exact(action_len).enumerate() {
            let h = &mut x[i * width..(i + 1) * width];
            h.copy_from_slice(state);
            (self.kernel).accumulate(h, &self.first_by_input, self.state_len, input);
            relu(h);
        }
        for (k, (layer, spans)) in self.layers.iter().skip(1).zip(&self.spans).enumerate() {
            let (rows_in, rows_out) = (&x[..count * layer.inputs], &mut y[..count * layer.outputs]);
            self.kernel.dense(layer, spans, rows_in, rows_out);
            if k + 2 < self.layers.len() {
                relu(rows_out);
            }
            std::mem::swap(&mut x, &mut y);
        }
        out.copy_from_slice(&x[..count]);
    }
}

/// Checks that `layers` chain from `inputs` inputs to one output, every number finite.
fn check_shapes(inputs: usize, layers: &[Layer]) -> Result<(), ShapeError> {
    if layers.is_empty() {
        return Err(ShapeError::Empty);
    }
    let mut expected = inputs;
    for (k, layer) in layers.iter().enumerate() {
        if layer.inputs != expected {
            return Err(ShapeError::Inputs {
                layer: k,
                expected,
                found: layer.inputs,
            });
        }
        let sizes = [
            ("weight", layer.outputs * layer.inputs, layer.weight.len()),
            ("bias", layer.outputs, layer.bias.len()),
        ];
        for (what, expected, found) in sizes {
            if expected != found {
                return Err(ShapeError::Size {
                    layer: k,
                    what,
                    expected,
                    found,
                });
            }
        }
        if !layer
            .weight
            .iter()
            .chain(&layer.bias)
            .all(|v| v.is_finite())
        {
            return Err(ShapeError::NotFinite(k));
        }
        expected = layer.outputs;
    }
    match expected {
        1 => Ok(()),
        n => Err(ShapeError::Output(n)),
    }
}

/// Each row's span of nonzero weights in `layer`: from the lane holding its first nonzero
/// weight to the end of the lane holding its last (at most the row's end); `(0, 0)` for a row
/// of zeros. A dense row's span is the whole row.
fn nonzero_spans(layer: &Layer) -> Vec<Span> {
    let n = layer.inputs;
    let nonzero = |&w: &f32| w != 0.0;
    let span = |row: &[f32]| match (row.iter().position(nonzero), row.iter().rposition(nonzero)) {
        (Some(first), Some(last)) => (first / LANES * LANES, ((last / LANES + 1) * LANES).min(n)),
        _ => (0, 0),
    };
    layer.weight.chunks_exact(n).map(span).collect()
}

fn relu(values: &mut [f32]) {
    for v in values {
        *v = v.max(0.0);
    }
}

/// The arithmetic kernels, chosen once by what the CPU offers: AVX2 with FMA where present,
/// else the portable code (the same sums, in lanes of eight).
#[derive(Copy, Clone, Debug)]
enum Kernel {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2Fma,
}

impl Kernel {
    fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            return Kernel::Avx2Fma;
        }
        Kernel::Portable
    }

    /// `out += Σ_i x[i] · by_input[(offset + i)·width ..][..width]` over the nonzero `x[i]`.
    fn accumulate(self, out: &mut [f32], by_input: &[f32], offset: usize, x: &[f32]) {
        match self {
            Kernel::Portable => accumulate::<Plain>(out, by_input, offset, x),
            // SAFETY: chosen only where the CPU has AVX2 and FMA (`detect`).
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2Fma => unsafe { accumulate_avx2(out, by_input, offset, x) },
        }
    }

    /// `y[a][o] = bias[o] + weight[o] · x[a]` for every row `x[a]` of `x` (each
    /// `layer.inputs` long), row `o` of the weights read over `spans[o]` only.
    fn dense(self, layer: &Layer, spans: &[Span], x: &[f32], y: &mut [f32]) {
        match self {
            Kernel::Portable => dense::<Plain>(layer, spans, x, y),
            // SAFETY: chosen only where the CPU has AVX2 and FMA (`detect`).
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2Fma => unsafe { dense_avx2(layer, spans, x, y) },
        }
    }
}

/// A multiply-add: fused where the kernel is compiled for FMA.
trait MulAdd {
    fn mul_add(a: f32, b: f32, c: f32) -> f32;
}

struct Plain;
impl MulAdd for Plain {
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        a * b + c
    }
}

#[cfg(target_arch = "x86_64")]
struct Fused;
#[cfg(target_arch = "x86_64")]
impl MulAdd for Fused {
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        a.mul_add(b, c)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn accumulate_avx2(out: &mut [f32], by_input: &[f32], offset: usize, x: &[f32]) {
    accumulate::<Fused>(out, by_input, offset, x)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn dense_avx2(layer: &Layer, spans: &[Span], x: &[f32], y: &mut [f32]) {
    dense::<Fused>(layer, spans, x, y)
}

#[inline(always)]
fn accumulate<M: MulAdd>(out: &mut [f32], by_input: &[f32], offset: usize, x: &[f32]) {
    let width = out.len();
    for (i, &xi) in x.iter().enumerate() {
        if xi != 0.0 {
            let column = &by_input[(offset + i) * width..][..width];
            for (o, &w) in out.iter_mut().zip(column) {
                *o = M::mul_add(xi, w, *o);
            }
        }
    }
}

/// The lanes of a sum: eight, the width of an AVX register of `f32`.
const LANES: usize = 8;

#[inline(always)]
fn dense<M: MulAdd>(layer: &Layer, spans: &[Span], x: &[f32], y: &mut [f32]) {
    let (n, m) = (layer.inputs, layer.outputs);
    let rows = x.len() / n;
    for (o, (w, &(lo, hi))) in layer.weight.chunks_exact(n).zip(spans).enumerate() {
        let w = &w[lo..hi];
        let input = |r: usize| &x[r * n + lo..r * n + hi];
        let mut r = 0;
        while r + 4 <= rows {
            let sums = dot4::<M>(w, [0, 1, 2, 3].map(|k| input(r + k)));
            for (k, s) in sums.iter().enumerate() {
                y[(r + k) * m + o] = layer.bias[o] + s;
            }
            r += 4;
        }
        for r in r..rows {
            y[r * m + o] = layer.bias[o] + dot4::<M>(w, [input(r); 4])[0];
        }
    }
}

/// `w · x[k]` for four vectors at once, `w` read once: lanes of eight, then the remainder.
#[inline(always)]
fn dot4<M: MulAdd>(w: &[f32], x: [&[f32]; 4]) -> [f32; 4] {
    let mut acc = [[0.0f32; LANES]; 4];
    let full = w.len() / LANES * LANES;
    for i in (0..full).step_by(LANES) {
        let wl = &w[i..i + LANES];
        for k in 0..4 {
            let xl = &x[k][i..i + LANES];
            for l in 0..LANES {
                acc[k][l] = M::mul_add(wl[l], xl[l], acc[k][l]);
            }
        }
    }
    let mut sums = [0.0f32; 4];
    for k in 0..4 {
        let a = acc[k];
        let mut sum = ((a[0] + a[4]) + (a[2] + a[6])) + ((a[1] + a[5]) + (a[3] + a[7]));
        for i in full..w.len() {
            sum = M::mul_add(w[i], x[k][i], sum);
        }
        sums[k] = sum;
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain dense forward pass of `[state; action]`, for comparison.
    fn dense(net: &QNet, state: &[f32], action: &[f32]) -> f32 {
        let mut x: Vec<f32> = state.iter().chain(action).copied().collect();
        let n = net.layers().len();
        for (k, l) in net.layers().iter().enumerate() {
            let mut y: Vec<f32> = (0..l.outputs)
                .map(|o| {
                    let row = &l.weight[o * l.inputs..(o + 1) * l.inputs];
                    l.bias[o] + row.iter().zip(&x).map(|(w, v)| w * v).sum::<f32>()
                })
                .collect();
            if k + 1 < n {
                y.iter_mut().for_each(|v| *v = v.max(0.0));
            }
            x = y;
        }
        x[0]
    }

    fn layer(outputs: usize, inputs: usize, seed: &mut u64) -> Layer {
        let mut next = || {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((*seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.4
        };
        Layer {
            outputs,
            inputs,
            weight: (0..outputs * inputs).map(|_| next()).collect(),
            bias: (0..outputs).map(|_| next()).collect(),
        }
    }

    #[test]
    fn split_first_layer_equals_the_dense_pass() {
        let mut seed = 7;
        let layers = vec![
            layer(19, 13, &mut seed),
            layer(9, 19, &mut seed),
            layer(1, 9, &mut seed),
        ];
        let net = QNet::new(10, 3, layers).unwrap();
        let mut scratch = net.scratch(4);
        let state: Vec<f32> = (0..10)
            .map(|i| if i % 3 == 0 { 0.0 } else { i as f32 / 7.0 })
            .collect();
        net.begin(&state, &mut scratch);
        for a in [[1.0, 0.0, 0.5], [0.0, 0.0, 0.0], [2.0, -1.0, 0.25]] {
            let q = net.q(&a, &mut scratch);
            assert!((q - dense(&net, &state, &a)).abs() < 1e-5, "{q}");
        }
    }

    #[test]
    fn a_block_diagonal_layer_is_read_over_its_blocks_only_and_sums_as_before() {
        let mut seed = 11;
        let mut hidden = layer(24, 40, &mut seed);
        for o in 0..24 {
            for i in 0..40 {
                if (o < 12) != (i < 20) || o == 5 {
                    hidden.weight[o * 40 + i] = 0.0;
                }
            }
        }
        let spans = nonzero_spans(&hidden);
        assert_eq!((spans[0], spans[5], spans[23]), ((0, 24), (0, 0), (16, 40)));
        let layers = vec![layer(40, 13, &mut seed), hidden, layer(1, 24, &mut seed)];
        let net = QNet::new(10, 3, layers).unwrap();
        let mut whole = net.clone();
        whole.spans = vec![vec![(0, 40); 24], vec![(0, 24)]];
        assert_eq!(net.spans[1], whole.spans[1]);
        let (mut scratch, mut whole_scratch) = (net.scratch(5), whole.scratch(5));
        let state: Vec<f32> = (0..10).map(|i| i as f32 / 9.0 - 0.3).collect();
        let actions: Vec<f32> = (0..15).map(|i| (i % 4) as f32 * 0.5 - 0.4).collect();
        net.begin(&state, &mut scratch);
        whole.begin(&state, &mut whole_scratch);
        let (mut q, mut whole_q) = ([0.0; 5], [0.0; 5]);
        net.q_batch(&actions, &mut q, &mut scratch);
        whole.q_batch(&actions, &mut whole_q, &mut whole_scratch);
        assert_eq!(q, whole_q);
        for (a, &qa) in actions.chunks(3).zip(&q) {
            assert!((qa - dense(&net, &state, a)).abs() < 1e-5, "{qa}");
        }
    }

    #[test]
    fn shapes_are_checked() {
        let mut seed = 1;
        let two = || vec![layer(4, 5, &mut 3), layer(1, 4, &mut 4)];
        assert!(QNet::new(3, 2, two()).is_ok());
        assert_eq!(
            QNet::new(3, 3, two()).unwrap_err(),
            ShapeError::Inputs {
                layer: 0,
                expected: 6,
                found: 5
            }
        );
        let mut wide = two();
        wide[1] = layer(2, 4, &mut seed);
        assert_eq!(QNet::new(3, 2, wide).unwrap_err(), ShapeError::Output(2));
        let mut short = two();
        short[0].bias.pop();
        assert!(matches!(
            QNet::new(3, 2, short),
            Err(ShapeError::Size { what: "bias", .. })
        ));
        let mut nan = two();
        nan[1].weight[0] = f32::NAN;
        assert_eq!(QNet::new(3, 2, nan).unwrap_err(), ShapeError::NotFinite(1));
        assert_eq!(QNet::new(3, 2, vec![]).unwrap_err(), ShapeError::Empty);
    }
}
