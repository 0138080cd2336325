//! Chắn's options explained: every key of the rules map has a `bailab rules` entry (meaning,
//! section) in section order, `bailab rules --game chan` prints them, and the rules reference
//! `docs/games/chan.md` names each option in the section its entry cites. Every section, rule id
//! and predicate the Chắn code and tests cite has its place in the reference.

use crate::common;

use bailab::game::RuleMap;
use bailab::games::chan::rules::PREDS;
use bailab::games::chan::{Chan, Options, Rule};
use bailab::games::kind::{GameCore, RuleDoc};
use common::{ok, stdout, Scratch};
use serde_json::json;
use std::path::Path;

fn docs() -> Vec<RuleDoc> {
    <Chan as GameCore>::rule_docs()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn reference() -> String {
    std::fs::read_to_string(root().join("docs/games/chan.md")).expect("docs/games/chan.md")
}

/// The numbers of a section id: `§5.2.1` → `[5, 2, 1]`.
fn numbers(section: &str) -> Vec<u32> {
    section
        .trim_start_matches('§')
        .split('.')
        .map(|n| n.parse().unwrap_or_else(|_| panic!("section '{section}'")))
        .collect()
}

/// The heading of section `id` (`8.2` or `8`) and its body up to the next heading of the same
/// or a higher level: `## 8. Scoring` is section 8, `#### 5.2.1 Deal` section 5.2.1.
fn section<'a>(doc: &'a str, id: &str) -> Option<&'a str> {
    let lines: Vec<(usize, &str)> = doc
        .split_inclusive('\n')
        .scan(0, |at, l| {
            let start = *at;
            *at += l.len();
            Some((start, l))
        })
        .collect();
    let heading = |l: &str| -> Option<(usize, String)> {
        let level = l.chars().take_while(|&c| c == '#').count();
        let rest = l[level..].strip_prefix(' ')?;
        let first = rest.split_whitespace().next()?;
        (level >= 2).then(|| (level, first.trim_end_matches('.').to_string()))
    };
    let (i, level) = lines.iter().enumerate().find_map(|(i, (_, l))| {
        heading(l)
            .filter(|(_, h)| h == id)
            .map(|(level, _)| (i, level))
    })?;
    let start = lines[i].0;
    let end = lines[i + 1..]
        .iter()
        .find(|(_, l)| heading(l).is_some_and(|(lv, _)| lv <= level))
        .map_or(doc.len(), |(at, _)| *at);
    Some(&doc[start..end])
}

#[test]
fn every_option_has_a_meaning_and_a_section_in_section_order() {
    let docs = docs();
    for players in 2..=5 {
        let rules = Options::default_for(players).to_rules();
        for key in rules.keys() {
            assert!(docs.iter().any(|d| d.name == key), "no RuleDoc for '{key}'");
        }
        for d in &docs {
            assert!(
                rules.contains_key(d.name),
                "RuleDoc '{}' is no option",
                d.name
            );
        }
    }
    let mut names: Vec<&str> = docs.iter().map(|d| d.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), docs.len(), "one entry per option");
    for pair in docs.windows(2) {
        assert!(
            numbers(pair[0].section) <= numbers(pair[1].section),
            "{} ({}) before {} ({})",
            pair[0].name,
            pair[0].section,
            pair[1].name,
            pair[1].section
        );
    }
    for d in &docs {
        assert!(d.section.starts_with('§'), "{}: {}", d.name, d.section);
        assert!(
            d.doc.len() > 20 && !d.doc.contains('\n'),
            "{}: {}",
            d.name,
            d.doc
        );
    }
}

#[test]
fn every_value_an_enum_option_takes_is_named_in_its_meaning() {
    let defaults = Options::default_for(4).to_rules();
    let mut enums = 0;
    for d in docs() {
        if !defaults[d.name].is_string() {
            continue;
        }
        enums += 1;
        // the values the option takes, as its error message lists them
        let mut bad = RuleMap::new();
        bad.insert(d.name.into(), json!("NoSuchValue"));
        let e = Options::from_rules(&bad).unwrap_err().to_string();
        let values = e.split("expected one of ").nth(1).expect(&e);
        for v in values.split(", ") {
            assert!(
                d.doc.contains(v),
                "{}: '{v}' not explained: {}",
                d.name,
                d.doc
            );
        }
    }
    assert_eq!(
        enums, 3,
        "first_player_after_draw, chan_discard_rule, thap_thanh_rule"
    );
}

