//! The repository stands alone: no file of its code, tests, scripts or docs reads or points to
//! anything outside the clone (a sibling folder, or an absolute path of one machine). The rules
//! the engines implement are cited from `docs/games/`, and the tests' vectors live in
//! `tests/data/`.

use std::path::{Path, PathBuf};

/// The folders whose files must not reach outside the repository.
const CHECKED: [&str; 4] = ["src", "tests", "scripts", "docs"];

/// What a path outside the clone looks like. Written in pieces so that this file does not
/// match itself.
fn outside_patterns() -> Vec<String> {
    let up = "..";
    vec![
        format!("{up}/shared"),
        format!("{up}\\shared"),
        ["/", "work", "/"].concat(),
        ["/", "home", "/"].concat(),
        ["/", "root", "/"].concat(),
        ["/", "Users", "/"].concat(),
    ]
}

/// Every file under `dir`, recursively, in name order.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The lines of the checked folders that name a place outside the repository, as
/// `file:line: text`.
fn outside_references(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for dir in CHECKED {
        files_under(&root.join(dir), &mut files);
    }
    let patterns = outside_patterns();
    let mut found = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue; // binary files cannot cite a path a reader follows
        };
        for (i, line) in text.lines().enumerate() {
            if patterns.iter().any(|p| line.contains(p.as_str())) {
                let name = file.strip_prefix(root).unwrap_or(&file).display();
                found.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn no_file_of_the_repository_points_outside_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = outside_references(root);
    assert!(
        found.is_empty(),
        "{} line(s) point outside the repository:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_check_finds_a_path_outside_the_repository() {
    let dir = std::env::temp_dir().join(format!("bailab-standalone-{}", std::process::id()));
    let docs = dir.join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    let citation = format!("See ..{}rules/x.md §3.", "/shared/");
    std::fs::write(docs.join("a.md"), format!("fine\n{citation}\n")).unwrap();
    std::fs::write(docs.join("b.md"), "nothing here\n").unwrap();
    let found = outside_references(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, vec![format!("docs/a.md:2: {citation}")]);
}

#[test]
fn the_vectors_the_tests_load_are_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vectors");
    for name in [
        "tusac-trash.jsonl",
        "tienlen-classify.jsonl",
        "tienlen-beats.jsonl",
        "chan-decompose.jsonl",
    ] {
        let text = std::fs::read_to_string(root.join(name))
            .unwrap_or_else(|e| panic!("tests/data/vectors/{name}: {e}"));
        let rows = text.lines().filter(|l| !l.trim().is_empty()).count();
        assert!(rows > 0, "tests/data/vectors/{name} is empty");
    }
}
