//! The contracts every game keeps, checked on one game as it is played: `bailab soak` checks them
//! on millions of games and the fuzz targets (`fuzz/`) on games they choose. A [`Checker`] is
//! shown the state after the deal and after every decision ([`Checker::step`]), then the end
//! ([`Checker::end`]).
//!
//! Every step: every card in exactly one place ([`SoakChecks::check_cards`](crate::games::kind::SoakChecks::check_cards)), an outcome only at the
//! end, and the game no longer than [`MAX_STEPS`] decisions. A deep game (its checker started
//! with `deep`) also has, at every decision: a legal action for the seat to move; its own view's
//! determinization with the same seat to move, its cards conserved and the same legal actions;
//! and another seat's determinization (one seat per step, in turn) with the same seat to move.
//! At its end, its record (events observed as played) passes `bailab check`. Every game ends with
//! an outcome whose payouts sum to zero.

use crate::game::{ActionBuffer, GameState, Outcome, SeatView};
use crate::games::kind::{CardsError, GameKind};
use crate::record::Record;
use crate::rng::{stream_rng, GameRng};
use crate::sim::recorder::{check, CheckError, Recorder};
use crate::sim::Step;

/// Decisions after which a game counts as endless.
pub const MAX_STEPS: usize = 10_000;

/// A contract a game broke.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ContractError {
    /// A contract broken after some decisions.
    #[error("after {steps} decisions: {breach}")]
    At {
        /// The decisions played when it broke.
        steps: usize,
        /// What broke.
        breach: Breach,
    },
    /// No end within the most decisions a game may take (that many).
    #[error("the game does not end in {0} decisions")]
    Endless(usize),
    /// An outcome whose payouts do not sum to zero.
    #[error("the payouts sum to {sum}, not zero: {outcome:?}")]
    PayoutSum {
        /// Their sum.
        sum: i64,
        /// The outcome.
        outcome: Outcome,
    },
    /// The record of a deep game does not replay as played.
    #[error("the game's record does not check: {0}")]
    Record(CheckError),
}

/// What broke at a step of a game (see [`ContractError::At`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Breach {
    /// Cards lost, doubled or misplaced.
    #[error("{0}")]
    Cards(CardsError),
    /// An outcome while a seat is still to move.
    #[error("an outcome before the end")]
    EarlyOutcome,
    /// A seat to move without a legal action.
    #[error("seat {0} is to move without a legal action")]
    NoLegalAction(u8),
    /// The mover's own determinization gives the turn to another seat.
    #[error("the mover's determinization moves the turn")]
    MoverTurn,
    /// The mover's own determinization does not conserve the cards.
    #[error("the mover's determinization: {0}")]
    MoverCards(CardsError),
    /// The mover's own determinization has other legal actions.
    #[error("the mover's determinization has other legal actions")]
    MoverActions,
    /// Another seat's determinization has no seat to move.
    #[error("seat {0}'s determinization ends the game")]
    OtherEnds(usize),
    /// The game stopped with no seat to move and no outcome.
    #[error("no seat to move and no outcome")]
    NoOutcome,
}

type Actions<G> = <<G as crate::game::Game>::State as GameState>::Actions;

/// Checks the contracts of one game of `G` at a time (reused from game to game: a shallow game
/// never allocates).
pub struct Checker<G: GameKind> {
    max_steps: usize,
    steps: usize,
    rng: GameRng,
    actions: Actions<G>,
    other: Actions<G>,
    deep: Option<Deep<G>>,
}

/// What a deep game keeps: its deal and its events so far.
struct Deep<G: GameKind> {
    start: G::State,
    recorder: Recorder<G>,
}

impl<G: GameKind> Checker<G> {
    /// A checker that calls a game endless after `max_steps` decisions and determinizes views
    /// with its own RNG stream of `seed`.
    pub fn new(max_steps: usize, seed: u64) -> Self {
        Checker {
            max_steps,
            steps: 0,
            rng: stream_rng(seed, 0, 0x1A7A),
            actions: Default::default(),
            other: Default::default(),
            deep: None,
        }
    }

    /// Starts checking the game dealt as `start`; `deep` adds the determinization and record
    /// checks.
    pub fn begin(&mut self, start: &G::State, deep: bool) {
        self.steps = 0;
        self.deep = deep.then(|| Deep {
            start: start.clone(),
            recorder: Recorder::default(),
        });
    }

    /// Checks the state after the deal (`decision` none) or after a decision.
    pub fn step(&mut self, (state, decision): Step<'_, G::State>) -> Result<(), ContractError> {
        G::check_cards(state).map_err(|e| self.at(Breach::Cards(e)))?;
        if let Some(d) = &mut self.deep {
            d.recorder.observe(state, decision);
        }
        if decision.is_some() {
            self.steps += 1;
        }
        let Some(seat) = state.to_move() else {
            return Ok(());
        };
        if state.outcome().is_some() {
            return Err(self.at(Breach::EarlyOutcome));
        }
        if self.steps >= self.max_steps {
            return Err(ContractError::Endless(self.max_steps));
        }
        if self.deep.is_some() {
            self.determinizations(state, seat)?;
        }
        Ok(())
    }

    /// The deep checks of the decision of `seat` in `state`.
    fn determinizations(&mut self, state: &G::State, seat: u8) -> Result<(), ContractError> {
        state.legal_actions(&mut self.actions);
        if self.actions.as_slice().is_empty() {
            return Err(self.at(Breach::NoLegalAction(seat)));
        }
        let d = state.view(seat).determinize(&mut self.rng);
        if d.to_move() != Some(seat) {
            return Err(self.at(Breach::MoverTurn));
        }
        G::check_cards(&d).map_err(|e| self.at(Breach::MoverCards(e)))?;
        d.legal_actions(&mut self.other);
        if self.other.as_slice() != self.actions.as_slice() {
            return Err(self.at(Breach::MoverActions));
        }
        let players = state.seats();
        let x = (seat as usize + 1 + self.steps % (players - 1).max(1)) % players;
        // another seat's sample goes on, but may ask another seat: who is asked in a window
        // (Chắn's ù and chíu, a multi-pack claim window) depends on hidden hands
        let d = state.view(x as u8).determinize(&mut self.rng);
        if d.to_move().is_none() {
            return Err(self.at(Breach::OtherEnds(x)));
        }
        Ok(())
    }

    /// Checks the finished game `end` of `game` played by `agents` (named in its record): its
    /// outcome, zero-sum payouts and, for a deep game, its record. Returns the outcome, and the
    /// record of a deep game.
    pub fn end(
        &mut self,
        game: &G,
        end: &G::State,
        agents: &[String],
    ) -> Result<(Outcome, Option<Record>), ContractError> {
        let outcome = end.outcome().ok_or_else(|| self.at(Breach::NoOutcome))?;
        let sum: i64 = outcome.payouts().iter().sum();
        if sum != 0 {
            return Err(ContractError::PayoutSum { sum, outcome });
        }
        let Some(d) = self.deep.take() else {
            return Ok((outcome, None));
        };
        let record = d.recorder.finish(game, &d.start, end, agents, None);
        check(&record).map_err(ContractError::Record)?;
        Ok((outcome, Some(record)))
    }

    /// The decisions taken in the game so far.
    pub fn decisions(&self) -> usize {
        self.steps
    }

    /// `breach`, placed after the decisions played so far.
    fn at(&self, breach: Breach) -> ContractError {
        ContractError::At {
            steps: self.steps,
            breach,
        }
    }
}
