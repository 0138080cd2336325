//! The import graph: every path a file module's code names, resolved to the file module that
//! defines what it names.
//!
//! A path makes an edge wherever it is written: in a `use` declaration (each leaf of a grouped
//! tree), inline in the code, in a `macro_rules!` body or in a macro's arguments. It is read from
//! the module it is written in: `crate::`/`$crate::`/`self::`/`super::` paths, paths through a
//! child module (`child::x`, so a parent's use of its child is an edge), and paths through a name
//! a `use` binds (`use crate::games::tusac; tusac::x::y`). A name a module re-exports (or imports:
//! its children see it) is followed to the module that defines it: `crate::Seat` is an edge to
//! `game`, `crate::games::GameKind` one to `games::kind`; the re-exporting module has its own edge
//! to the definer through its `use`. A `#[macro_export]` macro is read as a name of the crate
//! root, `pub(crate) use m;` binds the macro `m` of its module, and a macro invoked by its bare
//! name (`m!`) in a module below the one defining it (textual scope) is an edge to that module.
//! A path naming a module itself (`use crate::games::chan;`) is no edge: the paths through it
//! are. Glob imports (`use x::*`) make an edge to `x` but bind no name.

use super::source::{code_only, without_tests};
use std::collections::{BTreeMap, BTreeSet};

/// The import graph: for each module, the modules it uses, each with the line of the first use.
pub type Graph = BTreeMap<String, BTreeMap<String, usize>>;

/// Texts found in some code, each with its byte offset.
type Found = Vec<(String, usize)>;

/// How deep a chain of re-exports is followed before giving up (a guard against loops).
const MAX_HOPS: usize = 16;

/// One leaf of a use tree: the path it names and the name it binds (`None` for a glob or `_`).
#[derive(Debug, PartialEq)]
pub struct Leaf {
    pub path: String,
    pub name: Option<String>,
}

/// The leaves of a use tree: `a::{b, c::{d, e as f}, self}` → `a::b` (as `b`), `a::c::d`,
/// `a::c::e` (as `f`), `a` (as `a`).
pub fn use_leaves(tree: &str) -> Vec<Leaf> {
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
    let mut halves = tree.split(" as ");
    let path = halves.next().unwrap_or(tree).replace(' ', "");
    let path = path.strip_suffix("::self").unwrap_or(&path).to_string();
    let name = match halves.next().map(str::trim) {
        Some("_") => None,
        Some(alias) => Some(alias.to_string()),
        None => path.rsplit("::").next().map(str::to_string),
    };
    let name = name.filter(|n| n != "*");
    vec![Leaf { path, name }]
}

/// The `use` declarations of some code: for each, its span (from `use` to its `;`) and the text
/// of its tree.
fn use_trees(code: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut from = 0;
    while let Some(at) = code[from..].find("use").map(|n| from + n) {
        from = at + 3;
        let word_start = at == 0 || !is_ident_byte(b[at - 1]);
        let word_end = b.get(at + 3).is_some_and(|c| c.is_ascii_whitespace());
        if word_start && word_end {
            let end = code[at..].find(';').map_or(code.len(), |n| at + n);
            out.push((at..end, code[at + 3..end].to_string()));
            from = end;
        }
    }
    out
}

/// Whether a byte continues an identifier.
fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The paths of some code (`a::b::c`, `$crate::x`), each with its offset, and the macros it
/// invokes by a bare name (`m!`), each with its offset.
fn scan_paths(code: &str) -> (Found, Found) {
    let b = code.as_bytes();
    let (mut paths, mut bare) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < b.len() {
        let starts = is_ident_byte(b[i])
            && !b[i].is_ascii_digit()
            && (i == 0 || !(is_ident_byte(b[i - 1]) || b[i - 1] == b':'));
        if !starts {
            i += 1;
            continue;
        }
        let at = if i > 0 && b[i - 1] == b'$' { i - 1 } else { i };
        let mut end = i;
        loop {
            while end < b.len() && is_ident_byte(b[end]) {
                end += 1;
            }
            let more = code[end..].starts_with("::")
                && b.get(end + 2)
                    .is_some_and(|&c| is_ident_byte(c) || c == b'$');
            if !more {
                break;
            }
            end += 2 + usize::from(b[end + 2] == b'$');
        }
        let path = &code[at..end];
        if path.contains("::") {
            paths.push((path.to_string(), at));
        } else if b.get(end) == Some(&b'!') && b.get(end + 1) != Some(&b'=') {
            bare.push((path.to_string(), at));
        }
        i = end.max(i + 1);
    }
    (paths, bare)
}

