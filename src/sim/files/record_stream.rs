//! Reading a file of game records as `bailab check` reads it: JSON Lines, or records written
//! over several lines each (pretty-printed), streamed one record at a time with the line each
//! starts on, memory bounded by [`MAX_RECORD_BYTES`] whatever the file's size (`bailab check`,
//! `bailab serve`).

use crate::record::Record;
use crate::sim::recorder::CheckError;
use crate::text::{BoundedLines, Line};
use std::io::BufRead;

/// The longest record `check` reads, on one line or over several: longer ones are refused (a
/// record of the longest games is tens of kilobytes).
pub(crate) const MAX_RECORD_BYTES: usize = 4 << 20;

/// The records of a stream, read one at a time with the line each starts on: one per line (JSON
/// Lines), or any number written over several lines each (a pretty-printed record). Memory stays
/// within [`MAX_RECORD_BYTES`] whatever the input's size.
pub(crate) struct Records<R> {
    lines: BoundedLines<R>,
    /// A record over several lines read so far, and the line it starts on.
    doc: String,
    doc_line: usize,
    depth: Depth,
    /// A record read while a record over several lines was found cut short.
    pending: Option<(usize, Result<Record, RecordError>)>,
}

/// Why the text at a place in the file is not a record (or a record that fails its check).
#[derive(Debug, thiserror::Error)]
pub(crate) enum RecordError {
    /// The text is not a record's JSON.
    #[error("not a record: {0}")]
    NotARecord(serde_json::Error),
    /// A record over several lines that the next record cuts off (at this line).
    #[error("not a record: cut short before line {0}")]
    CutShortBefore(usize),
    /// A record over several lines that the end of the file cuts off.
    #[error("cut short: the file ends inside this record (a write that was cut off?)")]
    CutShortAtEnd,
    /// A line longer than a record may be.
    #[error(
        "the line is {len} bytes long, over the {} MiB a record may take: refused",
        MAX_RECORD_BYTES >> 20
    )]
    LineTooLong {
        /// Its length in bytes.
        len: u64,
    },
    /// A record over several lines longer than a record may be.
    #[error(
        "a record over several lines from here is over the {} MiB a record may take: refused",
        MAX_RECORD_BYTES >> 20
    )]
    RecordTooLong,
    /// A line that is not UTF-8.
    #[error("not UTF-8: {0}")]
    NotUtf8(std::str::Utf8Error),
    /// A record the engine does not replay as recorded.
    #[error("{0}")]
    Check(CheckError),
}

/// How deeply nested a JSON text is so far, braces and brackets inside strings aside.
#[derive(Default)]
struct Depth {
    level: i64,
    in_string: bool,
    escaped: bool,
}

impl Depth {
    /// Reads `text`; whether the outermost value is closed at its end.
    fn closes(&mut self, text: &str) -> bool {
        for b in text.bytes() {
            match (self.in_string, self.escaped, b) {
                (true, true, _) => self.escaped = false,
                (true, false, b'\\') => self.escaped = true,
                (true, false, b'"') => self.in_string = false,
                (false, _, b'"') => self.in_string = true,
                (false, _, b'{' | b'[') => self.level += 1,
                (false, _, b'}' | b']') => self.level -= 1,
                _ => {}
            }
        }
        self.level <= 0
    }
}

/// A record read from JSON, or why it is not one.
fn parse(text: &str) -> Result<Record, RecordError> {
    serde_json::from_str(text).map_err(RecordError::NotARecord)
}

impl<R: BufRead> Records<R> {
    pub(crate) fn new(reader: R) -> Self {
        Records {
            lines: BoundedLines::new(reader, MAX_RECORD_BYTES),
            doc: String::new(),
            doc_line: 0,
            depth: Depth::default(),
            pending: None,
        }
    }

    /// The record started over several lines, read to here (cut short: `parse` says where).
    fn take_doc(&mut self) -> (usize, Result<Record, RecordError>) {
        self.depth = Depth::default();
        (self.doc_line, parse(&std::mem::take(&mut self.doc)))
    }

    /// The record in progress when the file ends: one the end cuts off is said to be cut short
    /// (not parsed with the line end this reader added, which JSON reads as a control character
    /// inside a string).
    fn take_last_doc(&mut self) -> (usize, Result<Record, RecordError>) {
        self.depth = Depth::default();
        let doc = std::mem::take(&mut self.doc);
        let record = serde_json::from_str(doc.trim_end()).map_err(|e| {
            if e.is_eof() {
                RecordError::CutShortAtEnd
            } else {
                RecordError::NotARecord(e)
            }
        });
        (self.doc_line, record)
    }

    /// The next record (or why the text there is not one) and the line it starts on.
    pub(crate) fn next_record(
        &mut self,
    ) -> std::io::Result<Option<(usize, Result<Record, RecordError>)>> {
        if let Some(p) = self.pending.take() {
            return Ok(Some(p));
        }
        loop {
            let Some((n, line)) = self.lines.next_line()? else {
                return Ok((!self.doc.is_empty()).then(|| self.take_last_doc()));
            };
            let text = match line {
                Line::TooLong(len) => {
                    let too_long = Err(RecordError::LineTooLong { len });
                    return Ok(Some(self.after_doc((n, too_long))));
                }
                Line::Text(bytes) => match std::str::from_utf8(bytes) {
                    Ok(t) => t,
                    Err(e) => {
                        let bad = Err(RecordError::NotUtf8(e));
                        return Ok(Some(self.after_doc((n, bad))));
                    }
                },
            };
            if self.doc.is_empty() {
                if text.trim().is_empty() {
                    continue;
                }
                let parsed = serde_json::from_str::<Record>(text);
                if let Err(e) = &parsed {
                    let mut depth = Depth::default();
                    if e.is_eof() && !depth.closes(text) {
                        (self.doc_line, self.doc, self.depth) = (n, format!("{text}\n"), depth);
                        continue;
                    }
                }
                return Ok(Some((n, parsed.map_err(RecordError::NotARecord))));
            }
            if text.trim_start().starts_with('{') {
                if let Ok(r) = serde_json::from_str::<Record>(text) {
                    return Ok(Some(self.after_doc((n, Ok(r)))));
                }
            }
            self.doc.push_str(text);
            self.doc.push('\n');
            if self.depth.closes(text) {
                return Ok(Some(self.take_doc()));
            }
            if self.doc.len() > MAX_RECORD_BYTES {
                self.doc.clear();
                self.depth = Depth::default();
                return Ok(Some((self.doc_line, Err(RecordError::RecordTooLong))));
            }
        }
    }

    /// `item`, after the record over several lines in progress, if any (which it cuts short).
    fn after_doc(
        &mut self,
        item: (usize, Result<Record, RecordError>),
    ) -> (usize, Result<Record, RecordError>) {
        if self.doc.is_empty() {
            return item;
        }
        let next = item.0;
        self.pending = Some(item);
        let (line, doc) = self.take_doc();
        (line, doc.map_err(|_| RecordError::CutShortBefore(next)))
    }
}
