//! Tiến Lên's options are explained where a user looks: every key of the rules map has a
//! [`RULE_DOCS`] entry, `bailab rules --game tienlen` prints each option's meaning and section,
//! and the rules reference `docs/games/tienlen.md` names every option in the sections its entry
//! cites. Every § number, rule id and test-case label the engine and its tests cite is a heading
//! or a labelled row of that reference.

use bailab::games::tienlen::options::RULE_DOCS;
use bailab::games::tienlen::types::Rule;
use bailab::games::tienlen::{Options, ToiTrang};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common;

const REFERENCE: &str = "docs/games/tienlen.md";

fn reference() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(REFERENCE);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The reference's numbered sections: `"7.3"` → the text from its heading up to the next
/// heading of the same or a higher level (subsections included).
fn sections(doc: &str) -> BTreeMap<String, String> {
    let lines: Vec<&str> = doc.lines().collect();
    let heading = |l: &str| -> Option<(usize, String)> {
        let level = l.chars().take_while(|&c| c == '#').count();
        let rest = l.get(level..)?.strip_prefix(' ')?;
        let id = rest.split_whitespace().next()?.trim_end_matches('.');
        let numbered = !id.is_empty() && id.chars().all(|c| c.is_ascii_digit() || c == '.');
        (level > 0 && numbered).then(|| (level, id.to_string()))
    };
    let mut out = BTreeMap::new();
    for (i, l) in lines.iter().enumerate() {
        let Some((level, id)) = heading(l) else {
            continue;
        };
        let end = lines[i + 1..]
            .iter()
            .position(|m| {
                let n = m.chars().take_while(|&c| c == '#').count();
                n > 0 && n <= level && m[n..].starts_with(' ')
            })
            .map_or(lines.len(), |p| i + 1 + p);
        assert!(
            out.insert(id.clone(), lines[i..end].join("\n")).is_none(),
            "{REFERENCE}: two headings numbered {id}"
        );
    }
    out
}

/// True when the reference has a table row labelled `label` (`| T5 |`, `| K12 |`).
fn has_row(doc: &str, label: &str) -> bool {
    doc.lines().any(|l| {
        l.starts_with(&format!("| {label} |")) || l.starts_with(&format!("| **{label}** |"))
    })
}

/// The parts of a section string: `"§3.2 C1, T5"` → `[("3.2", Some("C1")), ("T5", None)]`,
/// where a part without `§` is a label of the §9 table.
fn cited(section: &str) -> Vec<(String, Option<String>)> {
    section
        .split(", ")
        .map(|part| {
            let mut words = part.split_whitespace();
            let first = words.next().unwrap_or_default().to_string();
            (first, words.next().map(str::to_string))
        })
        .collect()
}

#[test]
fn every_option_of_the_rules_map_has_one_doc_entry_in_section_order() {
    let names: Vec<&str> = RULE_DOCS.iter().map(|d| d.name).collect();
    let unique: BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(
        unique.len(),
        names.len(),
        "a name documented twice: {names:?}"
    );
    for players in 2..=4 {
        let keys: BTreeSet<String> = Options::default_for(players)
            .to_rules()
            .keys()
            .cloned()
            .collect();
        let documented: BTreeSet<String> = unique.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            keys, documented,
            "{players} players: rules keys vs RULE_DOCS"
        );
    }
    let number = |d: &bailab::games::kind::RuleDoc| -> Vec<u32> {
        let first = d.section.trim_start_matches('§');
        let id = first.split([' ', ',']).next().unwrap();
        id.split('.').map(|x| x.parse().unwrap()).collect()
    };
    for d in RULE_DOCS {
        assert!(
            d.section.starts_with('§'),
            "{}: section {}",
            d.name,
            d.section
        );
        assert!(d.doc.len() > 20, "{}: a meaning, not a word", d.name);
    }
    for w in RULE_DOCS.windows(2) {
        assert!(
            number(&w[0]) <= number(&w[1]),
            "{} ({}) is listed before {} ({})",
            w[0].name,
            w[0].section,
            w[1].name,
            w[1].section
        );
    }
    // the amounts say their unit, the enums their values
    for (name, words) in [
        ("ps5_value", &["cược"][..]),
        ("place_stakes", &["cược"]),
        ("cong_pay", &["cược"]),
        ("toi_trang_pay", &["cược"]),
        ("quad_chops", &["SingleAndPair", "PairOnly", "SingleOnly"]),
        ("oot_chop_min_pairs", &["4", "5", "none"]),
        ("huong_sai", &["NextActiveAfterFinisher"]),
    ] {
        let d = RULE_DOCS.iter().find(|d| d.name == name).unwrap();
        for w in words {
            assert!(d.doc.contains(w), "{name}: '{w}' missing from '{}'", d.doc);
        }
    }
    for t in ToiTrang::ALL {
        let d = RULE_DOCS.iter().find(|d| d.name == "toi_trang_lists");
        assert!(
            d.unwrap().doc.contains(t.id()),
            "toi_trang_lists: {}",
            t.id()
        );
    }
}

