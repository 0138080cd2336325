//! Output guards of every command that writes a result folder: before any work, the files the
//! command will write are refused if they exist (unless `--force`) — all of them for the study
//! commands (`tune`, `learn`, `deals`, `equity`, `merge`), and for `run` and `tournament`, which
//! replace their own earlier results, those of a folder that holds no bailab output of that
//! kind; at the end every file is written to a temporary name and renamed only when all of them
//! were written (a [`ResultSet`]), so a failure never leaves part of a result or destroys an
//! earlier one.

use crate::sim::files::atomic::{remove_dead_temps, remove_stale, temp_name};
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// The files one command writes into one folder, checked before the command's work.
pub(crate) struct Outputs {
    dir: PathBuf,
    names: Vec<String>,
    /// Folders this guard created (deepest first), removed again if nothing was written.
    created: Vec<PathBuf>,
    written: bool,
}

impl Outputs {
    /// Creates `dir` and proves it writable ([`Outputs::open`]), then refuses any of `names`
    /// that exists there unless `force` ([`Outputs::refuse_existing`]).
    pub(crate) fn prepare(dir: &Path, names: &[&str], force: bool) -> anyhow::Result<Outputs> {
        let out = Outputs::open(dir, names)?;
        out.refuse_existing(force)?;
        Ok(out)
    }

    /// The guard of an output file and the files beside it (`others`, file names): its folder
    /// (`.` for a bare name) prepared as by [`Outputs::prepare`].
    pub(crate) fn for_file(path: &Path, others: &[&str], force: bool) -> anyhow::Result<Outputs> {
        let (dir, name) = split_file(path)?;
        let mut names = vec![name.as_str()];
        names.extend_from_slice(others);
        Outputs::prepare(&dir, &names, force)
    }

    /// Creates `dir` (and its parents) and writes and removes a probe file in it, so a folder
    /// that cannot be written is found before any work. Checks nothing about existing files.
    pub(crate) fn open(dir: &Path, names: &[&str]) -> anyhow::Result<Outputs> {
        let created = create_folder(dir)?;
        let out = Outputs {
            dir: dir.to_path_buf(),
            names: names.iter().map(|n| n.to_string()).collect(),
            created,
            written: false,
        };
        out.probe()?;
        Ok(out)
    }

    /// The output folder.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Refuses the files that exist, naming all of them (unless `force`), and a folder where a
    /// file goes.
    pub(crate) fn refuse_existing(&self, force: bool) -> anyhow::Result<()> {
        let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
        refuse_folders(&self.dir, &names)?;
        let existing = existing(&self.dir, &names);
        if force || existing.is_empty() {
            return Ok(());
        }
        let (files, verb, them) = listed(&existing);
        bail!(
            "{files} already {verb} and this command does not replace files: choose another \
             --output, or replace {them} with --force"
        )
    }

    /// Writes every file (each of the guard's names): all to temporary names first, then each
    /// renamed to its name; on an error before the renames, no file is touched and the
    /// temporaries are removed.
    pub(crate) fn write(mut self, files: &[(&str, &[u8])]) -> anyhow::Result<()> {
        let mut set = ResultSet::new(&self.dir);
        for (name, bytes) in files {
            debug_assert!(
                self.names.iter().any(|n| n == name),
                "{name} was not checked"
            );
            set.add(name, bytes)?;
        }
        self.written = true;
        set.commit()
    }

    /// A staging folder inside the output folder (`.stage-<pid>.tmp`), for outputs written by
    /// code that writes files itself; [`Outputs::commit_stage`] moves them into place. Dropped
    /// uncommitted, it is removed with what it holds.
    pub(crate) fn stage(&self) -> anyhow::Result<Stage> {
        let path = self
            .dir
            .join(format!("{STAGE_PREFIX}{}.tmp", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir(&path).with_context(|| format!("creating {}", path.display()))?;
        Ok(Stage { path })
    }

    /// Keeps the folder from now on, for a command that writes its files itself as it goes (a
    /// training's checkpoints), having removed the guard's files an earlier result left.
    #[cfg(feature = "train")]
    pub(crate) fn keep_replacing(mut self) -> anyhow::Result<()> {
        for name in &self.names {
            super::atomic::remove_stale(&self.dir.join(name))?;
        }
        self.written = true;
        Ok(())
    }

    /// Moves every staged file into the output folder, and removes the guard's files that the
    /// stage does not hold (left by an earlier result replaced with `--force`).
    pub(crate) fn commit_stage(mut self, stage: Stage) -> anyhow::Result<()> {
        let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
        refuse_folders(&self.dir, &names)?;
        self.written = true;
        for name in &self.names {
            let (from, to) = (stage.path.join(name), self.dir.join(name));
            if from.exists() {
                std::fs::rename(&from, &to)
                    .with_context(|| format!("renaming {} to {}", from.display(), to.display()))?;
            } else if to.exists() {
                std::fs::remove_file(&to)
                    .with_context(|| format!("removing the stale {}", to.display()))?;
            }
        }
        Ok(())
    }

    fn probe(&self) -> anyhow::Result<()> {
        let probe = self
            .dir
            .join(format!(".bailab-probe-{}.tmp", std::process::id()));
        std::fs::write(&probe, b"")
            .and_then(|()| std::fs::remove_file(&probe))
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot write into {}: {e}; choose another --output (nothing was run)",
                    self.dir.display()
                )
            })
    }
}

