//! The crate's shape, checked on its source: no import cycle among file modules, no module
//! importing from a higher layer, and no overlong file or function.
//!
//! It reads every `src/**/*.rs` (and nothing outside the repository), takes each file's `use`
//! declarations (grouped `use a::{b, c::{d}}`, `pub use`, `crate::`/`self::`/`super::` paths and
//! paths through a child module) and its inline `crate::…`/`super::…`/`self::…` paths, outside
//! comments, strings and `#[cfg(test)]` items, and resolves each to the deepest file module that
//! exists. A child's use of its parent is an edge like any other.
//!
//! The layer table is written once, in [`LAYERS`]; the crate docs (`src/lib.rs`) carry the same
//! words, which the test checks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom to top: a module uses only its own layer or lower ones. Each entry is the
/// layer's top-level modules and what the layer holds, in the words of `src/lib.rs`.
const LAYERS: &[(&[&str], &str)] = &[
    (
        &["fixed", "cache", "rng", "notation", "text"],
        "fixed-size containers, the hash cache, seeded randomness, card notation and small text helpers",
    ),
    (
        &["game", "agent"],
        "the contracts: a game, its state and a seat's view; an agent, its spec, features and greedy weights",
    ),
    (
        &["record", "deal_spec"],
        "building blocks shared by games and the runner: the record format and partial deals",
    ),
    (
        &["games"],
        "the games, the `GameKind` trait and the registry",
    ),
    (
        &["agents"],
        "the generic agents and the catalogue: random, first, ismcts, rules",
    ),
    (
        &["sim"],
        "the seeded game loop, the runner, records of play, statistics and output",
    ),
    (&["study", "learn"], "studies of deals, equity and tuning; learning rule lists"),
    (&["cli"], "the commands"),
];

/// The longest a `src/` file may be without a `//! Long:` line.
const MAX_FILE_LINES: usize = 80 * 10;
/// The longest a function may be without a `Long:` line in its doc comment.
const MAX_FN_LINES: usize = 80;

/// One file module: its path (`games::kind`, `` for the crate root), its file and its source.
struct Module {
    name: String,
    file: PathBuf,
    text: String,
}

// ---------------------------------------------------------------------------------------------
// Reading the source

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
fn crate_modules(src: &Path) -> Vec<Module> {
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
fn code_only(text: &str) -> String {
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
fn without_tests(code: &str) -> (String, Vec<String>) {
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

// ---------------------------------------------------------------------------------------------
// Paths and edges

/// The leaf paths of a use tree: `a::{b, c::{d, e as f}}` → `a::b`, `a::c::d`, `a::c::e`.
fn use_leaves(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let prefix = &tree[..open];
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut parts = Vec::new();
        let (mut depth, mut start) = (0, 0);
        for (i, ch) in inner.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&inner[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&inner[start..]);
        return parts
            .into_iter()
            .filter(|p| !p.trim().is_empty())
            .flat_map(|p| use_leaves(&format!("{prefix}{}", p.trim())))
            .collect();
    }
    let path = tree.split(" as ").next().unwrap_or(tree).replace(' ', "");
    vec![path.strip_suffix("::self").unwrap_or(&path).to_string()]
}

/// The `use` declarations of some code: the text of each tree after `use`.
fn use_trees(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut from = 0;
    while let Some(at) = code[from..].find("use").map(|n| from + n) {
        from = at + 3;
        let word_start = at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
        let word_end = b.get(at + 3).is_some_and(|c| c.is_ascii_whitespace());
        if word_start && word_end {
            let end = code[at..].find(';').map_or(code.len(), |n| at + n);
            out.push(code[at + 3..end].to_string());
            from = end;
        }
    }
    out
}

/// The inline paths of some code that start with `crate`, `$crate`, `self` or `super`.
fn inline_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    for start in ["crate::", "self::", "super::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start).map(|n| from + n) {
            from = at + start.len();
            let before = if at == 0 { b' ' } else { b[at - 1] };
            if before.is_ascii_alphanumeric() || before == b'_' || before == b':' {
                continue;
            }
            let end = code[at..]
                .find(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == ':'))
                .map_or(code.len(), |n| at + n);
            out.push(code[at..end].trim_end_matches(':').to_string());
        }
    }
    out
}

