//! An ensemble of Q networks as one network: the mean of its members' Q, in the layout
//! `bailab.net.ensemble` (Python) writes. The first layers are stacked (each member reads the
//! same inputs), the hidden layers placed side by side on the diagonal (block-diagonal: no
//! member reads another's activations), and the output layer reads every member's last hidden
//! layer with its weights divided by the member count, the biases averaged. `net:` reads a
//! block-diagonal layer over its blocks only ([`super::qnet`]), so the ensemble costs what its
//! members do.

use super::qnet::Layer;

/// The one network whose Q is the mean of `members`' Q (each a network's layers, first to last,
/// all of the same depth and inputs). One member is returned as it is.
pub(crate) fn join_members(members: &[Vec<Layer>]) -> Vec<Layer> {
    if members.len() == 1 {
        return members[0].clone();
    }
    let depth = members[0].len();
    (0..depth)
        .map(|k| {
            let layers: Vec<&Layer> = members.iter().map(|m| &m[k]).collect();
            match k {
                0 => stacked(&layers),
                _ if k + 1 == depth => averaged(&layers),
                _ => block_diagonal(&layers),
            }
        })
        .collect()
}

/// The layers' rows one after another (each reads the same inputs).
fn stacked(layers: &[&Layer]) -> Layer {
    Layer {
        outputs: layers.iter().map(|l| l.outputs).sum(),
        inputs: layers[0].inputs,
        weight: layers
            .iter()
            .flat_map(|l| l.weight.iter().copied())
            .collect(),
        bias: layers.iter().flat_map(|l| l.bias.iter().copied()).collect(),
    }
}

/// The layers on the diagonal of one layer, zero elsewhere.
fn block_diagonal(layers: &[&Layer]) -> Layer {
    let outputs = layers.iter().map(|l| l.outputs).sum();
    let inputs: usize = layers.iter().map(|l| l.inputs).sum();
    let mut weight = vec![0.0; outputs * inputs];
    let (mut row, mut col) = (0, 0);
    for l in layers {
        for r in 0..l.outputs {
            let from = &l.weight[r * l.inputs..(r + 1) * l.inputs];
            let at = (row + r) * inputs + col;
            weight[at..at + l.inputs].copy_from_slice(from);
        }
        (row, col) = (row + l.outputs, col + l.inputs);
    }
    Layer {
        outputs,
        inputs,
        weight,
        bias: layers.iter().flat_map(|l| l.bias.iter().copied()).collect(),
    }
}

/// The output layers side by side, each weight over the member count, the biases' mean.
fn averaged(layers: &[&Layer]) -> Layer {
    let count = layers.len() as f32;
    let outputs = layers[0].outputs;
    let inputs = layers.iter().map(|l| l.inputs).sum();
    let mut weight = Vec::with_capacity(outputs * inputs);
    for r in 0..outputs {
        for l in layers {
            let row = &l.weight[r * l.inputs..(r + 1) * l.inputs];
            weight.extend(row.iter().map(|w| w / count));
        }
    }
    let bias = (0..outputs)
        .map(|r| layers.iter().map(|l| l.bias[r]).sum::<f32>() / count)
        .collect();
    Layer {
        outputs,
        inputs,
        weight,
        bias,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generic_agents::net::qnet::QNet;
    use crate::rng::stream_rng;
    use rand::Rng;

    fn member(seed: u64, widths: &[usize]) -> Vec<Layer> {
        let mut rng = stream_rng(seed, 0, 0);
        let mut draw = || rng.random::<f32>() - 0.5;
        (widths.windows(2))
            .map(|w| Layer {
                outputs: w[1],
                inputs: w[0],
                weight: (0..w[0] * w[1]).map(|_| draw()).collect(),
                bias: (0..w[1]).map(|_| draw()).collect(),
            })
            .collect()
    }

    fn q(layers: Vec<Layer>, input: &[f32], state_len: usize) -> f32 {
        let net = QNet::new(state_len, input.len() - state_len, layers).unwrap();
        let mut scratch = net.scratch(1);
        net.begin(&input[..state_len], &mut scratch);
        net.q(&input[state_len..], &mut scratch)
    }

    #[test]
    fn the_ensemble_gives_the_mean_of_its_members_q() {
        let widths = [7, 5, 3, 1];
        let members: Vec<Vec<Layer>> = (1..=3).map(|s| member(s, &widths)).collect();
        let joined = join_members(&members);
        let shapes: Vec<(usize, usize)> = joined.iter().map(|l| (l.outputs, l.inputs)).collect();
        assert_eq!(shapes, [(15, 7), (9, 15), (1, 9)]);
        for i in 0..20 {
            let input: Vec<f32> = (0..7).map(|j| ((i * 7 + j) % 5) as f32 - 2.0).collect();
            let mean = members.iter().map(|m| q(m.clone(), &input, 4)).sum::<f32>() / 3.0;
            let got = q(joined.clone(), &input, 4);
            assert!((got - mean).abs() < 1e-5, "{got} vs {mean}");
        }
        assert_eq!(join_members(&members[..1]), members[0]);
    }
}
