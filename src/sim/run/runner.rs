//! The runner: plays an experiment's deals on all cores (rayon) in chunks, tallies them in deal
//! order and writes `summary.csv`, `games.csv`, `tally.json` and `meta.json`. Every figure is a
//! function of the experiment alone, whatever the threads or the sharding. Each worker thread
//! builds its agents once and every chunk reuses the same buffers, so a run allocates nothing
//! per deal (records and `games.csv` rows aside). The deals on the worker threads are
//! `super::chunk`'s; the output folder, its lock and checkpoints [`super::checkpoint`]'s; the
//! result files [`super::report`]'s, the pace of a session `super::pace`'s and the printed
//! report `super::console`'s.

use crate::game::MAX_SEATS;
use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor};
use crate::sim::files::atomic::write_atomic;
use crate::sim::files::game_files::GameFiles;
use crate::sim::run::checkpoint::{
    absolute_project, guard_folder, remove_leftovers, Checkpoint, FolderLock, CHECKPOINT_FORMAT,
};
pub(crate) use crate::sim::run::chunk::deal_plan;
use crate::sim::run::chunk::{play_chunk, ChunkBuffers, Ending, Faults, Workers};
use crate::sim::run::experiment::{Experiment, Runtime};
use crate::sim::run::integrity::{agent_file_digests, check_agent_files};
use crate::sim::run::pace::Pace;
use crate::sim::stats::sprt::{SprtStep, SprtTest};
use crate::sim::stats::tally::Tally;
use anyhow::bail;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::sim::files::game_files::remove_stale;
use crate::sim::run::checkpoint::{read_checkpoint, Shard, Stopped, CHECKPOINT};
use crate::sim::run::report::{write_results, RunReport};
use crate::sim::run::threads::{check_threads, cores};

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
    /// Write into a folder that holds another experiment's results or an unfinished run.
    pub force: bool,
    /// Set to stop the run at the next deal: it writes a checkpoint and returns [`Stopped`].
    pub stop: Option<Arc<AtomicBool>>,
    /// How often to checkpoint (default `super::checkpoint::CHECKPOINT_EVERY`).
    pub checkpoint_every: Option<Duration>,
    /// Where the experiment's agent files are read from and the embedding program's agents
    /// (for a resumed run, the checkpoint's project folder is read instead).
    pub runtime: Runtime,
}

impl RunOptions {
    /// The worker threads: `threads` checked against the machine's limit, or all cores. A run
    /// checks them once, before it touches its folder.
    fn checked_threads(&self) -> anyhow::Result<usize> {
        let threads = self.threads.unwrap_or_else(cores);
        check_threads(threads)?;
        Ok(threads)
    }
}

/// A run stopped by an agent's failure, with a checkpoint: an error that says how to go on.
#[derive(Debug)]
pub struct AgentFailed {
    /// The agent's spec.
    pub agent: String,
    /// The deal it failed in.
    pub deal: u64,
    /// What went wrong.
    pub message: String,
    /// Deals done (of the run's range).
    pub done: u64,
    /// Deals in the run's range.
    pub total: u64,
    /// The output folder, which holds the checkpoint.
    pub dir: PathBuf,
}

impl AgentFailed {
    /// The message, ending in `resume`: how the caller's user resumes the run.
    pub fn describe(&self, resume: &str) -> String {
        format!(
            "agent '{}' failed in deal {}: {}\nthe run stopped with {} of {} deals done and a \
             checkpoint in {}: fix the agent, then resume ({resume})",
            self.agent,
            self.deal,
            self.message,
            self.done,
            self.total,
            self.dir.display()
        )
    }
}

impl std::fmt::Display for AgentFailed {
    /// The message of the command line: resume with `bailab run --resume DIR`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe("`bailab run --resume DIR`"))
    }
}

impl std::error::Error for AgentFailed {}

