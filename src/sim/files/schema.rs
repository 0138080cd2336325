//! The columns of every CSV the toolkit writes: one constant per format, imported by its writer
//! and by every reader.

use crate::text::const_eq;

/// The columns that open every row of `summary.csv`, `matches.csv` and `equity.csv`: what was
/// played and in what unit its payouts are, so that a CSV read alone says what its numbers are.
pub const STUDY_HEADER: [&str; 4] = ["game", "variant", "players", "payout_unit"];

/// The header of `summary.csv`: [`STUDY_HEADER`], then the figures. `seats` is the number of
/// seats an agent held in every game, `seat_games` the games summed over those seats (a game in
/// which an agent held two seats counts twice): win rates and mean payouts are per seat-game.
pub(crate) const SUMMARY_HEADER: [&str; 24] = [
    "game",
    "variant",
    "players",
    "payout_unit",
    "kind",
    "agent",
    "versus",
    "seats",
    "seat_games",
    "wins",
    "draws",
    "win_rate",
    "win_rate_lo95",
    "win_rate_hi95",
    "mean_payout",
    "mean_payout_lo95",
    "mean_payout_hi95",
    "sd_payout",
    "mean_win_hand_value",
    "penalties",
    "deals",
    "mean_diff",
    "mean_diff_lo95",
    "mean_diff_hi95",
];

/// The header of `matches.csv`: [`STUDY_HEADER`], then one agent's figures over its
/// seat-matches (a match played at one seat; an agent holding two seats plays two per match).
pub(crate) const MATCHES_HEADER: [&str; 13] = [
    "game",
    "variant",
    "players",
    "payout_unit",
    "agent",
    "seats",
    "seat_matches",
    "match_wins",
    "match_win_rate",
    "mean_match_payout",
    "mean_match_payout_lo95",
    "mean_match_payout_hi95",
    "sd_match_payout",
];

/// The header of `pairs.csv`.
pub(crate) const PAIRS_HEADER: [&str; 11] = [
    "game",
    "variant",
    "players",
    "payout_unit",
    "agent",
    "versus",
    "deals",
    "games",
    "mean_diff",
    "mean_diff_lo95",
    "mean_diff_hi95",
];

/// The columns a luck-corrected tournament's `pairs.csv` adds after [`PAIRS_HEADER`]'s: the
/// luck-corrected difference and its interval (docs/variance.md).
pub(crate) const CORRECTED_COLUMNS: [&str; 3] = [
    "corrected_mean_diff",
    "corrected_mean_diff_lo95",
    "corrected_mean_diff_hi95",
];

/// The columns a luck-corrected tournament's `ratings.csv` adds after [`RATINGS_HEADER`]'s: the
/// rating fitted to the luck-corrected pairs and its interval (docs/variance.md).
pub(crate) const CORRECTED_RATING_COLUMNS: [&str; 3] = [
    "corrected_rating",
    "corrected_rating_lo95",
    "corrected_rating_hi95",
];

/// The header of `ratings.csv`.
pub(crate) const RATINGS_HEADER: [&str; 11] = [
    "game",
    "variant",
    "players",
    "payout_unit",
    "rank",
    "agent",
    "rating",
    "rating_lo95",
    "rating_hi95",
    "deals",
    "games",
];

/// The header of `sprt.csv`.
pub(crate) const SPRT_HEADER: [&str; 7] = [
    "deals",
    "llr",
    "lower",
    "upper",
    "mean_diff",
    "sd_diff",
    "decision",
];

/// The header of `equity.csv`: the study columns of every result CSV ([`STUDY_HEADER`]), the
/// deciding seat, then one action's
/// figures over its samples (playouts from that seat).
pub(crate) const EQUITY_HEADER: [&str; 17] = [
    "game",
    "variant",
    "players",
    "payout_unit",
    "seat",
    "rank",
    "action",
    "samples",
    "win_rate",
    "win_rate_lo95",
    "win_rate_hi95",
    "mean_payout",
    "mean_payout_lo95",
    "mean_payout_hi95",
    "diff_vs_best",
    "diff_lo95",
    "diff_hi95",
];

/// The header of `distributions.csv` (fixed for issue 13).
pub const DISTRIBUTIONS_HEADER: [&str; 11] = [
    "game",
    "variant",
    "measure",
    "group",
    "per",
    "value",
    "count",
    "total",
    "share",
    "share_lo95",
    "share_hi95",
];

/// The header of `means.csv` (fixed for issue 13).
pub const MEANS_HEADER: [&str; 10] = [
    "game",
    "variant",
    "measure",
    "group",
    "per",
    "total",
    "mean",
    "mean_lo95",
    "mean_hi95",
    "sd",
];

/// The header of `bailab tune`'s `report.csv`: one row per candidate per round.
pub(crate) const TUNE_REPORT_HEADER: [&str; 8] = [
    "candidate",
    "params",
    "round",
    "deals",
    "mean_diff",
    "mean_diff_lo95",
    "mean_diff_hi95",
    "status",
];

/// The header of `bailab learn`'s `report.csv`: one row per rule tried, in order.
pub(crate) const LEARN_REPORT_HEADER: [&str; 9] = [
    "step",
    "rule",
    "agree_before",
    "agree_after",
    "deals",
    "gain",
    "gain_lo95",
    "gain_hi95",
    "accepted",
];

/// The header of the ISMCTS strength table `ismcts-strength.csv` (written by
/// `scripts/ismcts-strength.sh`): one row per iteration count against three greedy agents.
pub(crate) const STRENGTH_HEADER: [&str; 7] = [
    "iters",
    "deals",
    "games",
    "mean_diff",
    "mean_diff_lo95",
    "mean_diff_hi95",
    "ms_per_decision",
];

/// The header of `bailab soak --output`'s CSV: one row per table soaked.
pub(crate) const SOAK_HEADER: [&str; 14] = [
    "game",
    "variant",
    "players",
    "games",
    "decisions",
    "deep_checked",
    "faults",
    "seconds",
    "games_per_s",
    "threads",
    "seed",
    "first_deal",
    "rule_sets",
    "agents",
];

/// `names`, a reader's columns of a format, each checked at compile time to be a column of the
/// format's `header` (a reader of older files needs fewer columns than are written now).
pub(crate) const fn columns<const N: usize>(
    header: &[&str],
    names: [&'static str; N],
) -> [&'static str; N] {
    let mut i = 0;
    while i < N {
        assert!(has_column(header, names[i]), "not a column of the format");
        i += 1;
    }
    names
}

/// Whether `header` holds column `name` (at compile time).
const fn has_column(header: &[&str], name: &str) -> bool {
    let mut i = 0;
    while i < header.len() {
        if const_eq(header[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

/// The columns of `bailab train`'s `curve.csv`.
pub(crate) const CURVE_HEADER: [&str; 9] = [
    "decisions",
    "games",
    "cpu_seconds",
    "wall_seconds",
    "vs_greedy",
    "vs_greedy_lo95",
    "vs_greedy_hi95",
    "eval_deals",
    "loss",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_is_found_and_a_near_name_is_not() {
        assert!(has_column(&SUMMARY_HEADER, "mean_diff"));
        assert!(has_column(&SUMMARY_HEADER, "game"));
        assert!(!has_column(&SUMMARY_HEADER, "mean_dif"));
        assert!(!has_column(&SUMMARY_HEADER, "mean_diff_"));
        assert_eq!(columns(&PAIRS_HEADER, ["agent"]), ["agent"]);
    }
}