#[test]
fn the_rules_command_shows_each_meaning_and_section() {
    let dir = Scratch::new("chan-rules-command");
    let text = stdout(&ok(&dir.0, &["rules", "--game", "chan"]));
    assert!(text.starts_with("# Chắn (chan)"), "{text}");
    let mut at = Vec::new();
    for d in docs() {
        let (i, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.starts_with(&format!("{} ", d.name)))
            .unwrap_or_else(|| panic!("{} not printed:\n{text}", d.name));
        assert!(
            line.contains(d.section) && line.contains(d.doc),
            "{}: {line}",
            d.name
        );
        at.push(i);
    }
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "printed in section order"
    );
    // an override shows its value beside the same explanation
    let text = stdout(&ok(
        &dir.0,
        &[
            "rules",
            "--game",
            "chan",
            "--rules",
            "chan_discard_rule=Strict",
        ],
    ));
    let line = text
        .lines()
        .find(|l| l.starts_with("chan_discard_rule "))
        .expect("printed");
    assert!(
        line.contains("\"Strict\"") && line.contains("§6.3"),
        "{line}"
    );
}

#[test]
fn the_reference_names_each_option_in_its_section_and_in_the_options_table() {
    let doc = reference();
    let table = section(&doc, "9").expect("section 9 of docs/games/chan.md");
    for d in docs() {
        let id = d.section.trim_start_matches('§');
        let body = section(&doc, id)
            .unwrap_or_else(|| panic!("{}: no heading for {} in the reference", d.name, id));
        let name = format!("`{}`", d.name);
        assert!(
            body.contains(&name),
            "{} not named in {}",
            d.name,
            d.section
        );
        assert!(
            table.lines().any(|l| l.starts_with(&format!("| {name} |"))),
            "{} has no row in the §9 table",
            d.name
        );
    }
}

/// The `§` citations of a text: `§5.2.1`, `§8` (a trailing dot is the sentence's).
fn citations(text: &str) -> Vec<String> {
    text.split('§')
        .skip(1)
        .filter_map(|rest| {
            let id: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let id = id.trim_end_matches('.').to_string();
            (!id.is_empty()).then_some(id)
        })
        .collect()
}

/// Every `.rs` file of the Chắn module and the Chắn tests, with its text.
fn chan_sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (dir, prefix) in [("src/games/chan", ""), ("tests", "chan_")] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with(prefix) && name.ends_with(".rs") {
                files.push((
                    format!("{dir}/{name}"),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    assert!(files.len() > 15, "{} files", files.len());
    files
}

#[test]
fn every_section_the_chan_code_cites_is_in_the_reference() {
    let doc = reference();
    for (file, text) in chan_sources() {
        for id in citations(&text) {
            assert!(
                section(&doc, &id).is_some(),
                "{file} cites §{id}, which docs/games/chan.md lacks"
            );
        }
        let outside = ["..", "shared"].join("/");
        assert!(
            !text.contains(&outside),
            "{file} points outside the repository"
        );
    }
    for d in docs() {
        assert!(section(&doc, d.section.trim_start_matches('§')).is_some());
    }
}

#[test]
fn rule_ids_and_predicates_are_in_the_reference() {
    let doc = reference();
    // the rule ids records carry lead to their section
    for rule in [Rule::ThienKhai, Rule::U, Rule::ThienU, Rule::StockEmpty] {
        let id = rule.id();
        let (num, _) = id.split_once('-').unwrap();
        let body = section(&doc, num).unwrap_or_else(|| panic!("no section {num} for {id}"));
        assert!(
            body.contains(&format!("`{id}`")),
            "{id} not named in §{num}"
        );
    }
    // each predicate an explanation reports is named in §6 (E…, D…) or §6.1 (the reasons)
    let six = section(&doc, "6").unwrap();
    for p in PREDS {
        let name = format!("{p:?}");
        assert!(
            six.contains(&format!("| {name} |")) || six.contains(&format!("`{name}`")),
            "{name} not in §6"
        );
    }
    // the ambiguity ids the code cites are rows of §10
    let ten = section(&doc, "10").unwrap();
    for (file, text) in chan_sources() {
        for w in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            let is_id =
                w.len() >= 2 && w.starts_with('A') && w[1..].chars().all(|c| c.is_ascii_digit());
            if is_id {
                assert!(
                    ten.contains(&format!("| {w} |")),
                    "{file} cites {w}, not in §10"
                );
            }
        }
    }
}