/// Runs an experiment and writes its files into its output folder (the default for a shard:
/// `<output>/shard-K-of-N`). Refuses a folder that holds another experiment's results or an
/// unfinished run, unless `opts.force`. Earlier results in the folder are replaced only when the
/// new ones are complete. Stopped through `opts.stop`, it writes a checkpoint and returns a
/// [`Stopped`] error.
pub fn run_experiment(exp: &Experiment, opts: &RunOptions) -> anyhow::Result<RunReport> {
    let threads = opts.checked_threads()?;
    exp.check(&opts.runtime)?;
    if exp.sprt.is_some() && opts.shard.is_some() {
        bail!(
            "--shard: experiment '{}' has an [sprt] table, and a sequential test decides on \
             deals 0..k in order, so it cannot be split into shards; run it whole (Ctrl-C and \
             `bailab run --resume` split it in time instead)",
            exp.name
        );
    }
    let dir = match (&opts.output, opts.shard) {
        (Some(d), _) => d.clone(),
        (None, Some(s)) => Path::new(&exp.output_dir()).join(format!("shard-{}-of-{}", s.k, s.n)),
        (None, None) => PathBuf::from(exp.output_dir()),
    };
    let lock = FolderLock::take(&dir)?;
    guard_folder(&dir, exp, opts.shard, opts.force)?;
    remove_leftovers(&dir, false)?;
    let range = opts.shard.map_or((0, exp.deals), |s| s.range(exp.deals));
    let plan = Plan {
        exp,
        runtime: &opts.runtime,
        shard: opts.shard,
        range,
        dir,
        games_csv: exp.games_csv || opts.games_csv,
        records: exp.records || opts.records,
        agent_files: agent_file_digests(exp, &opts.runtime)?,
        resume: None,
        threads,
        _lock: lock,
    };
    run_plan(plan, opts)
}

/// Continues the unfinished run whose checkpoint is in `dir` (`opts.output`, `shard`,
/// `games_csv`, `records` and `force` do not apply): the files it writes are byte for byte
/// those of a run that was never stopped.
pub fn resume_run(dir: &Path, opts: &RunOptions) -> anyhow::Result<RunReport> {
    let threads = opts.checked_threads()?;
    let lock = FolderLock::take(dir)?;
    let ck = read_checkpoint(dir)?;
    let runtime = Runtime {
        project: ck.project.clone(),
        host: opts.runtime.host.clone(),
    };
    ck.experiment.check(&runtime).map_err(|e| {
        anyhow::anyhow!(
            "{}: the checkpoint's experiment: {e}",
            dir.join(CHECKPOINT).display()
        )
    })?;
    let agent_files = agent_file_digests(&ck.experiment, &runtime)?;
    check_agent_files(&dir.join(CHECKPOINT), &ck.agent_files, &agent_files)?;
    remove_leftovers(dir, true)?;
    let exp = ck.experiment.clone();
    let plan = Plan {
        exp: &exp,
        runtime: &runtime,
        shard: ck.shard,
        range: ck.deals,
        dir: dir.to_path_buf(),
        games_csv: ck.files.contains_key("games.csv"),
        records: ck.files.contains_key("records.jsonl"),
        agent_files,
        resume: Some(ck),
        threads,
        _lock: lock,
    };
    run_plan(plan, opts)
}

/// What a run is to do.
struct Plan<'a> {
    exp: &'a Experiment,
    /// Where its agent files are read from and the host agents.
    runtime: &'a Runtime,
    shard: Option<Shard>,
    range: (u64, u64),
    dir: PathBuf,
    games_csv: bool,
    records: bool,
    /// The digests of the agent files read (see [`agent_file_digests`]).
    agent_files: BTreeMap<String, String>,
    resume: Option<Checkpoint>,
    /// Worker threads, checked.
    threads: usize,
    _lock: FolderLock,
}

