//! The core contracts every game implements (ARCHITECTURE.md, "Core contracts").
//!
//! A [`Game`] is immutable rule options that deal a [`GameState`]; a state is a fixed-size value
//! whose clone is a memcpy. Every decision is one seat choosing from a legal list that the state
//! writes into a caller-provided fixed-capacity buffer; forced moves are applied by the engine and
//! reported as events.

use arrayvec::ArrayVec;
use std::fmt::{Debug, Display};

/// A seat index, `0..n`. Seats increase in playing order.
pub type Seat = u8;

/// The largest table any game supports (Sisepai variants seat 8).
pub const MAX_SEATS: usize = 8;

/// A fixed-capacity list of legal actions. Each game names its capacity with a proof or a test
/// that it is enough.
pub trait ActionBuffer<A>: Default {
    /// The most actions the list holds.
    const CAPACITY: usize;
    /// Empties the list.
    fn clear(&mut self);
    /// Appends an action. Panics if the game's proven capacity is exceeded (a bug).
    fn push(&mut self, action: A);
    /// The actions, in the game's canonical order.
    fn as_slice(&self) -> &[A];
}

impl<A, const N: usize> ActionBuffer<A> for ArrayVec<A, N> {
    const CAPACITY: usize = N;
    fn clear(&mut self) {
        ArrayVec::clear(self)
    }
    fn push(&mut self, action: A) {
        ArrayVec::push(self, action)
    }
    fn as_slice(&self) -> &[A] {
        ArrayVec::as_slice(self)
    }
}

/// A game variant: its rule options. Immutable and shareable across threads.
pub trait Game: Sync + Send {
    /// The state this game deals.
    type State: GameState;
    /// The game's short name (`tusac`, `chan`, `tienlen`).
    fn name(&self) -> &'static str;
    /// The variant's name (`classic`, ...).
    fn variant(&self) -> &'static str;
    /// Number of seats at the table.
    fn seats(&self) -> usize;
    /// Shuffles a deck with `rng` and deals a game, applying the post-deal forced steps.
    fn deal(&self, rng: &mut crate::rng::GameRng) -> Self::State;
    /// Deals the next game of a match that `previous` (finished) belongs to: games whose rules
    /// carry something from one game to the next (who leads, whether initial-game rules apply)
    /// override this; by default every game of a match is a fresh deal.
    fn deal_next(&self, previous: &Self::State, rng: &mut crate::rng::GameRng) -> Self::State {
        let _ = previous;
        self.deal(rng)
    }
}

/// A game in progress: a plain value. Cloning never allocates.
pub trait GameState: Clone + Send + 'static {
    /// A decision a seat can take.
    type Action: Copy + Eq + Debug + Display + Send;
    /// The fixed-capacity list the legal actions are written into.
    type Actions: ActionBuffer<Self::Action>;
    /// Something that happened: a chosen action or a forced move, with the rule that forced it.
    type Event: Copy + Debug + Display;

    /// The seat to decide now, or `None` when the game is over.
    fn to_move(&self) -> Option<Seat>;
    /// Writes the legal actions of the seat to move into `out` (cleared first).
    fn legal_actions(&self, out: &mut Self::Actions);
    /// Applies a legal action of the seat to move, then every forced move that follows.
    fn apply(&mut self, action: Self::Action);
    /// What the last `apply` (or the deal) did, in order, including forced moves.
    fn last_events(&self) -> &[Self::Event];
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Number of seats at the table.
    fn seats(&self) -> usize;

    /// A typical payout magnitude, used to map payouts to search rewards in `[0, 1]`:
    /// `reward = 0.5 + payout / (2 · scale)`, clipped (see [`reward`]).
    fn payout_scale(&self) -> f64;

    /// What one seat may see of this state (ARCHITECTURE.md contract 3).
    type View<'a>: SeatView<State = Self>
    where
        Self: 'a;
    /// The view of `seat`. Agents receive only this, never the state itself.
    fn view(&self, seat: Seat) -> Self::View<'_>;
}

