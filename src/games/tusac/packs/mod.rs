//! The multi-pack core of the Tứ Sắc engine: sisepai21 and dirtyking26 (loose cards, several
//! packs, 2–8 players). The deal with its post-deal steps (§1.3–1.4), the claim resolution and
//! turn rules S1–S7 of §4.6, the end conditions of §4.7 and the payouts of §6.3–6.4.
//!
//! It shares the vocabulary of the one-pack core (`state::{Action, Phase, Event, Rule, Active,
//! Source}`, `rules::Meld`) and reads its options from `options::Options`.

pub mod analyze;
mod deal;
pub mod deals;
pub mod features;
pub mod greedy;
pub mod melds;
mod outs;
pub mod state;
pub mod view;

/// The loose-card solver (§3.3, §3.6).
pub use super::loose;

pub(crate) use deal::live_copies;
pub use deal::MultiPack;
pub use state::PacksState;
pub use view::PacksView;
