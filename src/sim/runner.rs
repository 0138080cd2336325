//! The runner: plays an experiment's deals on all cores (rayon) in fixed-size chunks, tallies
//! them in deal order and writes `summary.csv`, `games.csv`, `tally.json` and `meta.json`.
//! Every figure is a function of the experiment alone, whatever the threads or the sharding.

use super::experiment::Experiment;
use super::output::{console_summary, matches_csv, summary_csv, write_atomic};
use super::sprt::{sprt_csv, SprtOutcome, SprtStep, SprtTest};
use super::stats::Tally;
use super::{agent_rngs, match_deal_stream, play_out, GameId};
use crate::agent::Agent;
use crate::agents::catalogue::make_agent_with;
use crate::deal_spec::{deal_with_spec, DealPlan};
use crate::game::{Outcome, MAX_SEATS};
use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor};
use crate::rng::stream_rng;
use crate::sim::recorder::Recorder;
use crate::text::thousands;
use anyhow::{bail, Context};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most deals played per parallel batch; tallies are added in deal order after each batch.
/// Batches are sized to take about half a second (slow agents get small ones), and end at
/// multiples of their size.
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
    /// Write into a folder that holds another experiment's results or an unfinished run.
    pub force: bool,
    /// Set to stop the run at the next deal: it writes a checkpoint and returns [`Stopped`].
    pub stop: Option<Arc<AtomicBool>>,
    /// How often to checkpoint (default [`CHECKPOINT_EVERY`]).
    pub checkpoint_every: Option<Duration>,
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
    /// Sessions the run took (more than 1 when it was resumed).
    pub sessions: u32,
    /// The deal the last session resumed at, if it was resumed.
    pub resumed_from: Option<u64>,
    /// How the early-stopping test ended, for an experiment with an `[sprt]` table.
    pub sprt: Option<SprtOutcome>,
    /// The looks of that test, in order (`sprt.csv`).
    pub sprt_steps: Vec<SprtStep>,
}

/// The agents of an experiment, one per seat slot (built per worker thread).
fn make_agents<G: GameKind>(exp: &Experiment) -> Vec<Box<dyn Agent<G::State>>> {
    exp.agents
        .iter()
        .map(|s| make_agent_with::<G>(s, exp.setting()).expect("checked by Experiment::check"))
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
    let plan = deal_plan(game, exp);
    play_deal_with(game, plan.as_ref(), exp, deal, agents, records, result)
}

/// The checked plan of an experiment's `[deal]` table, if it has one.
pub fn deal_plan<G: GameKind>(game: &G, exp: &Experiment) -> Option<DealPlan> {
    exp.deal
        .as_ref()
        .map(|d| d.check(game).expect("checked by Experiment::check"))
}

