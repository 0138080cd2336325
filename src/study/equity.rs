//! `bailab equity`: which action is best in a position, by seeded Monte Carlo (docs/equity.md).
//!
//! Each sample deals the hidden cards of the position once (the deciding seat's
//! determinization, seeded by the sample index) and plays EVERY legal action out on that same
//! deal with the same agents' random streams (common random numbers), so actions are compared
//! in pairs. Sums are kept exactly in integers, so the result does not depend on how samples
//! are split among threads; the stopping rule is checked only at fixed sample counts, so the
//! stop is the same for any thread count too.

use crate::agent::{take_fault, Agent};
use crate::deal_spec::DealPlan;
use crate::game::{ActionBuffer, GameId, GameState, RuleMap, Seat};
use crate::games::kind::GameKind;
use crate::games::position::Position;
use crate::generic_agents::catalogue::{make_agent_with, Setting};
use crate::sim::deal::seeds::{agent_rngs, deal_rng, Opening};
use crate::sim::deal::turns::play_out;
use crate::sim::files::schema::EQUITY_HEADER;
use crate::sim::stats::interval::{mean_interval, wilson};
use rayon::prelude::*;

/// Samples one worker plays between progress updates (the parallel grain).
const CHUNK: u64 = 8;

/// How an equity estimate is run.
#[derive(Clone, Debug)]
pub(crate) struct EquityOptions {
    /// One agent spec per seat: who plays every decision after the first action.
    pub agents: Vec<String>,
    /// The most samples (determinizations) to play.
    pub budget: u64,
    /// The stopping rule is checked after every `check_every` samples.
    pub(crate) check_every: u64,
    /// Master seed: sample `i` deals from stream `(seed, i, 0)`, its agents from `(seed, i, 1+s)`.
    pub seed: u64,
    /// Worker threads (the result does not depend on it).
    pub threads: usize,
    /// The variant and rule options in force (the game's own), for agents that build the game
    /// (`exec`).
    pub table: (String, RuleMap),
}

/// Why the estimate stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The best action's paired interval against every other action is above zero.
    Separated,
    /// The sample budget was reached first.
    Budget,
    /// Only one action is legal: there is nothing to separate.
    SingleAction,
}

impl Stop {
    /// The identifier written in `equity.json`.
    pub fn id(self) -> &'static str {
        match self {
            Stop::Separated => "separated",
            Stop::Budget => "budget",
            Stop::SingleAction => "single_action",
        }
    }
}

/// Exact running sums over samples for `k` actions: wins, payouts, squares and cross products
/// (for the paired differences of any two actions).
#[derive(Clone, Debug, PartialEq)]
pub struct Sums {
    /// Number of actions.
    pub k: usize,
    /// Samples added.
    pub n: u64,
    /// Samples skipped: specified deals that ended before the decision.
    pub skipped: u64,
    /// Wins of the seat per action.
    pub wins: Vec<u64>,
    /// Σ payout per action.
    pub sum: Vec<i128>,
    /// Σ payout² per action.
    pub(crate) sq: Vec<i128>,
    /// Σ payoutᵢ · payoutⱼ, row-major `k × k`.
    pub cross: Vec<i128>,
}

impl Sums {
    /// Empty sums for `k` actions.
    pub fn new(k: usize) -> Sums {
        Sums {
            k,
            n: 0,
            skipped: 0,
            wins: vec![0; k],
            sum: vec![0; k],
            sq: vec![0; k],
            cross: vec![0; k * k],
        }
    }

    /// Adds one sample: the seat's payout and whether it won, per action.
    pub fn add(&mut self, payouts: &[i64], wins: &[bool]) {
        self.n += 1;
        for i in 0..self.k {
            let x = i128::from(payouts[i]);
            self.wins[i] += u64::from(wins[i]);
            self.sum[i] += x;
            self.sq[i] += x * x;
            let row = &mut self.cross[i * self.k..(i + 1) * self.k];
            for (c, &y) in row.iter_mut().zip(&payouts[..self.k]) {
                *c += x * i128::from(y);
            }
        }
    }

