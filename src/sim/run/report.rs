//! What a run reports: the result files (`summary.csv`, `tally.json`, `meta.json`, `run.json`),
//! the printed summary, the progress bar and the long-run warning, and the matchup's speed.

use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor};
use crate::sim::files::game_files::remove_stale;
use crate::sim::files::output::{console_summary, matches_csv, summary_csv, write_atomic};
use crate::sim::run::checkpoint::CHECKPOINT_EVERY;
use crate::sim::run::checkpoint::{absolute_project, Shard, TallyFile};
use crate::sim::run::experiment::Experiment;
use crate::sim::stats::sprt::sprt_csv;
use crate::sim::stats::sprt::{SprtOutcome, SprtStep};
use crate::sim::stats::tally::Tally;
use crate::text::thousands;
use anyhow::bail;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn progress_bar(done: u64, total: u64, quiet: bool) -> Option<indicatif::ProgressBar> {
    if quiet || !std::io::stdout().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:40} {human_pos}/{human_len} deals  {rate} deals/s  eta {eta}",
    )
    .expect("valid template")
    .with_key(
        "rate",
        |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}", thousands(s.per_sec().round() as u64));
        },
    );
    bar.set_style(style);
    bar.set_position(done);
    bar.reset_eta();
    Some(bar)
}

/// The most worker threads a run accepts: four per core, and at least 16. More threads than that
/// only add memory and scheduling (each holds its own agents), and tens of thousands of them can
/// exhaust the system; results never depend on the count.
pub fn max_threads() -> usize {
    (4 * cores()).max(16)
}

/// The machine's cores (1 if unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Checks a thread count against [`max_threads`].
pub fn check_threads(threads: usize) -> anyhow::Result<()> {
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let max = max_threads();
    if threads > max {
        bail!(
            "--threads {threads}: at most {max} on this machine (4 per core for its {} core(s), \
             at least 16); results are the same for any thread count",
            cores()
        );
    }
    Ok(())
}

/// A run estimated to need longer than this gets a warning (it still runs).
pub const WARN_LONGER_THAN: Duration = Duration::from_secs(24 * 3600);

/// A duration in words: seconds, minutes, hours, days or years.
pub fn human_duration(seconds: f64) -> String {
    let (value, unit) = match seconds {
        s if s < 120.0 => (s, "s"),
        s if s < 2.0 * 3600.0 => (s / 60.0, "min"),
        s if s < 2.0 * 86400.0 => (s / 3600.0, "h"),
        s if s < 2.0 * 365.25 * 86400.0 => (s / 86400.0, "days"),
        s => (s / (365.25 * 86400.0), "years"),
    };
    if value >= 1e6 {
        format!("{value:.1e} {unit}")
    } else {
        format!("{} {unit}", thousands(value.round() as u64))
    }
}

