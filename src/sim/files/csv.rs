//! CSV cells shared by the result files: figures, and the study columns that open a row.

/// A CSV figure: six decimals, or empty when it is not finite (no deals, or one).
pub fn fmt(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        String::new()
    }
}

/// The payout unit of `game` as the CSVs write it: the unit alone, without the explanation in
/// brackets the console prints (`points`, `half-cược`); `payout units` for an unknown game.
pub(crate) fn csv_payout_unit(game: &str) -> String {
    crate::games::game_info(game).map_or_else(
        |_| "payout units".to_string(),
        |g| {
            let unit = g.payout_unit;
            unit.split(" (").next().unwrap_or(unit).trim().to_string()
        },
    )
}

/// The values of [`STUDY_HEADER`](super::schema::STUDY_HEADER) for `players` seats of `game` `variant`.
pub(crate) fn study_columns(game: &str, variant: &str, players: usize) -> Vec<String> {
    vec![
        game.to_string(),
        variant.to_string(),
        players.to_string(),
        csv_payout_unit(game),
    ]
}

/// A whole CSV file as bytes: the header, then the rows.
pub(crate) fn csv_bytes(header: &[&str], rows: Vec<Vec<String>>) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).expect("in memory");
    for row in rows {
        w.write_record(&row).expect("in memory");
    }
    w.into_inner().expect("in memory")
}
