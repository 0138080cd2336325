//! Tuning a game's `greedy` weights ([`Features::GREEDY_WEIGHTS`](crate::games::kind::Features::GREEDY_WEIGHTS)) by play: random search
//! around the defaults, raced with successive halving on common random numbers.
//!
//! - **Candidates:** candidate 0 is the default weights (greedy's rule, the reference); then the
//!   start of the search (`--start`, if not the default) and any candidates given
//!   (`--include`); then N sampled ones (seeded), each changing one to three weights of the
//!   start: half of the changes draw a value anywhere in the weight's range, half move it from
//!   the start's value by up to a quarter of the range.
//! - **Common random numbers:** every candidate plays the same training deals (deal
//!   `TUNE_DEALS_FROM + i` of the seed, apart from the deals of evaluation runs), each in every
//!   rotation, in one seat against the same opponent field; its per-deal payout sum is paired
//!   with the default's on the same deals.
//! - **Racing:** round 0 plays `deals` deals; each later round doubles the deals (the earlier
//!   ones are kept, only the new ones are played). After each round the other candidates are
//!   ranked by their paired mean gain over the default; the better half is kept, and any whose
//!   95% interval lies wholly below the best candidate's is dropped too. The default stays as
//!   the reference until one other is left; the better of that pair is the best (`race`).
//!
//! Deterministic for any thread count: each deal's games depend on the seed and the deal only,
//! and results are collected in deal order.

use crate::agent::greedy::{Weight, Weights};
use crate::agent::spec::AgentSpec;
use crate::agent::{take_fault, Agent, AgentError};
use crate::games::kind::{GameError, GameKind};
use crate::generic_agents::catalogue::{lookup, make_agent_with, Setting};
use crate::learn::selfplay::Gain;
use crate::learn::Progress;
use crate::rng::{stream_rng, GameRng};
use crate::sim::deal::{DealLoop, Seating};
use rand::Rng;
use rayon::prelude::*;

/// Tuning deal `i` is deal `TUNE_DEALS_FROM + i` of the seed, clear of evaluation deals.
pub(crate) const TUNE_DEALS_FROM: u64 = 1 << 40;

/// The RNG stream candidates are sampled from.
const SAMPLE_STREAM: u64 = 0x7475_6e65; // "tune"

/// The most candidates (besides the default).
pub(crate) const MAX_CANDIDATES: usize = 10_000;

/// What to tune and how.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The variant.
    pub variant: String,
    /// Seats at the table.
    pub players: usize,
    /// The opponents' specs, one per other seat (in seat order after the candidate's).
    pub opponents: Vec<String>,
    /// Sampled candidates besides the default.
    pub candidates: usize,
    /// Deals of the first round (each later round doubles them).
    pub deals: u64,
    /// The master seed of the deals and of the sampling.
    pub seed: u64,
    /// Candidates given besides the sampled ones: each a weight file path or
    /// `name=value,...` (the rest at their defaults).
    pub(crate) include: Vec<String>,
    /// Where the search is centred (a path or `name=value,...`; default: the defaults). It is
    /// a candidate itself; the default stays the reference.
    pub start: Option<String>,
}

/// How a candidate left a round.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Goes on to the next round.
    Kept,
    /// Raced out.
    Dropped,
    /// The last one left.
    Best,
}

impl Status {
    /// The word in `report.csv`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Kept => "kept",
            Status::Dropped => "dropped",
            Status::Best => "best",
        }
    }
}

/// One candidate's result in one round.
#[derive(Clone, Debug)]
pub struct RoundRow {
    /// The candidate's number (0 is the default).
    pub(crate) candidate: usize,
    /// The round, from 1.
    pub(crate) round: usize,
    /// Deals played so far (each in every rotation).
    pub deals: u64,
    /// Paired gain per game over the default.
    pub(crate) gain: Gain,
    /// Kept, dropped or best.
    pub status: Status,
}

/// The outcome of a tuning run.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// Every candidate's weights; 0 is the default.
    pub candidates: Vec<Weights>,
    /// One row per candidate per round it played.
    pub rows: Vec<RoundRow>,
    /// The best candidate.
    pub best: usize,
    /// Its gain in the last round it played.
    pub(crate) gain: Gain,
    /// Deals of that round.
    pub deals: u64,
}

/// The spec of candidate weights: `greedy:name=value,...`.
pub(crate) fn spec_of(table: &[Weight], w: &Weights) -> String {
    if table.is_empty() {
        "greedy".to_string()
    } else {
        format!("greedy:{}", w.to_params(table))
    }
}

/// Rounds `v` to a multiple of `step` within `range`.
fn snap(v: f64, w: &Weight) -> f64 {
    let k = (v / w.step).round() * w.step;
    // printed and read back exactly: keep at most 6 decimals
    let k = (k * 1e6).round() / 1e6 + 0.0; // no "-0"
    k.clamp(w.range.0, w.range.1)
}