/// The macros some code defines with `macro_rules!`: each name, and whether `#[macro_export]`
/// puts it at the crate root.
fn macros_defined(code: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("macro_rules!") {
        let name: String = code[at + "macro_rules!".len()..]
            .trim_start()
            .chars()
            .take_while(|&c| c.is_alphanumeric() || c == '_')
            .collect();
        let item_start = code[..at].rfind([';', '}']).map_or(0, |n| n + 1);
        out.push((name, code[item_start..at].contains("#[macro_export]")));
    }
    out
}

/// A path as written: its text, its line, and the module it is written in (the file module, or
/// an inline `mod` inside it: `games::tusac::greedy::slot`).
#[derive(Clone)]
struct Written {
    path: String,
    line: usize,
    scope: String,
}

/// What one file module's code names: its `use` leaves and inline paths, the macros it invokes
/// by bare name, the names its `use`s bind (each to the path it names), the macros it defines.
#[derive(Default)]
struct Scan {
    paths: Vec<Written>,
    bare_macros: Vec<Written>,
    bindings: BTreeMap<String, Written>,
    macros: Vec<(String, bool)>,
}

/// The line (from 1) of byte offset `at`, given the offsets of the line breaks.
fn line_at(breaks: &[usize], at: usize) -> usize {
    breaks.partition_point(|&n| n < at) + 1
}

