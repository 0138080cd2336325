//! Southern Tiến Lên (Tiến Lên miền Nam), as the rules reference `docs/games/tienlen.md` states
//! it (its § numbers are the ones cited throughout this module): cards and notation, card sets,
//! combinations and beats, legal-move generation, the options, the state machine with its
//! payments, and the seat view.

mod access;
pub mod analyze;
pub mod card;
pub(crate) mod card_set;
pub mod combo;
mod contract;
pub mod deal_spec;
pub mod deals;
pub mod features;
pub mod greedy;
mod kind;
pub mod log;
pub mod moves;
mod observation;
pub mod options;
pub mod position;
pub mod split;
pub mod state;
pub mod toi_trang;
pub mod types;
pub mod view;

pub use card::{format_cards, parse_cards, Card, CardListError};
pub use card_set::Cards;
pub use combo::{
    beats, chat_value, classify, is_chat, thoi, toi_trang, toi_trang_conditions, Combo, ComboType,
};
pub use moves::MAX_ACTIONS;
pub use options::{HuongSai, Options, QuadChops, Stake};
pub use state::{TienLen, TienLenState};
pub use toi_trang::{ToiTrang, ToiTrangSet};
pub use types::{Action, Actions, Chain, Event, Phase, Rule, Setup, Transfer};
pub use view::TienLenView;
