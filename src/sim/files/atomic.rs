//! Result files: written to a temporary name in the output folder and renamed, so a crash or a
//! bad input never leaves a half-written file or destroys an earlier result.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A file being written: `NAME.<pid>.tmp` until [`AtomicFile::commit`] renames it to `NAME`.
pub(crate) struct AtomicFile {
    tmp: PathBuf,
    path: PathBuf,
    writer: std::io::BufWriter<std::fs::File>,
}

impl AtomicFile {
    /// Creates `dir/name.<pid>.tmp` (one per process, so concurrent runs never share it).
    pub(crate) fn create(dir: &Path, name: &str) -> std::io::Result<AtomicFile> {
        let path = dir.join(name);
        let tmp = temp_name(dir, name);
        let file = std::fs::File::create(&tmp).map_err(|e| with_path(e, &tmp))?;
        Ok(AtomicFile {
            tmp,
            path,
            writer: std::io::BufWriter::new(file),
        })
    }

    /// The writer.
    pub(crate) fn writer(&mut self) -> &mut std::io::BufWriter<std::fs::File> {
        &mut self.writer
    }

    /// Flushes and renames to the final name.
    pub(crate) fn commit(mut self) -> std::io::Result<()> {
        self.writer.flush().map_err(|e| with_path(e, &self.tmp))?;
        self.writer
            .get_ref()
            .sync_all()
            .map_err(|e| with_path(e, &self.tmp))?;
        std::fs::rename(&self.tmp, &self.path).map_err(|e| with_path(e, &self.path))
    }
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
    f.writer().write_all(contents)?;
    f.commit()
}
