//! Rule lists: the data of a `rules:PATH` agent, its TOML file and its readable text.
//!
//! A file names its game and variant and holds `[[rule]]` tables, read top to bottom. Each rule
//! narrows the candidate actions (at first, every legal action):
//!
//! - `prefer = "COND"` keeps the candidates that meet COND, if any does;
//! - `avoid = "COND"` drops the candidates that meet COND, unless every candidate does;
//! - `lowest = "FEATURE"` / `highest = "FEATURE"` keep the candidates with the least / greatest
//!   value of FEATURE.
//!
//! After the last rule the agent takes the candidate greedy would take first: greedy's choice
//! if it is still a candidate, otherwise greedy's choice among the candidates as far as the
//! `greedy_rank` feature tells them apart, then the first in canonical order. An empty list is
//! `greedy`.
//!
//! A condition is one or more tests joined by `and`: `FEATURE OP NUMBER` with OP one of
//! `== != < <= > >=`, `FEATURE` (meaning `FEATURE != 0`) or `not FEATURE` (`FEATURE == 0`).
//!
//! ```toml
//! game = "tusac"
//! variant = "classic"
//!
//! [[rule]]
//! avoid = "greedy and feed_combos > 20"
//!
//! [[rule]]
//! prefer = "is_discard and outs <= 1"
//! ```

use crate::agent::features::{FeatureInfo, FeatureRow};
use crate::agent::rule_file::RuleFileError;
use crate::input::{excerpt, EXCERPT_CHARS, RULES};
use crate::text::{toml_comment, toml_error, toml_string};
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::fmt;
use toml::Spanned;

/// The most tests a condition joins.
pub(crate) const MAX_TESTS: usize = 4;
/// The most rules a list holds.
pub(crate) const MAX_RULES: usize = 64;

/// A comparison of a test.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// The operators as written, longest first (so `<=` is read before `<`).
const OPS: [(&str, Op); 6] = [
    ("==", Op::Eq),
    ("!=", Op::Ne),
    ("<=", Op::Le),
    (">=", Op::Ge),
    ("<", Op::Lt),
    (">", Op::Gt),
];

impl Op {
    fn symbol(self) -> &'static str {
        OPS.iter().find(|(_, op)| *op == self).expect("every op").0
    }
    fn holds(self, a: i16, b: i16) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
        }
    }
}

/// One test: `feature op value`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Test {
    /// The feature's index in the game's row.
    pub feature: u8,
    /// The comparison.
    pub op: Op,
    /// The number compared with.
    pub value: i16,
}

impl Test {
    /// Whether a candidate's row passes the test.
    #[inline]
    pub(crate) fn holds(&self, row: &FeatureRow) -> bool {
        self.op.holds(row[self.feature as usize], self.value)
    }
}

/// A condition: tests joined by `and`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cond(pub ArrayVec<Test, MAX_TESTS>);

impl Cond {
    /// Whether a candidate's row meets every test.
    #[inline]
    pub(crate) fn holds(&self, row: &FeatureRow) -> bool {
        self.0.iter().all(|t| t.holds(row))
    }
}

/// One rule of a list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Keep the candidates meeting the condition, if any does.
    Prefer(Cond),
    /// Drop the candidates meeting the condition, unless all do.
    Avoid(Cond),
    /// Keep the candidates with the least value of a feature.
    Lowest(u8),
    /// Keep the candidates with the greatest value of a feature.
    Highest(u8),
}

/// A rule list for one game and variant, with the game's feature names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleList {
    /// The game's name.
    pub game: String,
    /// The variant's name.
    pub variant: String,
    /// The rules, read top to bottom.
    pub rules: Vec<Rule>,
    /// The names of the game's features (with `greedy`), by row index.
    pub features: Vec<&'static str>,
}

/// A rule file as TOML: where each value stands, for errors that name the line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    game: Spanned<String>,
    variant: Spanned<String>,
    #[serde(default)]
    rule: Vec<Spanned<RawRule>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    prefer: Option<Spanned<String>>,
    avoid: Option<Spanned<String>>,
    lowest: Option<Spanned<String>>,
    highest: Option<Spanned<String>>,
}

/// The 1-based line of byte `at` of `text`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

