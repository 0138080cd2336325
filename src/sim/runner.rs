//! The runner: plays an experiment's deals on all cores (rayon) in fixed-size chunks, tallies
//! them in deal order and writes `summary.csv`, `games.csv`, `tally.json` and `meta.json`.
//! Every figure is a function of the experiment alone, whatever the threads or the sharding.

use super::experiment::Experiment;
use super::output::{matches_csv, summary_csv, summary_table, write_atomic, AtomicFile};
use super::stats::Tally;
use super::{agent_rngs, match_deal_stream, play_out, GameId};
use crate::agents::catalogue::make_agent;
use crate::agents::Agent;
use crate::game::{Outcome, MAX_SEATS};
use crate::games::{with_game, GameKind, GameVisitor};
use crate::record::Recorder;
use crate::rng::stream_rng;
use anyhow::Context;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Deals played per parallel batch; tallies are added in deal order after each batch.
const CHUNK: u64 = 4096;

/// One shard of a study: shard `k` of `n` plays the `k`-th of `n` contiguous deal ranges.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, `0..n`.
    pub k: u64,
    /// Number of shards.
    pub n: u64,
}

impl Shard {
    /// Reads `K/N` with `0 ≤ K < N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{text}': expected K/N with 0 ≤ K < N, e.g. 0/3");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// The deal range `[start, end)` of this shard.
    pub fn range(&self, deals: u64) -> (u64, u64) {
        let at = |k: u64| (u128::from(deals) * u128::from(k) / u128::from(self.n)) as u64;
        (at(self.k), at(self.k + 1))
    }
}

/// How to run an experiment (command-line settings, not part of the study).
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// Play only this shard.
    pub shard: Option<Shard>,
    /// No progress bar and no table.
    pub quiet: bool,
    /// Output folder instead of the experiment's (default for a shard: `<output>/shard-K-of-N`).
    pub output: Option<PathBuf>,
    /// Force `games.csv` on.
    pub games_csv: bool,
    /// Force `records.jsonl` on.
    pub records: bool,
}

/// What `tally.json` holds: enough for `merge` to rebuild the summary exactly.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TallyFile {
    /// The experiment as run.
    pub experiment: Experiment,
    /// The shard, if any.
    pub shard: Option<Shard>,
    /// The deal range played.
    pub deals: (u64, u64),
    /// The exact tallies.
    pub tally: Tally,
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The output folder.
    pub dir: PathBuf,
    /// The tallies.
    pub tally: Tally,
    /// Games played.
    pub games: u64,
    /// Wall time in seconds (for a merge: the sum of the shards' times).
    pub elapsed: f64,
    /// Threads used (`None` for a merge of shards).
    pub threads: Option<usize>,
}

/// The agents of an experiment, one per seat slot (built per worker thread).
fn make_agents<G: GameKind>(exp: &Experiment) -> Vec<Box<dyn Agent<G::State>>> {
    exp.agents
        .iter()
        .map(|s| make_agent::<G>(s).expect("checked by Experiment::check"))
        .collect()
}

/// The outcomes of one deal: rotation by rotation, the games of its match in order.
pub type DealOutcomes = Vec<Outcome>;

/// What one deal produced: its outcomes and, when asked, a JSON record per game.
#[derive(Clone, Debug, Default)]
pub struct DealResult {
    /// One outcome per game: rotation-major, then the games of the match.
    pub outcomes: DealOutcomes,
    /// One record (a JSON line) per game, empty unless records were asked for.
    pub records: Vec<String>,
}

