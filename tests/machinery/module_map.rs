//! The module map of `docs/architecture.md` is the source's: the table between its two marker
//! lines lists every file module of `src/` with the first sentence of its `//!` doc, folder by
//! folder, and this test rebuilds it from the source and compares. A file added, moved, removed
//! or re-described without the map following fails here; `BAILAB_BLESS=1 cargo test --release
//! --test machinery module_map` writes the rebuilt table into the page.

use crate::layers::source::crate_modules;
use std::path::Path;

/// The line that opens the generated table in `docs/architecture.md`.
const BEGIN: &str = "<!-- module map: generated from src/ by tests/machinery/module_map.rs -->";
/// The line that closes it.
const END: &str = "<!-- end of module map -->";

/// The first sentence of a file's `//!` doc (up to the first `. ` that does not end `e.g.` or
/// `i.e.`, or the end of the first paragraph), with `|` escaped for the table.
fn first_sentence(text: &str) -> String {
    let mut para = String::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("//!") else {
            break;
        };
        let rest = rest.trim();
        if rest.is_empty() {
            if para.is_empty() {
                continue;
            }
            break;
        }
        if !para.is_empty() {
            para.push(' ');
        }
        para.push_str(rest);
    }
    let end = para
        .match_indices(". ")
        .map(|(i, _)| i)
        .find(|&i| !para[..i].ends_with("e.g") && !para[..i].ends_with("i.e"))
        .map_or(para.len(), |i| i + 1);
    para[..end].replace('|', "\\|")
}

/// The folder a module's file lies in, relative to `src/` (`sim/run`, or `.` for the root).
fn folder_of(file: &Path, src: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    match rel.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_string_lossy().replace('\\', "/"),
        _ => ".".to_string(),
    }
}

/// The table rebuilt from the source: one row per file, sorted by path.
fn module_table(src: &Path) -> String {
    let mut rows: Vec<(String, String)> = crate_modules(src)
        .into_iter()
        .map(|m| {
            let rel = m.file.strip_prefix(src).expect("under src");
            let path = rel.to_string_lossy().replace('\\', "/");
            (path, first_sentence(&m.text))
        })
        .collect();
    rows.sort();
    let mut out = String::from("| file | what it is |\n| --- | --- |\n");
    for (path, doc) in rows {
        out.push_str(&format!("| `src/{path}` | {doc} |\n"));
    }
    out
}

/// The page with its table replaced by `table`; `None` when the markers are missing.
fn with_table(page: &str, table: &str) -> Option<String> {
    let start = page.find(BEGIN)? + BEGIN.len();
    let end = start + page[start..].find(END)?;
    Some(format!("{}\n{}{}", &page[..start], table, &page[end..]))
}

#[test]
fn the_architecture_page_maps_every_module_of_src() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let doc = root.join("docs/architecture.md");
    let page = std::fs::read_to_string(&doc).expect("docs/architecture.md");
    let table = module_table(&src);
    let rebuilt = with_table(&page, &table)
        .unwrap_or_else(|| panic!("docs/architecture.md lacks the lines {BEGIN} … {END}"));
    if std::env::var_os("BAILAB_BLESS").is_some() {
        std::fs::write(&doc, &rebuilt).expect("docs/architecture.md written");
        return;
    }
    assert!(
        page == rebuilt,
        "docs/architecture.md's module map is out of date with src/ (rebuild it with \
         BAILAB_BLESS=1 cargo test --release --test machinery module_map)"
    );
}

#[test]
fn every_folder_of_src_has_a_paragraph_on_the_architecture_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let page = std::fs::read_to_string(root.join("docs/architecture.md")).expect("the page");
    let prose = &page[..page.find(BEGIN).unwrap_or(page.len())];
    let mut folders: Vec<String> = crate_modules(&src)
        .iter()
        .map(|m| folder_of(&m.file, &src))
        .filter(|f| f != ".")
        .collect();
    folders.sort();
    folders.dedup();
    let missing: Vec<&String> = folders
        .iter()
        .filter(|f| !prose.contains(&format!("`src/{f}/`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md has no paragraph naming these folders (as `src/FOLDER/`): {missing:?}"
    );
}

#[test]
fn the_first_sentence_is_read_from_the_doc_lines_only() {
    let text = "//! Playing games: the loop. More words.\n//! still more\nuse x;\n";
    assert_eq!(first_sentence(text), "Playing games: the loop.");
    assert_eq!(
        first_sentence("//! One line\n//! wrapped\n\nfn f() {}"),
        "One line wrapped"
    );
    assert_eq!(first_sentence("//! a | b\n"), "a \\| b");
    assert_eq!(
        first_sentence("//! Cards, e.g. rK. Then\n"),
        "Cards, e.g. rK."
    );
    assert_eq!(first_sentence("fn f() {}\n//! late\n"), "");
    let page = format!("head\n{BEGIN}\nold\n{END}\ntail\n");
    assert_eq!(
        with_table(&page, "new\n").as_deref(),
        Some(format!("head\n{BEGIN}\nnew\n{END}\ntail\n").as_str())
    );
    assert_eq!(with_table("no markers", "x"), None);
}