    /// Adds the samples of `other`.
    pub fn merge(mut self, other: Sums) -> Sums {
        self.n += other.n;
        self.skipped += other.skipped;
        for i in 0..self.k {
            self.wins[i] += other.wins[i];
            self.sum[i] += other.sum[i];
            self.sq[i] += other.sq[i];
        }
        for (a, b) in self.cross.iter_mut().zip(&other.cross) {
            *a += b;
        }
        self
    }

    /// Mean payout of action `i`.
    pub fn mean(&self, i: usize) -> f64 {
        self.sum[i] as f64 / self.n as f64
    }

    /// Exact sums of the paired difference `i − j`: `(Σd, Σd²)`.
    pub(crate) fn diff_sums(&self, i: usize, j: usize) -> (i128, i128) {
        let k = self.k;
        (
            self.sum[i] - self.sum[j],
            self.sq[i] - 2 * self.cross[i * k + j] + self.sq[j],
        )
    }

    /// The action with the highest mean payout (the first in the legal order on a tie).
    pub fn best(&self) -> usize {
        (0..self.k).fold(0, |b, i| if self.sum[i] > self.sum[b] { i } else { b })
    }

    /// True when the best action's paired 95% interval against every other action is above
    /// zero; an action that has paid exactly as the best on every sample so far (the same play
    /// in effect) is not counted against it.
    pub(crate) fn separated(&self) -> bool {
        let b = self.best();
        (0..self.k).filter(|&j| j != b).all(|j| {
            let (d, d2) = self.diff_sums(b, j);
            (d == 0 && d2 == 0) || mean_interval(d, d2, self.n, 1.0).1 > 0.0
        })
    }
}

/// One action's estimate, as a row of `equity.csv`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ActionRow {
    /// 1 = best mean payout.
    pub rank: usize,
    /// The action, in the game's notation.
    pub action: String,
    /// Samples played.
    pub samples: u64,
    /// Share of samples the seat won.
    pub(crate) win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub(crate) win_rate_lo95: f64,
    /// Upper end.
    pub(crate) win_rate_hi95: f64,
    /// Mean payout of the seat.
    pub(crate) mean_payout: f64,
    /// Student-t 95% interval of the mean payout.
    pub(crate) mean_payout_lo95: f64,
    /// Upper end.
    pub(crate) mean_payout_hi95: f64,
    /// Paired mean difference of this action minus the best.
    pub(crate) diff_vs_best: f64,
    /// Its 95% interval.
    pub(crate) diff_lo95: f64,
    /// Upper end.
    pub(crate) diff_hi95: f64,
}

/// The stopping rule at one checkpoint.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Checkpoint {
    /// Samples played.
    pub samples: u64,
    /// The best action then.
    pub best: String,
    /// Whether it was separated from every other action.
    pub(crate) separated: bool,
}

/// The result of an equity estimate.
#[derive(Clone, Debug)]
pub struct EquityReport {
    /// The deciding seat.
    pub seat: Seat,
    /// The actions, ranked by mean payout.
    pub rows: Vec<ActionRow>,
    /// Samples played (the same for every action).
    pub samples: u64,
    /// Specified deals skipped because they ended before the decision.
    pub skipped: u64,
    /// Why it stopped.
    pub stop: Stop,
    /// The stopping rule at each checkpoint.
    pub(crate) checkpoints: Vec<Checkpoint>,
}

/// Something told of progress: samples played so far out of the budget.
pub trait Progress: Sync {
    /// `n` more samples were played.
    fn advance(&self, n: u64);
}

impl Progress for () {
    fn advance(&self, _n: u64) {}
}

/// Where each sample's full state comes from.
#[derive(Clone, Debug)]
pub enum Source<G: GameKind> {
    /// A position file: the deciding seat's determinization of its view, every sample.
    View(Position<G::State>),
    /// A deal specification (docs/deals-spec.md): the fixed cards where it puts them, the rest
    /// dealt at random per sample; the decision is the game's first. Samples whose deal ends
    /// before it (a natural win of a random hand) are skipped: the estimate is conditional on
    /// the decision being reached.
    Deal {
        /// The game.
        game: G,
        /// The checked specification.
        plan: DealPlan,
    },
}