/// Adds `n` sampled candidates, distinct from those in `out`, around `base` (see the module
/// documentation).
pub fn sample(table: &[Weight], n: usize, seed: u64, base: Weights, out: &mut Vec<Weights>) {
    if table.is_empty() {
        return;
    }
    let mut rng: GameRng = stream_rng(seed, 0, SAMPLE_STREAM);
    let (mut tries, goal) = (0, out.len() + n);
    while out.len() < goal && tries < 100 * (n + 1) {
        tries += 1;
        let mut w = base;
        let changes = rng.random_range(1..=table.len().min(3));
        for _ in 0..changes {
            let i = rng.random_range(0..table.len());
            let t = &table[i];
            let (lo, hi) = t.range;
            let v = if rng.random_bool(0.5) {
                lo + rng.random::<f64>() * (hi - lo)
            } else {
                base.get(i) + (rng.random::<f64>() * 2.0 - 1.0) * (hi - lo) / 4.0
            };
            w.set(i, snap(v, t));
        }
        if !out.contains(&w) {
            out.push(w);
        }
    }
}

/// Why a tuning cannot start or go on.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// The game's greedy has no weights (the game's name).
    #[error("{0}'s greedy has no weights to tune")]
    NoWeights(&'static str),
    /// Opponent specs that do not fill the other seats.
    #[error(
        "{given} opponent spec(s) for {players} seats: give one (for every other seat) or {}",
        players - 1
    )]
    Opponents {
        /// The opponent specs given.
        given: usize,
        /// The seats at the table.
        players: usize,
    },
    /// The game cannot be built as asked.
    #[error(transparent)]
    Game(#[from] GameError),
    /// `--start` weights that do not read.
    #[error("--start: {0}")]
    Start(AgentError),
    /// `--include` weights that do not read.
    #[error("--include: {0}")]
    Include(AgentError),
    /// Only the default weights to race.
    #[error(
        "nothing to race: --start and --include give only the default weights and --candidates \
         is 0; give --candidates N (N ≥ 1) or other weights"
    )]
    NothingToRace,
    /// An agent of the race that cannot be built.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// An agent that failed in a deal (its fault, naming it).
    #[error("deal {deal}: {fault}")]
    Fault {
        /// The deal.
        deal: u64,
        /// The agent's fault.
        fault: String,
    },
}

/// The weights of `text` for game `G`: a weight file path or `name=value,...`, the rest at
/// their defaults. Errors name the weight or the file's line.
pub(crate) fn weights_of<G: GameKind>(text: &str) -> Result<Weights, AgentError> {
    let spec = AgentSpec::parse(&format!("greedy:{text}"))?;
    lookup::<G>(&spec)?;
    Weights::from_spec(&spec, G::GREEDY_WEIGHTS, G::INFO.name)
}

/// The candidates: the default, the start (if another), the included ones, then `n` sampled
/// around the start.
fn candidates<G: GameKind>(cfg: &TuneConfig) -> Result<Vec<Weights>, TuneError> {
    let table = G::GREEDY_WEIGHTS;
    let default = Weights::defaults(table);
    let base = match &cfg.start {
        Some(text) => weights_of::<G>(text).map_err(TuneError::Start)?,
        None => default,
    };
    let mut out = vec![default];
    for w in std::iter::once(Ok(base)).chain(
        cfg.include
            .iter()
            .map(|t| weights_of::<G>(t).map_err(TuneError::Include)),
    ) {
        let w = w?;
        if !out.contains(&w) {
            out.push(w);
        }
    }
    sample(table, cfg.candidates, cfg.seed, base, &mut out);
    Ok(out)
}

/// The per-deal payout sums of `spec` over the rotations of deals `deals` (the spec in seat
/// `r` of rotation `r`, the opponents in the other seats in order), in deal order.
pub fn payouts<G: GameKind>(
    game: &G,
    spec: &str,
    opponents: &[String],
    seed: u64,
    deals: std::ops::Range<u64>,
    progress: &dyn Progress,
) -> Result<Vec<i64>, TuneError> {
    let n = game.seats();
    let rules = game.rules();
    let setting = Setting {
        variant: Some(game.variant()),
        table: Some((&rules, n)),
        ..Setting::default()
    };
    let build = || -> Result<Vec<Box<dyn Agent<G::State>>>, AgentError> {
        std::iter::once(spec)
            .chain(opponents.iter().map(String::as_str))
            .map(|s| make_agent_with::<G>(s, setting))
            .collect()
    };
    build()?;
    deals
        .into_par_iter()
        .map_init(
            || build().expect("checked above"),
            |agents, d| {
                let looper = DealLoop::seeded(game, seed, Seating::Spotlight(n), 0..n);
                let mut total = 0i64;
                looper.outcomes(TUNE_DEALS_FROM + d, agents, |at, o| {
                    total += o.payouts[at.rotation]
                });
                progress.tick();
                match take_fault(agents) {
                    Some(fault) => Err(TuneError::Fault { deal: d, fault }),
                    None => Ok(total),
                }
            },
        )
        .collect()
}