/// [`play_deal`] with the experiment's deal plan checked once by the caller ([`deal_plan`]):
/// with a plan, every deal fixes its cards and fills the rest from the deal's own stream.
pub fn play_deal_with<G: GameKind>(
    game: &G,
    plan: Option<&DealPlan>,
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
            let mut s = match (&state, plan) {
                (None, None) => game.deal(&mut deck_rng),
                (None, Some(plan)) => deal_with_spec(game, plan, &mut deck_rng),
                (Some(previous), _) => game.deal_next(previous, &mut deck_rng),
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

/// A per-game file being written as `NAME.partial`, renamed to `NAME` when the run is complete.
/// A checkpoint records its length, so a resumed run cuts off whatever was written after it.
struct PartialFile {
    name: &'static str,
    partial: PathBuf,
    writer: std::io::BufWriter<std::fs::File>,
    buffer: Vec<u8>,
}

impl PartialFile {
    fn partial_path(dir: &Path, name: &str) -> PathBuf {
        dir.join(format!("{name}.partial"))
    }

    /// A new, empty `NAME.partial`.
    fn create(dir: &Path, name: &'static str) -> anyhow::Result<PartialFile> {
        let partial = Self::partial_path(dir, name);
        let file = std::fs::File::create(&partial)
            .with_context(|| format!("creating {}", partial.display()))?;
        Ok(PartialFile {
            name,
            partial,
            writer: std::io::BufWriter::new(file),
            buffer: Vec::new(),
        })
    }

    /// `NAME.partial` of a stopped run, cut to the `len` bytes its checkpoint vouches for. A
    /// file already renamed to `NAME` (a run killed while finishing) is taken back.
    fn resume(dir: &Path, name: &'static str, len: u64) -> anyhow::Result<PartialFile> {
        let partial = Self::partial_path(dir, name);
        let done = dir.join(name);
        if !partial.exists() && done.exists() {
            std::fs::rename(&done, &partial)
                .with_context(|| format!("taking back {}", done.display()))?;
        }
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&partial)
            .with_context(|| {
                format!(
                    "{}: the checkpoint needs it to resume (start over with --force)",
                    partial.display()
                )
            })?;
        let have = file.metadata()?.len();
        if have < len {
            bail!(
                "{}: {have} bytes, but the checkpoint counts {len}: the folder was changed since \
                 (start over with --force)",
                partial.display()
            );
        }
        file.set_len(len)?;
        let mut writer = std::io::BufWriter::new(file);
        writer.seek(std::io::SeekFrom::Start(len))?;
        Ok(PartialFile {
            name,
            partial,
            writer,
            buffer: Vec::new(),
        })
    }

    /// Flushes what is written to the disk and returns the file's length.
    fn sync(&mut self) -> anyhow::Result<u64> {
        self.writer.flush()?;
        let file = self.writer.get_ref();
        file.sync_data()
            .with_context(|| format!("syncing {}", self.partial.display()))?;
        Ok(file.metadata()?.len())
    }

    /// Renames the finished file to its name.
    fn commit(mut self, dir: &Path) -> anyhow::Result<()> {
        self.sync()?;
        let done = dir.join(self.name);
        std::fs::rename(&self.partial, &done)
            .with_context(|| format!("renaming {} to {}", self.partial.display(), done.display()))
    }
}

/// The optional per-game files of a run, written as the deals come in, in deal order.
struct GameFiles {
    games: Option<PartialFile>,
    records: Option<PartialFile>,
}

impl GameFiles {
    fn create(dir: &Path, exp: &Experiment, games: bool, records: bool) -> anyhow::Result<Self> {
        let games = if games {
            let mut f = PartialFile::create(dir, "games.csv")?;
            let mut w = csv::Writer::from_writer(f.writer.by_ref());
            w.write_record(games_header(exp))?;
            w.flush()?;
            drop(w);
            Some(f)
        } else {
            None
        };
        let records = if records {
            Some(PartialFile::create(dir, "records.jsonl")?)
        } else {
            None
        };
        Ok(GameFiles { games, records })
    }

    fn resume(dir: &Path, lens: &BTreeMap<String, u64>) -> anyhow::Result<Self> {
        let open = |name: &'static str| {
            lens.get(name)
                .map(|&len| PartialFile::resume(dir, name, len))
                .transpose()
        };
        Ok(GameFiles {
            games: open("games.csv")?,
            records: open("records.jsonl")?,
        })
    }

    fn write_deal(
        &mut self,
        exp: &Experiment,
        deal: u64,
        result: &DealResult,
    ) -> anyhow::Result<()> {
        if let Some(f) = self.games.as_mut() {
            f.buffer.clear();
            let mut w = csv::Writer::from_writer(&mut f.buffer);
            for (g, o) in result.outcomes.iter().enumerate() {
                w.write_record(game_row(exp, deal, g, o))?;
            }
            w.flush()?;
            drop(w);
            f.writer.write_all(&f.buffer)?;
        }
        if let Some(f) = self.records.as_mut() {
            for line in &result.records {
                writeln!(f.writer, "{line}")?;
            }
        }
        Ok(())
    }

    /// Flushes both files to the disk: their lengths, by name, for a checkpoint.
    fn sync(&mut self) -> anyhow::Result<BTreeMap<String, u64>> {
        let mut lens = BTreeMap::new();
        for f in [self.games.as_mut(), self.records.as_mut()]
            .into_iter()
            .flatten()
        {
            lens.insert(f.name.to_string(), f.sync()?);
        }
        Ok(lens)
    }

    /// Renames the finished files into place and removes stale ones an earlier run left.
    fn commit(self, dir: &Path) -> anyhow::Result<()> {
        for (file, name) in [(self.games, "games.csv"), (self.records, "records.jsonl")] {
            match file {
                Some(f) => f.commit(dir)?,
                None => remove_stale(&dir.join(name))?,
            }
        }
        Ok(())
    }
}
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

