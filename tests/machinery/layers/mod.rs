//! The crates' shape, checked on their source: no import cycle among file modules (in the
//! library, `src/`, and in the Python binding, `python/src/`, each its own graph), no library
//! module importing from a higher layer, and no overlong file or function in `src/`.
//!
//! It reads every `.rs` file under those folders (and nothing outside the repository), takes the
//! paths each file's code names (see [`edges`]: `use` trees, inline paths, paths through a child
//! module, macro bodies and invocations, re-exports followed to the module that defines the
//! name), outside comments, strings and `#[cfg(test)]` items, and resolves each to the file
//! module that defines what it names. A child's use of its parent, and a parent's use of its
//! child, are edges like any other: so a parent that only declares and re-exports its children
//! makes no loop with them.
//!
//! The layer table is written once, in [`LAYERS`]; the crate docs (`src/lib.rs`) carry the same
//! words, which the test checks.

mod cases;
mod checks;
mod edges;
pub(crate) mod source;

use checks::{cycles, file_may_be_long, long_functions, upward};
use edges::{graph, Graph};
use source::crate_modules;
use std::path::{Path, PathBuf};

/// The layers, bottom to top: a module uses only its own layer or lower ones. Each entry is the
/// layer's top-level modules and what the layer holds, in the words of `src/lib.rs`.
const LAYERS: &[(&[&str], &str)] = &[
    (
        &["fixed", "cache", "rng", "notation", "text", "input"],
        "fixed-size containers, the hash cache, seeded randomness, card notation, small text helpers and the bounded reader of every file",
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
        &["generic_agents"],
        "the generic agents and the catalogue: random, first, ismcts, rules, net",
    ),
    (
        &["sim"],
        "the seeded game loop, the runner, records of play, statistics and output",
    ),
    (
        &["study", "learn", "train"],
        "studies of deals, equity and tuning; learning rule lists; training networks",
    ),
    (
        &["serve"],
        "the local web app: its JSON API over the engines and seat views, and its files",
    ),
    (&["cli"], "the commands"),
];

/// The longest a `src/` file may be without a `//! Long:` line.
const MAX_FILE_LINES: usize = 80 * 10;
/// The longest a function may be without a `Long:` line in its doc comment.
const MAX_FN_LINES: usize = 80;

// ---------------------------------------------------------------------------------------------
// The tests on the crate

/// The repository's `src` folder.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The modules of the crate whose source folder is `dir`, as `(name, source)`.
fn sources(dir: &Path) -> Vec<(String, String)> {
    crate_modules(dir)
        .into_iter()
        .map(|m| (m.name, m.text))
        .collect()
}

/// The loops of a crate as lines, `N modules: a, b, …`, each followed by its edges
/// (`a → b, line N`).
fn shown(found: &[Vec<String>], edges: &Graph) -> String {
    let mut lines = Vec::new();
    for c in found {
        lines.push(format!("{} modules: {}", c.len(), c.join(", ")));
        for from in c {
            for (to, line) in edges.get(from).into_iter().flatten() {
                if c.contains(to) {
                    lines.push(format!("    {from} → {to}, line {line}"));
                }
            }
        }
    }
    lines.join("\n  ")
}

#[test]
fn no_import_cycle_among_file_modules() {
    let edges = graph(&sources(&src()));
    let found = cycles(&edges);
    assert!(
        found.is_empty(),
        "import cycles among file modules:\n  {}",
        shown(&found, &edges)
    );
}

#[test]
fn no_import_cycle_in_the_python_binding() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/src");
    let edges = graph(&sources(&dir));
    let found = cycles(&edges);
    assert!(
        found.is_empty(),
        "import cycles among the Python binding's file modules:\n  {}",
        shown(&found, &edges)
    );
}

#[test]
fn no_import_from_a_higher_layer() {
    let found = upward(&graph(&sources(&src())));
    assert!(
        found.is_empty(),
        "imports from a higher layer (see LAYERS in tests/machinery/layers/mod.rs and src/lib.rs):\n  {}",
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