impl Drop for Outputs {
    /// A command that failed before writing leaves no empty folder behind.
    fn drop(&mut self) {
        if !self.written {
            for d in &self.created {
                let _ = std::fs::remove_dir(d);
            }
        }
    }
}

/// Refuses a folder that holds any of `names` (files or folders bailab writes there) but no
/// bailab output of that kind (`marked`: the caller found its marker file, read by content),
/// unless `force`: bailab replaces only what it made. `kind` names the output in the message.
pub fn refuse_foreign(
    dir: &Path,
    names: &[&str],
    kind: &str,
    marked: bool,
    force: bool,
) -> anyhow::Result<()> {
    let existing = existing(dir, names);
    if marked || force || existing.is_empty() {
        return Ok(());
    }
    let (files, verb, them) = listed(&existing);
    bail!(
        "{files} already {verb}, but {} holds no {kind}: bailab replaces only its own results; \
         choose another --output, or replace {them} with --force",
        dir.display()
    )
}

/// Refuses a folder standing where one of the files `names` is to be written (even with
/// `--force`: a folder is never removed).
pub fn refuse_folders(dir: &Path, names: &[&str]) -> anyhow::Result<()> {
    match names.iter().map(|n| dir.join(n)).find(|p| p.is_dir()) {
        Some(p) => bail!(
            "{} is a folder, but a file of that name is written there: choose another --output \
             (nothing was replaced)",
            p.display()
        ),
        None => Ok(()),
    }
}

/// The paths of `names` that exist in `dir` (as anything, a dangling link included).
fn existing(dir: &Path, names: &[&str]) -> Vec<String> {
    (names.iter().map(|n| dir.join(n)))
        .filter(|p| p.symlink_metadata().is_ok())
        .map(|p| p.display().to_string())
        .collect()
}

/// Existing paths listed for a message: the list, its verb and its pronoun.
fn listed(existing: &[String]) -> (String, &'static str, &'static str) {
    match existing {
        [one] => (one.clone(), "exists", "it"),
        _ => (existing.join(", "), "exist", "them"),
    }
}

/// One result set of a folder, replaced as a unit: every file written to a temporary name
/// ([`ResultSet::add`]) or finished elsewhere in the folder ([`ResultSet::adopt`]), then all
/// renamed by [`ResultSet::commit`] once none of their names is taken by a folder, and the
/// stale files of an earlier set removed. Dropped uncommitted, it removes its temporary files
/// and replaces nothing.
pub struct ResultSet {
    dir: PathBuf,
    /// (written as, final name, whether it is this set's own temporary file)
    files: Vec<(PathBuf, String, bool)>,
    stale: Vec<String>,
}

impl ResultSet {
    /// An empty set of files for `dir`.
    pub fn new(dir: &Path) -> ResultSet {
        ResultSet {
            dir: dir.to_path_buf(),
            files: Vec::new(),
            stale: Vec::new(),
        }
    }

