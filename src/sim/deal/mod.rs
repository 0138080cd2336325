//! The one seeded deal-and-play loop: deal `i` of a master seed, dealt ([`seeds`]: the seed
//! derivation, written once) and played with every agent hook called ([`turns`]: the one play
//! loop). [`DealLoop`] plays the rotations of a deal, each a match of games; `run`, `play`,
//! `replay`, `tune`, `learn` and the tests all play their deals through it, and `soak`, `equity`,
//! `learn`'s teacher games and Python's `VecEnv` through [`turns`], so one deal index means one
//! game everywhere.

pub mod seeds;
pub mod turns;

pub use seeds::Opening;
use seeds::{agent_rngs, deal_next};
use turns::{play_out, Step};

use crate::agent::Agent;
use crate::game::{GameId, GameState, Outcome, MAX_SEATS};
use crate::games::kind::GameKind;
use std::ops::Range;

/// Which agent plays each seat in a rotation of a deal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Seating {
    /// The experiments' rotation of `n` agents: seat `s` of rotation `r` is played by agent
    /// `(s + r) mod n` (see `Experiment::slot`).
    Rotate(usize),
    /// Seat `s` is played by agent `s mod n` in every rotation.
    Fixed(usize),
    /// One agent against a field of `n` agents (`n ≥ 2`): agent 0 sits at seat `r` of rotation
    /// `r`; the seats after it, in order, are played by agents `1, 2, …` (cycled through
    /// `1..n`). Tuning and rule-list training score a candidate in every seat this way.
    Spotlight(usize),
}

impl Seating {
    /// The agent index of every seat (seats past the game's count repeat the first ones) in
    /// rotation `r` of a game of `seats` seats.
    pub fn seats(self, r: usize, seats: usize) -> [usize; MAX_SEATS] {
        std::array::from_fn(|s| {
            let s = s % seats;
            match self {
                Seating::Rotate(n) => (s + r) % n,
                Seating::Fixed(n) => s % n,
                Seating::Spotlight(n) if s == r => {
                    debug_assert!(n >= 2);
                    0
                }
                Seating::Spotlight(n) => 1 + ((s + seats - r - 1) % seats) % (n - 1),
            }
        })
    }
}

/// Where in a deal a game is: its rotation, its place in the match and its seed.
#[derive(Copy, Clone, Debug)]
pub struct At<'a> {
    /// The rotation.
    pub rotation: usize,
    /// The game of the match, `0..match_games`.
    pub game: u32,
    /// The seed of the game (its agents' streams).
    pub id: GameId,
    /// The agent index of every seat.
    pub seats: &'a [usize; MAX_SEATS],
}

/// What a deal loop's observer is shown.
pub enum Event<'a, S: GameState> {
    /// The state after a game's deal (no decision) or after one of its decisions.
    Step(Step<'a, S>),
    /// A game's end state and outcome.
    End(&'a S, Outcome),
}

/// The loop over a deal's rotations and match games (see the module documentation).
pub struct DealLoop<'a, G: GameKind> {
    /// The game.
    pub game: &'a G,
    /// The master seed.
    pub master: u64,
    /// How game 0 of each match is dealt.
    pub(crate) opening: Opening<'a, G::State>,
    /// Which agent plays each seat in each rotation.
    pub(crate) seating: Seating,
    /// The rotations to play, in order.
    pub rotations: Range<usize>,
    /// Games per match (at least 1).
    pub(crate) match_games: u32,
}

impl<'a, G: GameKind> DealLoop<'a, G> {
    /// A loop of one game per rotation, dealt by seeded shuffles.
    pub fn seeded(game: &'a G, master: u64, seating: Seating, rotations: Range<usize>) -> Self {
        DealLoop {
            game,
            master,
            opening: Opening::Seeded,
            seating,
            rotations,
            match_games: 1,
        }
    }

    /// Plays every rotation of deal `deal` with `agents` (indexed by the seating), calling
    /// `each` with each game's outcome in order. Allocation-free.
    pub(crate) fn outcomes(
        &self,
        deal: u64,
        agents: &mut [Box<dyn Agent<G::State>>],
        mut each: impl FnMut(At<'_>, Outcome),
    ) {
        self.play(deal, agents, |at, e| {
            if let Event::End(_, o) = e {
                each(at, o)
            }
        })
    }

    /// Plays every rotation of deal `deal` with `agents` (indexed by the seating); `observe`
    /// sees the state after each deal and after every decision, then each game's end.
    /// Allocation-free unless `observe` allocates.
    pub fn play(
        &self,
        deal: u64,
        agents: &mut [Box<dyn Agent<G::State>>],
        mut observe: impl FnMut(At<'_>, Event<'_, G::State>),
    ) {
        for r in self.rotations.clone() {
            let seats = self.seating.seats(r, self.game.seats());
            let id = GameId {
                master: self.master,
                deal,
                rotation: r as u8,
            };
            let mut rngs = agent_rngs(id);
            let mut previous: Option<G::State> = None;
            for j in 0..self.match_games {
                let at = At {
                    rotation: r,
                    game: j,
                    id,
                    seats: &seats,
                };
                let mut s = match &previous {
                    None => self.opening.deal(self.game, self.master, deal),
                    Some(p) => deal_next(self.game, p, self.master, deal, j),
                };
                let outcome = play_out(&mut s, agents, &seats, &mut rngs, |step| {
                    observe(at, Event::Step(step))
                });
                observe(at, Event::End(&s, outcome));
                previous = Some(s);
            }
        }
    }
}
