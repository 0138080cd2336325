//! The rules references in `docs/games/` cover every option `bailab rules` lists: for every game
//! and variant, each option in force is named in `docs/games/<game>.md`, every section its
//! explanation cites exists there as a numbered heading (or, for a labelled rule such as `C7`,
//! as a label), and the option is named in that section or on a line that cites it.

use bailab::game::RuleMap;
use bailab::games::kind::{GameInfo, GameKind, RuleDoc};
use bailab::games::{with_game, GameVisitor, GAMES};
use std::path::Path;

/// A game's options over all its variants (name and its explanation, if any) and its docs.
struct Options;

impl GameVisitor for Options {
    type Output = (Vec<String>, Vec<RuleDoc>);
    fn visit<G: GameKind>(self) -> Self::Output {
        let info = G::INFO;
        let mut names = Vec::new();
        for variant in info.variants {
            let (lo, hi) = info.seats_of(variant);
            let players = if (lo..=hi).contains(&4) { 4 } else { lo };
            let map = G::rules_in_force(variant, players, &RuleMap::new())
                .unwrap_or_else(|e| panic!("{} {variant}: {e}", info.name));
            for name in map.keys() {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        (names, G::rule_docs())
    }
}

/// The reference of one game, as text.
fn reference(info: &GameInfo) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/games")
        .join(format!("{}.md", info.name));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The number a heading line starts with (`### 4.6 Sisepai` → `4.6`), if any.
fn heading_number(line: &str) -> Option<(usize, &str)> {
    let level = line.chars().take_while(|&c| c == '#').count();
    if level == 0 {
        return None;
    }
    let rest = line[level..].trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    let number = rest[..end].trim_end_matches('.');
    (!number.is_empty()).then_some((level, number))
}

/// The text of the section numbered `number` (its heading to the next heading of the same or
/// a higher level), or `None` when the reference has no such heading.
fn section<'a>(text: &'a str, number: &str) -> Option<String> {
    let lines: Vec<&'a str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| heading_number(l).is_some_and(|(_, n)| n == number))?;
    let (level, _) = heading_number(lines[start]).unwrap();
    let end = lines[start + 1..]
        .iter()
        .position(|l| {
            let hashes = l.chars().take_while(|&c| c == '#').count();
            hashes > 0 && hashes <= level
        })
        .map_or(lines.len(), |i| start + 1 + i);
    Some(lines[start..end].join("\n"))
}

/// The section numbers (`4.6`) and rule labels (`S5`) a section string cites
/// (`"§4.4 C7, §4.5, §6.2–6.4"`).
fn citations(cited: &str) -> (Vec<String>, Vec<String>) {
    let (mut numbers, mut labels) = (Vec::new(), Vec::new());
    for token in cited.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        if let Some(rest) = token.strip_prefix('§') {
            numbers.extend(
                rest.split(['–', '-'])
                    .map(|n| n.trim_end_matches('.').to_string())
                    .filter(|n| !n.is_empty()),
            );
        } else if token.len() >= 2
            && token.starts_with(|c: char| c.is_ascii_uppercase())
            && token[1..].chars().all(|c| c.is_ascii_digit())
        {
            labels.push(token.to_string());
        }
    }
    (numbers, labels)
}

/// True when `word` stands in `text` as a word of its own (`C7`, not `C71`).
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric()) && !after.is_some_and(|c| c.is_alphanumeric())
    })
}

/// What is wrong with one game's reference: one line per problem.
fn problems(info: &GameInfo) -> Vec<String> {
    let text = reference(info);
    let (names, docs) = with_game(info.name, Options).unwrap();
    let mut found = Vec::new();
    for name in &names {
        let quoted = format!("`{name}`");
        if !text.contains(&quoted) {
            found.push(format!("option {quoted} is not named"));
            continue;
        }
        let Some(doc) = docs.iter().find(|d| d.name == name) else {
            found.push(format!(
                "option {quoted} has no explanation in `bailab rules`"
            ));
            continue;
        };
        let (numbers, labels) = citations(doc.section);
        if numbers.is_empty() {
            found.push(format!(
                "option {quoted} cites no section ('{}')",
                doc.section
            ));
        }
        for number in &numbers {
            match section(&text, number) {
                None => found.push(format!("option {quoted} cites §{number}: no such heading")),
                Some(body) => {
                    let on_a_citing_line = text
                        .lines()
                        .any(|l| l.contains(&quoted) && l.contains(&format!("§{number}")));
                    if !body.contains(&quoted) && !on_a_citing_line {
                        found.push(format!("option {quoted} is not named in §{number}"));
                    }
                }
            }
        }
        for label in &labels {
            if !has_word(&text, label) {
                found.push(format!("option {quoted} cites {label}: no such rule label"));
            }
        }
    }
    found
}

#[test]
fn every_option_of_every_game_is_in_its_rules_reference_with_its_section() {
    let mut all = Vec::new();
    for info in GAMES {
        all.extend(
            problems(info)
                .into_iter()
                .map(|p| format!("docs/games/{}.md: {p}", info.name)),
        );
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

#[test]
fn every_game_explains_every_option_it_lists() {
    for info in GAMES {
        let (names, docs) = with_game(info.name, Options).unwrap();
        assert!(!names.is_empty(), "{} lists no option", info.name);
        for name in &names {
            let doc = docs.iter().find(|d| d.name == name);
            assert!(
                doc.is_some_and(|d| !d.doc.is_empty() && !d.section.is_empty()),
                "{}: option '{name}' has no meaning or section",
                info.name
            );
        }
    }
}

#[test]
fn sections_are_found_by_number_and_level() {
    let text = "# T\n## 4. Play\nintro\n### 4.6 Sisepai\n`a` here\n### 4.7 Win\n`b`\n## 5. Worst\n";
    assert_eq!(section(text, "4.6").unwrap(), "### 4.6 Sisepai\n`a` here");
    assert!(section(text, "4").unwrap().contains("`b`"));
    assert!(!section(text, "4").unwrap().contains("Worst"));
    assert!(section(text, "4.60").is_none());
    assert!(section(text, "6").is_none());
    assert_eq!(
        citations("§4.4 C7, §4.5 F2, §6.2–6.4"),
        (
            vec!["4.4".into(), "4.5".into(), "6.2".into(), "6.4".into()],
            vec!["C7".into(), "F2".into()]
        )
    );
    assert!(has_word("rule **C7** says", "C7"));
    assert!(!has_word("rule C71", "C7"));
}