/// The file module a path used in module `from` names: the deepest existing one, or `None` for
/// a path outside the crate (std, a dependency) or one naming only the crate root.
fn resolve(path: &str, from: &str, modules: &BTreeSet<String>) -> Option<String> {
    let mut segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<&str> = if from.is_empty() {
        Vec::new()
    } else {
        from.split("::").collect()
    };
    match segs.first().copied() {
        Some("crate" | "$crate") => {
            segs.remove(0);
            base.clear();
        }
        Some("self" | "super") => {
            while let Some(&s) = segs.first() {
                match s {
                    "self" => {}
                    "super" => {
                        base.pop();
                    }
                    _ => break,
                }
                segs.remove(0);
            }
        }
        Some(first) => {
            // a path through a child module of `from` (`use kind::GameKind;` in `games`)
            let child = if from.is_empty() {
                first.to_string()
            } else {
                format!("{from}::{first}")
            };
            if !modules.contains(&child) {
                return None;
            }
        }
        None => return None,
    }
    let full: Vec<&str> = base.into_iter().chain(segs).collect();
    (1..=full.len())
        .rev()
        .map(|n| full[..n].join("::"))
        .find(|m| modules.contains(m))
}

/// The import graph among `modules` (`name → source`): for each module, the modules it uses,
/// each with the line of the first use. Test-only modules and `#[cfg(test)]` items are left out.
fn graph(modules: &[(String, String)]) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut cleaned = BTreeMap::new();
    let mut test_only = BTreeSet::new();
    for (name, text) in modules {
        let (code, tests) = without_tests(&code_only(text));
        for t in tests {
            test_only.insert(if name.is_empty() {
                t
            } else {
                format!("{name}::{t}")
            });
        }
        cleaned.insert(name.clone(), code);
    }
    // a child of a test-only module is test-only too
    let is_test = |m: &str| {
        test_only
            .iter()
            .any(|t| m == t || m.starts_with(&format!("{t}::")))
    };
    let names: BTreeSet<String> = cleaned.keys().filter(|m| !is_test(m)).cloned().collect();
    let mut edges: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for name in &names {
        let code = &cleaned[name];
        let line_of = |needle: &str| {
            code.find(needle)
                .map_or(0, |at| code[..at].matches('\n').count() + 1)
        };
        let mut paths: Vec<(String, usize)> = Vec::new();
        for tree in use_trees(code) {
            let line = line_of(&tree);
            paths.extend(use_leaves(&tree).into_iter().map(|p| (p, line)));
        }
        paths.extend(inline_paths(code).into_iter().map(|p| {
            let line = line_of(&p);
            (p, line)
        }));
        let out = edges.entry(name.clone()).or_default();
        for (path, line) in paths {
            if let Some(to) = resolve(&path, name, &names) {
                if to != *name {
                    out.entry(to).or_insert(line);
                }
            }
        }
    }
    edges
}

// ---------------------------------------------------------------------------------------------
// The checks

/// The strongly connected components of more than one module (Tarjan), each sorted.
fn cycles(edges: &BTreeMap<String, BTreeMap<String, usize>>) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        edges: &'a BTreeMap<String, BTreeMap<String, usize>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.edges.get(v).into_iter().flat_map(|e| e.keys()) {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w.as_str()]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w.as_str()) {
                    let low = self.low[v].min(self.index[w.as_str()]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    comp.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out.sort();
    t.out
}

/// The layer of a module (by its top-level module), `None` for the crate root.
fn layer_of(module: &str) -> Result<Option<usize>, String> {
    let top = module.split("::").next().unwrap_or("");
    if top.is_empty() {
        return Ok(None);
    }
    LAYERS
        .iter()
        .position(|(mods, _)| mods.contains(&top))
        .map(Some)
        .ok_or_else(|| format!("module `{top}` is in no layer: add it to LAYERS and src/lib.rs"))
}

