//! Result files: written to a temporary name in the output folder and renamed, so a crash or a
//! bad input never leaves a half-written file or destroys an earlier result. A temporary file
//! is removed when its write fails, and one that a killed process left (its process ended) is
//! removed by the next write of the same file. Every error names the file.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A file being written: `NAME.<pid>.tmp` until [`AtomicFile::commit`] renames it to `NAME`.
pub(crate) struct AtomicFile {
    tmp: PathBuf,
    path: PathBuf,
    /// `None` once committed.
    writer: Option<std::io::BufWriter<std::fs::File>>,
}

impl AtomicFile {
    /// Creates `dir/name.<pid>.tmp` (one per process, so concurrent runs never share it), after
    /// removing those of `name` that ended processes left.
    pub(crate) fn create(dir: &Path, name: &str) -> std::io::Result<AtomicFile> {
        remove_dead_temps(dir, name);
        let path = dir.join(name);
        let tmp = temp_name(dir, name);
        let file = std::fs::File::create(&tmp).map_err(|e| with_path(e, &tmp))?;
        Ok(AtomicFile {
            tmp,
            path,
            writer: Some(std::io::BufWriter::new(file)),
        })
    }

    /// Writes all of `bytes`; the error names the file.
    pub(crate) fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let writer = self.writer.as_mut().expect("written until committed");
        writer.write_all(bytes).map_err(|e| with_path(e, &self.tmp))
    }

    /// Flushes and renames to the final name.
    pub(crate) fn commit(mut self) -> std::io::Result<()> {
        let mut writer = self.writer.take().expect("committed once");
        writer.flush().map_err(|e| with_path(e, &self.tmp))?;
        (writer.get_ref().sync_all()).map_err(|e| with_path(e, &self.tmp))?;
        drop(writer);
        std::fs::rename(&self.tmp, &self.path).map_err(|e| with_path(e, &self.path))
    }
}

impl Drop for AtomicFile {
    /// A file not renamed into place (its write failed) leaves no temporary file.
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// Removes the temporary files of `name` in `dir` (`name.<pid>.tmp`) whose process has ended (a
/// process killed while writing), never one of a live process.
pub fn remove_dead_temps(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let pid = (file.to_str())
            .and_then(|f| {
                f.strip_prefix(name)?
                    .strip_prefix('.')?
                    .strip_suffix(".tmp")
            })
            .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|p| p.parse::<libc::pid_t>().ok());
        if pid.is_some_and(|p| p != std::process::id() as libc::pid_t && !alive(p)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` exists (one of another user counts as alive).
fn alive(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 sends nothing; it only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// `dir/NAME.<pid>.tmp`, the temporary name of `NAME` while it is written.
pub(crate) fn temp_name(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.{}.tmp", std::process::id()))
}

/// An I/O error that names the file.
fn with_path(e: std::io::Error, path: &Path) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Writes a whole file atomically.
pub(crate) fn write_atomic(dir: &Path, name: &str, contents: &[u8]) -> std::io::Result<()> {
    let mut f = AtomicFile::create(dir, name)?;
    f.write_all(contents)?;
    f.commit()
}

/// Removes a result file left by an earlier run, so a folder never mixes two studies.
pub fn remove_stale(path: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(anyhow::Error::new(e).context(format!("removing the stale {}", path.display())))
        }
        _ => Ok(()),
    }
}
