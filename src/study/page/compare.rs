//! The comparison across runs and tournaments: one row per agent (and per pair), one column per
//! run, each cell the figure with its 95% interval.

use super::html::{esc, part, signed_est, table};
use super::section::Column;
use crate::study::plot::read::Est;

/// The agents × runs table and the pairs × runs table.
pub(crate) fn html(columns: &[&Column]) -> String {
    let heads: Vec<String> = columns
        .iter()
        .map(|c| {
            format!(
                "{}: {}, {} per game [95% interval]",
                c.name, c.measure, c.unit
            )
        })
        .collect();
    let mut agents: Vec<&str> = Vec::new();
    for c in columns {
        for (a, _) in &c.agents {
            if !agents.contains(&a.as_str()) {
                agents.push(a);
            }
        }
    }
    let rows: Vec<Vec<String>> = agents
        .iter()
        .map(|a| {
            let mut row = vec![format!("<code>{}</code>", esc(a))];
            for c in columns {
                row.push(
                    c.agents
                        .iter()
                        .find(|x| x.0 == *a)
                        .map_or(String::new(), |x| signed_est(&x.1)),
                );
            }
            row
        })
        .collect();
    let mut head: Vec<&str> = vec!["agent"];
    head.extend(heads.iter().map(String::as_str));
    let mut out = part(
        "Agents × runs",
        "Each agent's figure in each run: in a run, its mean payout per seat-game; in a \
         tournament, its rating (mean payout per game relative to the tournament's anchor); \
         each in that run's payout unit, with its 95% interval; blank where the agent did not \
         play. Runs of different games or fields are not on one scale.",
    );
    out.push_str(&table(&head, &rows));
    let pairs = pair_rows(columns);
    if !pairs.is_empty() {
        let mut head: Vec<String> = vec!["agent − versus".into()];
        head.extend(columns.iter().map(|c| {
            format!(
                "{}: mean paired difference, {} per game [95% interval]",
                c.name, c.unit
            )
        }));
        let head: Vec<&str> = head.iter().map(String::as_str).collect();
        out.push_str(&part(
            "Paired differences × runs",
            "The mean over deals of the per-deal difference of two agents' mean payouts (first \
             minus second) in each run that played both: above zero, the first did better.",
        ));
        // a tournament's every pair makes a long table: folded beyond 20 rows
        if pairs.len() > 20 {
            out.push_str(&super::html::details(
                &format!("Show the {} pairs", pairs.len()),
                &table(&head, &pairs),
            ));
        } else {
            out.push_str(&table(&head, &pairs));
        }
    }
    out
}

/// One row per pair (in the orientation first met; a run that wrote it the other way round has
/// its figure negated), one cell per run.
fn pair_rows(columns: &[&Column]) -> Vec<Vec<String>> {
    let mut keys: Vec<(&str, &str)> = Vec::new();
    for c in columns {
        for (a, v, _) in &c.pairs {
            if !keys.contains(&(a, v)) && !keys.contains(&(v, a)) {
                keys.push((a, v));
            }
        }
    }
    keys.iter()
        .map(|&(a, v)| {
            let mut row = vec![format!("<code>{}</code> − <code>{}</code>", esc(a), esc(v))];
            for c in columns {
                let cell = c.pairs.iter().find_map(|(x, y, e)| {
                    if x == a && y == v {
                        Some(*e)
                    } else if x == v && y == a {
                        Some(Est {
                            mid: -e.mid,
                            lo: -e.hi,
                            hi: -e.lo,
                        })
                    } else {
                        None
                    }
                });
                row.push(cell.map_or(String::new(), |e| signed_est(&e)));
            }
            row
        })
        .collect()
}