/// The `games.csv` header of an experiment: a `match_game` column when it plays matches, and
/// `place_S` columns when its game ranks the seats.
pub fn games_header(exp: &Experiment) -> Vec<String> {
    let n = exp.players();
    let mut h = vec!["deal".to_string(), "rotation".to_string()];
    if exp.match_games > 1 {
        h.push("match_game".into());
    }
    h.extend((0..n).map(|s| format!("agent_{s}")));
    h.extend(["winner", "winner_agent", "reason"].map(String::from));
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
    let winner_agent = o
        .winner
        .map(|w| exp.agents[exp.slot(rotation, w as usize)].clone())
        .unwrap_or_default();
    row.extend([opt(o.winner), winner_agent, o.reason.to_string()]);
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

/// The speed of an experiment's matchup (see [`throughput`]).
#[derive(Copy, Clone, Debug)]
pub struct Throughput {
    /// Games played per second.
    pub games_per_s: f64,
    /// Mean turns per game ([`Outcome::turns`]): games/s compares games of different lengths,
    /// games/s × turns/game compares the work per turn.
    pub turns_per_game: f64,
}

/// The speed of an experiment's matchup on `threads` threads over `deals` deals (no files).
pub fn throughput(exp: &Experiment, threads: usize, deals: u64) -> anyhow::Result<Throughput> {
    struct Speed<'a>(&'a Experiment, usize, u64);
    impl GameVisitor for Speed<'_> {
        type Output = anyhow::Result<Throughput>;
        fn visit<G: GameKind>(self) -> anyhow::Result<Throughput> {
            let Speed(exp, threads, deals) = self;
            let game =
                G::build(exp.variant(), exp.players(), &exp.rules).map_err(anyhow::Error::msg)?;
            let plan = deal_plan(&game, exp);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()?;
            let began = Instant::now();
            let (games, turns): (usize, u64) = pool.install(|| {
                (0..deals)
                    .into_par_iter()
                    .map_init(
                        || (make_agents::<G>(exp), DealResult::default()),
                        |(agents, result), deal| {
                            result.outcomes.clear();
                            play_deal_with(&game, plan.as_ref(), exp, deal, agents, false, result);
                            let turns = result.outcomes.iter().map(|o| u64::from(o.turns)).sum();
                            (result.outcomes.len(), turns)
                        },
                    )
                    .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
            });
            Ok(Throughput {
                games_per_s: games as f64 / began.elapsed().as_secs_f64(),
                turns_per_game: turns as f64 / games.max(1) as f64,
            })
        }
    }
    with_game(&exp.game, Speed(exp, threads, deals)).map_err(anyhow::Error::msg)?
}

/// The most worker threads a run accepts: four per core, and at least 16. More threads than that
/// only add memory and scheduling (each holds its own agents), and tens of thousands of them can
/// exhaust the system; results never depend on the count.
pub fn max_threads() -> usize {
    (4 * cores()).max(16)
}

fn cores() -> usize {
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

/// The file that holds the state of an unfinished run.
pub const CHECKPOINT: &str = "checkpoint.json";

/// The value of a checkpoint's `format` key.
pub const CHECKPOINT_FORMAT: &str = "bailab-checkpoint/1";

/// How often a run checkpoints by default (at the first chunk boundary after this long).
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(5);

/// A run estimated to need longer than this gets a warning (it still runs).
pub const WARN_LONGER_THAN: Duration = Duration::from_secs(24 * 3600);

/// The state of an unfinished run (`checkpoint.json`): the deals done so far, their exact
/// tallies and how long each per-game file was at that point. `bailab run --resume DIR` goes on
/// from here and writes the same files as a run that was never stopped.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Always [`CHECKPOINT_FORMAT`].
    pub format: String,
    /// The experiment as run.
    pub experiment: Experiment,
    /// The shard, if any.
    pub shard: Option<Shard>,
    /// The deal range of the run.
    pub deals: (u64, u64),
    /// Deals `deals.0 .. next` are done.
    pub next: u64,
    /// Their exact tallies.
    pub tally: Tally,
    /// Byte length of each per-game file (`games.csv`, `records.jsonl`) written so far, as
    /// `NAME.partial`; the run writes exactly these.
    pub files: BTreeMap<String, u64>,
    /// Wall time of the sessions so far, in seconds.
    pub elapsed_s: f64,
    /// Sessions so far (1 for a run that was never resumed).
    pub sessions: u32,
    /// The looks of the early-stopping test so far (runs with an `[sprt]` table).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sprt: Vec<SprtStep>,
    /// The absolute folder the experiment's agent files are read from (its project folder, see
    /// [`Experiment::project`]), so that a resumed run reads the same files from any folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<PathBuf>,
}

