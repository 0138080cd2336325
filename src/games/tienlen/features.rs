//! Tiến Lên's features of a candidate action, for rule lists (`rules:PATH`): computed from the
//! acting seat's view only (see [`crate::agents::rules::features`]).

use super::state::Action;
use super::TienLenView;
use crate::agents::rules::features::{FeatureInfo, FeatureRow};

/// The features, in row order.
pub const FEATURES: &[FeatureInfo] = &[];

/// Writes the features of each legal action into `rows` (one row per action).
pub fn features(view: &TienLenView<'_>, legal: &[Action], rows: &mut [FeatureRow]) {
    let _ = (view, legal, rows);
}
