//! The columns of every CSV the toolkit writes: one constant per format, imported by its writer
//! and by every reader.

/// The columns that open every row of `summary.csv`, `matches.csv` and `equity.csv`: what was
/// played and in what unit its payouts are, so that a CSV read alone says what its numbers are.
pub const STUDY_HEADER: [&str; 4] = ["game", "variant", "players", "payout_unit"];

/// The header of `summary.csv`: [`STUDY_HEADER`], then the figures. `seats` is the number of
/// seats an agent held in every game, `seat_games` the games summed over those seats (a game in
/// which an agent held two seats counts twice): win rates and mean payouts are per seat-game.
pub const SUMMARY_HEADER: [&str; 24] = [
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
pub const MATCHES_HEADER: [&str; 13] = [
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
pub const PAIRS_HEADER: [&str; 11] = [
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

/// The header of `ratings.csv`.
pub const RATINGS_HEADER: [&str; 11] = [
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
