//! Tứ Sắc (four colours), `docs/games/tusac.md`: cards and notation, the trash solver,
//! the rules state machine, the worst card and the payouts.

pub mod analyze;
pub mod card;
pub mod deal_spec;
pub mod deals;
pub mod determinize;
pub mod engine;
pub mod features;
pub mod greedy;
pub mod hand;
pub mod history;
mod kind;
pub mod log;
pub mod loose;
pub mod options;
pub mod packs;
pub mod position;
pub mod record;
pub mod rules;
pub mod score;
pub mod sets;
pub mod state;
pub mod trash;
pub mod view;
pub mod worst;

pub use card::{Card, Colour, Rank};
pub use engine::{TuSac, TuSacState, TuSacView};
pub use hand::Hand;
pub use packs::{MultiPack, PacksState, PacksView};
pub use rules::{Meld, Options};
pub use sets::SetKind;
pub use state::{Action, Event, OnePack, OnePackState};
pub use trash::trash;
pub use view::OnePackView;