fn run_plan(plan: Plan<'_>, opts: &RunOptions) -> anyhow::Result<RunReport> {
    struct Run<'a>(Plan<'a>, &'a RunOptions);
    impl GameVisitor for Run<'_> {
        type Output = anyhow::Result<RunReport>;
        fn visit<G: GameKind>(self) -> anyhow::Result<RunReport> {
            run_game::<G>(self.0, self.1)
        }
    }
    let game = plan.exp.game.clone();
    with_game(&game, Run(plan, opts))?
}

/// The chunk of deals after `next`: up to the next multiple of `size` (so boundaries are fixed
/// deal numbers), at most `end`.
fn chunk_end(next: u64, size: u64, end: u64) -> u64 {
    ((next / size + 1) * size).min(end)
}
/// What a session of a run starts from: a fresh run's empty tally or a checkpoint's.
struct Session {
    tally: Tally,
    next: u64,
    files: GameFiles,
    prior_elapsed: f64,
    sessions: u32,
    resumed_from: Option<u64>,
    looks: Vec<SprtStep>,
}

impl Session {
    fn start(plan: &mut Plan<'_>) -> anyhow::Result<Session> {
        let exp = plan.exp;
        Ok(match plan.resume.take() {
            Some(ck) => Session {
                files: GameFiles::resume(&plan.dir, &ck.files)?,
                tally: ck.tally,
                next: ck.next,
                prior_elapsed: ck.elapsed_s,
                sessions: ck.sessions + 1,
                resumed_from: Some(ck.next),
                looks: ck.sprt,
            },
            None => Session {
                tally: exp.tally(),
                next: plan.range.0,
                files: GameFiles::create(&plan.dir, exp, plan.games_csv, plan.records)?,
                prior_elapsed: 0.0,
                sessions: 1,
                resumed_from: None,
                looks: Vec::new(),
            },
        })
    }

    /// Writes the checkpoint of deals `start..self.next`, `elapsed` seconds into this session.
    fn checkpoint(&mut self, plan: &Plan<'_>, elapsed: f64) -> anyhow::Result<()> {
        let ck = Checkpoint {
            format: CHECKPOINT_FORMAT.to_string(),
            experiment: plan.exp.clone(),
            shard: plan.shard,
            deals: plan.range,
            next: self.next,
            tally: self.tally.clone(),
            files: self.files.sync()?,
            elapsed_s: self.prior_elapsed + elapsed,
            sessions: self.sessions,
            sprt: self.looks.clone(),
            project: absolute_project(plan.runtime),
            agent_files: plan.agent_files.clone(),
        };
        write_atomic(&plan.dir, CHECKPOINT, ck.to_file_text()?.as_bytes())?;
        Ok(())
    }
}

impl Session {
    /// Tallies the deals `start..end` just played into `buffers` and writes their rows, in deal
    /// order; `seat_tally[r][s]` is the tally index of seat `s` in rotation `r`.
    fn add_chunk(
        &mut self,
        exp: &Experiment,
        seat_tally: &[[usize; MAX_SEATS]],
        buffers: &ChunkBuffers,
        (start, end): (u64, u64),
    ) -> anyhow::Result<()> {
        let (k, per_deal) = (exp.match_games as usize, buffers.per_deal);
        let corrected = !exp.estimator.is_plain();
        let deals = buffers
            .outcomes
            .chunks(per_deal)
            .take((end - start) as usize);
        for (i, outcomes) in deals.enumerate() {
            self.tally.add_deal(outcomes, |g, s| seat_tally[g / k][s]);
            if corrected {
                let luck = &buffers.luck[i * per_deal..(i + 1) * per_deal];
                (self.tally).add_corrected(outcomes, luck, |g, s| seat_tally[g / k][s]);
            }
            if k > 1 {
                self.tally
                    .add_matches(outcomes, k, |g, s| seat_tally[g / k][s]);
            }
            let lines = buffers
                .records
                .get(i * per_deal..(i + 1) * per_deal)
                .unwrap_or(&[]);
            self.files
                .write_deal(exp, start + i as u64, outcomes, lines)?;
        }
        Ok(())
    }
}

