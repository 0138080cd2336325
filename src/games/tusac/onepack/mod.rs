//! The one-pack core of the Tứ Sắc engine: classic and 4sac (one pack, 2–4 players). The trash
//! solver (§3), the meld rules, the state machine of §4 with its claim history, the worst card
//! (§5) and the payouts (§6.1–6.2), what a seat sees and its determinizations, the features and
//! greedy's rule, the hand analyser and the position files.
//!
//! It speaks the vocabulary both cores share (`actions`, `meld`) and reads its options from
//! `options::Options`.

pub mod analyze;
pub mod deals;
pub mod deck;
pub mod determinize;
pub mod features;
pub mod greedy;
pub mod history;
pub(crate) mod luck;
pub mod position;
pub mod rules;
pub mod score;
pub mod state;
pub mod trash;
pub mod view;
pub mod worst;