/// A seat's view of a state: its own hidden cards and the public information, nothing else.
/// The state behind it is private to the game's module, so an agent cannot read another seat's
/// hidden cards.
pub trait SeatView {
    /// The state type this view is of.
    type State: GameState;
    /// The seat whose view this is.
    fn seat(&self) -> Seat;
    /// A full state consistent with everything this seat can see: hidden hands and the stock
    /// resampled from the cards it has not seen. This is what information-set search samples.
    fn determinize(&self, rng: &mut crate::rng::GameRng) -> Self::State;
    /// [`SeatView::determinize`] weighted by what the public history says of the hidden hands
    /// beyond what `determinize` reads (`infer=on` of `ismcts` and `net:…,search=N`). Only the
    /// multi-pack Tứ Sắc variants infer more (the windows each seat let pass); elsewhere this is
    /// `determinize`.
    fn determinize_inferred(&self, rng: &mut crate::rng::GameRng) -> Self::State {
        self.determinize(rng)
    }
    /// The same view owning a copy of the state, for a view that must outlive the decision
    /// (a Python agent may keep it). It still reads as this seat's view only.
    fn owned(&self) -> OwnedView<Self::State>;
}

/// A seat's view that owns a copy of its state: what a view is when it must outlive the state
/// it was taken of. The state is private to this module, so only [`OwnedView::view`] reads it.
#[derive(Clone)]
pub struct OwnedView<S: GameState> {
    state: S,
    seat: Seat,
}

impl<S: GameState> OwnedView<S> {
    /// The view of `seat` of `state` (a game's [`SeatView::owned`] builds it from its view).
    pub fn new(state: S, seat: Seat) -> Self {
        OwnedView { state, seat }
    }
    /// The seat's view.
    pub fn view(&self) -> S::View<'_> {
        self.state.view(self.seat)
    }
    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// Whether this seat is the one to decide now. (Which other seat decides is not told: in
    /// some games that a seat is asked depends on its hidden hand.)
    pub fn deciding(&self) -> bool {
        self.state.to_move() == Some(self.seat)
    }
    /// Writes the legal actions into `out` when this seat is the one to decide; else `out` is
    /// left empty (another seat's legal actions would reveal its hand).
    pub fn legal_actions(&self, out: &mut S::Actions) {
        out.clear();
        if self.deciding() {
            self.state.legal_actions(out);
        }
    }
}

/// How a finished game ended and who pays whom. Payouts are integers that sum to zero.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Number of seats (entries of `payouts` past it are 0).
    pub seats: u8,
    /// The winner, or `None` for a drawn game.
    pub winner: Option<Seat>,
    /// Why the game ended, a short identifier (e.g. `win`, `natural_win`, `stock_floor`).
    pub reason: &'static str,
    /// Net payout of every seat.
    pub payouts: [i64; MAX_SEATS],
    /// The winning hand's value (0 without a winner).
    pub hand_value: u32,
    /// Number of turns played (discards made).
    pub turns: u32,
    /// The seat that paid a penalty, if any.
    pub penalized: Option<Seat>,
    /// The place of each seat (1 = first) in games that rank every seat; all 0 in games that
    /// only name a winner.
    pub places: [u8; MAX_SEATS],
}

/// The search reward of a payout in `[0, 1]`: `0.5 + payout / (2 · scale)`, clipped. It is a
/// linear map of the payout, so maximising the expected reward maximises the expected payout as
/// long as payouts stay within `±scale`.
pub fn reward(payout: i64, scale: f64) -> f64 {
    (0.5 + payout as f64 / (2.0 * scale)).clamp(0.0, 1.0)
}

impl Outcome {
    /// The payouts of the seats at the table.
    pub fn payouts(&self) -> &[i64] {
        &self.payouts[..self.seats as usize]
    }
    /// The places of the seats at the table, when the game ranks them.
    pub fn places(&self) -> Option<&[u8]> {
        let places = &self.places[..self.seats as usize];
        places.iter().any(|&p| p > 0).then_some(places)
    }
}

/// Which game of a study: master seed, deal index, rotation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameId {
    /// The study's master seed.
    pub master: u64,
    /// The deal index.
    pub deal: u64,
    /// The rotation of the agents through the seats (0 without rotation).
    pub rotation: u8,
}

/// A decision just taken: the seat, the number of legal actions and the index chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The deciding seat.
    pub seat: Seat,
    /// How many legal actions it had.
    pub legal: usize,
    /// The index of the chosen action in the legal list.
    pub chosen: usize,
}

/// Rule options as `name → value`: an experiment's `[rules]` table or a record's `rules`.
pub type RuleMap = serde_json::Map<String, serde_json::Value>;