/// [`run_experiment`] and [`resume_run`] for game `G`.
fn run_game<G: GameKind>(mut plan: Plan<'_>, opts: &RunOptions) -> anyhow::Result<RunReport> {
    let exp = plan.exp;
    let game = G::build(exp.variant(), exp.players(), &exp.rules)?;
    let threads = plan.threads;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut session = Session::start(&mut plan)?;
    let sprt = exp
        .sprt
        .as_ref()
        .map(|c| SprtTest::new(c, &session.tally.agents, &session.tally))
        .transpose()?;
    let began = Instant::now();
    let ending = play_deals(
        &game,
        &plan,
        opts,
        &pool,
        threads,
        &mut session,
        sprt.as_ref(),
    )?;
    let (start, end) = plan.range;
    if let Ending::Stopped | Ending::Fault(_) = ending {
        session.checkpoint(&plan, began.elapsed().as_secs_f64())?;
    }
    match ending {
        Ending::Done => {}
        Ending::Stopped => {
            return Err(Stopped {
                dir: plan.dir.clone(),
                done: session.next - start,
                total: end - start,
            }
            .into())
        }
        Ending::Fault(f) => {
            return Err(AgentFailed {
                agent: f.agent,
                deal: f.deal,
                message: f.message,
                done: session.next - start,
                total: end - start,
                dir: plan.dir.clone(),
            }
            .into())
        }
    }
    let report = RunReport {
        dir: plan.dir.clone(),
        games: session.tally.games,
        elapsed: session.prior_elapsed + began.elapsed().as_secs_f64(),
        threads: Some(threads),
        sessions: session.sessions,
        resumed_from: session.resumed_from,
        sprt: sprt.as_ref().map(|t| t.outcome(&session.looks, end)),
        sprt_steps: session.looks,
        tally: session.tally,
    };
    // An early-stopped run played `start..next`; any other finished run `start..end`.
    let mut set = write_results(
        (exp, plan.runtime),
        plan.shard,
        (start, session.next),
        &report,
        &plan.agent_files,
    )?;
    session.files.stage(&mut set)?;
    set.commit()?;
    remove_stale(&plan.dir.join(CHECKPOINT))?;
    Ok(report)
}

/// Plays the deals of a session chunk by chunk, tallying and writing them in deal order, with
/// the progress bar, the long-run warning and the checkpoints. Returns how they ended.
#[allow(clippy::too_many_arguments)]
fn play_deals<G: GameKind>(
    game: &G,
    plan: &Plan<'_>,
    opts: &RunOptions,
    pool: &rayon::ThreadPool,
    threads: usize,
    session: &mut Session,
    sprt: Option<&SprtTest>,
) -> anyhow::Result<Ending> {
    let exp = plan.exp;
    let (start, end) = plan.range;
    let deal_plan = deal_plan(game, exp);
    let workers = Workers::<G>::new(threads, (exp, plan.runtime), Some(&plan.dir));
    let seat_tally = seat_tallies(exp, &session.tally.agents);
    let mut buffers = ChunkBuffers::new(exp);
    let mut pace = Pace::new(
        (opts.quiet, opts.checkpoint_every),
        threads,
        plan.range,
        session.next,
        session.resumed_from,
    );
    let stop = opts.stop.clone().unwrap_or_default();
    let faults = Faults::default();
    let ending = loop {
        if session.next >= end {
            break Ending::Done;
        }
        let chunk_start = session.next;
        let chunk_end = chunk_end(chunk_start, pace.size, end);
        // A sequential test looks only at its own fixed multiples: chunks never cross them.
        let chunk_end = sprt.map_or(chunk_end, |t| chunk_end.min(t.next_look(chunk_start)));
        let chunk_began = Instant::now();
        let range = (chunk_start, chunk_end);
        let played = play_chunk(
            pool,
            (game, deal_plan.as_ref()),
            exp,
            &workers,
            range,
            &mut buffers,
            plan.records,
            (&stop, &faults),
        );
        if let Some(ending) = faults.interrupted(played) {
            break ending;
        }
        session.add_chunk(exp, &seat_tally, &buffers, range)?;
        session.next = chunk_end;
        pace.progress(session.next - start);
        if let Some(t) = sprt.filter(|t| t.looks_at(session.next, end)) {
            let step = t.look(&session.tally);
            let decided = step.verdict != crate::sim::stats::sprt::Verdict::Continue;
            session.looks.push(step);
            if decided {
                break Ending::Done;
            }
        }
        pace.after_chunk(chunk_began, range);
        if stop.load(Ordering::Relaxed) {
            break Ending::Stopped;
        }
        if session.next < end && pace.checkpoint_due() {
            session.checkpoint(plan, pace.elapsed())?;
            pace.checkpointed();
        }
    };
    pace.finish();
    Ok(ending)
}

