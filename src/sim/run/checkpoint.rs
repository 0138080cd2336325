//! A run's output folder: the lock, the guards against mixing studies, and the checkpoint of an
//! unfinished run (`checkpoint.json`) that `bailab run --resume` goes on from.

use crate::sim::files::game_files::remove_stale;
use crate::sim::files::game_files::PartialFile;
use crate::sim::files::guard::{refuse_folders, refuse_foreign};
use crate::sim::files::seal::{self, Layout};
use crate::sim::run::experiment::{Experiment, Runtime};
use crate::sim::run::integrity::{
    check_tally, expected_range, Bad, IntegrityError, CHECKPOINT_REMEDY, TALLY_REMEDY,
};
use crate::sim::stats::sprt::SprtStep;
use crate::sim::stats::tally::Tally;
use crate::text::thousands;
use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The file that holds the state of an unfinished run.
pub(crate) const CHECKPOINT: &str = "checkpoint.json";

/// The value of a checkpoint's `format` key.
pub(crate) const CHECKPOINT_FORMAT: &str = "bailab-checkpoint/1";

/// How often a run checkpoints by default (at the first chunk boundary after this long).
pub(crate) const CHECKPOINT_EVERY: Duration = Duration::from_secs(5);

/// The state of an unfinished run (`checkpoint.json`): the deals done so far, their exact
/// tallies and how long each per-game file was at that point. `bailab run --resume DIR` goes on
/// from here and writes the same files as a run that was never stopped. The file is sealed
/// ([`seal`]: its last key is the checksum of the rest) and read back only if it checks and its
/// counts add up ([`parse_checkpoint`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Always `CHECKPOINT_FORMAT`.
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
    pub(crate) elapsed_s: f64,
    /// Sessions so far (1 for a run that was never resumed).
    pub(crate) sessions: u32,
    /// The looks of the early-stopping test so far (runs with an `[sprt]` table).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sprt: Vec<SprtStep>,
    /// The absolute folder the experiment's agent files are read from (its project folder, see
    /// [`Runtime::project`]), so that a resumed run reads the same files from any folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<PathBuf>,
    /// The digest of every agent file the run read, by the path its spec writes (see
    /// [`crate::sim::run::integrity::agent_file_digests`]): a resumed run refuses files that
    /// changed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub agent_files: BTreeMap<String, String>,
}

