//! A run's `summary.csv` and `matches.csv`: per agent and per pair of agents, the figures of
//! its tally.

use crate::sim::files::csv::{csv_bytes, fmt, study_columns};
use crate::sim::files::schema::{MATCHES_HEADER, SUMMARY_HEADER};
use crate::sim::run::experiment::Experiment;
use crate::sim::stats::interval::{mean_interval, wilson};
use crate::sim::stats::tally::{Tally, LUCK_UNIT};

/// The seats agent `name` holds in every game of `exp`: the count of the agents' specs that are
/// that agent, however spelled (by `Experiment::agent_key`).
pub fn seats_of(exp: &Experiment, name: &str) -> usize {
    let key = exp.agent_key(name);
    exp.agents
        .iter()
        .filter(|a| exp.agent_key(a) == key)
        .count()
}

/// The rows of `summary.csv`: one `agent` row per agent, one `pair` row per pair of agents
/// (the paired per-deal difference of mean payouts, `agent` minus `versus`) and, in a
/// luck-corrected study, one `pair-luck-corrected` row per pair (the same of corrected payouts).
pub(crate) fn summary_rows(exp: &Experiment, t: &Tally) -> Vec<Vec<String>> {
    let study = study_columns(&exp.game, exp.variant(), exp.players());
    let mut rows = Vec::new();
    for (name, a) in t.agents.iter().zip(&t.per_agent) {
        let (wr, wlo, whi) = wilson(a.wins, a.games);
        let (m, lo, hi, sd) = mean_interval(i128::from(a.payout_sum), a.payout_sq, a.games, 1.0);
        let win_value = if a.wins > 0 {
            a.win_value_sum as f64 / a.wins as f64
        } else {
            f64::NAN
        };
        let mut row = study.clone();
        row.extend([
            "agent".into(),
            name.clone(),
            String::new(),
            seats_of(exp, name).to_string(),
            a.games.to_string(),
            a.wins.to_string(),
            a.draws.to_string(),
            fmt(wr),
            fmt(wlo),
            fmt(whi),
            fmt(m),
            fmt(lo),
            fmt(hi),
            fmt(sd),
            fmt(win_value),
            a.penalties.to_string(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
        ]);
        rows.push(row);
    }
    let plain = t.pairs.iter().map(|p| ("pair", p, 1.0));
    let corrected = (t.corrected.iter()).map(|p| ("pair-luck-corrected", p, LUCK_UNIT as f64));
    for (kind, p, unit) in plain.chain(corrected) {
        let (m, lo, hi, _) = mean_interval(p.diff_sum, p.diff_sq, p.deals, p.scale as f64 * unit);
        let mut row = study.clone();
        row.resize(SUMMARY_HEADER.len(), String::new());
        let at = |name: &str| column(&SUMMARY_HEADER, name);
        row[at("kind")] = kind.into();
        row[at("agent")] = t.agents[p.a].clone();
        row[at("versus")] = t.agents[p.b].clone();
        row[at("deals")] = p.deals.to_string();
        row[at("mean_diff")] = fmt(m);
        row[at("mean_diff_lo95")] = fmt(lo);
        row[at("mean_diff_hi95")] = fmt(hi);
        rows.push(row);
    }
    rows
}

/// The index of column `name` of `header` (a name of the header).
fn column(header: &[&str], name: &str) -> usize {
    header
        .iter()
        .position(|h| *h == name)
        .expect("a column of the header")
}

/// `summary.csv` as bytes.
pub fn summary_csv(exp: &Experiment, t: &Tally) -> Vec<u8> {
    csv_bytes(&SUMMARY_HEADER, summary_rows(exp, t))
}

/// `matches.csv` as bytes: one row per agent over its seat-matches (a match's total payout at one
/// seat; a match win is the highest total of the match, alone).
pub(crate) fn matches_csv(exp: &Experiment, t: &Tally) -> Vec<u8> {
    let study = study_columns(&exp.game, exp.variant(), exp.players());
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(MATCHES_HEADER).expect("in memory");
    for (name, m) in t.agents.iter().zip(&t.matches) {
        let (m_mean, lo, hi, sd) =
            mean_interval(i128::from(m.payout_sum), m.payout_sq, m.matches, 1.0);
        let rate = m.wins as f64 / m.matches.max(1) as f64;
        let mut row = study.clone();
        row.extend([
            name.clone(),
            seats_of(exp, name).to_string(),
            m.matches.to_string(),
            m.wins.to_string(),
            fmt(rate),
            fmt(m_mean),
            fmt(lo),
            fmt(hi),
            fmt(sd),
        ]);
        w.write_record(&row).expect("in memory");
    }
    w.into_inner().expect("in memory")
}
