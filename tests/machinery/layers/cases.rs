//! Each check can fail: small made-up sources.

use super::checks::{cycles, file_may_be_long, long_functions, upward};
use super::edges::{graph, use_leaves, Leaf};
use super::{MAX_FILE_LINES, MAX_FN_LINES};

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
            "use crate::{generic_agents::catalogue::CATALOGUE, record::Record};\n",
        ),
        (
            "generic_agents::catalogue",
            "pub const CATALOGUE: () = ();\n",
        ),
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
    let leaf = |path: &str, name: &str| Leaf {
        path: path.to_string(),
        name: Some(name.to_string()),
    };
    let mut leaves = use_leaves("crate::a::{b, c::{d, e as f}, self, g::*, h as _}");
    leaves.sort_by(|x, y| x.path.cmp(&y.path));
    assert_eq!(
        leaves,
        [
            leaf("crate::a", "a"),
            leaf("crate::a::b", "b"),
            leaf("crate::a::c::d", "d"),
            leaf("crate::a::c::e", "f"),
            Leaf {
                path: "crate::a::g::*".to_string(),
                name: None
            },
            Leaf {
                path: "crate::a::h".to_string(),
                name: None
            },
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// The loops the test once missed (issue 43, item 7), each in miniature

/// The modules `from` has an edge to.
fn edges_of(mods: &[(String, String)], from: &str) -> Vec<String> {
    graph(mods)
        .get(from)
        .map(|e| e.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn a_parents_inline_path_to_its_child_is_an_edge() {
    // `cli/mod.rs` ↔ `cli/agents.rs`: the parent calls `agents::run`, the child takes the
    // parent's `game_names`
    let cli = [
        "pub mod agents;\npub fn run() { agents::run(); }\npub(crate) fn game_names() {}\n",
        "pub mod agents;\npub fn run() { self::agents::run(); }\npub(crate) fn game_names() {}\n",
        "pub mod agents;\npub fn run() -> Box<dyn Fn()> { Box::new(agents::run) }\n\
         pub(crate) fn game_names() {}\n",
    ];
    for parent in cli {
        let mods = made_up(&[
            ("cli", parent),
            (
                "cli::agents",
                "#[arg(value_parser = super::game_names())]\npub fn run() {}\n",
            ),
        ]);
        assert_eq!(
            cycles(&graph(&mods)),
            vec![vec!["cli", "cli::agents"]],
            "{parent}"
        );
    }
    // what the children share in a child of its own: no loop
    let mods = made_up(&[
        (
            "cli",
            "pub mod agents;\npub mod args;\npub fn run() { agents::run(); }\n",
        ),
        ("cli::args", "pub(crate) fn game_names() {}\n"),
        (
            "cli::agents",
            "pub fn run() { super::args::game_names(); }\n",
        ),
    ]);
    assert!(cycles(&graph(&mods)).is_empty());
    assert_eq!(edges_of(&mods, "cli::agents"), ["cli::args"]);
}

#[test]
fn the_named_two_file_loops_are_caught() {
    // `study/page/mod.rs` ↔ `page/run.rs`: sections built by the parent, helpers imported back
    let page = made_up(&[
        (
            "study::page",
            "pub mod run;\npub struct Section;\n\
             pub fn build() -> Section { run::section() }\npub(crate) fn need() {}\n",
        ),
        (
            "study::page::run",
            "use super::{need, Section};\npub fn section() -> Section { need(); Section }\n",
        ),
    ]);
    assert_eq!(
        cycles(&graph(&page)),
        vec![vec!["study::page", "study::page::run"]]
    );
    // `tusac/packs/loose/mod.rs` ↔ `loose/fast.rs`: a private child module
    let loose = made_up(&[
        (
            "games::tusac::packs::loose",
            "mod fast;\nfn solve_lb() -> u8 { 0 }\n\
             pub fn best() -> u8 { fast::best().unwrap_or_else(solve_lb) }\n",
        ),
        (
            "games::tusac::packs::loose::fast",
            "use super::solve_lb;\npub fn best() -> Option<u8> { Some(solve_lb()) }\n",
        ),
    ]);
    assert_eq!(
        cycles(&graph(&loose)),
        vec![vec![
            "games::tusac::packs::loose",
            "games::tusac::packs::loose::fast"
        ]]
    );
}

#[test]
fn the_python_crates_loops_are_caught_and_its_dependency_is_outside() {
    // `engine.rs` ↔ `seen.rs` and `state.rs` ↔ `view.rs`, with `bailab::` paths outside
    let mods = made_up(&[
        (
            "",
            "mod engine;\nmod seen;\nmod state;\nmod view;\nuse bailab::games::GAMES;\n",
        ),
        (
            "engine",
            "use crate::seen::Seen;\nuse bailab::game::Seat;\n\
             pub trait Table { fn seen(&self, s: Seat) -> Box<dyn Seen>; }\n",
        ),
        (
            "seen",
            "use crate::engine::Table;\npub trait Seen { fn table(&self) -> Box<dyn Table>; }\n",
        ),
        (
            "state",
            "use crate::view::PyView;\npub struct PyState;\n\
             impl PyState { fn view(&self) -> PyView { PyView } }\n",
        ),
        (
            "view",
            "pub struct PyView;\n\
             impl PyView { fn determinize(&self) -> crate::state::PyState { todo!() } }\n",
        ),
    ]);
    assert_eq!(
        cycles(&graph(&mods)),
        vec![vec!["engine", "seen"], vec!["state", "view"]]
    );
    let outside = made_up(&[
        ("", "mod engine;\nuse bailab::games::GAMES;\n"),
        (
            "engine",
            "use bailab::game::Seat;\nfn f() { bailab::sim::play(); }\n",
        ),
    ]);
    assert!(edges_of(&outside, "engine").is_empty());
    assert_eq!(edges_of(&outside, ""), Vec::<String>::new());
}

#[test]
fn paths_in_an_inline_module_are_read_from_it() {
    // `super::` in `mod slot { … }` of `a::b` is `a::b`, not `a`
    let mods = made_up(&[
        ("a", "pub mod b;\nuse b::Thing;\n"),
        (
            "a::b",
            "pub struct Thing;\nfn helper() {}\nmod slot {\n    use super::helper;\n}\n",
        ),
    ]);
    assert!(cycles(&graph(&mods)).is_empty());
    // and a path from an inline module to a child of its file module is an edge
    let mods = made_up(&[
        (
            "m",
            "pub mod c;\npub struct Y;\nmod slot {\n    use super::c::X;\n}\n",
        ),
        ("m::c", "use super::Y;\npub struct X;\n"),
    ]);
    assert_eq!(cycles(&graph(&mods)), vec![vec!["m", "m::c"]]);
}

#[test]
fn macro_paths_are_edges() {
    // a `$crate::` path in a `macro_rules!` body
    let body = made_up(&[
        (
            "games",
            "pub mod kind;\nmacro_rules! registry {\n    () => { pub fn with_game() { \
             $crate::games::kind::visit() } };\n}\nregistry!();\n",
        ),
        (
            "games::kind",
            "pub fn visit() { crate::games::with_game(); }\n",
        ),
    ]);
    assert_eq!(cycles(&graph(&body)), vec![vec!["games", "games::kind"]]);
    // a macro invoked by its path: `#[macro_export]` puts it at the crate root,
    // `pub(crate) use m;` beside it
    let exported = made_up(&[
        ("", "pub mod games;\n"),
        (
            "games",
            "pub mod chan;\n#[macro_export]\nmacro_rules! with_game { () => {} }\n\
             pub fn f() { chan::g() }\n",
        ),
        ("games::chan", "pub fn g() { crate::with_game!(); }\n"),
    ]);
    assert_eq!(
        cycles(&graph(&exported)),
        vec![vec!["games", "games::chan"]]
    );
    let used = made_up(&[
        (
            "games",
            "pub mod chan;\nmacro_rules! with_game { () => {} }\npub(crate) use with_game;\n\
             pub fn f() { chan::g() }\n",
        ),
        (
            "games::chan",
            "pub fn g() { crate::games::with_game!(); }\n",
        ),
    ]);
    assert_eq!(cycles(&graph(&used)), vec![vec!["games", "games::chan"]]);
    // a macro invoked by its bare name below the module defining it (textual scope)
    let bare = made_up(&[
        (
            "games",
            "macro_rules! registry { () => {} }\npub mod chan;\npub fn f() { chan::g() }\n",
        ),
        ("games::chan", "pub fn g() { registry!(); }\n"),
    ]);
    assert_eq!(cycles(&graph(&bare)), vec![vec!["games", "games::chan"]]);
    // a path among a macro's arguments
    let args = made_up(&[
        ("a", "pub fn f() { println!(\"{}\", crate::b::X); }\n"),
        ("b", "pub const X: u8 = crate::a::Y;\n"),
    ]);
    assert_eq!(cycles(&graph(&args)), vec![vec!["a", "b"]]);
}

#[test]
fn re_exports_are_followed_to_the_defining_module() {
    // through the crate root: `crate::Seat` is `game::Seat`
    let root = made_up(&[
        ("", "pub mod game;\npub mod games;\npub use game::Seat;\n"),
        (
            "game",
            "pub struct Seat;\npub fn f() { crate::games::g() }\n",
        ),
        ("games", "use crate::Seat;\npub fn g() {}\n"),
    ]);
    assert_eq!(cycles(&graph(&root)), vec![vec!["game", "games"]]);
    // through a parent: a loop between two children, the parent out of it
    let parent = made_up(&[
        (
            "games",
            "pub mod kind;\npub mod tusac;\npub use kind::GameKind;\n",
        ),
        (
            "games::kind",
            "use crate::games::tusac::TuSac;\npub trait GameKind {}\n",
        ),
        ("games::tusac", "use super::GameKind;\npub struct TuSac;\n"),
    ]);
    assert_eq!(
        cycles(&graph(&parent)),
        vec![vec!["games::kind", "games::tusac"]]
    );
    assert_eq!(edges_of(&parent, "games::tusac"), ["games::kind"]);
    assert_eq!(edges_of(&parent, "games"), ["games::kind"]);
    // a chain of re-exports, renamed on the way, and an import used as a path
    let chain = made_up(&[
        ("notation", "pub struct CardListError;\n"),
        ("games", "pub mod chan;\n"),
        (
            "games::chan",
            "pub mod card;\npub use card::Error as CardError;\n",
        ),
        (
            "games::chan::card",
            "pub use crate::notation::CardListError as Error;\n",
        ),
        (
            "sim",
            "use crate::games::chan;\nfn f(e: chan::CardError) {}\n\
             fn g() { chan::card::Error; }\n",
        ),
    ]);
    assert_eq!(edges_of(&chain, "sim"), ["notation"]);
}

#[test]
fn a_parent_that_declares_and_re_exports_makes_no_loop() {
    let mods = made_up(&[
        (
            "p",
            "pub mod a;\npub mod b;\npub use a::X;\npub use b::Y;\n",
        ),
        ("p::a", "use super::Y;\npub struct X(Y);\n"),
        ("p::b", "pub struct Y;\nfn f() { super::X; }\n"),
    ]);
    assert_eq!(cycles(&graph(&mods)), vec![vec!["p::a", "p::b"]]);
    let mods = made_up(&[
        (
            "p",
            "pub mod a;\npub mod b;\npub use a::X;\npub use b::Y;\n",
        ),
        ("p::a", "use super::Y;\npub struct X(Y);\n"),
        ("p::b", "pub struct Y;\n"),
    ]);
    assert!(cycles(&graph(&mods)).is_empty());
}

#[test]
fn the_line_of_an_edge_is_its_first_use() {
    let mods = made_up(&[
        (
            "a",
            "use crate::c::Z;\n\nfn f() { crate::b::x(); }\nuse crate::b::Y;\n",
        ),
        ("b", ""),
        ("c", ""),
    ]);
    let g = graph(&mods);
    assert_eq!(g["a"]["b"], 3);
    assert_eq!(g["a"]["c"], 1);
}
