//! A value function that needs no training: each seat's mean payout over a few playouts from the
//! state, by a fixed agent or by the agents seated at the game, with the hidden part of the stock
//! reshuffled.

use super::value::{payouts_if_over, ValueFunction};
use crate::agent::Agent;
use crate::game::{GameState, MAX_SEATS};
use crate::games::kind::Luck;
use crate::rng::{stream_rng, GameRng};
use crate::sim::play_out;
use rand::Rng;

/// The value of a state as the mean payout of `playouts` games played on from it by one agent
/// at every seat (or one agent per seat, as seated at the game corrected: [`ValueFunction::seat`]),
/// each with the hidden stock ([`Luck::hidden_stock`]) shuffled anew.
///
/// The playouts' random numbers (the shuffles and the agent's own) come from `salt` and the
/// hidden stock's position alone, so the value is a fixed function of the state, as the
/// estimator needs, and all the outcomes of one draw are valued with the same random numbers
/// (their differences are then much less noisy than the values). Allocation-free per value
/// when the agent is.
pub struct RolloutValue<S: GameState> {
    agents: Vec<Box<dyn Agent<S>>>,
    seat_agent: [usize; MAX_SEATS],
    playouts: u32,
    salt: u64,
}

impl<S: GameState> RolloutValue<S> {
    /// Values by `playouts` playouts of `agent` in every seat, seeded from `salt`.
    pub fn new(agent: Box<dyn Agent<S>>, playouts: u32, salt: u64) -> Self {
        Self::with_agents(vec![agent], playouts, salt)
    }

    /// Values by `playouts` playouts seeded from `salt`, of `agents[0]` in every seat if it is the
    /// only one, else of the agent of each seat's slot as [`ValueFunction::seat`] says.
    pub fn with_agents(agents: Vec<Box<dyn Agent<S>>>, playouts: u32, salt: u64) -> Self {
        assert!(!agents.is_empty(), "a playout needs an agent");
        RolloutValue {
            agents,
            seat_agent: [0; MAX_SEATS],
            playouts: playouts.max(1),
            salt,
        }
    }
}

impl<G: Luck> ValueFunction<G> for RolloutValue<G::State> {
    fn seat(&mut self, slots: &[usize]) {
        if self.agents.len() > 1 {
            self.seat_agent[..slots.len()].copy_from_slice(slots);
        }
    }

    fn values(&mut self, state: &G::State, out: &mut [f64; MAX_SEATS]) {
        if payouts_if_over(state, out) {
            return;
        }
        let hidden = G::hidden_stock(state);
        let key = (hidden.start as u64) << 32 | hidden.end as u64;
        let n = state.seats();
        let mut sum = [0i64; MAX_SEATS];
        for p in 0..u64::from(self.playouts) {
            let mut rng = stream_rng(self.salt, key, p << 8);
            let mut s = state.clone();
            for i in (hidden.start + 1..hidden.end).rev() {
                let j = rng.random_range(hidden.start..=i);
                G::swap_stock(&mut s, i, j);
            }
            let mut rngs: [GameRng; MAX_SEATS] =
                std::array::from_fn(|x| stream_rng(self.salt, key, p << 8 | (x as u64 + 1)));
            let o = play_out(
                &mut s,
                &mut self.agents,
                &self.seat_agent[..n],
                &mut rngs,
                |_| {},
            );
            for (t, &v) in sum.iter_mut().zip(o.payouts()) {
                *t += v;
            }
        }
        for (v, &t) in out.iter_mut().zip(&sum).take(n) {
            *v = t as f64 / f64::from(self.playouts);
        }
    }
}
