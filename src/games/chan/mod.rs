//! Chắn as the rules reference `docs/games/chan.md` describes it (every `§` in this module is
//! a section of that file): cards and notation, hands as counts, the canonical decomposition
//! and `WinShape`, the options, the restriction predicates, scoring, the state machine with its
//! ù and chíu windows, the seat view with determinization, the `greedy` agent, the analyser and
//! the log.

mod access;
pub mod analyze;
pub(crate) mod builder;
pub mod card;
mod contract;
pub mod deal_spec;
pub mod deals;
pub mod decompose;
pub mod features;
pub mod greedy;
pub mod hand;
mod kind;
pub mod log;
mod luck;
mod observation;
pub mod options;
pub mod position;
pub mod rules;
pub mod score;
pub mod state;
pub mod types;
pub mod view;

pub use builder::Position;
pub use card::{format_cards, parse_cards, Card, CardListError, Suit};
pub use decompose::{decompose, win_shape, Decomposition};
pub use hand::Hand;
pub use options::{ChanDiscardRule, FirstAfterDraw, Options, ThapThanhRule};
pub use rules::{Meld, MeldKind, MeldSource, Pred, PredSet, SeatState};
pub use score::{Factor, Score};
pub use state::{Chan, ChanState};
pub use types::{Action, Event, Live, Origin, Phase, Resume, Rule, Setup, Via, MAX_ACTIONS};
pub use view::ChanView;
