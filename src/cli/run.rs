//! `bailab run [EXPERIMENT.toml]`: play an experiment on all cores and write its statistics;
//! `bailab run --resume DIR`: finish a run that was stopped or killed.

use crate::sim::run::checkpoint::{read_checkpoint, Shard, Stopped, CHECKPOINT};
use crate::sim::run::console::print_report;
use crate::sim::run::experiment::{Experiment, Runtime};
use crate::sim::run::runner::{resume_run, run_experiment, RunOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `bailab run`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Without a file, runs the embedded default experiment \
(experiments/default.toml).\n\
Every path in an experiment file (its `output`, and the files of its agents: rules:PATH,\n\
greedy:PATH) is relative to its project folder: the folder of the experiment file, or its parent\n\
when that folder is named `experiments` (the default writes results/default), wherever bailab\n\
is run from. Paths on the command line (--output, play's --agent) are relative to the current\n\
folder. A checkpoint records the project folder, so --resume works from any folder.\n\
Writes summary.csv, tally.json, meta.json and run.json (and games.csv, records.jsonl when asked)\n\
into the output folder, all renamed into place together. A folder holding another experiment's\n\
results, or files bailab did not write (no tally.json), is refused without --force.\n\
The run checkpoints every few seconds: after Ctrl-C or a kill, `bailab run --resume DIR` goes on\n\
and writes exactly the files of an uninterrupted run. SIGTERM and SIGHUP (scancel, a time limit,\n\
a pod's deletion) stop it like Ctrl-C: a last checkpoint, the resume command, exit status 130.\n\
An [sprt] table in the experiment stops the run once a sequential test between two agents is\n\
decided (at fixed multiples of its chunk; `deals` is the budget): see docs/sprt.md.")]
pub(crate) struct Args {
    /// The experiment file (TOML); the embedded default when omitted.
    #[arg(conflicts_with = "resume")]
    pub(crate) experiment: Option<String>,
    /// Worker threads (default: all cores; at most 4 per core). Results do not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Play only shard K of N (0 ≤ K < N), e.g. `--shard 0/3`; combine with `bailab merge`.
    #[arg(long, conflicts_with = "resume")]
    pub(crate) shard: Option<String>,
    /// Output folder, relative to the current folder (default: the experiment's `output`, or
    /// `<output>/shard-K-of-N` for a shard).
    #[arg(long, conflicts_with = "resume")]
    pub(crate) output: Option<PathBuf>,
    /// Also write games.csv, one row per game.
    #[arg(long, conflicts_with = "resume")]
    pub(crate) games_csv: bool,
    /// Also write records.jsonl, one JSON game record per game (see docs/records.md).
    #[arg(long, conflicts_with = "resume")]
    pub(crate) records: bool,
    /// Continue the stopped or killed run whose checkpoint is in DIR.
    #[arg(long, value_name = "DIR")]
    pub(crate) resume: Option<PathBuf>,
    /// Write into a folder that holds another experiment's results, an unfinished run, or result
    /// files bailab did not write (they are replaced).
    #[arg(long, conflicts_with = "resume")]
    pub(crate) force: bool,
    /// If the output folder holds an unfinished run of this same experiment and shard, go on
    /// with it (as `--resume DIR`); otherwise start. For a scheduler's task that may run again
    /// (a Slurm requeue, a Kubernetes pod retry).
    #[arg(long = "continue", conflicts_with_all = ["resume", "force"])]
    pub(crate) continue_run: bool,
    /// No progress bar and no table (warnings still go to stderr).
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Seconds between checkpoints (by default 5, the first after 1 second so that a short run
    /// leaves something to resume; given, the first comes after as long as the others).
    #[arg(long, hide = true)]
    pub(crate) checkpoint_secs: Option<f64>,
}

/// Loads the experiment named on the command line, or the default, with the runtime it runs in
/// (its agent files read from the file's project folder, or the current folder).
pub(crate) fn load(path: Option<&str>) -> anyhow::Result<(Experiment, Runtime)> {
    match path {
        Some(p) => Ok((Experiment::load(p)?, Runtime::of_file(Path::new(p)))),
        None => Ok((Experiment::default_experiment(), Runtime::default())),
    }
}

/// A flag set by the first Ctrl-C (SIGINT), SIGTERM or SIGHUP (the `ctrlc` crate's `termination`
/// feature): the run stops at the next deal with a checkpoint and exits with status 130. A second
/// signal ends the process at once, also with 130 (the last checkpoint stays valid).
pub(crate) fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    stop_on_ctrl_c_at("the next deal")
}

/// [`stop_on_ctrl_c`] for a command that stops at `when` (`the end of the current generation`).
pub(crate) fn stop_on_ctrl_c_at(when: &'static str) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // Only the first handler of a process can be set; a failure leaves the default behaviour.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            // An exit that skips destructors: the outside agents are ended here.
            crate::generic_agents::exec::kill_agents();
            std::process::exit(130);
        }
        eprintln!("\nstopping at {when} (Ctrl-C or another signal to quit at once)…");
    });
    stop
}