/// Writes `summary.csv`, `tally.json` and `meta.json` (the reproducible files: the same for any
/// threads, sharding or stops) and `run.json` (this machine's figures: threads, elapsed time,
/// games/s) for a finished run or merge.
pub fn write_results(
    exp: &Experiment,
    shard: Option<Shard>,
    deals: (u64, u64),
    r: &RunReport,
) -> anyhow::Result<()> {
    write_atomic(&r.dir, "summary.csv", &summary_csv(exp, &r.tally))?;
    match &r.sprt {
        Some(o) => write_atomic(&r.dir, "sprt.csv", &sprt_csv(&r.sprt_steps, o))?,
        None => remove_stale(&r.dir.join("sprt.csv"))?,
    }
    if r.tally.matches.is_empty() {
        remove_stale(&r.dir.join("matches.csv"))?;
    } else {
        write_atomic(&r.dir, "matches.csv", &matches_csv(exp, &r.tally))?;
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
    let mut meta = serde_json::json!({
        "experiment": exp,
        "version": env!("CARGO_PKG_VERSION"),
        "seed": exp.seed,
        "shard": shard.map(|s| format!("{}/{}", s.k, s.n)),
        "deals": [deals.0, deals.1],
        "games": r.games,
    });
    let mut run = serde_json::json!({
        "threads": r.threads,
        "cores": cores(),
        "elapsed_s": r.elapsed,
        "elapsed_is_sum_of_shards": r.threads.is_none(),
        "games_per_s": r.games as f64 / r.elapsed.max(1e-9),
        "sessions": r.sessions,
        "resumed_from_deal": r.resumed_from,
    });
    // where a run read its agent files (a merge reads none)
    if r.threads.is_some() {
        run["project"] = serde_json::to_value(absolute_project(exp))?;
    }
    if let Some(o) = &r.sprt {
        meta["sprt"] = serde_json::to_value(o)?;
        run["sprt"] = serde_json::to_value(o)?;
    }
    write_atomic(
        &r.dir,
        "meta.json",
        serde_json::to_string_pretty(&meta)?.as_bytes(),
    )?;
    write_atomic(
        &r.dir,
        "run.json",
        serde_json::to_string_pretty(&run)?.as_bytes(),
    )?;
    Ok(())
}

/// Prints the readable summary of a report.
pub fn print_report(exp: &Experiment, r: &RunReport, out: &mut impl Write) -> std::io::Result<()> {
    write!(out, "{}", console_summary(exp, &r.tally))?;
    if let Some(line) = describe_deal(exp) {
        writeln!(out, "{line}")?;
    }
    if let Some(o) = &r.sprt {
        writeln!(out, "{}", o.line())?;
    }
    let speed = match r.threads {
        Some(t) => format!(
            " in {} ({} games/s, {t} thread{}{})",
            if r.elapsed < 120.0 {
                format!("{:.2} s", r.elapsed)
            } else {
                human_duration(r.elapsed)
            },
            thousands((r.games as f64 / r.elapsed.max(1e-9)).round() as u64),
            if t == 1 { "" } else { "s" },
            match r.resumed_from {
                Some(d) => format!(
                    "; resumed at deal {}, {} sessions",
                    thousands(d),
                    r.sessions
                ),
                None => String::new(),
            }
        ),
        None => " merged from shards".to_string(),
    };
    writeln!(
        out,
        "{} games{speed}; results in {}",
        thousands(r.games),
        r.dir.display()
    )
}

/// The line the summary prints for an experiment with a `[deal]` table.
pub fn describe_deal(exp: &Experiment) -> Option<String> {
    struct Describe<'a>(&'a Experiment);
    impl GameVisitor for Describe<'_> {
        type Output = Option<String>;
        fn visit<G: GameKind>(self) -> Option<String> {
            let exp = self.0;
            let game = G::build(exp.variant(), exp.players(), &exp.rules).ok()?;
            let plan = exp.deal.as_ref()?.check(&game).ok()?;
            let rotation = if exp.rotations() > 1 {
                "; the fixed hands stay with their seats and the agents rotate through them"
            } else {
                ""
            };
            Some(format!("deal [deal]: {}{rotation}", plan.describe()))
        }
    }
    with_game(&exp.game, Describe(exp)).ok().flatten()
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
    /// Sessions the run took (more than 1 when it was resumed).
    pub sessions: u32,
    /// The deal the last session resumed at, if it was resumed.
    pub resumed_from: Option<u64>,
    /// How the early-stopping test ended, for an experiment with an `[sprt]` table.
    pub sprt: Option<SprtOutcome>,
    /// The looks of that test, in order (`sprt.csv`).
    pub sprt_steps: Vec<SprtStep>,
}

/// The most deals played per parallel batch; tallies are added in deal order after each batch.
/// Batches are sized to take about half a second (slow agents get small ones), and end at
/// multiples of their size.
const CHUNK: u64 = 4096;