/// Plays every rotation of one deal (each a match of `exp.match_games` games) with the given
/// per-slot agents, adding the outcomes to `result`. Without records the games allocate nothing;
/// with records each game's events are collected into its record.
pub fn play_deal<G: GameKind>(
    game: &G,
    exp: &Experiment,
    deal: u64,
    agents: &mut [Box<dyn Agent<G::State>>],
    records: bool,
    result: &mut DealResult,
) {
    for r in 0..exp.rotations() {
        let seat_agent: [usize; MAX_SEATS] =
            std::array::from_fn(|s| exp.slot(r, s % exp.players()));
        let id = GameId {
            master: exp.seed,
            deal,
            rotation: r as u8,
        };
        let mut rngs = agent_rngs(id);
        let mut state: Option<G::State> = None;
        for j in 0..exp.match_games {
            let mut deck_rng = stream_rng(id.master, id.deal, match_deal_stream(j));
            let mut s = match &state {
                None => game.deal(&mut deck_rng),
                Some(previous) => game.deal_next(previous, &mut deck_rng),
            };
            let outcome = if records {
                let start = s.clone();
                let mut recorder = Recorder::<G>::default();
                let o = play_out(&mut s, agents, &seat_agent, &mut rngs, |(s, step)| {
                    recorder.observe(s, step)
                });
                let specs: Vec<String> = (0..exp.players())
                    .map(|s| exp.agents[exp.slot(r, s)].clone())
                    .collect();
                let mut record = recorder.finish(game, &start, &s, &specs, Some(id));
                record.match_game = (exp.match_games > 1).then_some(j);
                result
                    .records
                    .push(serde_json::to_string(&record).expect("records serialize"));
                o
            } else {
                play_out(&mut s, agents, &seat_agent, &mut rngs, |_| {})
            };
            result.outcomes.push(outcome);
            state = Some(s);
        }
    }
}

/// The optional per-game files of a run, written as the deals come in, in deal order.
struct GameFiles {
    games: Option<AtomicFile>,
    records: Option<AtomicFile>,
}

impl GameFiles {
    fn create(
        dir: &Path,
        exp: &Experiment,
        games: bool,
        records: bool,
    ) -> anyhow::Result<GameFiles> {
        let games = if games {
            let mut f = AtomicFile::create(dir, "games.csv")?;
            let mut w = csv::Writer::from_writer(f.writer());
            w.write_record(games_header(exp))?;
            w.flush()?;
            drop(w);
            Some(f)
        } else {
            None
        };
        let records = if records {
            Some(AtomicFile::create(dir, "records.jsonl")?)
        } else {
            None
        };
        Ok(GameFiles { games, records })
    }

    fn write_deal(
        &mut self,
        exp: &Experiment,
        deal: u64,
        result: &DealResult,
    ) -> anyhow::Result<()> {
        if let Some(f) = self.games.as_mut() {
            let mut w = csv::Writer::from_writer(f.writer());
            for (g, o) in result.outcomes.iter().enumerate() {
                w.write_record(game_row(exp, deal, g, o))?;
            }
            w.flush()?;
        }
        if let Some(f) = self.records.as_mut() {
            for line in &result.records {
                writeln!(f.writer(), "{line}")?;
            }
        }
        Ok(())
    }

    /// Renames the finished files into place and removes stale ones an earlier run left.
    fn commit(self, dir: &Path) -> anyhow::Result<()> {
        for (file, name) in [(self.games, "games.csv"), (self.records, "records.jsonl")] {
            match file {
                Some(f) => f.commit()?,
                None => remove_stale(&dir.join(name))?,
            }
        }
        Ok(())
    }
}

fn progress_bar(total: u64, quiet: bool) -> Option<indicatif::ProgressBar> {
    if quiet || !std::io::stdout().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    let style =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} deals  {per_sec}  eta {eta}")
            .expect("valid template");
    bar.set_style(style);
    Some(bar)
}

/// The `games.csv` header of an experiment: a `match_game` column when it plays matches, and
/// `place_S` columns when its game ranks the seats.
pub fn games_header(exp: &Experiment) -> Vec<String> {
    let n = exp.players();
    let mut h = vec!["deal".to_string(), "rotation".to_string()];
    if exp.match_games > 1 {
        h.push("match_game".into());
    }
    h.extend((0..n).map(|s| format!("agent_{s}")));
    h.extend(["winner", "reason"].map(String::from));
    h.extend((0..n).map(|s| format!("payout_{s}")));
    h.extend(["turns", "winning_hand_value", "penalized"].map(String::from));
    if ranks_places(exp) {
        h.extend((0..n).map(|s| format!("place_{s}")));
    }
    h
}