/// Every import from a higher layer, as `from (layer) uses to (layer) at line N`, and every
/// module in no layer.
fn upward(edges: &BTreeMap<String, BTreeMap<String, usize>>) -> Vec<String> {
    let mut out = Vec::new();
    for (from, tos) in edges {
        let lf = match layer_of(from) {
            Ok(Some(l)) => l,
            Ok(None) => continue,
            Err(e) => {
                out.push(e);
                continue;
            }
        };
        for (to, line) in tos {
            if let Ok(Some(lt)) = layer_of(to) {
                if lt > lf {
                    out.push(format!(
                        "{from} (layer {lf}) uses {to} (layer {lt}), line {line}"
                    ));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether a doc comment (the lines above an item, innermost last) has a `Long:` line.
fn has_long(doc_lines: &[&str]) -> bool {
    doc_lines.iter().any(|l| {
        let l = l.trim_start();
        l.strip_prefix("///")
            .or_else(|| l.strip_prefix("//!"))
            .is_some_and(|r| r.trim_start().starts_with("Long:"))
    })
}

/// The doc-comment and attribute lines right above line `at` (0-based).
fn doc_above<'a>(lines: &[&'a str], at: usize) -> Vec<&'a str> {
    let mut i = at;
    let mut out = Vec::new();
    while i > 0 {
        let l = lines[i - 1].trim_start();
        if l.starts_with("///") || l.starts_with("#[") || l.starts_with("//") {
            out.push(lines[i - 1]);
            i -= 1;
        } else {
            break;
        }
    }
    out
}

/// The functions of a source longer than [`MAX_FN_LINES`] without a `Long:` line, as
/// `(line, name, length)`.
fn long_functions(text: &str) -> Vec<(usize, String, usize)> {
    let code = code_only(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, line) in code.split('\n').enumerate() {
        let here = start;
        start += line.len() + 1;
        let Some(name) = fn_name(line) else { continue };
        let Some(end) = body_end(&code[here..]) else {
            continue; // a declaration without a body
        };
        let len = code[here..here + end].matches('\n').count() + 1;
        if len > MAX_FN_LINES && !has_long(&doc_above(&lines, i)) {
            out.push((i + 1, name, len));
        }
    }
    out
}

/// The byte offset of the `}` closing the body of the function that `code` starts with, or
/// `None` when a `;` ends it first (a declaration).
fn body_end(code: &str) -> Option<usize> {
    let (mut nest, mut braces) = (0i32, 0i32);
    for (i, ch) in code.char_indices() {
        match ch {
            '(' | '[' => nest += 1,
            ')' | ']' => nest -= 1,
            ';' if nest == 0 && braces == 0 => return None,
            '{' => braces += 1,
            '}' => {
                braces -= 1;
                if braces == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The name of the function a line starts (`pub(crate) const fn name`), if it does.
fn fn_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace().peekable();
    while let Some(w) = words.next() {
        match w {
            "pub" | "const" | "unsafe" | "async" | "default" => continue,
            _ if w.starts_with("pub(") => continue,
            "extern" => {
                if words.peek().is_some_and(|n| n.starts_with('"')) {
                    words.next();
                }
                continue;
            }
            "fn" => {
                let name: String = words
                    .next()?
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                return (!name.is_empty()).then_some(name);
            }
            _ => return None,
        }
    }
    None
}

/// Whether a file may be longer than [`MAX_FILE_LINES`]: its module docs have a `Long:` line.
fn file_may_be_long(text: &str) -> bool {
    text.lines()
        .take_while(|l| l.trim_start().starts_with("//!") || l.trim().is_empty())
        .any(|l| has_long(&[l]))
}

// ---------------------------------------------------------------------------------------------
// The tests on the crate

/// The repository's `src` folder.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The crate's modules as `(name, source)`.
fn sources() -> Vec<(String, String)> {
    crate_modules(&src())
        .into_iter()
        .map(|m| (m.name, m.text))
        .collect()
}

#[test]
fn no_import_cycle_among_file_modules() {
    let found = cycles(&graph(&sources()));
    let shown: Vec<String> = found
        .iter()
        .map(|c| format!("{} modules: {}", c.len(), c.join(", ")))
        .collect();
    assert!(
        found.is_empty(),
        "import cycles among file modules:\n  {}",
        shown.join("\n  ")
    );
}

#[test]
fn no_import_from_a_higher_layer() {
    let found = upward(&graph(&sources()));
    assert!(
        found.is_empty(),
        "imports from a higher layer (see LAYERS in tests/machinery/layers.rs and src/lib.rs):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn crate_docs_state_the_layers() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("src/lib.rs");
    let docs: String = lib
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("//!"))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    for (i, (mods, what)) in LAYERS.iter().enumerate() {
        let names: Vec<String> = mods.iter().map(|m| format!("`{m}`")).collect();
        let line = format!("{i}. {}: {what}", names.join(", "));
        assert!(
            docs.contains(&line),
            "src/lib.rs's docs do not state layer {i} as the test does: {line}"
        );
    }
}

#[test]
fn no_overlong_file_or_function() {
    let mut found = Vec::new();
    for m in crate_modules(&src()) {
        let rel = m
            .file
            .strip_prefix(src())
            .expect("under src")
            .display()
            .to_string();
        let lines = m.text.lines().count();
        if lines > MAX_FILE_LINES && !file_may_be_long(&m.text) {
            found.push(format!(
                "src/{rel}: {lines} lines (at most {MAX_FILE_LINES}, or `//! Long: why`)"
            ));
        }
        for (line, name, len) in long_functions(&m.text) {
            found.push(format!(
                "src/{rel}:{line}: fn {name} has {len} lines (at most {MAX_FN_LINES}, or `/// Long: why`)"
            ));
        }
    }
    assert!(found.is_empty(), "overlong code:\n  {}", found.join("\n  "));
}

// ---------------------------------------------------------------------------------------------
// Each check can fail: small made-up sources

/// Made-up modules from `(name, source)` pairs.
fn made_up(modules: &[(&str, &str)]) -> Vec<(String, String)> {
    modules
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect()
}

#[test]
fn a_cycle_is_caught() {
    let mods = made_up(&[
        ("", "pub mod a;\npub mod b;\npub mod c;"),
        ("a", "use crate::b::{x, y::{z}};\n"),
        ("b", "pub fn x() { super::c::w(); }\n"),
        ("c", "pub use crate::a::Thing;\n"),
    ]);
    assert_eq!(cycles(&graph(&mods)), vec![vec!["a", "b", "c"]]);
}

#[test]
fn a_child_using_its_parent_is_an_edge() {
    let mods = made_up(&[
        ("games", "pub mod kind;\nuse kind::GameKind;\n"),
        ("games::kind", "use super::GAMES;\n"),
    ]);
    assert_eq!(cycles(&graph(&mods)), vec![vec!["games", "games::kind"]]);
}

#[test]
fn comments_strings_and_tests_make_no_edge() {
    let mods = made_up(&[
        ("a", "// use crate::b::X;\nconst S: &str = \"crate::b::X\";\n#[cfg(test)]\nmod tests {\n    use crate::b::X;\n}\n"),
        ("b", "use crate::a::S;\n"),
    ]);
    assert!(cycles(&graph(&mods)).is_empty());
    let mods = made_up(&[
        ("a", "#[cfg(test)]\nmod tests;\n"),
        ("a::tests", "use crate::b::X;\n"),
        ("b", "use crate::a::S;\n"),
    ]);
    assert!(cycles(&graph(&mods)).is_empty());
}

#[test]
fn an_upward_import_is_caught() {
    let mods = made_up(&[
        ("record", "use crate::games::kind::GameKind;\n"),
        ("games", "pub mod kind;"),
        ("games::kind", "use crate::record::RecordEvent;\n"),
        (
            "cli",
            "use crate::{agents::catalogue::CATALOGUE, record::Record};\n",
        ),
        ("agents::catalogue", "pub const CATALOGUE: () = ();\n"),
    ]);
    let found = upward(&graph(&mods));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("record (layer 2) uses games::kind (layer 3)"));
}

#[test]
fn a_module_in_no_layer_is_caught() {
    let mods = made_up(&[("nowhere", "use crate::game::Seat;\n"), ("game", "")]);
    let found = upward(&graph(&mods));
    assert!(found[0].contains("`nowhere` is in no layer"), "{found:?}");
}

#[test]
fn an_overlong_function_is_caught() {
    let body = "    let x = 1;\n".repeat(MAX_FN_LINES);
    let text = format!("/// Does it.\npub fn long_one() {{\n{body}}}\n\nfn short() {{}}\n");
    let found = long_functions(&text);
    assert_eq!(found, vec![(2, "long_one".to_string(), MAX_FN_LINES + 2)]);
    let excused =
        format!("/// Does it.\n///\n/// Long: a table.\npub fn long_one() {{\n{body}}}\n");
    assert!(long_functions(&excused).is_empty());
    let declared = "trait T {\n    fn f(&self);\n}\n";
    assert!(long_functions(declared).is_empty());
}

#[test]
fn an_overlong_file_is_caught() {
    let text = "const X: u8 = 0;\n".repeat(MAX_FILE_LINES + 1);
    assert!(!file_may_be_long(&text));
    assert!(file_may_be_long(&format!(
        "//! Things.\n//! Long: one table.\n\n{text}"
    )));
}

#[test]
fn use_trees_expand() {
    let mut leaves = use_leaves("crate::a::{b, c::{d, e as f}, self}");
    leaves.sort();
    assert_eq!(
        leaves,
        [
            "crate::a",
            "crate::a::b",
            "crate::a::c::d",
            "crate::a::c::e"
        ]
    );
}