impl<G: GameKind> Source<G> {
    /// The full state of sample `index`.
    fn sample(&self, seed: u64, index: u64) -> G::State {
        match self {
            Source::View(pos) => pos.deal(&mut deal_rng(seed, index, 0)),
            Source::Deal { game, plan } => Opening::Plan(plan).deal(game, seed, index),
        }
    }

    /// The decision every sample must present: the seat and one state of it. A deal
    /// specification's is that of its first sample that reaches a decision.
    fn reference(&self, seed: u64, budget: u64) -> anyhow::Result<(Seat, G::State)> {
        match self {
            Source::View(pos) => {
                anyhow::ensure!(
                    pos.state.to_move() == Some(pos.seat),
                    "the position is not seat {}'s decision",
                    pos.seat
                );
                Ok((pos.seat, pos.state.clone()))
            }
            Source::Deal { .. } => (0..budget)
                .find_map(|i| {
                    let s = self.sample(seed, i);
                    s.to_move().map(|seat| (seat, s))
                })
                .ok_or_else(|| {
                    anyhow::anyhow!("every one of the {budget} deals ends before any decision")
                }),
        }
    }
}

/// Estimates every legal action of the seat to move in `source`'s decision (see the module
/// docs).
pub(crate) fn estimate<G: GameKind>(
    source: &Source<G>,
    opts: &EquityOptions,
    progress: &dyn Progress,
) -> anyhow::Result<EquityReport> {
    make_agents::<G>(opts)?;
    let (seat, reference) = source.reference(opts.seed, opts.budget)?;
    let mut legal = <G::State as GameState>::Actions::default();
    reference.legal_actions(&mut legal);
    let legal: Vec<_> = legal.as_slice().to_vec();
    anyhow::ensure!(!legal.is_empty(), "seat {seat} has no legal action");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()?;
    let k = legal.len();
    // states are `Send` but not required to be `Sync`: each chunk takes its own copy
    let shared = std::sync::Mutex::new((source.clone(), legal.clone()));
    let decision = Decision { seat, k };
    let mut sums = Sums::new(k);
    let mut next = 0;
    let mut checkpoints = Vec::new();
    let stop = loop {
        let end = (next + opts.check_every).min(opts.budget);
        let block =
            pool.install(|| play_block::<G>(&shared, decision, opts, next, end, progress))?;
        next = end;
        sums = sums.merge(block);
        let separated = sums.n >= 2 && sums.separated();
        checkpoints.push(Checkpoint {
            samples: sums.n,
            best: legal[sums.best()].to_string(),
            separated,
        });
        if legal.len() == 1 {
            break Stop::SingleAction;
        }
        if separated {
            break Stop::Separated;
        }
        if next >= opts.budget {
            break Stop::Budget;
        }
    };
    anyhow::ensure!(
        sums.n > 0,
        "none of the {next} deals reached seat {seat}'s decision"
    );
    let names: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    Ok(EquityReport {
        seat,
        rows: rows(&sums, &names),
        samples: sums.n,
        skipped: sums.skipped,
        stop,
        checkpoints,
    })
}

/// The decision being estimated: the deciding seat and its number of legal actions.
#[derive(Copy, Clone, Debug)]
struct Decision {
    seat: Seat,
    k: usize,
}

/// Plays samples `start..end` in parallel chunks and adds them up (integer sums: the order does
/// not matter).
#[allow(clippy::type_complexity)]
fn play_block<G: GameKind>(
    shared: &std::sync::Mutex<(Source<G>, Vec<<G::State as GameState>::Action>)>,
    decision: Decision,
    opts: &EquityOptions,
    start: u64,
    end: u64,
    progress: &dyn Progress,
) -> anyhow::Result<Sums> {
    let chunks = (end - start).div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let (source, legal) = shared.lock().expect("never poisoned").clone();
            let (source, legal) = (&source, legal.as_slice());
            let k = decision.k;
            let from = start + c * CHUNK;
            let to = (from + CHUNK).min(end);
            let mut agents = make_agents::<G>(opts)?;
            let mut sums = Sums::new(k);
            let mut payouts = vec![0i64; k];
            let mut wins = vec![false; k];
            for i in from..to {
                let sample = Sample {
                    seed: opts.seed,
                    index: i,
                    seat: decision.seat,
                };
                let played =
                    play_sample::<G>(source, legal, &mut agents, sample, &mut payouts, &mut wins);
                if let Some(fault) = take_fault(&mut agents) {
                    anyhow::bail!("sample {i}: {fault}");
                }
                match played {
                    Ok(true) => sums.add(&payouts, &wins),
                    Ok(false) => sums.skipped += 1,
                    Err(e) => return Err(e.into()),
                }
            }
            progress.advance(to - from);
            Ok(sums)
        })
        .try_reduce(|| Sums::new(decision.k), |a, b| Ok(a.merge(b)))
}