/// Whether the experiment's game ranks every seat (its outcomes carry places).
fn ranks_places(exp: &Experiment) -> bool {
    crate::games::game_info(&exp.game).is_ok_and(|g| g.ranks_places)
}

/// The `games.csv` row of game `g` of a deal (rotation-major, then the games of the match).
fn game_row(exp: &Experiment, deal: u64, g: usize, o: &Outcome) -> Vec<String> {
    let n = exp.players();
    let k = exp.match_games as usize;
    let rotation = g / k;
    let opt = |x: Option<u8>| x.map(|s| s.to_string()).unwrap_or_default();
    let mut row = vec![deal.to_string(), rotation.to_string()];
    if k > 1 {
        row.push((g % k).to_string());
    }
    row.extend((0..n).map(|s| exp.agents[exp.slot(rotation, s)].clone()));
    row.extend([opt(o.winner), o.reason.to_string()]);
    row.extend(o.payouts().iter().map(|p| p.to_string()));
    row.extend([
        o.turns.to_string(),
        o.hand_value.to_string(),
        opt(o.penalized),
    ]);
    if ranks_places(exp) {
        row.extend(o.places[..n].iter().map(|p| p.to_string()));
    }
    row
}

/// Games per second of an experiment's matchup on `threads` threads over `deals` deals (no files).
pub fn throughput(exp: &Experiment, threads: usize, deals: u64) -> anyhow::Result<f64> {
    struct Speed<'a>(&'a Experiment, usize, u64);
    impl GameVisitor for Speed<'_> {
        type Output = anyhow::Result<f64>;
        fn visit<G: GameKind>(self) -> anyhow::Result<f64> {
            let Speed(exp, threads, deals) = self;
            let game =
                G::build(exp.variant(), exp.players(), &exp.rules).map_err(anyhow::Error::msg)?;
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()?;
            let began = Instant::now();
            let games: usize = pool.install(|| {
                (0..deals)
                    .into_par_iter()
                    .map_init(
                        || (make_agents::<G>(exp), DealResult::default()),
                        |(agents, result), deal| {
                            result.outcomes.clear();
                            play_deal(&game, exp, deal, agents, false, result);
                            result.outcomes.len()
                        },
                    )
                    .sum()
            });
            Ok(games as f64 / began.elapsed().as_secs_f64())
        }
    }
    with_game(&exp.game, Speed(exp, threads, deals)).map_err(anyhow::Error::msg)?
}

/// Runs an experiment and writes its files. Earlier results in the folder are replaced only
/// when the new ones are complete.
pub fn run_experiment(exp: &Experiment, opts: &RunOptions) -> anyhow::Result<RunReport> {
    exp.check().map_err(anyhow::Error::msg)?;
    struct Run<'a>(&'a Experiment, &'a RunOptions);
    impl GameVisitor for Run<'_> {
        type Output = anyhow::Result<RunReport>;
        fn visit<G: GameKind>(self) -> anyhow::Result<RunReport> {
            run_game::<G>(self.0, self.1)
        }
    }
    with_game(&exp.game, Run(exp, opts)).map_err(anyhow::Error::msg)?
}