impl RuleList {
    /// Reads a rule file's text for the game named `game` with features `features`. `origin`
    /// names the file in errors; every error names the line and the problem.
    pub fn parse<'f>(
        text: &str,
        origin: &str,
        game: &str,
        features: impl Iterator<Item = &'f FeatureInfo>,
    ) -> Result<RuleList, RuleFileError> {
        let names: Vec<&'static str> = features.map(|f| f.name).collect();
        let raw: RawFile = toml::from_str(text)
            .map_err(|e| RuleFileError::Syntax(toml_error(text, origin, &e, RULES.what)))?;
        let line = |span: std::ops::Range<usize>| line_of(text, span.start);
        if raw.game.get_ref() != game {
            return Err(RuleFileError::OtherGame {
                file: origin.to_string(),
                line: line(raw.game.span()),
                found: raw.game.get_ref().clone(),
                game: game.to_string(),
            });
        }
        let mut rules = Vec::new();
        for table in &raw.rule {
            let rule = parse_rule(table.get_ref(), &names).map_err(|(span, problem)| {
                RuleFileError::Rule {
                    file: origin.to_string(),
                    line: line(span.unwrap_or(table.span())),
                    problem,
                }
            })?;
            rules.push(rule);
        }
        if rules.len() > MAX_RULES {
            return Err(RuleFileError::TooMany {
                file: origin.to_string(),
                count: rules.len(),
                max: MAX_RULES,
            });
        }
        Ok(RuleList {
            game: game.to_string(),
            variant: raw.variant.into_inner(),
            rules,
            features: names,
        })
    }

    /// The list as a TOML file: a header of `#` comments, the game and variant, and one
    /// `[[rule]]` per rule, each after its own comment lines (`notes[i]`, if given).
    pub fn to_toml(&self, header: &[String], notes: &[Vec<String>]) -> String {
        let mut out = String::new();
        for line in header {
            out += &toml_comment(line);
        }
        let (game, variant) = (toml_string(&self.game), toml_string(&self.variant));
        out += &format!("game = {game}\nvariant = {variant}\n");
        for (i, rule) in self.rules.iter().enumerate() {
            out += "\n";
            for line in notes.get(i).into_iter().flatten() {
                out += &toml_comment(line);
            }
            let (key, value) = self.key_value(rule);
            out += &format!("[[rule]]\n{key} = {}\n", toml_string(&value));
        }
        out
    }

    /// A rule as its TOML key and value (`prefer`, `"outs <= 1"`).
    pub(crate) fn key_value(&self, rule: &Rule) -> (&'static str, String) {
        match rule {
            Rule::Prefer(c) => ("prefer", self.cond_text(c)),
            Rule::Avoid(c) => ("avoid", self.cond_text(c)),
            Rule::Lowest(f) => ("lowest", self.features[*f as usize].to_string()),
            Rule::Highest(f) => ("highest", self.features[*f as usize].to_string()),
        }
    }

    /// A rule as a person reads it: `prefer outs <= 1`.
    pub(crate) fn rule_text(&self, rule: &Rule) -> String {
        let (key, value) = self.key_value(rule);
        format!("{key} {value}")
    }

    /// A condition as written in a rule file.
    pub(crate) fn cond_text(&self, cond: &Cond) -> String {
        let tests: Vec<String> = cond.0.iter().map(|t| self.test_text(t)).collect();
        tests.join(" and ")
    }

    fn test_text(&self, t: &Test) -> String {
        let name = self.features[t.feature as usize];
        match (t.op, t.value) {
            (Op::Ne, 0) => name.to_string(),
            (Op::Eq, 0) => format!("not {name}"),
            (op, v) => format!("{name} {} {v}", op.symbol()),
        }
    }
}

/// A rule table's one key, read. Errors carry the span of the value at fault.
fn parse_rule(
    raw: &RawRule,
    names: &[&'static str],
) -> Result<Rule, (Option<std::ops::Range<usize>>, String)> {
    let given = [
        ("prefer", &raw.prefer),
        ("avoid", &raw.avoid),
        ("lowest", &raw.lowest),
        ("highest", &raw.highest),
    ];
    let mut present = given
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (*k, v)));
    let Some((key, value)) = present.next() else {
        return Err((
            None,
            "a [[rule]] needs one of prefer, avoid, lowest or highest".into(),
        ));
    };
    if let Some((second, v)) = present.next() {
        return Err((
            Some(v.span()),
            format!("a [[rule]] takes one of prefer, avoid, lowest or highest, not both {key} and {second}"),
        ));
    }
    let text = value.get_ref();
    let fail = |m: TestError| (Some(value.span()), format!("{key} = {text:?}: {m}"));
    match key {
        "prefer" => parse_cond(text, names).map(Rule::Prefer).map_err(fail),
        "avoid" => parse_cond(text, names).map(Rule::Avoid).map_err(fail),
        "lowest" => feature_index(text.trim(), names)
            .map(Rule::Lowest)
            .map_err(fail),
        _ => feature_index(text.trim(), names)
            .map(Rule::Highest)
            .map_err(fail),
    }
}

