//! The multi-pack core of the Tứ Sắc engine: sisepai21 and dirtyking26 (loose cards, several
//! packs, 2–8 players). The deal with its post-deal steps (§1.3–1.4), the claim resolution and
//! turn rules S1–S7 of §4.6, the end conditions of §4.7 and the payouts of §6.3–6.4.
//!
//! It speaks the vocabulary both cores share (`actions`, `meld`), solves its hands with the
//! loose-card solver ([`loose`]) and reads its options from `options::Options`.

pub mod analyze;
mod deal;
pub mod deals;
pub mod features;
pub mod greedy;
pub mod loose;
pub(crate) mod luck;
pub mod melds;
mod outs;
mod reopen;
pub mod state;
pub mod view;

pub(crate) use deal::live_copies;
pub use deal::MultiPack;
pub use state::PacksState;
pub use view::PacksView;
