//! Features of candidate actions: what a rule list (`rules:PATH`) reads to choose.
//!
//! Each game defines its own features
//! ([`Features::FEATURES`](crate::games::kind::Features::FEATURES))
//! and computes them from the acting seat's view only, never from hidden cards. A feature is a
//! small integer per legal action (a flag is 0 or 1). Features of the situation (cards left,
//! stock size) have the same value for every action of a decision; a rule can still use them,
//! since a condition no action meets leaves the choice to the next rule.
//!
//! The machinery appends two features of its own to every game's list: `greedy`, 1 for the
//! action the game's `greedy` agent would take, 0 for the others (`GREEDY_FEATURE`), and
//! `greedy_rank`, the order in which greedy would take the actions if the ones before were
//! not legal (`GREEDY_RANK_FEATURE`).

/// The most features a row holds: a game's own plus the generic `greedy` and `greedy_rank`.
pub const MAX_FEATURES: usize = 48;

/// The features of one candidate action, in the order of the game's [`FeatureInfo`] list, then
/// `greedy`. Unused slots are 0.
pub type FeatureRow = [i16; MAX_FEATURES];

/// One feature: its name in rule files and what it measures.
#[derive(Copy, Clone, Debug)]
pub struct FeatureInfo {
    /// The name rule conditions use (`outs`, `breaks_hang`): lowercase, digits and `_`.
    pub name: &'static str,
    /// What it measures, with its unit and range.
    pub about: &'static str,
}

/// The generic feature every game gets, after its own.
pub(crate) const GREEDY_FEATURE: FeatureInfo = FeatureInfo {
    name: "greedy",
    about: "1 for the action the game's greedy agent would take (canonical tie-break), else 0",
};

/// Ranks of greedy's order that are told apart; later actions share the last rank.
pub(crate) const GREEDY_RANKS: usize = 8;

/// The generic feature after `greedy`.
pub(crate) const GREEDY_RANK_FEATURE: FeatureInfo = FeatureInfo {
    name: "greedy_rank",
    about: "the order in which greedy would take the action: 0 for its choice, 1 for its choice \
            without that one, and so on; 7 for every later action",
};

/// All features of a game: its own, then `GREEDY_FEATURE` and `GREEDY_RANK_FEATURE`.
pub fn all_features(own: &'static [FeatureInfo]) -> impl Iterator<Item = &'static FeatureInfo> {
    own.iter().chain([&GREEDY_FEATURE, &GREEDY_RANK_FEATURE])
}

/// Clamps a count or measure into a feature value.
pub fn feature(value: impl TryInto<i64>) -> i16 {
    let v: i64 = value.try_into().unwrap_or(i64::MAX);
    v.clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16
}