/// A run stopped on request (Ctrl-C) after writing its checkpoint: an error that says how to
/// go on.
#[derive(Debug)]
pub struct Stopped {
    /// The output folder, which holds the checkpoint.
    pub dir: PathBuf,
    /// Deals done (of the run's range).
    pub done: u64,
    /// Deals in the run's range.
    pub total: u64,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "stopped after {} of {} deals; the finished part is kept in {}. Continue with:\n  \
             bailab run --resume {}",
            thousands(self.done),
            thousands(self.total),
            self.dir.display(),
            shell_word(&self.dir.display().to_string())
        )
    }
}

impl std::error::Error for Stopped {}

/// A path as one shell word (quoted when it needs to be).
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The files a run or a merge writes into its folder (the per-game ones also as `NAME.partial`
/// while a run is unfinished, and every one as `NAME.<pid>.tmp` while it is written).
pub const RUN_FILES: [&str; 9] = [
    "summary.csv",
    "sprt.csv",
    "matches.csv",
    "tally.json",
    "meta.json",
    "run.json",
    "games.csv",
    "records.jsonl",
    CHECKPOINT,
];

/// An exclusive hold on an output folder (an advisory lock on the folder itself, released when
/// the process ends, however it ends): no two runs or merges write into one folder at once.
pub struct FolderLock {
    _dir: Option<std::fs::File>,
}

impl FolderLock {
    /// Creates the folder if needed and locks it; a path that names a file is refused.
    pub fn take(dir: &Path) -> anyhow::Result<FolderLock> {
        if dir.exists() && !dir.is_dir() {
            bail!(
                "{}: the output path is a file, not a folder (results go into a folder: name a \
                 new or existing folder)",
                dir.display()
            );
        }
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        // Folders open as files on Unix; elsewhere the lock is skipped.
        let Ok(handle) = std::fs::File::open(dir) else {
            return Ok(FolderLock { _dir: None });
        };
        match handle.try_lock() {
            Ok(()) => Ok(FolderLock { _dir: Some(handle) }),
            Err(std::fs::TryLockError::WouldBlock) => bail!(
                "{}: another bailab run or merge is writing into this folder",
                dir.display()
            ),
            // A file system without locks: go on unlocked.
            Err(std::fs::TryLockError::Error(_)) => Ok(FolderLock { _dir: None }),
        }
    }
}

/// Removes what a dead run left in a locked folder: temporary files (`NAME.<pid>.tmp`) of the
/// result files, and, unless `keep_partial`, the unfinished per-game files (`NAME.partial`).
/// Other files are never touched.
fn remove_leftovers(dir: &Path, keep_partial: bool) -> anyhow::Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let leftover = RUN_FILES.iter().any(|base| {
            let Some(rest) = name.strip_prefix(base) else {
                return false;
            };
            let tmp = rest
                .strip_prefix('.')
                .and_then(|r| r.strip_suffix(".tmp"))
                .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
            tmp || (rest == ".partial" && !keep_partial)
        });
        if leftover {
            remove_stale(&entry.path())?;
        }
    }
    Ok(())
}

