//! Luck-corrected estimates (AIVAT-style control variates, `docs/variance.md`). At every draw
//! from the stock after the deal, a seat's *luck* is the value of the state the draw led to
//! minus the mean value over every card the draw could have been; the sum of a seat's luck over
//! a game is subtracted from its payout. The value function is fixed before the games it
//! corrects ([`ValueModel`], [`NetValue`], [`RolloutValue`]), so each term has mean zero whatever the agents do: the corrected
//! payout has the plain payout's mean and, with a good value function, less variance.
//!
//! Why a term has mean zero: the hidden part of the stock (positions `lo..hi`, [`crate::games::kind::Luck`]) is a
//! uniform shuffle of its cards given everything before the draw, and swapping position `lo`
//! with a fixed position `q` maps uniform shuffles to uniform shuffles; so each of the `hi − lo`
//! swapped games is distributed as the real one, and the real value minus their mean has mean
//! zero. Swaps that put the same card first give the same step when the step draws one card
//! (the value never reads the stock's order), so one swap per card type is played, weighted by
//! its copies; a step that draws more (or reshuffles) plays every swap of that type.

mod corrector;
mod fit;
mod model;
mod net;
mod rollout;
mod spec;
mod value;

pub use corrector::Corrector;
pub use fit::{fit_value_model, FitSummary};
pub use model::{ValueModel, MAX_VALUE_INPUTS};
pub use net::{value_input_len, write_value_inputs, NetValue};
pub use rollout::RolloutValue;
pub use spec::{Estimator, ValueSpec, ValueSpecError, MAX_PLAYOUTS, SEATED};
pub use value::ValueFunction;
