//! The per-game luck of each seat: an observer of a game's steps ([`crate::sim::Step`]) that
//! sums, at every step that drew from the stock, the value of the state reached minus the mean
//! value over the cards the draw could have been, and at every decision of a seat whose policy is
//! known to be uniform (`random`), the value reached minus the mean over the legal actions (see
//! the module documentation).

use super::value::ValueFunction;
use crate::game::{ActionBuffer, GameState, MAX_SEATS};
use crate::games::kind::Luck;
use crate::sim::Step;

/// The most card types a stock holds (the card type indices are below it).
const MAX_TYPES: usize = 128;

/// Sums each seat's luck over one game at a time with the value function `V`; allocation-free
/// once built.
pub struct Corrector<G: Luck, V: ValueFunction<G>> {
    model: V,
    before: Option<G::State>,
    luck: [f64; MAX_SEATS],
    events: u32,
    /// Which agent slots play uniformly at random (their decisions are corrected too).
    uniform_slots: [bool; MAX_SEATS],
    /// Which seats of the game observed do.
    uniform_seats: [bool; MAX_SEATS],
}

impl<G: Luck, V: ValueFunction<G>> Corrector<G, V> {
    /// A corrector with the value function `model` (checked for the table by the caller).
    pub fn new(model: V) -> Self {
        Corrector {
            model,
            before: None,
            luck: [0.0; MAX_SEATS],
            events: 0,
            uniform_slots: [false; MAX_SEATS],
            uniform_seats: [false; MAX_SEATS],
        }
    }

    /// This corrector, also correcting the decisions of the agent slots marked in `uniform`
    /// (agents that choose uniformly among the legal actions; slots as [`Corrector::seat`] gives
    /// them).
    pub fn with_uniform_slots(mut self, uniform: [bool; MAX_SEATS]) -> Self {
        self.uniform_slots = uniform;
        self
    }

    /// Each seat's luck so far in the game observed (to subtract from its payout).
    pub fn luck(&self) -> &[f64; MAX_SEATS] {
        &self.luck
    }

    /// Chance events corrected so far in the game observed.
    pub fn events(&self) -> u32 {
        self.events
    }

    /// Says which agent slot sits at each seat of the game about to be observed (`slots[seat]`),
    /// for a value function that plays like the seated agents.
    pub fn seat(&mut self, slots: &[usize]) {
        self.model.seat(slots);
        self.uniform_seats = [false; MAX_SEATS];
        for (seat, &slot) in slots.iter().enumerate() {
            self.uniform_seats[seat] = self.uniform_slots.get(slot).copied().unwrap_or(false);
        }
    }

    /// Observes a step of the game: the deal (no decision) starts a new game.
    pub fn observe(&mut self, step: Step<'_, G::State>) {
        let (state, decision) = step;
        match (decision, self.before.take()) {
            (None, _) => {
                self.luck = [0.0; MAX_SEATS];
                self.events = 0;
            }
            (Some((decision, action)), Some(before)) => {
                if self.uniform_seats[usize::from(decision.seat)] && decision.legal > 1 {
                    self.decision(&before, state);
                }
                if G::stock_draws(state) > 0 {
                    self.draw(&before, action, state);
                }
            }
            _ => {}
        }
        self.before = Some(state.clone());
    }

    /// Adds the luck of a step from `before` by `action` that drew from the stock and reached
    /// `after`.
    fn draw(
        &mut self,
        before: &G::State,
        action: <G::State as GameState>::Action,
        after: &G::State,
    ) {
        let hidden = G::hidden_stock(before);
        if hidden.len() < 2 {
            return;
        }
        let mut first_at = [usize::MAX; MAX_TYPES];
        let mut copies = [0u32; MAX_TYPES];
        for q in hidden.clone() {
            let t = usize::from(G::stock_card(before, q));
            copies[t] += 1;
            if first_at[t] == usize::MAX {
                first_at[t] = q;
            }
        }
        let mut sum = [0.0; MAX_SEATS];
        for t in 0..MAX_TYPES {
            if copies[t] == 0 {
                continue;
            }
            let swapped = self.swapped(before, hidden.start, first_at[t], action);
            if G::stock_draws(&swapped) == 1 {
                self.add_value(&swapped, f64::from(copies[t]), &mut sum);
            } else {
                for q in hidden.clone() {
                    if usize::from(G::stock_card(before, q)) == t {
                        let s = self.swapped(before, hidden.start, q, action);
                        self.add_value(&s, 1.0, &mut sum);
                    }
                }
            }
        }
        self.add_luck(after, &sum, hidden.len());
    }

    /// Adds `weight` × the value of `state` to `sum`, seat by seat.
    fn add_value(&mut self, state: &G::State, weight: f64, sum: &mut [f64; MAX_SEATS]) {
        let mut v = [0.0; MAX_SEATS];
        self.model.values(state, &mut v);
        (0..state.seats()).for_each(|x| sum[x] += weight * v[x]);
    }

    /// Adds an event's luck: the value of `after` minus the mean of `count` values summing to
    /// `sum`.
    fn add_luck(&mut self, after: &G::State, sum: &[f64; MAX_SEATS], count: usize) {
        let mut v = [0.0; MAX_SEATS];
        self.model.values(after, &mut v);
        for x in 0..after.seats() {
            self.luck[x] += v[x] - sum[x] / count as f64;
        }
        self.events += 1;
    }

    /// Adds the luck of a uniformly random decision at `before` that reached `after`: the value
    /// reached minus the mean over the legal actions. Only where no legal action draws from the
    /// stock (a decision followed by a draw is left to the draw's correction): whether a decision
    /// is corrected then does not depend on the action chosen, so each term keeps mean zero.
    fn decision(&mut self, before: &G::State, after: &G::State) {
        let mut actions = <G::State as GameState>::Actions::default();
        before.legal_actions(&mut actions);
        let legal = actions.as_slice();
        let draws = |&a: &<G::State as GameState>::Action| {
            let mut s = before.clone();
            s.apply(a);
            G::stock_draws(&s) > 0
        };
        if legal.iter().any(draws) {
            return;
        }
        let mut sum = [0.0; MAX_SEATS];
        for &a in legal {
            let mut s = before.clone();
            s.apply(a);
            self.add_value(&s, 1.0, &mut sum);
        }
        self.add_luck(after, &sum, legal.len());
    }

    /// The step from `before` by `action` with stock positions `lo` and `q` swapped.
    fn swapped(
        &self,
        before: &G::State,
        lo: usize,
        q: usize,
        action: <G::State as GameState>::Action,
    ) -> G::State {
        let mut s = before.clone();
        G::swap_stock(&mut s, lo, q);
        s.apply(action);
        s
    }
}