/// Whether `dir` holds the checkpoint of an unfinished run of `exp` and `shard` (said on stderr,
/// with the deals done). A checkpoint of anything else is left to the fresh run's guard, which
/// refuses it.
fn same_unfinished_run(dir: &Path, exp: &Experiment, shard: Option<Shard>) -> anyhow::Result<bool> {
    if !dir.join(CHECKPOINT).exists() {
        return Ok(false);
    }
    let ck = read_checkpoint(dir)?;
    if !(exp.differences(&ck.experiment).is_empty() && ck.shard == shard) {
        return Ok(false);
    }
    eprintln!(
        "resuming the unfinished run in {} ({} of {} deals done)",
        dir.display(),
        ck.next - ck.deals.0,
        ck.deals.1 - ck.deals.0
    );
    Ok(true)
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    if !args
        .checkpoint_secs
        .is_none_or(|secs| secs >= 0.0 && secs.is_finite())
    {
        anyhow::bail!("--checkpoint-secs must be a number of seconds ≥ 0");
    }
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let mut opts = RunOptions {
        threads: args.threads,
        shard,
        quiet: args.quiet,
        output: args.output.clone(),
        games_csv: args.games_csv,
        records: args.records,
        force: args.force,
        stop: None,
        checkpoint_every: args.checkpoint_secs.map(Duration::from_secs_f64),
        runtime: Runtime::default(),
    };
    let (exp, result) = match &args.resume {
        Some(dir) => {
            let ck = read_checkpoint(dir)?;
            opts.stop = Some(stop_on_ctrl_c());
            (ck.experiment, resume_run(dir, &opts))
        }
        None => {
            let (exp, runtime) = load(args.experiment.as_deref())?;
            opts.runtime = runtime;
            let base = exp.resolve_output(args.experiment.as_deref().map(Path::new));
            opts.output = Some(match (&args.output, shard) {
                (Some(d), _) => d.clone(),
                (None, Some(s)) => base.join(format!("shard-{}-of-{}", s.k, s.n)),
                (None, None) => base,
            });
            opts.stop = Some(stop_on_ctrl_c());
            let dir = opts.output.clone().unwrap_or_default();
            let result = if args.continue_run && same_unfinished_run(&dir, &exp, shard)? {
                resume_run(&dir, &opts)
            } else {
                run_experiment(&exp, &opts)
            };
            (exp, result)
        }
    };
    match result {
        Ok(report) => {
            if !args.quiet {
                print_report(&exp, &report, &mut std::io::stdout())?;
            }
            Ok(())
        }
        Err(e) => match e.downcast_ref::<Stopped>() {
            Some(stopped) => {
                eprintln!("{stopped}");
                std::process::exit(130);
            }
            None => Err(e),
        },
    }
}
