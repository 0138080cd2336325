//! Every file bailab reads comes through one bounded reader: each kind of file has a cap (the
//! named constants here), a file over it is refused before more than the cap is read (a
//! `/dev/zero` as much as a 5 GB file), and a message quotes a file only as a short, escaped
//! excerpt ([`excerpt`]).

use std::io::Read;
use std::path::Path;
use thiserror::Error;

/// A kind of file bailab reads: what it is called in messages and the most bytes it may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKind {
    /// The kind in words, with its article: "an experiment file".
    pub what: &'static str,
    /// The most bytes a file of this kind may hold.
    pub max: u64,
}

const MIB: u64 = 1 << 20;

/// An experiment file (TOML).
pub const EXPERIMENT: FileKind = FileKind {
    what: "an experiment file",
    max: MIB,
};
/// A tournament file (TOML).
pub const TOURNAMENT: FileKind = FileKind {
    what: "a tournament file",
    max: MIB,
};
/// A rule list (`rules:FILE`, TOML).
pub const RULES: FileKind = FileKind {
    what: "a rule file",
    max: MIB,
};
/// A greedy weight file (`greedy:FILE`, TOML).
pub const WEIGHTS: FileKind = FileKind {
    what: "a greedy weight file",
    max: MIB,
};
/// A deck order (`play --deck-file`).
pub const DECK: FileKind = FileKind {
    what: "a deck file",
    max: 64 << 10,
};
/// A partial deal (`--deal FILE`, TOML).
pub const DEAL_SPEC: FileKind = FileKind {
    what: "a deal file",
    max: MIB,
};
/// A position file (`--view FILE`, TOML).
pub const POSITION: FileKind = FileKind {
    what: "a position file",
    max: MIB,
};
/// A network file (`net:`), the largest networks a few MB.
pub const NET: FileKind = FileKind {
    what: "a network file",
    max: 256 * MIB,
};
/// A training checkpoint (`bailab train`: weights and Adam's moments).
pub const TRAIN_CHECKPOINT: FileKind = FileKind {
    what: "a training checkpoint",
    max: 1 << 30,
};
/// A run's checkpoint or a shard's tally (JSON; a tournament's tally too).
pub const TALLY: FileKind = FileKind {
    what: "a tally or checkpoint file",
    max: 64 * MIB,
};
/// A result file a plot or a report page reads whole (a CSV or JSON written by bailab).
pub const RESULT: FileKind = FileKind {
    what: "a result file",
    max: 64 * MIB,
};
/// A teacher cache of `bailab learn` (binary, written by bailab).
pub const TEACHER_CACHE: FileKind = FileKind {
    what: "a teacher cache",
    max: 16 << 30,
};

/// A file that cannot be read, is larger than its kind allows, or is not text.
#[derive(Debug, Error)]
#[error("{path}: {problem}")]
pub struct InputError {
    /// The file as given.
    pub path: String,
    /// What is wrong.
    pub problem: InputProblem,
}

/// What is wrong with a file read (see [`InputError`]).
#[derive(Debug, Error)]
pub enum InputProblem {
    /// The file cannot be opened or read (the system's message).
    #[error("{0}")]
    Read(std::io::Error),
    /// More bytes than its kind allows (`size`: the file's size when the system knows it).
    #[error(
        "{}; {} is at most {} bytes: is this the right file?",
        size.map_or(format!("more than {} bytes", kind.max), |s| format!("{s} bytes")),
        kind.what,
        kind.max
    )]
    TooLarge {
        /// Its size, when known before reading (not for a pipe or a device).
        size: Option<u64>,
        /// The kind of file expected.
        kind: FileKind,
    },
    /// Not UTF-8 text where text is expected: said without quoting it.
    #[error("not {}: it is not text (binary data, or not UTF-8)", kind.what)]
    NotText {
        /// The kind of file expected.
        kind: FileKind,
    },
}

fn fault(path: &Path, problem: InputProblem) -> InputError {
    InputError {
        path: path.display().to_string(),
        problem,
    }
}

/// Opens `path` as a file of `kind`: a reader that yields at most `kind.max + 1` bytes, refusing
/// a file whose size is known to be larger; [`read_bytes`] notices a device or pipe that goes on.
pub fn open(path: &Path, kind: FileKind) -> Result<std::io::Take<std::fs::File>, InputError> {
    let read = |e| fault(path, InputProblem::Read(e));
    let file = std::fs::File::open(path).map_err(read)?;
    let meta = file.metadata().map_err(read)?;
    if meta.is_file() && meta.len() > kind.max {
        let size = Some(meta.len());
        return Err(fault(path, InputProblem::TooLarge { size, kind }));
    }
    Ok(file.take(kind.max + 1))
}

/// Reads the whole file `path` of `kind`, refused past `kind.max` bytes (whatever the file is).
pub fn read_bytes(path: &Path, kind: FileKind) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    open(path, kind)?
        .read_to_end(&mut bytes)
        .map_err(|e| fault(path, InputProblem::Read(e)))?;
    if bytes.len() as u64 > kind.max {
        return Err(fault(path, InputProblem::TooLarge { size: None, kind }));
    }
    Ok(bytes)
}

/// Reads the text file `path` of `kind` (see [`read_bytes`]); not UTF-8 is refused unquoted.
pub fn read_text(path: &Path, kind: FileKind) -> Result<String, InputError> {
    String::from_utf8(read_bytes(path, kind)?)
        .map_err(|_| fault(path, InputProblem::NotText { kind }))
}

/// The longest line of a CSV file read as a stream (a `games.csv` of any length): a line past it
/// is an error, so that a file without line ends (`/dev/zero`) costs no more memory than this.
pub const CSV_LINE: u64 = MIB;

/// Opens the CSV file `path` as a stream whose lines are each at most [`CSV_LINE`] bytes.
pub fn open_csv(path: &Path) -> Result<LineCapped<std::fs::File>, InputError> {
    let file = std::fs::File::open(path).map_err(|e| fault(path, InputProblem::Read(e)))?;
    Ok(LineCapped {
        inner: file,
        max: CSV_LINE,
        run: 0,
    })
}

/// A reader that fails when a line runs past `max` bytes (see [`open_csv`]).
pub struct LineCapped<R> {
    inner: R,
    max: u64,
    run: u64,
}

impl<R: Read> Read for LineCapped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &b in &buf[..n] {
            self.run = if b == b'\n' { 0 } else { self.run + 1 };
            if self.run > self.max {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("a line longer than {} bytes: not a CSV of bailab", self.max),
                ));
            }
        }
        Ok(n)
    }
}

/// The most characters of a file's text a message quotes.
pub const EXCERPT_CHARS: usize = 60;

/// `text` as a message may quote it: control characters escaped (`\n`, `\u{0}`) and cut after
/// `max` characters with `…`.
pub fn excerpt(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `text` holds control characters that no text file of bailab's has (anything but tab,
/// line feed and carriage return): binary data, never quoted.
pub fn is_binary(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_excerpt_is_short_and_escaped() {
        assert_eq!(excerpt("a\tb\u{0}c", 60), "a\\tb\\u{0}c");
        assert_eq!(excerpt(&"0".repeat(1000), 5), "00000…");
        assert_eq!(excerpt("ab", 2), "ab");
    }

    #[test]
    fn a_device_that_goes_on_is_refused_at_the_cap() {
        let err = read_bytes(Path::new("/dev/zero"), DECK).unwrap_err();
        assert!(
            matches!(err.problem, InputProblem::TooLarge { size: None, .. }),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            "/dev/zero: more than 65536 bytes; a deck file is at most 65536 bytes: is this the \
             right file?"
        );
    }
}
