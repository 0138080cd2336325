//! A value network: every seat's payout (over the game's payout scale) read by a multilayer
//! perceptron from the whole state, written as the view tensors of all seats, the valued seat's
//! first and the others after it in seat order (together they hold every hand and everything
//! public; never the stock's order). Evaluated into buffers made once.

use super::value::{payouts_if_over, ValueFunction};
use crate::game::{GameState, Seat, MAX_SEATS};
use crate::games::kind::GameKind;
use crate::games::observe::layout_len;
use crate::generic_agents::net::payout_scale;
use crate::generic_agents::net::qnet::{QNet, Scratch};

/// The length of a value network's input for `game`: one view tensor per seat.
pub fn value_input_len<G: GameKind>(game: &G) -> usize {
    game.seats() * layout_len(&game.tensor_layout())
}

/// Writes the value inputs of every seat of `state` into `out`, one row of
/// [`value_input_len`] per seat: each seat's view tensor is written once, into seat 0's row,
/// and the other rows are its rotations. Allocation-free.
pub fn write_value_inputs<G: GameKind>(game: &G, state: &G::State, out: &mut [f32]) {
    let n = state.seats();
    let view_len = out.len() / (n * n);
    let row_len = n * view_len;
    let (first, rest) = out.split_at_mut(row_len);
    for (seat, tensor) in first.chunks_exact_mut(view_len).enumerate() {
        game.tensor(&state.view(seat as Seat), tensor);
    }
    for (x, row) in rest.chunks_exact_mut(row_len).enumerate() {
        let shift = (x + 1) * view_len;
        row[..row_len - shift].copy_from_slice(&first[shift..]);
        row[row_len - shift..].copy_from_slice(&first[..shift]);
    }
}

/// A value network in play for one game: the network, its buffers and the payout scale.
pub struct NetValue<'a, G: GameKind> {
    game: &'a G,
    net: &'a QNet,
    scale: f64,
    inputs: Vec<f32>,
    out: [f32; MAX_SEATS],
    scratch: Scratch,
}

impl<'a, G: GameKind> NetValue<'a, G> {
    /// The value function of `net` (reading [`value_input_len`] inputs) for `game`.
    pub fn new(game: &'a G, net: &'a QNet) -> NetValue<'a, G> {
        let n = game.seats();
        NetValue {
            game,
            net,
            scale: payout_scale(game),
            inputs: vec![0.0; n * value_input_len(game)],
            out: [0.0; MAX_SEATS],
            scratch: net.scratch(n),
        }
    }
}

impl<G: GameKind> ValueFunction<G> for NetValue<'_, G> {
    fn values(&mut self, state: &G::State, out: &mut [f64; MAX_SEATS]) {
        if payouts_if_over(state, out) {
            return;
        }
        let n = state.seats();
        write_value_inputs(self.game, state, &mut self.inputs);
        self.net.begin(&[], &mut self.scratch);
        self.net
            .q_batch(&self.inputs, &mut self.out[..n], &mut self.scratch);
        for (v, q) in out.iter_mut().zip(&self.out[..n]) {
            *v = f64::from(*q) * self.scale;
        }
    }
}