/// Refuses to write into a folder that holds another experiment's results or any unfinished run,
/// unless `force`; with `force`, removes the checkpoint.
fn guard_folder(
    dir: &Path,
    exp: &Experiment,
    shard: Option<Shard>,
    force: bool,
) -> anyhow::Result<()> {
    let show = dir.display();
    let ck_path = dir.join(CHECKPOINT);
    if ck_path.exists() {
        if force {
            return remove_stale(&ck_path);
        }
        let ck = read_checkpoint(dir)?;
        if exp.differences(&ck.experiment).is_empty() && ck.shard == shard {
            bail!(
                "{show} holds an unfinished run of this experiment ({} of {} deals done): continue \
                 it with `bailab run --resume {}`, or start over with --force",
                thousands(ck.next - ck.deals.0),
                thousands(ck.deals.1 - ck.deals.0),
                shell_word(&show.to_string())
            );
        }
        bail!(
            "{show} holds an unfinished run of another experiment ('{}'; {}): choose another \
             folder with --output, or discard it with --force",
            ck.experiment.name,
            describe(&exp.differences(&ck.experiment), ck.shard, shard)
        );
    }
    let tally_path = dir.join("tally.json");
    if tally_path.exists() && !force {
        let there: TallyFile = std::fs::read_to_string(&tally_path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{show} holds a tally.json that is not a bailab tally: choose another folder \
                     with --output, or replace it with --force"
                )
            })?;
        let diffs = exp.differences(&there.experiment);
        if !diffs.is_empty() {
            bail!(
                "{show} holds the results of another experiment ('{}'; {}): choose another \
                 folder with --output, or replace them with --force",
                there.experiment.name,
                diffs.join("; ")
            );
        }
    }
    Ok(())
}

fn describe(diffs: &[String], there: Option<Shard>, here: Option<Shard>) -> String {
    let mut all = diffs.to_vec();
    if there != here {
        let s = |x: Option<Shard>| x.map_or("none".to_string(), |s| format!("{}/{}", s.k, s.n));
        all.push(format!("shard: {} there, {} here", s(there), s(here)));
    }
    all.join("; ")
}

/// Reads the checkpoint of an unfinished run in `dir`.
pub fn read_checkpoint(dir: &Path) -> anyhow::Result<Checkpoint> {
    let path = dir.join(CHECKPOINT);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let partial = ["games.csv", "records.jsonl"]
                .iter()
                .any(|n| PartialFile::partial_path(dir, n).exists());
            if partial {
                bail!(
                    "{}: the run there ended before its first checkpoint (no {CHECKPOINT}): \
                     nothing to resume; start it again",
                    dir.display()
                );
            }
            bail!(
                "{}: no unfinished run to resume here (no {CHECKPOINT}; a finished run removes it)",
                dir.display()
            )
        }
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let ck: Checkpoint = serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not a bailab checkpoint (start over with --force)",
            path.display()
        )
    })?;
    if ck.format != CHECKPOINT_FORMAT {
        bail!(
            "{}: format '{}' is not {CHECKPOINT_FORMAT}",
            path.display(),
            ck.format
        );
    }
    Ok(ck)
}

/// Runs an experiment and writes its files into its output folder (the default for a shard:
/// `<output>/shard-K-of-N`). Refuses a folder that holds another experiment's results or an
/// unfinished run, unless `opts.force`. Earlier results in the folder are replaced only when the
/// new ones are complete. Stopped through `opts.stop`, it writes a checkpoint and returns a
/// [`Stopped`] error.
pub fn run_experiment(exp: &Experiment, opts: &RunOptions) -> anyhow::Result<RunReport> {
    exp.check().map_err(anyhow::Error::msg)?;
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
        shard: opts.shard,
        range,
        dir,
        games_csv: exp.games_csv || opts.games_csv,
        records: exp.records || opts.records,
        resume: None,
        _lock: lock,
    };
    run_plan(plan, opts)
}

/// Continues the unfinished run whose checkpoint is in `dir` (`opts.output`, `shard`,
/// `games_csv`, `records` and `force` do not apply): the files it writes are byte for byte
/// those of a run that was never stopped.
pub fn resume_run(dir: &Path, opts: &RunOptions) -> anyhow::Result<RunReport> {
    let lock = FolderLock::take(dir)?;
    let mut ck = read_checkpoint(dir)?;
    ck.experiment.project = ck.project.clone();
    ck.experiment.check().map_err(|e| {
        anyhow::anyhow!(
            "{}: the checkpoint's experiment: {e}",
            dir.join(CHECKPOINT).display()
        )
    })?;
    remove_leftovers(dir, true)?;
    let exp = ck.experiment.clone();
    let plan = Plan {
        exp: &exp,
        shard: ck.shard,
        range: ck.deals,
        dir: dir.to_path_buf(),
        games_csv: ck.files.contains_key("games.csv"),
        records: ck.files.contains_key("records.jsonl"),
        resume: Some(ck),
        _lock: lock,
    };
    run_plan(plan, opts)
}

