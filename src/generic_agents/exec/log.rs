//! An agent's log: where its standard error goes (a file in a run's output folder, or bailab's
//! own standard error), each line marked with the process id. A log file is opened without
//! following a symbolic link and is capped at [`LOG_CAP`]: past it, its older half is dropped.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt};
use std::path::PathBuf;
use std::process::ChildStderr;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The most an agent's log file holds, in bytes (8 MiB): a line that takes it past this drops
/// the older half, so the log keeps the last 4 to 8 MiB of what was written.
pub const LOG_CAP: u64 = 8 << 20;

/// The longest stderr line written as one line; a longer one is written in pieces of this length.
const MAX_STDERR_LINE: usize = 64 << 10;

/// The stderr lines of an agent process kept for error messages.
const STDERR_LINES: usize = 8;

/// One writer at a time in every agent's log file, so that a cut never splits a line.
static WRITING: Mutex<()> = Mutex::new(());

/// Where an agent process's standard error goes.
#[derive(Clone, Debug)]
pub enum StderrLog {
    /// Appended to this file, each line marked with the process id.
    File(PathBuf),
    /// To bailab's own standard error, each line marked with the process id.
    Terminal,
}

/// An agent's log file that cannot be opened, or that bailab refuses to write to.
#[derive(Debug, thiserror::Error)]
#[error("its log {} {problem}", path.display())]
pub struct LogError {
    /// The log file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: LogProblem,
}

/// What is wrong with an agent's log file (see [`LogError`]).
#[derive(Debug, thiserror::Error)]
pub enum LogProblem {
    /// A symbolic link, which bailab does not follow.
    #[error("is a symbolic link: bailab does not write through one (remove it)")]
    SymbolicLink,
    /// The file cannot be created or opened (the system's message).
    #[error("could not be opened: {0}")]
    Open(std::io::Error),
    /// The file's metadata cannot be read (the system's message).
    #[error("could not be read: {0}")]
    Read(std::io::Error),
    /// A device, a pipe or a file with other names (hard links), which bailab did not make.
    #[error(
        "is not a plain file of its own (a device, a pipe or a hard link): bailab does not write \
         to it (remove it)"
    )]
    NotPlain,
}

/// An open [`StderrLog`].
pub enum Sink {
    /// The log file, open for appending.
    File(File),
    /// bailab's own standard error.
    Terminal,
}

/// The last stderr lines of a process, kept for error messages.
pub(crate) type LastLines = Arc<Mutex<VecDeque<String>>>;

impl StderrLog {
    /// Opens the log: a file is created if need be and appended to, but never through a symbolic
    /// link (nor one that is not a plain file or has other names): bailab writes only to logs it
    /// made, and refuses, naming the path, what someone else placed there.
    pub fn open(&self) -> Result<Sink, LogError> {
        let StderrLog::File(path) = self else {
            return Ok(Sink::Terminal);
        };
        let fail = |problem| LogError {
            path: path.clone(),
            problem,
        };
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)
            .map_err(|e| match e.raw_os_error() {
                Some(libc::ELOOP) => fail(LogProblem::SymbolicLink),
                _ => fail(LogProblem::Open(e)),
            })?;
        let meta = file.metadata().map_err(|e| fail(LogProblem::Read(e)))?;
        if !meta.is_file() || meta.nlink() > 1 {
            return Err(fail(LogProblem::NotPlain));
        }
        Ok(Sink::File(file))
    }

    /// Writes one line of bailab's own about its agents (starts, restarts) to a log file; the
    /// terminal is spared them.
    pub(crate) fn note(&self, line: &str) {
        if let Ok(sink @ Sink::File(_)) = self.open() {
            sink.write("bailab", line);
        }
    }
}

/// Reads the next line of `from` into `line` (without its end of line, at most
/// [`MAX_STDERR_LINE`] bytes); false at the end of the input.
fn read_line(from: &mut impl BufRead, line: &mut Vec<u8>) -> bool {
    line.clear();
    match from
        .by_ref()
        .take(MAX_STDERR_LINE as u64)
        .read_until(b'\n', line)
    {
        Ok(0) | Err(_) => false,
        Ok(_) => {
            if line.last() == Some(&b'\n') {
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
            }
            true
        }
    }
}

impl Sink {
    /// Starts the thread that copies the standard error of the process `pid` here, keeping its
    /// last lines in `last`.
    pub(crate) fn follow(self, stderr: ChildStderr, pid: u32, last: LastLines) -> JoinHandle<()> {
        let mark = format!("pid {pid}");
        std::thread::spawn(move || {
            let mut errors = BufReader::new(stderr);
            let mut line = Vec::new();
            while read_line(&mut errors, &mut line) {
                let line = String::from_utf8_lossy(&line);
                self.write(&mark, &line);
                let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
                if last.len() == STDERR_LINES {
                    last.pop_front();
                }
                last.push_back(line.into_owned());
            }
        })
    }

    /// Writes one line marked `mark`, in one write: lines of processes sharing a file stay whole.
    fn write(&self, mark: &str, line: &str) {
        let text = format!("[{mark}] {line}\n");
        match self {
            Sink::File(file) => {
                let _writing = WRITING.lock().unwrap_or_else(|e| e.into_inner());
                let _ = (&*file).write_all(text.as_bytes()).and_then(|()| cap(file));
            }
            Sink::Terminal => eprint!("{text}"),
        }
    }
}

/// Drops the older half of a log file past [`LOG_CAP`], from a line's start, with a note.
fn cap(mut file: &File) -> std::io::Result<()> {
    let len = file.metadata()?.len();
    if len <= LOG_CAP {
        return Ok(());
    }
    let mut tail = vec![0; (LOG_CAP / 2) as usize];
    file.read_exact_at(&mut tail, len - LOG_CAP / 2)?;
    let start = tail.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
    file.set_len(0)?;
    let note = format!(
        "[bailab] earlier lines dropped to keep the log under {} MiB\n",
        LOG_CAP >> 20
    );
    file.write_all(note.as_bytes())?;
    file.write_all(&tail[start..])
}