/// The tally index of every seat in every rotation: `[r][s]`.
fn seat_tallies(exp: &Experiment, agents: &[String]) -> Vec<[usize; MAX_SEATS]> {
    let slots = exp.tally_slots(agents);
    (0..exp.rotations())
        .map(|r| std::array::from_fn(|s| slots[exp.slot(r, s % exp.players())]))
        .collect()
}

/// The speed of an experiment's matchup (see [`throughput`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Throughput {
    /// Games played per second.
    pub(crate) games_per_s: f64,
    /// Mean turns per game ([`Outcome::turns`]): games/s compares games of different lengths,
    /// games/s × turns/game compares the work per turn.
    pub(crate) turns_per_game: f64,
}

/// The speed of an experiment's matchup in `runtime` on `threads` threads over `deals` deals:
/// the run's own deal loop (its luck corrector too, in a luck-corrected study), no files.
pub(crate) fn throughput(
    (exp, runtime): (&Experiment, &Runtime),
    threads: usize,
    deals: u64,
) -> anyhow::Result<Throughput> {
    struct Speed<'a>((&'a Experiment, &'a Runtime), usize, u64);
    impl GameVisitor for Speed<'_> {
        type Output = anyhow::Result<Throughput>;
        fn visit<G: GameKind>(self) -> anyhow::Result<Throughput> {
            let Speed((exp, runtime), threads, deals) = self;
            let game = G::build(exp.variant(), exp.players(), &exp.rules)?;
            let plan = deal_plan(&game, exp);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()?;
            let workers = Workers::<G>::new(threads, (exp, runtime), None);
            let mut buffers = ChunkBuffers::new(exp);
            let (stop, faults) = (AtomicBool::new(false), Faults::default());
            let began = Instant::now();
            let (mut games, mut turns) = (0u64, 0u64);
            let mut start = 0;
            while start < deals {
                let end = deals.min(start + 4096);
                let at = (&game, plan.as_ref());
                let range = (start, end);
                play_chunk(
                    &pool,
                    at,
                    exp,
                    &workers,
                    range,
                    &mut buffers,
                    false,
                    (&stop, &faults),
                );
                if let Some(Ending::Fault(f)) = faults.interrupted(true) {
                    bail!("agent {} failed in deal {}: {}", f.agent, f.deal, f.message);
                }
                let played = (end - start) as usize * buffers.per_deal;
                games += played as u64;
                turns += (buffers.outcomes[..played].iter())
                    .map(|o| u64::from(o.turns))
                    .sum::<u64>();
                start = end;
            }
            Ok(Throughput {
                games_per_s: games as f64 / began.elapsed().as_secs_f64(),
                turns_per_game: turns as f64 / games.max(1) as f64,
            })
        }
    }
    with_game(&exp.game, Speed((exp, runtime), threads, deals))?
}