    /// Writes (and syncs) `name` to its temporary name; the error names the file.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
        remove_dead_temps(&self.dir, name);
        let tmp = temp_name(&self.dir, name);
        self.files.push((tmp.clone(), name.to_string(), true));
        write_synced(&tmp, bytes)
    }

    /// Takes `from`, a finished file in the folder (kept if the set is dropped), as `name`.
    pub fn adopt(&mut self, from: PathBuf, name: &str) {
        self.files.push((from, name.to_string(), false));
    }

    /// Removes `name` on commit, the stale file of an earlier set (if it is there).
    pub fn remove(&mut self, name: &str) {
        self.stale.push(name.to_string());
    }

    /// Renames every file into place and removes the stale ones: first checks that no name is
    /// taken by a folder, so the earlier set is left whole on that error.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let names: Vec<&str> = (self.files.iter().map(|f| f.1.as_str()))
            .chain(self.stale.iter().map(String::as_str))
            .collect();
        refuse_folders(&self.dir, &names)?;
        while let Some((from, name, _)) = self.files.first() {
            let to = self.dir.join(name);
            std::fs::rename(from, &to)
                .with_context(|| format!("renaming {} to {}", from.display(), to.display()))?;
            self.files.remove(0);
        }
        self.stale
            .iter()
            .try_for_each(|name| remove_stale(&self.dir.join(name)))
    }
}

impl Drop for ResultSet {
    fn drop(&mut self) {
        for (from, _, own) in &self.files {
            if *own {
                let _ = std::fs::remove_file(from);
            }
        }
    }
}

/// Whether a name (of an experiment, a tournament) may become a folder's name: not empty, no
/// folder separator (`/`, `\`), no `..`, no leading dot, no control character.
pub fn is_plain_name(name: &str) -> bool {
    !(name.is_empty()
        || name.starts_with('.')
        || name.contains(['/', '\\'])
        || name.contains("..")
        || name.chars().any(char::is_control))
}

/// The name of staging folders: `.stage-<pid>.tmp`.
const STAGE_PREFIX: &str = ".stage-";

/// A staging folder of [`Outputs::stage`]; removed with its contents when dropped.
pub(crate) struct Stage {
    path: PathBuf,
}

impl Stage {
    /// The folder.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Removes the staging folders a killed command left in `dir` (call it only while holding the
/// folder's lock, so no live command's stage is removed).
pub(crate) fn remove_stale_stages(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let stale = name.to_str().is_some_and(|n| {
            n.strip_prefix(STAGE_PREFIX)
                .and_then(|r| r.strip_suffix(".tmp"))
                .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        });
        if stale {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The folder and file name of an output file (`.` for a bare name); a path ending in a
/// folder separator or `..` is an error naming it.
pub(crate) fn split_file(path: &Path) -> anyhow::Result<(PathBuf, String)> {
    let name = match path.file_name() {
        Some(n) if !path.as_os_str().to_string_lossy().ends_with(['/', '\\']) => n,
        _ => bail!(
            "{}: not a file name: --output takes the path of the file to write",
            path.display()
        ),
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name.to_string_lossy().into_owned()))
}

/// Creates `dir` and its missing parents; returns the folders created, deepest first. A parent
/// that is a file is named in the error.
fn create_folder(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let missing: Vec<PathBuf> = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .take_while(|a| a.symlink_metadata().is_err())
        .map(Path::to_path_buf)
        .collect();
    let blocker = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .find(|a| a.symlink_metadata().is_ok());
    if let Some(b) = blocker.filter(|b| !b.is_dir()) {
        bail!(
            "cannot create the output folder {}: {} is a file, not a folder; choose another \
             --output (nothing was run)",
            dir.display(),
            b.display()
        );
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        anyhow::anyhow!(
            "cannot create the output folder {}: {e}; choose another --output (nothing was run)",
            dir.display()
        )
    })?;
    Ok(missing)
}

/// Writes and syncs a whole file; the error names it.
fn write_synced(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut f =
        std::fs::File::create(path).with_context(|| format!("writing {}", path.display()))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set whose second name is taken by a folder replaces nothing and leaves no temporary
    /// file (issue 44: `summary.csv` and `tally.json` were replaced before `meta.json` failed).
    #[test]
    fn a_set_with_a_folder_in_the_way_replaces_nothing() {
        let dir = std::env::temp_dir().join(format!("bailab-set-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("b.json")).unwrap();
        std::fs::write(dir.join("a.csv"), "old\n").unwrap();
        let mut set = ResultSet::new(&dir);
        set.add("a.csv", b"new\n").unwrap();
        set.add("b.json", b"{}").unwrap();
        let err = set.commit().unwrap_err().to_string();
        assert!(err.contains("b.json is a folder"), "{err}");
        assert_eq!(std::fs::read_to_string(dir.join("a.csv")).unwrap(), "old\n");
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["a.csv", "b.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
