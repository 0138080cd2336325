//! Tứ Sắc (four colours), `docs/games/tusac.md`. At this level: the cards and hands, the sets
//! and their rules, the options, the vocabulary both rule cores share (actions, melds), the
//! choice between the cores (engine, registry entry, the greedy agent) and what both feed
//! (records, deal specs, deal measures, logs). The cores: [`onepack`] (classic, 4sac) and
//! [`packs`] (sisepai21, dirtyking26).

pub mod actions;
pub mod card;
pub mod deal_spec;
pub mod deals;
pub mod engine;
pub mod features;
pub mod greedy;
pub mod hand;
mod kind;
pub mod log;
mod luck;
pub mod meld;
mod observation;
pub mod onepack;
pub mod options;
pub mod packs;
pub mod record;
pub mod sets;

pub use actions::{Action, Event};
pub use card::{Card, Colour, Rank};
pub use engine::{TuSac, TuSacState, TuSacView};
pub use hand::Hand;
pub use meld::Meld;
pub use onepack::state::{OnePack, OnePackState};
pub use onepack::trash::trash;
pub use onepack::view::OnePackView;
pub use options::Options;
pub use packs::{MultiPack, PacksState, PacksView};
pub use sets::SetKind;