/// What a run is to do.
struct Plan<'a> {
    exp: &'a Experiment,
    shard: Option<Shard>,
    range: (u64, u64),
    dir: PathBuf,
    games_csv: bool,
    records: bool,
    resume: Option<Checkpoint>,
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
    with_game(&game, Run(plan, opts)).map_err(anyhow::Error::msg)?
}

/// The chunk of deals after `next`: up to the next multiple of `size` (so boundaries are fixed
/// deal numbers), at most `end`.
fn chunk_end(next: u64, size: u64, end: u64) -> u64 {
    ((next / size + 1) * size).min(end)
}

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

/// [`run_experiment`] and [`resume_run`] for game `G`.
fn run_game<G: GameKind>(plan: Plan<'_>, opts: &RunOptions) -> anyhow::Result<RunReport> {
    let exp = plan.exp;
    let dir = plan.dir.clone();
    let game = G::build(exp.variant(), exp.players(), &exp.rules).map_err(anyhow::Error::msg)?;
    let (start, end) = plan.range;
    let threads = opts.threads.unwrap_or_else(cores);
    check_threads(threads)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let records = plan.records;
    let deal_plan = deal_plan(&game, exp);
    // The looks of an early-stopping test so far (read by the checkpoints).
    let looks = std::cell::RefCell::new(
        plan.resume
            .as_ref()
            .map_or_else(Vec::new, |ck| ck.sprt.clone()),
    );
    let (mut tally, mut next, mut files, prior_elapsed, sessions, resumed_from) = match plan.resume
    {
        Some(ck) => (
            ck.tally,
            ck.next,
            GameFiles::resume(&dir, &ck.files)?,
            ck.elapsed_s,
            ck.sessions + 1,
            Some(ck.next),
        ),
        None => (
            Tally::new(&exp.agents),
            start,
            GameFiles::create(&dir, exp, plan.games_csv, records)?,
            0.0,
            1,
            None,
        ),
    };
    let sprt = exp
        .sprt
        .as_ref()
        .map(|c| SprtTest::new(c, &exp.agents, &tally))
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let checkpoint = |tally: &Tally, next: u64, files: &mut GameFiles, elapsed: f64| {
        let ck = Checkpoint {
            format: CHECKPOINT_FORMAT.to_string(),
            experiment: exp.clone(),
            shard: plan.shard,
            deals: (start, end),
            next,
            tally: tally.clone(),
            files: files.sync()?,
            elapsed_s: prior_elapsed + elapsed,
            sessions,
            sprt: looks.borrow().clone(),
            project: absolute_project(exp),
        };
        write_atomic(&dir, CHECKPOINT, serde_json::to_string(&ck)?.as_bytes())?;
        anyhow::Ok(())
    };
    let bar = progress_bar(next - start, end - start, opts.quiet);
    let began = Instant::now();
    let mut last_checkpoint = began;
    let every = opts.checkpoint_every.unwrap_or(CHECKPOINT_EVERY);
    let stop = opts.stop.clone().unwrap_or_default();
    let k = exp.match_games as usize;
    let seat_tally: Vec<[usize; MAX_SEATS]> = (0..exp.rotations())
        .map(|r| std::array::from_fn(|s| tally_index(exp, &tally.agents, r, s % exp.players())))
        .collect();
    let smallest = (threads as u64).next_power_of_two().clamp(8, CHUNK);
    let mut size = smallest;
    let mut warned = false;
    let mut stopped = false;
    let mut checkpoints = 0u32;
    while next < end {
        let chunk_start = next;
        let chunk_end = chunk_end(next, size, end);
        // A sequential test looks only at its own fixed multiples: chunks never cross them.
        let chunk_end = sprt
            .as_ref()
            .map_or(chunk_end, |t| chunk_end.min(t.next_look(next)));
        let chunk_began = Instant::now();
        let results: Vec<Option<DealResult>> = pool.install(|| {
            (chunk_start..chunk_end)
                .into_par_iter()
                .map_init(
                    || make_agents::<G>(exp),
                    |agents, deal| {
                        if stop.load(Ordering::Relaxed) {
                            return None;
                        }
                        let mut result = DealResult::default();
                        play_deal_with(
                            &game,
                            deal_plan.as_ref(),
                            exp,
                            deal,
                            agents,
                            records,
                            &mut result,
                        );
                        Some(result)
                    },
                )
                .collect()
        });
        if results.iter().any(Option::is_none) {
            stopped = true;
            break;
        }
        for (i, result) in results.iter().flatten().enumerate() {
            tally.add_deal(&result.outcomes, |g, s| seat_tally[g / k][s]);
            if k > 1 {
                tally.add_matches(&result.outcomes, k, |g, s| seat_tally[g / k][s]);
            }
            files.write_deal(exp, chunk_start + i as u64, result)?;
        }
        next = chunk_end;
        if let Some(b) = &bar {
            b.set_position(next - start);
        }
        if let Some(t) = sprt.as_ref().filter(|t| t.looks_at(next, end)) {
            let step = t.look(&tally);
            let decided = step.verdict != super::sprt::Verdict::Continue;
            looks.borrow_mut().push(step);
            if decided {
                break;
            }
        }
        // Chunks of about half a second (less with frequent checkpoints): checkpoints and
        // Ctrl-C come soon, whatever the agents.
        let per_deal = chunk_began.elapsed().as_secs_f64() / (chunk_end - chunk_start) as f64;
        let target = (every.as_secs_f64() / 4.0).clamp(0.02, 0.5);
        let fits = (target / per_deal.max(1e-9)).min(CHUNK as f64) as u64;
        size = if fits >= 2 * smallest {
            (fits + 1).next_power_of_two() / 2
        } else {
            smallest
        };
        let elapsed = began.elapsed();
        if !warned && elapsed >= Duration::from_secs(1) && next < end {
            warned = true;
            let done_here = (next - resumed_from.unwrap_or(start)) as f64;
            let per_s = done_here / elapsed.as_secs_f64();
            let left = (end - next) as f64 / per_s.max(1e-9);
            if left > WARN_LONGER_THAN.as_secs_f64() {
                let line = format!(
                    "warning: {} deals left at about {} deals/s on {threads} thread(s) need about \
                     {}; the run goes on (Ctrl-C stops it with a checkpoint to resume; \
                     --shard K/N splits it across machines)",
                    thousands(end - next),
                    thousands(per_s.round() as u64),
                    human_duration(left)
                );
                match &bar {
                    Some(b) => b.println(line),
                    None => eprintln!("{line}"),
                }
            }
        }
        if stop.load(Ordering::Relaxed) {
            stopped = true;
            break;
        }
        // The first checkpoint comes after a second at most, so that even a short-lived run
        // leaves something to resume.
        let wait = if checkpoints == 0 {
            every.min(Duration::from_secs(1))
        } else {
            every
        };
        if next < end && last_checkpoint.elapsed() >= wait {
            checkpoint(&tally, next, &mut files, elapsed.as_secs_f64())?;
            last_checkpoint = Instant::now();
            checkpoints += 1;
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if stopped {
        checkpoint(&tally, next, &mut files, began.elapsed().as_secs_f64())?;
        return Err(Stopped {
            dir,
            done: next - start,
            total: end - start,
        }
        .into());
    }
    let elapsed = prior_elapsed + began.elapsed().as_secs_f64();
    let report = RunReport {
        dir: dir.clone(),
        games: tally.games,
        tally,
        elapsed,
        threads: Some(threads),
        sessions,
        resumed_from,
        sprt: sprt.as_ref().map(|t| t.outcome(&looks.borrow(), end)),
        sprt_steps: looks.into_inner(),
    };
    // An early-stopped run played `start..next`; any other finished run `start..end`.
    write_results(exp, plan.shard, (start, next), &report)?;
    files.commit(&dir)?;
    remove_stale(&dir.join(CHECKPOINT))?;
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

/// The absolute folder the agent files of `exp` are read from: its project folder, or the
/// current folder (`None` only if the current folder cannot be named).
pub fn absolute_project(exp: &Experiment) -> Option<PathBuf> {
    let folder = exp.project.as_deref().unwrap_or(Path::new("."));
    folder
        .canonicalize()
        .or_else(|_| std::path::absolute(folder))
        .ok()
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

/// Prepares the output folder of a merge: locked, refused if it holds another experiment's
/// results or an unfinished run (unless `force`), temporary leftovers removed.
pub fn prepare_merge(dir: &Path, exp: &Experiment, force: bool) -> anyhow::Result<FolderLock> {
    let lock = FolderLock::take(dir)?;
    guard_folder(dir, exp, None, force)?;
    remove_leftovers(dir, false)?;
    Ok(lock)
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