/// The agents of every seat, built for the game played (its rules, one seat per spec).
fn make_agents<G: GameKind>(opts: &EquityOptions) -> anyhow::Result<Vec<Box<dyn Agent<G::State>>>> {
    let (variant, rules) = &opts.table;
    let setting = Setting {
        variant: Some(variant),
        table: Some((rules, opts.agents.len())),
        ..Setting::default()
    };
    opts.agents
        .iter()
        .map(|s| Ok(make_agent_with::<G>(s, setting)?))
        .collect()
}

/// Which sample is played, and for which seat.
#[derive(Copy, Clone, Debug)]
struct Sample {
    seed: u64,
    index: u64,
    seat: Seat,
}

/// A specified deal that presents another decision than the first deal's: another seat to
/// move, or other legal actions.
#[derive(Debug, thiserror::Error)]
#[error(
    "deal {index} presents another decision ({}): equity needs the deciding seat's view fixed, \
     so give its whole hand in the deal specification",
    match to_move {
        Some(s) if s != seat => format!("seat {s} is to move, not seat {seat}"),
        _ => format!("seat {seat}'s legal actions differ from the first deal's"),
    }
)]
pub struct OtherDecision {
    /// The deal's index.
    index: u64,
    /// The deciding seat of the first deal.
    seat: Seat,
    /// The seat to move in this deal.
    to_move: Option<Seat>,
}

/// One sample: one deal of the hidden cards, every action played out on it with the same
/// agents' streams. Writes the seat's payout and win per action. Allocation-free. `Ok(false)`
/// when a specified deal ends before the decision (skipped); an error when it presents another
/// decision (the specification leaves the deciding seat's view open).
fn play_sample<G: GameKind>(
    source: &Source<G>,
    legal: &[<G::State as GameState>::Action],
    agents: &mut [Box<dyn Agent<G::State>>],
    sample: Sample,
    payouts: &mut [i64],
    wins: &mut [bool],
) -> Result<bool, OtherDecision> {
    let Sample { seed, index, seat } = sample;
    let base = source.sample(seed, index);
    if base.to_move().is_none() {
        assert!(
            matches!(source, Source::Deal { .. }),
            "a determinization ended the game (a bug in the game's position)"
        );
        return Ok(false);
    }
    let mut check = <G::State as GameState>::Actions::default();
    base.legal_actions(&mut check);
    if base.to_move() != Some(seat) || check.as_slice() != legal {
        assert!(
            matches!(source, Source::Deal { .. }),
            "a determinization changed the seat's legal actions (a bug in the game's position)"
        );
        return Err(OtherDecision {
            index,
            seat,
            to_move: base.to_move(),
        });
    }
    let seat_agent: [usize; crate::MAX_SEATS] = std::array::from_fn(|s| s % agents.len());
    let id = GameId {
        master: seed,
        deal: index,
        rotation: 0,
    };
    for (i, &action) in legal.iter().enumerate() {
        let mut s = base.clone();
        s.apply(action);
        let mut rngs = agent_rngs(id);
        let o = play_out(&mut s, agents, &seat_agent, &mut rngs, |_| {});
        payouts[i] = o.payouts[seat as usize];
        wins[i] = o.winner == Some(seat);
    }
    Ok(true)
}