/// The pace of a run's session: the chunk size fitted to the agents' speed, the progress bar,
/// the long-run warning and when the next checkpoint is due.
pub(super) struct Pace {
    /// The size of the next chunk.
    pub(super) size: u64,
    smallest: u64,
    bar: Option<indicatif::ProgressBar>,
    began: Instant,
    last_checkpoint: Instant,
    every: Duration,
    checkpoints: u32,
    warned: bool,
    threads: usize,
    /// Where this session began.
    from: u64,
    end: u64,
}

impl Pace {
    /// The pace of a session over deals `range`, at `next` (resumed at `resumed_from`),
    /// checkpointing `every` so often (default [`CHECKPOINT_EVERY`]); `quiet`: no bar.
    pub(super) fn new(
        (quiet, every): (bool, Option<Duration>),
        threads: usize,
        (start, end): (u64, u64),
        next: u64,
        resumed_from: Option<u64>,
    ) -> Pace {
        let bar = progress_bar(next - start, end - start, quiet);
        let smallest = (threads as u64).next_power_of_two().clamp(8, CHUNK);
        let began = Instant::now();
        Pace {
            size: smallest,
            smallest,
            bar,
            began,
            last_checkpoint: began,
            every: every.unwrap_or(CHECKPOINT_EVERY),
            checkpoints: 0,
            warned: false,
            threads,
            from: resumed_from.unwrap_or(start),
            end,
        }
    }

    /// Seconds since the session began.
    pub(super) fn elapsed(&self) -> f64 {
        self.began.elapsed().as_secs_f64()
    }

    /// Shows `done` deals of the range done.
    pub(super) fn progress(&self, done: u64) {
        if let Some(b) = &self.bar {
            b.set_position(done);
        }
    }

    /// Fits the next chunk to the speed of chunk `start..end` (begun at `chunk_began`): chunks
    /// of about half a second (less with frequent checkpoints), so that checkpoints and Ctrl-C
    /// come soon, whatever the agents; warns once if the rest of the run looks very long.
    pub(super) fn after_chunk(&mut self, chunk_began: Instant, (start, end): (u64, u64)) {
        let per_deal = chunk_began.elapsed().as_secs_f64() / (end - start) as f64;
        let target = (self.every.as_secs_f64() / 4.0).clamp(0.02, 0.5);
        let fits = (target / per_deal.max(1e-9)).min(CHUNK as f64) as u64;
        self.size = if fits >= 2 * self.smallest {
            (fits + 1).next_power_of_two() / 2
        } else {
            self.smallest
        };
        let elapsed = self.began.elapsed();
        if !self.warned && elapsed >= Duration::from_secs(1) && end < self.end {
            self.warned = true;
            self.warn((end - self.from) as f64 / elapsed.as_secs_f64(), end);
        }
    }

    /// The long-run warning, at `per_s` deals per second with deal `next` next.
    fn warn(&self, per_s: f64, next: u64) {
        let left = (self.end - next) as f64 / per_s.max(1e-9);
        if left > WARN_LONGER_THAN.as_secs_f64() {
            let line = format!(
                "warning: {} deals left at about {} deals/s on {} thread(s) need about {}; the \
                 run goes on (Ctrl-C stops it with a checkpoint to resume; --shard K/N splits it \
                 across machines)",
                thousands(self.end - next),
                thousands(per_s.round() as u64),
                self.threads,
                human_duration(left)
            );
            match &self.bar {
                Some(b) => b.println(line),
                None => eprintln!("{line}"),
            }
        }
    }

    /// Whether a checkpoint is due. The first comes after a second at most, so that even a
    /// short-lived run leaves something to resume.
    pub(super) fn checkpoint_due(&self) -> bool {
        let wait = if self.checkpoints == 0 {
            self.every.min(Duration::from_secs(1))
        } else {
            self.every
        };
        self.last_checkpoint.elapsed() >= wait
    }

    /// Notes a checkpoint just written.
    pub(super) fn checkpointed(&mut self) {
        self.last_checkpoint = Instant::now();
        self.checkpoints += 1;
    }

    /// Clears the progress bar.
    pub(super) fn finish(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }
}
