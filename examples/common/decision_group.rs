//! The research probes' grouping of decisions (`examples/moves_against_search.rs`,
//! `examples/value_of_hands.rs`): a decision's group is the kinds of its legal actions.

/// The group of a decision: the kinds of its legal actions (their debug names' first word),
/// sorted and joined by `+` (a Tứ Sắc "Meld+Pass" is a claim).
pub fn group<A: std::fmt::Debug>(legal: &[A]) -> String {
    let mut kinds: Vec<String> = legal
        .iter()
        .map(|a| {
            let name = format!("{a:?}");
            name.split(['(', ' ', '{']).next().unwrap_or("").to_string()
        })
        .collect();
    kinds.sort();
    kinds.dedup();
    kinds.join("+")
}
