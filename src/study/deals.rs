//! `bailab deals`: exact-count distributions of what a game deals (`docs/deals.md`).
//!
//! Deal `i` under seed `S` is deal `i` of a run (and of `bailab play --seed S --index i`):
//! [`seeded_deal`]`(game, S, i)`. Deals are
//! counted in fixed chunks in parallel; each chunk fills its own count arrays (one count per
//! value of each measure, nothing allocated per deal) and the chunks are summed, so the counts
//! are the same for any number of threads.

use crate::game::MAX_SEATS;
use crate::games::kind::{GameKind, MeasureInfo, Per, NOT_APPLICABLE, NOT_MEASURED};
use crate::sim::deal::seeds::seeded_deal;
use crate::sim::files::guard::Outputs;
use crate::sim::files::schema::{DISTRIBUTIONS_HEADER, MEANS_HEADER};
use crate::sim::stats::interval::{mean_interval, wilson};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::IsTerminal;

/// Deals per chunk: the unit of parallel work and of progress.
pub(crate) const CHUNK: u64 = 1 << 14;

/// The most measures a game may declare.
pub(crate) const MAX_MEASURES: usize = 40;

/// The counts of every value of every measure over some deals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealCounts {
    /// Deals counted.
    pub deals: u64,
    /// Per measure, the count of each value `0..=max`.
    pub counts: Vec<Vec<u64>>,
    /// Per measure, the deals in which it did not apply to the variant ([`NOT_APPLICABLE`]).
    pub(crate) not_applicable: Vec<u64>,
}

impl DealCounts {
    /// Zero counts for these measures.
    pub fn new(measures: &[MeasureInfo]) -> DealCounts {
        DealCounts {
            deals: 0,
            counts: measures
                .iter()
                .map(|m| vec![0; m.max as usize + 1])
                .collect(),
            not_applicable: vec![0; measures.len()],
        }
    }

    /// Whether measure `i` applies to the variant: some deal (if any was counted) took it.
    pub fn applies(&self, i: usize) -> bool {
        self.deals == 0 || self.not_applicable[i] < self.deals
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &DealCounts) {
        self.deals += other.deals;
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        for (a, b) in self.not_applicable.iter_mut().zip(&other.not_applicable) {
            *a += b;
        }
    }

    /// Counts one deal's measured rows (`seats` slots of each per-hand row).
    fn add(&mut self, measures: &[MeasureInfo], rows: &[[i32; MAX_SEATS]], seats: usize) {
        self.deals += 1;
        let rows = measures.iter().zip(rows).zip(&mut self.counts);
        for (((m, row), counts), na) in rows.zip(&mut self.not_applicable) {
            let slots = if m.per == Per::Hand { seats } else { 1 };
            if row[..slots].iter().all(|&v| v == NOT_APPLICABLE) {
                *na += 1;
                continue;
            }
            for &v in &row[..slots] {
                if v == NOT_MEASURED || v == NOT_APPLICABLE {
                    continue;
                }
                match counts.get_mut(v as usize).filter(|_| v >= 0) {
                    Some(c) => *c += 1,
                    None => panic!("measure {} = {v} is outside 0..={}", m.name, m.max),
                }
            }
        }
    }
}

/// What to deal.
#[derive(Clone, Debug)]
pub struct DealPlan {
    /// Master seed.
    pub seed: u64,
    /// Number of deals (deal indices `0..deals`).
    pub deals: u64,
    /// Worker threads.
    pub threads: usize,
    /// Hide the progress bar.
    pub quiet: bool,
}

/// The most deals one `bailab deals` counts (`--deals`): about a week on a 32-core machine.
pub const MAX_DEALS: u64 = 1_000_000_000_000;

/// Deals `plan.deals` games of `game` and counts every measure of `G::DEAL_MEASURES`.
pub(crate) fn count_deals<G: GameKind>(game: &G, plan: &DealPlan) -> anyhow::Result<DealCounts> {
    let measures = G::DEAL_MEASURES;
    anyhow::ensure!(
        !measures.is_empty() && measures.len() <= MAX_MEASURES,
        "{} declares {} deal measures (1 to {MAX_MEASURES} supported)",
        G::INFO.name,
        measures.len()
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()?;
    let chunks = plan.deals.div_ceil(CHUNK);
    let bar = progress_bar(plan.deals, plan.quiet);
    // Chunks are added up as they finish: memory does not grow with the deals.
    let total = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(plan.deals));
                let part = count_chunk(game, plan.seed, start..end);
                if let Some(b) = &bar {
                    b.inc(end - start);
                }
                part
            })
            .reduce(
                || DealCounts::new(measures),
                |mut total, part| {
                    total.merge(&part);
                    total
                },
            )
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(total)
}