impl Checkpoint {
    /// The checkpoint as its file holds it: compact JSON, sealed.
    pub fn to_file_text(&self) -> anyhow::Result<String> {
        Ok(seal::seal(&serde_json::to_string(self)?, Layout::Compact))
    }
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
pub(crate) const RUN_FILES: [&str; 9] = [
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
pub(crate) struct FolderLock {
    _dir: Option<std::fs::File>,
}

impl FolderLock {
    /// Creates the folder if needed and locks it; a path that names a file is refused.
    pub(crate) fn take(dir: &Path) -> anyhow::Result<FolderLock> {
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
pub(super) fn remove_leftovers(dir: &Path, keep_partial: bool) -> anyhow::Result<()> {
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

/// Refuses to write into a folder that holds another experiment's results, any unfinished run,
/// or result files of no bailab run, unless `force` (with `force`, removes the checkpoint); and
/// a folder where a result file goes.
pub(super) fn guard_folder(
    dir: &Path,
    exp: &Experiment,
    shard: Option<Shard>,
    force: bool,
) -> anyhow::Result<()> {
    let show = dir.display();
    refuse_folders(dir, &RUN_FILES)?;
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
        let there: TallyFile = crate::input::read_text(&tally_path, crate::input::TALLY)
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
    let kind = "bailab run's results (no tally.json)";
    refuse_foreign(dir, &RUN_FILES, kind, tally_path.exists(), force)
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
    let text = match crate::input::read_text(&path, crate::input::TALLY) {
        Ok(t) => t,
        Err(crate::input::InputError {
            problem: crate::input::InputProblem::Read(e),
            ..
        }) if e.kind() == std::io::ErrorKind::NotFound => {
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
        Err(e) => return Err(e.into()),
    };
    parse_checkpoint(&path, &text)
}

/// Reads the text of checkpoint file `path`: refused unless its checksum checks, its format is
/// `CHECKPOINT_FORMAT`, its deal range is its experiment's (or shard's), `next` lies in it and
/// its tally adds up to the deals before `next` (an [`IntegrityError`] naming the field).
pub fn parse_checkpoint(path: &Path, text: &str) -> anyhow::Result<Checkpoint> {
    let remedy = CHECKPOINT_REMEDY;
    seal::check(text, Layout::Compact).map_err(|error| IntegrityError::Checksum {
        file: path.to_path_buf(),
        error,
        remedy,
    })?;
    let ck: Checkpoint = serde_json::from_str(text).with_context(|| {
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
    check_checkpoint(&ck).map_err(|bad| bad.in_file(path, remedy))?;
    Ok(ck)
}

/// The counts of a checkpoint: its range, `next`, its tally and its early-stopping looks.
fn check_checkpoint(ck: &Checkpoint) -> Result<(), Bad> {
    let exp = &ck.experiment;
    check_range(exp, ck.shard, ck.deals, false)?;
    let (start, end) = ck.deals;
    if !(start..=end).contains(&ck.next) {
        return Err(Bad::new(
            "next",
            format!("{} is not within the deals {start}..{end}", ck.next),
        ));
    }
    check_tally(exp, ck.next - start, &ck.tally)?;
    let looks = ck.sprt.iter().map(|s| s.deals);
    if !looks.clone().zip(looks.skip(1)).all(|(a, b)| a < b)
        || ck.sprt.last().is_some_and(|s| s.deals > ck.next)
    {
        return Err(Bad::new(
            "sprt",
            format!("looks that are not in order up to deal {}", ck.next),
        ));
    }
    Ok(())
}

/// Checks that `deals` is the deal range of `exp` (of its `shard`, if any); with `early`, a
/// range that ends before (a sequential test that stopped early) is taken too.
fn check_range(
    exp: &Experiment,
    shard: Option<Shard>,
    deals: (u64, u64),
    early: bool,
) -> Result<(), Bad> {
    let (start, end) = expected_range(exp, shard.map(|s| (s.k, s.n)))?;
    let ends = deals.1 == end || (early && (start..end).contains(&deals.1));
    if deals.0 != start || !ends {
        return Err(Bad::new(
            "deals",
            format!(
                "{}..{}, but the run's deals are {start}..{end}",
                deals.0, deals.1
            ),
        ));
    }
    Ok(())
}

/// The absolute folder agent files are read from in `runtime`: its project folder, or the
/// current folder (`None` only if the current folder cannot be named).
pub(crate) fn absolute_project(runtime: &Runtime) -> Option<PathBuf> {
    let folder = runtime.project.as_deref().unwrap_or(Path::new("."));
    folder
        .canonicalize()
        .or_else(|_| std::path::absolute(folder))
        .ok()
}

/// Prepares the output folder of a merge: locked, refused if it holds another experiment's
/// results or an unfinished run (unless `force`), temporary leftovers removed.
pub(crate) fn prepare_merge(
    dir: &Path,
    exp: &Experiment,
    force: bool,
) -> anyhow::Result<FolderLock> {
    let lock = FolderLock::take(dir)?;
    guard_folder(dir, exp, None, force)?;
    remove_leftovers(dir, false)?;
    Ok(lock)
}

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
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_string());
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

/// A `--shard` value that is not `K/N` with `0 ≤ K < N` (the text as given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--shard '{0}': expected K/N with 0 ≤ K < N, e.g. 0/3")]
pub struct ShardError(pub String);

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
    /// The digest of every agent file the run read (shards only, see
    /// [`Checkpoint::agent_files`]): a merge refuses shards that read different files.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub agent_files: BTreeMap<String, String>,
}

impl TallyFile {
    /// The tally as its file holds it: pretty JSON, sealed when it is a shard's (a whole run's
    /// `tally.json`, which results commit, keeps its form).
    pub fn to_file_text(&self) -> anyhow::Result<String> {
        let json = serde_json::to_string_pretty(self)?;
        Ok(match self.shard {
            Some(_) => seal::seal(&json, Layout::Pretty),
            None => json,
        })
    }
}

/// Reads the text of tally file `path`: refused unless its checksum checks (a shard's tally must
/// have one; a whole run's is checked if it has one), its deal range is its experiment's (or
/// shard's; shorter only for a sequential test that stopped early) and its tally adds up to
/// those deals (an [`IntegrityError`] naming the field).
pub fn parse_tally_file(path: &Path, text: &str) -> anyhow::Result<TallyFile> {
    let sealed = seal::is_sealed(text, Layout::Pretty);
    let checked = seal::check(text, Layout::Pretty);
    let t: TallyFile = serde_json::from_str(text)
        .with_context(|| format!("{} is not a bailab tally", path.display()))?;
    if sealed || t.shard.is_some() {
        checked.map_err(|error| IntegrityError::Checksum {
            file: path.to_path_buf(),
            error,
            remedy: TALLY_REMEDY,
        })?;
    }
    check_range(&t.experiment, t.shard, t.deals, t.experiment.sprt.is_some())
        .and_then(|()| check_tally(&t.experiment, t.deals.1 - t.deals.0, &t.tally))
        .map_err(|bad| bad.in_file(path, TALLY_REMEDY))?;
    Ok(t)
}
