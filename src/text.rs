//! Small helpers shared across layers: how a TOML error is shown, TOML strings and comments
//! written, string equality in constants, counts with thousands separators, and lines read with
//! a bound on their length.
//! Nothing here knows of games, agents or the runner.

use crate::input::{excerpt, is_binary, EXCERPT_CHARS};

/// The most characters of a parser's message shown (it may quote a key or a value of the file).
const MESSAGE_CHARS: usize = 300;

/// A TOML error as the parser words it, with the offending line and the one before it shown
/// (a parser often notices a fault, such as a missing quote or bracket, on the next line), each
/// as a short, escaped [`excerpt`]. A file that is not of its kind `what` (binary, or not TOML:
/// its first line does not read as TOML) is said to be so, and nothing of it is quoted.
pub(crate) fn toml_error(text: &str, origin: &str, e: &toml::de::Error, what: &str) -> String {
    if is_binary(text) {
        return format!("{origin}: not {what}: it holds binary data");
    }
    let message = excerpt(e.message().trim_end(), MESSAGE_CHARS);
    let Some(span) = e.span() else {
        return format!("{origin}: {message}");
    };
    let at = span.start.min(text.len());
    let at = (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    if !reads_as_toml(text) {
        return format!(
            "{origin}: line {line}, column {column}: not {what} (not TOML): is this the right \
             file?"
        );
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut out = format!("{origin}: line {line}, column {column}: {message}");
    for n in line.saturating_sub(1).max(1)..=line {
        if let Some(l) = lines.get(n - 1) {
            out += &format!("\n  {n:>4} | {}", excerpt(l, EXCERPT_CHARS));
        }
    }
    out
}

/// Whether `text` is TOML, or at least begins as TOML (its first line that is neither blank nor
/// a comment reads as a key or a table on its own): a file of the expected format with a fault,
/// rather than some other file.
fn reads_as_toml(text: &str) -> bool {
    if toml::from_str::<toml::Table>(text).is_ok() {
        return true;
    }
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    first.is_some_and(|l| toml::from_str::<toml::Table>(l).is_ok_and(|t| !t.is_empty()))
}

/// `text` as a TOML string, quoted and escaped so that it reads back as `text` (Rust's `{:?}`
/// is not TOML: it writes `\u{1b}` where TOML needs `\u001B`).
pub(crate) fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// `text` as TOML comment lines: each of its lines after `# ` (a bare `#` for an empty one), so
/// that no line of it, whatever it holds, is read as TOML. A control character, which a TOML
/// comment may not hold (other than a tab), is written as its escape (`\u{1b}`).
pub(crate) fn toml_comment(text: &str) -> String {
    if text.is_empty() {
        return "#\n".to_string();
    }
    let mut out = String::new();
    for line in text.lines().map(str::trim_end) {
        out.push('#');
        if !line.is_empty() {
            out.push(' ');
        }
        for c in line.chars() {
            match c {
                '\t' => out.push(c),
                c if c.is_control() => out.extend(c.escape_unicode()),
                c => out.push(c),
            }
        }
        out.push('\n');
    }
    out
}

/// String equality usable in constants (finding a name in a table at compile time).
pub(crate) const fn const_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A count with thousands separators: `1,234,567`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The lines of a reader, each read into one reused buffer and refused past `max` bytes: a line
/// of any length costs at most `max` bytes of memory, and a file of any size streams.
pub(crate) struct BoundedLines<R> {
    reader: R,
    max: usize,
    buf: Vec<u8>,
    number: usize,
}

/// One line of [`BoundedLines`].
#[derive(Debug, PartialEq)]
pub(crate) enum Line<'a> {
    /// The line's bytes, without its `\n` or `\r\n`.
    Text(&'a [u8]),
    /// A line longer than the bound, skipped: its length in bytes.
    TooLong(u64),
}

impl<R: std::io::BufRead> BoundedLines<R> {
    /// The lines of `reader`, each at most `max` bytes.
    pub(crate) fn new(reader: R, max: usize) -> Self {
        BoundedLines {
            reader,
            max,
            buf: Vec::new(),
            number: 0,
        }
    }

    /// The next line with its number (from 1), or `None` at the end of the input.
    pub(crate) fn next_line(&mut self) -> std::io::Result<Option<(usize, Line<'_>)>> {
        self.buf.clear();
        let mut len = 0u64;
        let mut any = false;
        loop {
            let available = self.reader.fill_buf()?;
            if available.is_empty() {
                break;
            }
            any = true;
            let end = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..end.unwrap_or(available.len())];
            len += chunk.len() as u64;
            if len <= self.max as u64 {
                self.buf.extend_from_slice(chunk);
            }
            let used = end.map_or(available.len(), |i| i + 1);
            self.reader.consume(used);
            if end.is_some() {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.number += 1;
        if len > self.max as u64 {
            return Ok(Some((self.number, Line::TooLong(len))));
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Ok(Some((self.number, Line::Text(&self.buf))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toml_string_reads_back_as_its_text() {
        for text in [
            "plain",
            "a \"quote\" and \\",
            "esc \u{1b} del \u{7f}",
            "\u{301}e",
            "é\tx\n",
        ] {
            let doc = format!("key = {}", toml_string(text));
            let table: toml::Table = toml::from_str(&doc).unwrap_or_else(|e| panic!("{doc}: {e}"));
            assert_eq!(table["key"].as_str(), Some(text), "{doc}");
        }
    }

    #[test]
    fn a_toml_comment_keeps_every_line_out_of_the_toml() {
        let text = format!(
            "{}key = 1\n",
            toml_comment("a\n\nkey = 2\r\n[table]\r\u{1b}\u{7f}\tx")
        );
        assert_eq!(
            text,
            "# a\n#\n# key = 2\n# [table]\\u{d}\\u{1b}\\u{7f}\tx\nkey = 1\n"
        );
        assert_eq!(toml_comment(""), "#\n");
        let table: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(table.len(), 1);
    }

    #[test]
    fn lines_past_the_bound_are_skipped_with_their_length() {
        let input = "ab\r\n\nabcdefgh\nxyz";
        let mut lines =
            BoundedLines::new(std::io::BufReader::with_capacity(3, input.as_bytes()), 4);
        let mut seen = Vec::new();
        while let Some((n, line)) = lines.next_line().unwrap() {
            seen.push(match line {
                Line::Text(t) => format!("{n}:{}", String::from_utf8_lossy(t)),
                Line::TooLong(len) => format!("{n}:long {len}"),
            });
        }
        assert_eq!(seen, ["1:ab", "2:", "3:long 8", "4:xyz"]);
    }
}