/// The ranked rows of `equity.csv`.
pub fn rows(sums: &Sums, names: &[String]) -> Vec<ActionRow> {
    let mut order: Vec<usize> = (0..sums.k).collect();
    // by mean payout (exact sums), then win rate, then the legal order
    order.sort_by(|&a, &b| (sums.sum[b], sums.wins[b], a).cmp(&(sums.sum[a], sums.wins[a], b)));
    let best = order[0];
    order
        .iter()
        .enumerate()
        .map(|(r, &i)| {
            let (w, wlo, whi) = wilson(sums.wins[i], sums.n);
            let (m, mlo, mhi, _) = mean_interval(sums.sum[i], sums.sq[i], sums.n, 1.0);
            let (d, dlo, dhi) = if i == best {
                (0.0, 0.0, 0.0)
            } else {
                let (ds, d2) = sums.diff_sums(i, best);
                let (d, lo, hi, _) = mean_interval(ds, d2, sums.n, 1.0);
                (d, lo, hi)
            };
            ActionRow {
                rank: r + 1,
                action: names[i].clone(),
                samples: sums.n,
                win_rate: w,
                win_rate_lo95: wlo,
                win_rate_hi95: whi,
                mean_payout: m,
                mean_payout_lo95: mlo,
                mean_payout_hi95: mhi,
                diff_vs_best: d,
                diff_lo95: dlo,
                diff_hi95: dhi,
            }
        })
        .collect()
}

/// What `equity.csv` says of its study on every row: the game, variant, players and the
/// deciding seat.
#[derive(Clone, Debug)]
pub struct CsvStudy<'a> {
    /// The game's name.
    pub game: &'a str,
    /// The variant.
    pub variant: &'a str,
    /// The number of players.
    pub players: usize,
    /// The deciding seat.
    pub seat: Seat,
}

/// A number for the CSV: six decimals, empty when undefined (e.g. an interval of one sample).
fn num(x: f64) -> String {
    if x.is_finite() {
        // -0.000000 reads oddly in a spreadsheet
        let s = format!("{x:.6}");
        if s == "-0.000000" {
            "0.000000".into()
        } else {
            s
        }
    } else {
        String::new()
    }
}

/// `equity.csv`: one row per action, ranked.
pub fn csv(study: &CsvStudy<'_>, rows: &[ActionRow]) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(EQUITY_HEADER)?;
    let mut first = crate::sim::files::csv::study_columns(study.game, study.variant, study.players);
    first.push(study.seat.to_string());
    for r in rows {
        let mut row = first.clone();
        row.extend([
            r.rank.to_string(),
            r.action.clone(),
            r.samples.to_string(),
            num(r.win_rate),
            num(r.win_rate_lo95),
            num(r.win_rate_hi95),
            num(r.mean_payout),
            num(r.mean_payout_lo95),
            num(r.mean_payout_hi95),
            num(r.diff_vs_best),
            num(r.diff_lo95),
            num(r.diff_hi95),
        ]);
        w.write_record(&row)?;
    }
    Ok(w.into_inner()?)
}

/// The readable ranked table printed by the command.
pub fn table(report: &EquityReport, unit: &str) -> String {
    let width = report
        .rows
        .iter()
        .map(|r| r.action.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut out = format!(
        "{:>4}  {:<width$}  {:>22}  {:>26}  {:>26}\n",
        "rank", "action", "win rate [95%]", "mean payout [95%]", "minus best [95%]"
    );
    for r in &report.rows {
        let diff = if r.rank == 1 {
            "best".to_string()
        } else {
            format!(
                "{:+.3} [{:+.3}, {:+.3}]",
                r.diff_vs_best, r.diff_lo95, r.diff_hi95
            )
        };
        out += &format!(
            "{:>4}  {:<width$}  {:>22}  {:>26}  {:>26}\n",
            r.rank,
            r.action,
            format!(
                "{:.3} [{:.3}, {:.3}]",
                r.win_rate, r.win_rate_lo95, r.win_rate_hi95
            ),
            format!(
                "{:+.3} [{:+.3}, {:+.3}]",
                r.mean_payout, r.mean_payout_lo95, r.mean_payout_hi95
            ),
            diff
        );
    }
    let skipped = match report.skipped {
        0 => String::new(),
        n => format!(" ({n} deals ended before the decision and were skipped)"),
    };
    out += &format!(
        "seat {}, {} samples per action{skipped}, stopped: {}; payouts in {unit}\n",
        report.seat,
        report.samples,
        match report.stop {
            Stop::Separated => "the best action is separated from every other",
            Stop::Budget => "the sample budget was reached",
            Stop::SingleAction => "only one action is legal",
        }
    );
    out
}