/// [`run_experiment`] for game `G`.
fn run_game<G: GameKind>(exp: &Experiment, opts: &RunOptions) -> anyhow::Result<RunReport> {
    let game = G::build(exp.variant(), exp.players(), &exp.rules).map_err(anyhow::Error::msg)?;
    let (start, end) = opts.shard.map_or((0, exp.deals), |s| s.range(exp.deals));
    let dir = match (&opts.output, opts.shard) {
        (Some(d), _) => d.clone(),
        (None, Some(s)) => Path::new(&exp.output_dir()).join(format!("shard-{}-of-{}", s.k, s.n)),
        (None, None) => PathBuf::from(exp.output_dir()),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let threads = opts
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let records = exp.records || opts.records;
    let mut files = GameFiles::create(&dir, exp, exp.games_csv || opts.games_csv, records)?;
    let bar = progress_bar(end - start, opts.quiet);
    let began = Instant::now();
    let mut tally = Tally::new(&exp.agents);
    let k = exp.match_games as usize;
    let seat_tally: Vec<[usize; MAX_SEATS]> = (0..exp.rotations())
        .map(|r| std::array::from_fn(|s| tally_index(exp, &tally.agents, r, s % exp.players())))
        .collect();
    let mut chunk_start = start;
    while chunk_start < end {
        let chunk_end = (chunk_start + CHUNK).min(end);
        let results: Vec<DealResult> = pool.install(|| {
            (chunk_start..chunk_end)
                .into_par_iter()
                .map_init(
                    || make_agents::<G>(exp),
                    |agents, deal| {
                        let mut result = DealResult::default();
                        play_deal(&game, exp, deal, agents, records, &mut result);
                        result
                    },
                )
                .collect()
        });
        for (i, result) in results.iter().enumerate() {
            tally.add_deal(&result.outcomes, |g, s| seat_tally[g / k][s]);
            if k > 1 {
                tally.add_matches(&result.outcomes, k, |g, s| seat_tally[g / k][s]);
            }
            files.write_deal(exp, chunk_start + i as u64, result)?;
        }
        if let Some(b) = &bar {
            b.inc(chunk_end - chunk_start);
        }
        chunk_start = chunk_end;
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let elapsed = began.elapsed().as_secs_f64();
    files.commit(&dir)?;
    let report = RunReport {
        dir: dir.clone(),
        games: tally.games,
        tally,
        elapsed,
        threads: Some(threads),
    };
    write_results(exp, opts.shard, (start, end), &report)?;
    Ok(report)
}

/// The tally index of the agent at seat `s` in rotation `r`.
fn tally_index(exp: &Experiment, agents: &[String], r: usize, s: usize) -> usize {
    let spec = &exp.agents[exp.slot(r, s)];
    agents
        .iter()
        .position(|a| a == spec)
        .expect("every seat spec is in the tally")
}

/// Removes a result file left by an earlier run, so a folder never mixes two studies.
pub fn remove_stale(path: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("removing the stale {}", path.display()))
        }
        _ => Ok(()),
    }
}

/// Writes `summary.csv`, `tally.json` and `meta.json` for a finished run or merge.
pub fn write_results(
    exp: &Experiment,
    shard: Option<Shard>,
    deals: (u64, u64),
    r: &RunReport,
) -> anyhow::Result<()> {
    write_atomic(&r.dir, "summary.csv", &summary_csv(&r.tally))?;
    if r.tally.matches.is_empty() {
        remove_stale(&r.dir.join("matches.csv"))?;
    } else {
        write_atomic(&r.dir, "matches.csv", &matches_csv(&r.tally))?;
    }
    let tally = TallyFile {
        experiment: exp.clone(),
        shard,
        deals,
        tally: r.tally.clone(),
    };
    write_atomic(
        &r.dir,
        "tally.json",
        serde_json::to_string_pretty(&tally)?.as_bytes(),
    )?;
    let meta = serde_json::json!({
        "experiment": exp,
        "version": env!("CARGO_PKG_VERSION"),
        "seed": exp.seed,
        "threads": r.threads,
        "cores": std::thread::available_parallelism().map_or(1, |n| n.get()),
        "shard": shard.map(|s| format!("{}/{}", s.k, s.n)),
        "deals": [deals.0, deals.1],
        "games": r.games,
        "elapsed_s": r.elapsed,
        "elapsed_is_sum_of_shards": r.threads.is_none(),
        "games_per_s": r.games as f64 / r.elapsed.max(1e-9),
    });
    write_atomic(
        &r.dir,
        "meta.json",
        serde_json::to_string_pretty(&meta)?.as_bytes(),
    )?;
    Ok(())
}

/// Prints the readable table of a report.
pub fn print_report(r: &RunReport, out: &mut impl Write) -> std::io::Result<()> {
    write!(out, "{}", summary_table(&r.tally))?;
    let speed = match r.threads {
        Some(t) => format!(
            " in {:.2} s ({:.0} games/s, {t} threads)",
            r.elapsed,
            r.games as f64 / r.elapsed.max(1e-9)
        ),
        None => " merged from shards".to_string(),
    };
    writeln!(
        out,
        "{} games{speed}; results in {}",
        r.games,
        r.dir.display()
    )
}