/// The game and the candidate weights of a tuning, once its settings are checked.
fn setup<G: GameKind>(cfg: &TuneConfig) -> Result<(G, Vec<Weights>), TuneError> {
    if G::GREEDY_WEIGHTS.is_empty() {
        return Err(TuneError::NoWeights(G::INFO.name));
    }
    if cfg.opponents.len() + 1 != cfg.players {
        return Err(TuneError::Opponents {
            given: cfg.opponents.len(),
            players: cfg.players,
        });
    }
    let game = G::build(&cfg.variant, cfg.players, &Default::default())?;
    let candidates = candidates::<G>(cfg)?;
    if candidates.len() < 2 {
        return Err(TuneError::NothingToRace);
    }
    Ok((game, candidates))
}

/// Tunes game `G`'s greedy (see the module documentation).
pub fn tune<G: GameKind>(cfg: &TuneConfig, progress: &dyn Progress) -> Result<Tuned, TuneError> {
    let table = G::GREEDY_WEIGHTS;
    let (game, candidates) = setup::<G>(cfg)?;
    let specs: Vec<String> = candidates.iter().map(|w| spec_of(table, w)).collect();
    let mut alive: Vec<usize> = (0..candidates.len()).collect();
    let mut sums: Vec<Vec<i64>> = vec![Vec::new(); candidates.len()];
    let mut baseline: Vec<i64> = Vec::new();
    let mut rows = Vec::new();
    let mut round = 0;
    let mut deals = 0u64;
    loop {
        round += 1;
        let from = deals;
        deals = if round == 1 { cfg.deals } else { deals * 2 };
        let playing = alive.iter().filter(|&&c| c != 0).count() as u64 + 1;
        progress.phase(
            &format!("round {round}: {} candidate(s), {deals} deals", alive.len()),
            playing * (deals - from),
        );
        let field = &cfg.opponents;
        baseline.extend(payouts(
            &game,
            &specs[0],
            field,
            cfg.seed,
            from..deals,
            progress,
        )?);
        for &c in &alive {
            let more = if c == 0 {
                baseline[from as usize..].to_vec()
            } else {
                payouts(&game, &specs[c], field, cfg.seed, from..deals, progress)?
            };
            sums[c].extend(more);
        }
        let gains: Vec<(usize, Gain)> = alive
            .iter()
            .map(|&c| (c, Gain::paired(&sums[c], &baseline, game.seats())))
            .collect();
        let (kept, dropped) = race(&gains);
        let last = kept.len() == 1;
        for &(c, gain) in &gains {
            let status = match (kept.contains(&c), last) {
                (true, true) => Status::Best,
                (true, false) => Status::Kept,
                _ => Status::Dropped,
            };
            rows.push(RoundRow {
                candidate: c,
                round,
                deals,
                gain,
                status,
            });
        }
        debug_assert_eq!(kept.len() + dropped, alive.len());
        alive = kept;
        if last {
            let best = alive[0];
            let gain = gains.iter().find(|(c, _)| *c == best).expect("kept").1;
            return Ok(Tuned {
                candidates,
                rows,
                best,
                gain,
                deals,
            });
        }
    }
}

/// One racing step: the candidates kept (best first) and how many were dropped. The default
/// (candidate 0) is the reference and stays while two or more others race; of the others the
/// better half by mean gain is kept (ties to the lower number), and any whose 95% interval lies
/// wholly below the best candidate's is dropped too. With one other left, the better of it and
/// the default is kept: the last round is that pair's comparison.
pub(crate) fn race(gains: &[(usize, Gain)]) -> (Vec<usize>, usize) {
    let mut order: Vec<&(usize, Gain)> = gains.iter().collect();
    order.sort_by(|a, b| b.1.mean.total_cmp(&a.1.mean).then(a.0.cmp(&b.0)));
    let best = order[0].1;
    let others: Vec<&(usize, Gain)> = order.iter().copied().filter(|(c, _)| *c != 0).collect();
    let has_default = others.len() < gains.len();
    let kept: Vec<usize> = if others.len() <= 1 || !has_default {
        let half = gains.len().div_ceil(2).min(gains.len() - 1).max(1);
        order.iter().take(half).map(|(c, _)| *c).collect()
    } else {
        let half = others.len().div_ceil(2).min(others.len() - 1);
        let mut kept: Vec<usize> = others
            .iter()
            .take(half)
            .filter(|(_, g)| g.hi >= best.lo)
            .map(|(c, _)| *c)
            .collect();
        kept.push(0);
        kept
    };
    (kept.clone(), gains.len() - kept.len())
}