/// Counts the deals `range` under `seed`: one count array per measure, no allocation per deal.
pub fn count_chunk<G: GameKind>(game: &G, seed: u64, range: std::ops::Range<u64>) -> DealCounts {
    let measures = G::DEAL_MEASURES;
    let seats = game.seats();
    let mut counts = DealCounts::new(measures);
    let mut rows = [[NOT_MEASURED; MAX_SEATS]; MAX_MEASURES];
    for deal in range {
        let state = seeded_deal(game, seed, deal);
        let rows = &mut rows[..measures.len()];
        rows.iter_mut().for_each(|r| *r = [NOT_MEASURED; MAX_SEATS]);
        G::measure_deal(&state, rows);
        counts.add(measures, rows, seats);
    }
    counts
}

fn progress_bar(total: u64, quiet: bool) -> Option<indicatif::ProgressBar> {
    if quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:40} {human_pos}/{human_len} deals  {per_sec}  eta {eta}",
    )
    .expect("valid template");
    bar.set_style(style);
    Some(bar)
}

/// One distribution: the count of each integer value of a measure within a group.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Distribution {
    /// The measure's name.
    pub measure: String,
    /// The group (empty for dealt hands; an agent spec when read from a run).
    pub group: String,
    /// `hand` or `deal`.
    pub per: &'static str,
    /// Count per value (values never observed inside the observed range are written as 0).
    pub counts: BTreeMap<i64, u64>,
}

impl Distribution {
    /// Observations.
    pub fn total(&self) -> u64 {
        self.counts.values().sum()
    }

    /// Mean, its Student-t 95% interval and the standard deviation: `(mean, lo, hi, sd)`.
    pub fn mean(&self) -> (f64, f64, f64, f64) {
        let (mut sum, mut sq) = (0i128, 0i128);
        for (&v, &c) in &self.counts {
            sum += i128::from(v) * i128::from(c);
            sq += i128::from(v) * i128::from(v) * i128::from(c);
        }
        mean_interval(sum, sq, self.total(), 1.0)
    }

    /// The `(value, count)` pairs from the smallest to the largest observed value, zeros between.
    pub fn rows(&self) -> Vec<(i64, u64)> {
        let (Some((&lo, _)), Some((&hi, _))) = (
            self.counts.iter().find(|(_, &c)| c > 0),
            self.counts.iter().rev().find(|(_, &c)| c > 0),
        ) else {
            return Vec::new();
        };
        (lo..=hi)
            .map(|v| (v, self.counts.get(&v).copied().unwrap_or(0)))
            .collect()
    }
}

/// The measures that apply to the variant counted (see [`DealCounts::applies`]), in order.
pub(crate) fn applicable<'a>(
    measures: &'a [MeasureInfo],
    counts: &'a DealCounts,
) -> impl Iterator<Item = (&'a MeasureInfo, &'a Vec<u64>)> + 'a {
    measures
        .iter()
        .zip(&counts.counts)
        .enumerate()
        .filter(|(i, _)| counts.applies(*i))
        .map(|(_, mc)| mc)
}

/// The distributions of dealt-hand counts (group empty), of the measures that apply.
pub fn distributions(measures: &[MeasureInfo], counts: &DealCounts) -> Vec<Distribution> {
    applicable(measures, counts)
        .map(|(m, c)| Distribution {
            measure: m.name.to_string(),
            group: String::new(),
            per: m.per.name(),
            counts: c.iter().enumerate().map(|(v, &n)| (v as i64, n)).collect(),
        })
        .collect()
}

/// A number as a plain decimal with at least 7 significant digits (empty when undefined).
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return String::new();
    }
    let magnitude = if x == 0.0 {
        0
    } else {
        x.abs().log10().floor() as i32
    };
    let decimals = (6 - magnitude).clamp(6, 15) as usize;
    format!("{x:.decimals$}")
}

/// Writes one row of `distributions.csv` or `means.csv`: the fields both start with (game,
/// variant, measure, group, per), then the file's own.
fn write_row(
    w: &mut csv::Writer<Vec<u8>>,
    game: &str,
    variant: &str,
    d: &Distribution,
    own: &[&str],
) {
    let key = [game, variant, &d.measure, &d.group, d.per];
    w.write_record(key.iter().chain(own)).expect("in memory");
}