/// Why a rule's condition or feature does not read (quoted text is cut to its first
/// characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TestError {
    /// A feature the game does not have.
    #[error("unknown feature '{name}' (known: {known})")]
    UnknownFeature {
        /// The name given.
        name: String,
        /// The game's features, comma-separated.
        known: String,
    },
    /// More tests joined by `and` than a condition holds.
    #[error("more than {MAX_TESTS} tests joined by 'and'")]
    TooManyTests,
    /// Nothing between two `and`s (or none at all).
    #[error("an empty test (write tests joined by ' and ')")]
    EmptyTest,
    /// A comparison with a value that is not an `i16`.
    #[error("'{value}' in '{test}' is not a whole number from -32768 to 32767")]
    NotANumber {
        /// The value given.
        value: String,
        /// The test it is in.
        test: String,
    },
    /// Words that are not a test.
    #[error("'{0}' is not a test (FEATURE OP NUMBER, FEATURE, or not FEATURE)")]
    NotATest(String),
}

/// A feature's index by name.
fn feature_index(name: &str, names: &[&'static str]) -> Result<u8, TestError> {
    names
        .iter()
        .position(|n| *n == name)
        .map(|i| i as u8)
        .ok_or_else(|| TestError::UnknownFeature {
            name: excerpt(name, EXCERPT_CHARS),
            known: names.join(", "),
        })
}

/// Reads a condition: tests joined by `and`.
pub(crate) fn parse_cond(text: &str, names: &[&'static str]) -> Result<Cond, TestError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut cond = Cond::default();
    for part in words.split(|w| *w == "and") {
        let test = parse_test(&part.join(" "), names)?;
        cond.0.try_push(test).map_err(|_| TestError::TooManyTests)?;
    }
    Ok(cond)
}

/// Reads one test: `FEATURE OP NUMBER`, `FEATURE` or `not FEATURE`.
fn parse_test(text: &str, names: &[&'static str]) -> Result<Test, TestError> {
    if text.is_empty() {
        return Err(TestError::EmptyTest);
    }
    if let Some((name, op, value)) = OPS
        .iter()
        .find_map(|(sym, op)| text.split_once(sym).map(|(a, b)| (a.trim(), *op, b.trim())))
    {
        let value: i16 = value.parse().map_err(|_| TestError::NotANumber {
            value: excerpt(value, EXCERPT_CHARS),
            test: excerpt(text, EXCERPT_CHARS),
        })?;
        return Ok(Test {
            feature: feature_index(name, names)?,
            op,
            value,
        });
    }
    let (name, op) = match text.strip_prefix("not ") {
        Some(name) => (name.trim(), Op::Eq),
        None => (text, Op::Ne),
    };
    if name.contains(char::is_whitespace) {
        return Err(TestError::NotATest(excerpt(text, EXCERPT_CHARS)));
    }
    Ok(Test {
        feature: feature_index(name, names)?,
        op,
        value: 0,
    })
}

impl fmt::Display for RuleList {
    /// The list as a person reads it, one numbered rule per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, rule) in self.rules.iter().enumerate() {
            writeln!(f, "{:>2}. {}", i + 1, self.rule_text(rule))?;
        }
        Ok(())
    }
}

/// Applies `rules` to the candidates `cands` (indices into `rows`, ascending; narrowed in
/// place) and returns the choice: the candidate greedy ranks first (`rows[i][rank]`, the
/// `greedy_rank` feature), the first in canonical order among equals. Allocation-free.
pub fn choose(rules: &[Rule], rows: &[FeatureRow], rank: usize, cands: &mut Vec<u16>) -> usize {
    for rule in rules {
        if cands.len() <= 1 {
            break;
        }
        narrow(rule, rows, cands);
    }
    final_choice(cands, rows, rank)
}

/// The choice among the remaining candidates: greedy's first by `greedy_rank` (column
/// `rank`), the first in canonical order among equals.
#[inline]
pub(crate) fn final_choice(cands: &[u16], rows: &[FeatureRow], rank: usize) -> usize {
    let best = cands.iter().min_by_key(|&&i| rows[i as usize][rank]);
    *best.expect("at least one candidate") as usize
}

/// Narrows the candidates by one rule.
pub(crate) fn narrow(rule: &Rule, rows: &[FeatureRow], cands: &mut Vec<u16>) {
    let row = |i: &u16| &rows[*i as usize];
    match rule {
        Rule::Prefer(c) => keep_if_any(cands, |i| c.holds(row(i))),
        Rule::Avoid(c) => keep_if_any(cands, |i| !c.holds(row(i))),
        Rule::Lowest(f) => {
            let best = cands.iter().map(|i| row(i)[*f as usize]).min();
            cands.retain(|i| Some(row(i)[*f as usize]) == best);
        }
        Rule::Highest(f) => {
            let best = cands.iter().map(|i| row(i)[*f as usize]).max();
            cands.retain(|i| Some(row(i)[*f as usize]) == best);
        }
    }
}

/// Keeps the candidates passing `keep`, unless none does.
fn keep_if_any(cands: &mut Vec<u16>, keep: impl Fn(&u16) -> bool) {
    if cands.iter().any(&keep) {
        cands.retain(keep);
    }
}