/// The inline modules of some code (`mod name { … }`): each one's span and name.
fn inline_modules(code: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    for (at, _) in code.match_indices("mod") {
        if at > 0 && is_ident_byte(b[at - 1]) || !b.get(at + 3).is_some_and(u8::is_ascii_whitespace)
        {
            continue;
        }
        let after = code[at + 3..].trim_start();
        let name: String = after
            .chars()
            .take_while(|&c| c.is_alphanumeric() || c == '_')
            .collect();
        if name.is_empty() || !after[name.len()..].trim_start().starts_with('{') {
            continue;
        }
        let open = at + 3 + code[at + 3..].find('{').expect("checked above");
        let mut depth = 0;
        let end = code[open..]
            .char_indices()
            .find_map(|(i, ch)| {
                depth += match ch {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                (depth == 0).then_some(open + i + 1)
            })
            .unwrap_or(code.len());
        out.push((open..end, name));
    }
    out
}

/// Reads one file module's cleaned code.
fn scan(module: &str, code: &str) -> Scan {
    let mut out = Scan {
        macros: macros_defined(code),
        ..Scan::default()
    };
    let breaks: Vec<usize> = code.match_indices('\n').map(|(n, _)| n).collect();
    let inline = inline_modules(code);
    let written = |path: String, at: usize| {
        let mut scope = segments(module);
        scope.extend(
            inline
                .iter()
                .filter(|(span, _)| span.contains(&at))
                .map(|(_, name)| name.clone()),
        );
        Written {
            path,
            line: line_at(&breaks, at),
            scope: scope.join("::"),
        }
    };
    let mut rest = code.to_string();
    for (span, tree) in use_trees(code) {
        for leaf in use_leaves(&tree) {
            let w = written(leaf.path, span.start);
            if let Some(name) = leaf.name {
                out.bindings.insert(name, w.clone());
            }
            out.paths.push(w);
        }
        let blank: String = code[span.clone()]
            .chars()
            .map(|ch| if ch == '\n' { '\n' } else { ' ' })
            .collect();
        rest.replace_range(span, &blank);
    }
    let (paths, bare) = scan_paths(&rest);
    out.paths
        .extend(paths.into_iter().map(|(p, at)| written(p, at)));
    out.bare_macros = bare.into_iter().map(|(m, at)| written(m, at)).collect();
    out
}

/// The segments of a module name (none for the crate root).
fn segments(module: &str) -> Vec<String> {
    module
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// A crate read for resolving: its file modules, what each names, and where each macro lives.
struct Crate {
    modules: BTreeSet<String>,
    scans: BTreeMap<String, Scan>,
    /// Each macro's name and the modules defining it.
    macro_homes: BTreeMap<String, Vec<String>>,
}

impl Crate {
    /// The absolute segments (from the crate root) of a path written in file module `file` (in
    /// `scope`: the file module or an inline module inside it), or `None` for a path outside the
    /// crate (std, a dependency, a local name).
    fn absolute(&self, path: &str, scope: &str, file: &str, hops: usize) -> Option<Vec<String>> {
        let segs = segments(path);
        let first = segs.first()?.as_str();
        let mut base = segments(scope);
        let rest = match first {
            "crate" | "$crate" => {
                base.clear();
                &segs[1..]
            }
            "self" | "super" => {
                let n = segs
                    .iter()
                    .take_while(|s| matches!(s.as_str(), "self" | "super"))
                    .count();
                for s in &segs[..n] {
                    if s == "super" {
                        base.pop();
                    }
                }
                &segs[n..]
            }
            _ if self.modules.contains(&join(&base, first)) => &segs[..],
            _ => {
                let bound = self.scans[file].bindings.get(first);
                if let Some(home) = self.macro_home(first, file) {
                    base = segments(&home);
                    &segs[..]
                } else if let Some(w) = bound.filter(|w| w.path != first && hops < MAX_HOPS) {
                    let mut abs = self.absolute(&w.path, &w.scope, file, hops + 1)?;
                    abs.extend_from_slice(&segs[1..]);
                    return Some(abs);
                } else {
                    return None;
                }
            }
        };
        base.extend_from_slice(rest);
        Some(base)
    }

    /// The module defining macro `name` in whose textual scope `from` lies (itself or an
    /// ancestor), if any.
    fn macro_home(&self, name: &str, from: &str) -> Option<String> {
        self.macro_homes
            .get(name)?
            .iter()
            .find(|h| h.is_empty() || from == h.as_str() || from.starts_with(&format!("{h}::")))
            .cloned()
    }

    /// The file module defining what absolute path `abs` names, following re-exports and
    /// imports; `None` for the crate root or a re-export of something outside the crate.
    fn resolve(&self, abs: &[String], hops: usize) -> Option<String> {
        let (module, len) = (0..=abs.len())
            .rev()
            .map(|n| (abs[..n].join("::"), n))
            .find(|(m, _)| self.modules.contains(m))?;
        if let Some(name) = abs.get(len) {
            if let Some(w) = self.scans[&module].bindings.get(name) {
                let mut next = self.absolute(&w.path, &w.scope, &module, hops)?;
                if next[..] != abs[..=len] && hops < MAX_HOPS {
                    next.extend_from_slice(&abs[len + 1..]);
                    return self.resolve(&next, hops + 1);
                }
            }
        }
        (!module.is_empty()).then_some(module)
    }

    /// The file module a path written in file module `file` names, if one other than `file`.
    /// A path naming a module itself (`use crate::games::chan;`) names none: the paths through
    /// it (`chan::Card`) make the edges.
    fn edge(&self, w: &Written, file: &str) -> Option<String> {
        let abs = self.absolute(&w.path, &w.scope, file, 0)?;
        if self.modules.contains(&abs.join("::")) {
            return None;
        }
        self.resolve(&abs, 0).filter(|to| to != file)
    }
}

/// `base::name` as a module name.
fn join(base: &[String], name: &str) -> String {
    base.iter()
        .map(String::as_str)
        .chain([name])
        .collect::<Vec<_>>()
        .join("::")
}

/// The import graph among `modules` (`name → source`; the crate root is `""` and must be among
/// them for its re-exports to be followed). Test-only modules and `#[cfg(test)]` items are left
/// out.
pub fn graph(modules: &[(String, String)]) -> Graph {
    let mut scans = BTreeMap::new();
    let mut test_only = BTreeSet::new();
    for (name, text) in modules {
        let (code, tests) = without_tests(&code_only(text));
        for t in tests {
            test_only.insert(join(&segments(name), &t));
        }
        scans.insert(name.clone(), scan(name, &code));
    }
    // a child of a test-only module is test-only too
    let is_test = |m: &str| {
        test_only
            .iter()
            .any(|t| m == t || m.starts_with(&format!("{t}::")))
    };
    scans.retain(|m, _| !is_test(m));
    scans.entry(String::new()).or_default();
    let mut macro_homes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut exported = Vec::new();
    for (module, s) in &scans {
        for (name, export) in &s.macros {
            macro_homes
                .entry(name.clone())
                .or_default()
                .push(module.clone());
            if *export {
                let path = format!("crate::{module}::{name}");
                exported.push((
                    name.clone(),
                    Written {
                        path,
                        line: 0,
                        scope: String::new(),
                    },
                ));
            }
        }
    }
    let root = scans.get_mut("").expect("the root was added");
    root.bindings.extend(exported);
    let krate = Crate {
        modules: scans.keys().cloned().collect(),
        scans,
        macro_homes,
    };
    let mut edges = Graph::new();
    for (name, s) in &krate.scans {
        let out = edges.entry(name.clone()).or_default();
        let macro_paths = s.bare_macros.iter().filter_map(|w| {
            let home = krate.macro_home(&w.path, name).filter(|h| h != name)?;
            Some(Written {
                path: format!("crate::{home}::{}", w.path),
                ..w.clone()
            })
        });
        for w in s.paths.iter().cloned().chain(macro_paths) {
            if let Some(to) = krate.edge(&w, name) {
                let line = out.entry(to).or_insert(w.line);
                *line = (*line).min(w.line);
            }
        }
    }
    edges.retain(|m, _| !m.is_empty() || modules.iter().any(|(n, _)| n.is_empty()));
    edges
}