/// The `distributions.csv` text of `dists` for a game and variant.
pub(crate) fn distributions_csv(game: &str, variant: &str, dists: &[Distribution]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(DISTRIBUTIONS_HEADER).expect("in memory");
    for d in dists {
        let total = d.total();
        for (v, c) in d.rows() {
            let (share, lo, hi) = wilson(c, total);
            write_row(
                &mut w,
                game,
                variant,
                d,
                &[
                    &v.to_string(),
                    &c.to_string(),
                    &total.to_string(),
                    &num(share),
                    &num(lo),
                    &num(hi),
                ],
            );
        }
    }
    w.into_inner().expect("in memory")
}

/// The `means.csv` text of `dists` for a game and variant.
pub(crate) fn means_csv(game: &str, variant: &str, dists: &[Distribution]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(MEANS_HEADER).expect("in memory");
    for d in dists {
        let (mean, lo, hi, sd) = d.mean();
        write_row(
            &mut w,
            game,
            variant,
            d,
            &[
                &d.total().to_string(),
                &num(mean),
                &num(lo),
                &num(hi),
                &num(sd),
            ],
        );
    }
    w.into_inner().expect("in memory")
}

/// The files `deals` writes into its output folder.
pub(crate) const OUTPUT_FILES: [&str; 4] =
    ["distributions.csv", "means.csv", "meta.json", "run.json"];

/// Writes `distributions.csv`, `means.csv`, `meta.json` (what was counted: the command, seed,
/// deals; committed with the results) and `run.json` (this run's volatile figures: threads,
/// seconds, deals/s; ignored by git) through the guard of the output folder: all of them or
/// none, so a failure leaves the earlier files as they were.
pub(crate) fn write_outputs(
    out: Outputs,
    game: &str,
    variant: &str,
    dists: &[Distribution],
    meta: &serde_json::Value,
    run: &serde_json::Value,
) -> anyhow::Result<()> {
    let files: [(&str, Vec<u8>); 4] = [
        (OUTPUT_FILES[0], distributions_csv(game, variant, dists)),
        (OUTPUT_FILES[1], means_csv(game, variant, dists)),
        (OUTPUT_FILES[2], serde_json::to_vec_pretty(meta)?),
        (OUTPUT_FILES[3], serde_json::to_vec_pretty(run)?),
    ];
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, &b[..])).collect();
    out.write(&refs)
}

/// The readable summary: one line per distribution with its mean and, for a yes/no measure, the
/// share of yes with its Wilson interval.
pub fn summary(dists: &[Distribution]) -> String {
    let mut out = format!(
        "{:<28} {:<22} {:<5} {:>12}  {:<34} {}\n",
        "measure", "group", "per", "total", "mean [95%]", "P(1) [Wilson 95%]"
    );
    for d in dists {
        let (mean, lo, hi, _) = d.mean();
        let yes_no = d.counts.keys().all(|&v| v == 0 || v == 1);
        let share = if yes_no {
            let (p, l, h) = wilson(d.counts.get(&1).copied().unwrap_or(0), d.total());
            format!("{} [{}, {}]", short(p), short(l), short(h))
        } else {
            String::new()
        };
        out += &format!(
            "{:<28} {:<22} {:<5} {:>12}  {:<34} {share}\n",
            d.measure,
            d.group,
            d.per,
            d.total(),
            format!("{} [{}, {}]", short(mean), short(lo), short(hi)),
        );
    }
    out
}

/// A number with 4 significant digits for the console.
fn short(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    if x != 0.0 && x.abs() < 1e-3 {
        return format!("{x:.3e}");
    }
    let magnitude = if x == 0.0 {
        0
    } else {
        x.abs().log10().floor() as i32
    };
    format!("{x:.*}", (3 - magnitude).clamp(0, 6) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_fill_gaps_and_trim_ends() {
        let d = Distribution {
            counts: [(0, 0), (1, 3), (2, 0), (3, 1), (4, 0)]
                .into_iter()
                .collect(),
            ..Default::default()
        };
        assert_eq!(d.rows(), vec![(1, 3), (2, 0), (3, 1)]);
        assert_eq!(d.total(), 4);
        let (m, _, _, _) = d.mean();
        assert!((m - 1.5).abs() < 1e-12);
    }

    #[test]
    fn num_keeps_small_shares_readable() {
        assert_eq!(num(0.5), "0.5000000");
        assert_eq!(num(7.28), "7.280000");
        assert_eq!(num(2.5e-8), "0.00000002500000");
        assert_eq!(num(f64::NAN), "");
    }
}
