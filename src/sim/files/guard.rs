//! Output guards of the study commands (`tune`, `learn`, `deals`, `equity`, `merge`): before
//! any work, the output folder is created and proved writable and the files the command will
//! write are refused if they exist (unless `--force`); at the end every file is written to a
//! temporary name and renamed only when all of them were written, so a failure never leaves
//! part of a result or destroys an earlier one.

use crate::sim::files::atomic::temp_name;
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
    pub fn open(dir: &Path, names: &[&str]) -> anyhow::Result<Outputs> {
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
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Refuses the files that exist, naming all of them (unless `force`), and a folder where a
    /// file goes.
    pub(crate) fn refuse_existing(&self, force: bool) -> anyhow::Result<()> {
        let paths: Vec<PathBuf> = self.names.iter().map(|n| self.dir.join(n)).collect();
        if let Some(p) = paths.iter().find(|p| p.is_dir()) {
            bail!(
                "{} is a folder, but a file of that name is written there: choose another \
                 --output",
                p.display()
            );
        }
        let existing: Vec<String> = paths
            .iter()
            .filter(|p| p.symlink_metadata().is_ok())
            .map(|p| p.display().to_string())
            .collect();
        if force || existing.is_empty() {
            return Ok(());
        }
        let (files, verb) = match existing.len() {
            1 => (existing[0].clone(), "exists"),
            _ => (existing.join(", "), "exist"),
        };
        bail!(
            "{files} already {verb} and this command does not replace files: choose another \
             --output, or replace {} with --force",
            if existing.len() == 1 { "it" } else { "them" }
        )
    }

    /// Writes every file (each of the guard's names): all to temporary names first, then each
    /// renamed to its name; on an error before the renames, no file is touched and the
    /// temporaries are removed.
    pub fn write(mut self, files: &[(&str, &[u8])]) -> anyhow::Result<()> {
        let mut temps: Vec<(PathBuf, PathBuf)> = Vec::new();
        let result = files.iter().try_for_each(|(name, bytes)| {
            debug_assert!(
                self.names.iter().any(|n| n == name),
                "{name} was not checked"
            );
            let path = self.dir.join(name);
            let tmp = temp_name(&self.dir, name);
            temps.push((tmp.clone(), path));
            write_synced(&tmp, bytes)
        });
        if let Err(e) = result {
            for (tmp, _) in &temps {
                let _ = std::fs::remove_file(tmp);
            }
            return Err(e);
        }
        self.written = true;
        for (tmp, path) in &temps {
            std::fs::rename(tmp, path)
                .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))?;
        }
        Ok(())
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

    /// Moves every staged file into the output folder, and removes the guard's files that the
    /// stage does not hold (left by an earlier result replaced with `--force`).
    pub(crate) fn commit_stage(mut self, stage: Stage) -> anyhow::Result<()> {
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

/// The name of staging folders: `.stage-<pid>.tmp`.
const STAGE_PREFIX: &str = ".stage-";

/// A staging folder of [`Outputs::stage`]; removed with its contents when dropped.
pub(crate) struct Stage {
    path: PathBuf,
}

impl Stage {
    /// The folder.
    pub fn path(&self) -> &Path {
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
