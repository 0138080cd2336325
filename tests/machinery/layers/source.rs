//! Reading the source: the files of a crate, their module names, and their code without
//! comments, strings or `#[cfg(test)]` items.

use std::path::{Path, PathBuf};

/// One file module: its path (`games::kind`, `` for the crate root), its file and its source.
pub struct Module {
    pub name: String,
    pub file: PathBuf,
    pub text: String,
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("a readable src folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The module path of a file relative to `src` (`games/kind.rs` → `games::kind`,
/// `games/mod.rs` → `games`, `lib.rs` → ``).
fn module_name(rel: &Path) -> String {
    let mut segs: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(segs.last().map(String::as_str), Some("mod" | "lib")) {
        segs.pop();
    }
    segs.join("::")
}

/// The crate's file modules (the library's: `main.rs` is another crate).
pub fn crate_modules(src: &Path) -> Vec<Module> {
    rust_files(src)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "main.rs") || p.parent() != Some(src))
        .map(|file| Module {
            name: module_name(file.strip_prefix(src).expect("under src")),
            text: std::fs::read_to_string(&file).expect("a readable source file"),
            file,
        })
        .collect()
}

/// The source with comments blanked and string and character literals emptied; line breaks
/// are kept, so line numbers stay.
pub fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let keep_newlines = |s: &[char], out: &mut String| {
        out.extend(s.iter().map(|&ch| if ch == '\n' { '\n' } else { ' ' }));
    };
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            let end = c[i..]
                .iter()
                .position(|&ch| ch == '\n')
                .map_or(c.len(), |n| i + n);
            keep_newlines(&c[i..end], &mut out);
            i = end;
        } else if c[i] == '/' && next == Some('*') {
            let (mut depth, mut j) = (1, i + 2);
            while j < c.len() && depth > 0 {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 1;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 1;
                }
                j += 1;
            }
            keep_newlines(&c[i..j.min(c.len())], &mut out);
            i = j;
        } else if c[i] == 'r' && matches!(next, Some('"' | '#')) && !ident_before(&c, i) {
            let hashes = c[i + 1..].iter().take_while(|&&ch| ch == '#').count();
            if c.get(i + 1 + hashes) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            let mut j = i + 2 + hashes;
            while j < c.len()
                && !(c[j] == '"'
                    && c[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == '#')
                        .count()
                        == hashes)
            {
                j += 1;
            }
            out.push_str("\"\"");
            let lines = c[i..(j + 1 + hashes).min(c.len())]
                .iter()
                .filter(|&&ch| ch == '\n')
                .count();
            out.extend(std::iter::repeat_n('\n', lines));
            i = j + 1 + hashes;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            let lines = c[i..j.min(c.len())]
                .iter()
                .filter(|&&ch| ch == '\n')
                .count();
            out.extend(std::iter::repeat_n('\n', lines));
            i = j + 1;
        } else if c[i] == '\'' && next == Some('\\') {
            let j = c[(i + 3).min(c.len())..]
                .iter()
                .position(|&ch| ch == '\'')
                .map_or(c.len(), |n| i + 4 + n);
            out.push_str("' '");
            i = j;
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Whether the character before `i` continues an identifier (so `r` there is not a raw string).
fn ident_before(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

/// The index just past the item that starts at `from`: through its `;` or its balanced `{…}`,
/// whichever comes first.
fn item_end(code: &str, from: usize) -> usize {
    let b = code.as_bytes();
    let mut i = from;
    while i < b.len() && b[i] != b';' && b[i] != b'{' {
        i += 1;
    }
    if i >= b.len() || b[i] == b';' {
        return (i + 1).min(b.len());
    }
    let mut depth = 0;
    while i < b.len() {
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The code with every `#[cfg(test)]` item blanked (lines kept), and the names of the child
/// modules declared under `#[cfg(test)]` (`#[cfg(test)] mod tests;`).
pub fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut out = code.to_string();
    let mut test_mods = Vec::new();
    let mut from = 0;
    while let Some(at) = out[from..].find("#[cfg(test)]").map(|n| from + n) {
        let end = item_end(&out, at);
        let item = &out[at..end];
        if let Some(name) = declared_module(item) {
            test_mods.push(name);
        }
        let blank: String = item
            .chars()
            .map(|ch| if ch == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(at..end, &blank);
        from = at + blank.len();
    }
    (out, test_mods)
}

/// The module an item declares (`mod x;`, `pub mod x {`), if it is one.
fn declared_module(item: &str) -> Option<String> {
    let words: Vec<&str> = item
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let at = words.iter().position(|&w| w == "mod")?;
    words.get(at + 1).map(|w| w.to_string())
}