#[test]
fn the_rules_command_prints_each_options_meaning_and_section() {
    let dir = common::Scratch::new("tienlen-rules-doc");
    for players in ["4", "3", "2"] {
        let o = common::ok(
            &dir.0,
            &["rules", "--game", "tienlen", "--players", players],
        );
        let text = common::stdout(&o);
        assert!(
            text.starts_with("# Tiến Lên (tienlen), variant south"),
            "{text}"
        );
        // one line per option, in the table's order, with its section and meaning
        let mut last = 0;
        for d in RULE_DOCS {
            let (at, line) = text
                .lines()
                .enumerate()
                .find(|(_, l)| l.starts_with(&format!("{} ", d.name)))
                .unwrap_or_else(|| panic!("{} is not printed: {text}", d.name));
            assert!(at > last, "{} is out of order: {text}", d.name);
            last = at;
            assert!(
                line.contains(d.section) && line.contains(d.doc),
                "{}: {line}",
                d.name
            );
        }
    }
    let o = common::ok(
        &dir.0,
        &[
            "rules",
            "--game",
            "tienlen",
            "--rules",
            "quad_chops=PairOnly",
        ],
    );
    let text = common::stdout(&o);
    let line = text.lines().find(|l| l.starts_with("quad_chops ")).unwrap();
    assert!(
        line.contains("\"PairOnly\"") && line.contains("§3.2 C2"),
        "{line}"
    );
}

#[test]
fn the_reference_names_every_option_in_the_sections_it_cites() {
    let doc = reference();
    let secs = sections(&doc);
    let options = secs.get("8").expect("a §8 options heading");
    for d in RULE_DOCS {
        let name = format!("`{}`", d.name);
        // a row of the §8 table: option | values | default | section | meaning
        let row = options
            .lines()
            .find(|l| l.starts_with(&format!("| {name} |")))
            .unwrap_or_else(|| panic!("§8 has no row for {name}"));
        assert!(
            row.contains(d.section),
            "§8 row of {name} cites {}: {row}",
            d.section
        );
        for (id, label) in cited(d.section) {
            match id.strip_prefix('§') {
                Some(num) => {
                    let text = secs
                        .get(num)
                        .unwrap_or_else(|| panic!("{name} cites §{num}: no such heading"));
                    let with_value = format!("`{} = ", d.name);
                    assert!(
                        text.contains(&name) || text.contains(&with_value),
                        "{name} is not named in §{num}"
                    );
                    if let Some(label) = label {
                        assert!(text.contains(&label), "§{num} has no {label} ({name})");
                    }
                }
                None => assert!(has_row(&doc, &id), "{name} cites {id}: no row {id} in §9"),
            }
        }
    }
}

/// Every `§N.N` in the files of `dir` (recursively) ending in `ext`, with where it was found.
fn citations(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            citations(&path, keep, out);
            continue;
        }
        if !keep(&path) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, _) in text.match_indices('§') {
            let id: String = text[i + '§'.len_utf8()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let id = id.trim_end_matches('.').to_string();
            if !id.is_empty() {
                out.entry(id).or_insert_with(|| path.display().to_string());
            }
        }
    }
}

#[test]
fn every_section_rule_id_and_label_the_engine_cites_is_in_the_reference() {
    let doc = reference();
    let secs = sections(&doc);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = BTreeMap::new();
    citations(
        &root.join("src/games/tienlen"),
        &|p| p.extension().is_some_and(|e| e == "rs"),
        &mut found,
    );
    citations(
        &root.join("tests"),
        &|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("tienlen_") && n.ends_with(".rs"))
        },
        &mut found,
    );
    assert!(found.len() > 30, "{found:?}");
    for (id, file) in &found {
        assert!(
            secs.contains_key(id) || has_row(&doc, id),
            "§{id} (cited in {file}) is neither a heading nor a row of {REFERENCE}"
        );
    }
    // the rule ids records write (`rule` of forced moves and payments)
    let rules = [
        Rule::Finish,
        Rule::LastActive,
        Rule::Cong,
        Rule::Den,
        Rule::EndTrick,
        Rule::HuongSai,
        Rule::LeaveOnTwo,
        Rule::Chat,
        Rule::VoidChain,
        Rule::PlaceStake,
        Rule::Thoi,
        Rule::LeaveThoi,
        Rule::CongPay,
        Rule::ToiTrangPay,
        Rule::GameOver,
    ];
    for r in rules {
        let id = r.id();
        let num = id.split('-').next().unwrap();
        let text = secs.get(num).unwrap_or_else(|| panic!("{id}: no §{num}"));
        assert!(
            text.contains(&format!("`{id}`")),
            "{id} is not named in §{num}"
        );
    }
    for t in ToiTrang::ALL {
        let text = &secs["5.1"];
        assert!(
            text.contains(&format!("`{}`", t.id())),
            "{} not in §5.1",
            t.id()
        );
    }
    // the labels of the beats rules, the readings chosen and the worked examples
    for c in ["C1", "C2", "C3", "C4"] {
        assert!(secs["3.2"].contains(&format!("**{c}**")), "{c} in §3.2");
    }
    let labels = [
        ("T", 21),
        ("K", 22),
        ("B", 23),
        ("L", 8),
        ("H", 7),
        ("W", 11),
    ];
    for (prefix, last) in labels {
        for i in 1..=last {
            assert!(has_row(&doc, &format!("{prefix}{i}")), "no row {prefix}{i}");
        }
    }
}

#[test]
fn the_vectors_tables_match_the_vector_files() {
    let doc = reference();
    let secs = sections(&doc);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vectors");
    for (file, sec, cards) in [
        ("tienlen-classify.jsonl", "10.1", &["cards"][..]),
        ("tienlen-beats.jsonl", "10.2", &["a", "b"]),
    ] {
        let body = std::fs::read_to_string(root.join(file)).unwrap();
        for line in body.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let id = v["id"].as_str().unwrap();
            let row = secs[sec]
                .lines()
                .find(|l| l.starts_with(&format!("| {id} |")))
                .unwrap_or_else(|| panic!("§{sec} has no row {id}"));
            for key in cards {
                let c = format!("`{}`", v[key].as_str().unwrap());
                assert!(row.contains(&c), "§{sec} {id}: {c} missing: {row}");
            }
        }
    }
}
