//! The checks on a graph and on a source: cycles, imports from a higher layer, overlong files
//! and functions.

use super::edges::Graph;
use super::source::code_only;
use super::{LAYERS, MAX_FN_LINES};
use std::collections::{BTreeMap, BTreeSet};

/// The strongly connected components of more than one module (Tarjan), each sorted.
pub fn cycles(edges: &Graph) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        edges: &'a Graph,
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
pub fn layer_of(module: &str) -> Result<Option<usize>, String> {
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
pub fn upward(edges: &Graph) -> Vec<String> {
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
pub fn long_functions(text: &str) -> Vec<(usize, String, usize)> {
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
pub fn file_may_be_long(text: &str) -> bool {
    text.lines()
        .take_while(|l| l.trim_start().starts_with("//!") || l.trim().is_empty())
        .any(|l| has_long(&[l]))
}
