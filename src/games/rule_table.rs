//! One declarative table of rule options, shared by every game. Each option is one row
//! ([`RuleOption`]): its name (the key in records and `[rules]`), the section of the game's
//! rules reference that defines it, what it means, how its value in force is written, and how a
//! value is read and checked. The defaults are the game's presets: a row reads them back with
//! its `get`. A game declares its rows with [`rule_option!`] and lets this module write its
//! rules map ([`to_rules`]), explain it ([`docs`], `bailab rules`) and set one option from JSON
//! ([`set`]), with the same error shape for every game: `rules: 'key' = value: what is wrong`.

use crate::game::RuleMap;
use crate::games::kind::{RuleDoc, RuleError, ValueError};
use serde_json::Value;

/// One rule option of a game whose options are an `O`.
pub struct RuleOption<O> {
    /// The option's name: the key in records and `[rules]`.
    pub name: &'static str,
    /// The section of the rules reference that defines it.
    pub section: &'static str,
    /// What it means, in one line (`bailab rules`).
    pub doc: &'static str,
    /// The value in force, as the rules map writes it.
    pub get: fn(&O) -> Value,
    /// Reads and checks a value and sets it; the error says what is accepted.
    pub set: fn(&mut O, &Value) -> Result<(), ValueError>,
}

/// The explanation of every row, in table order (a `const`, so a game can keep a `RULE_DOCS`).
pub(crate) const fn docs<O, const N: usize>(table: &[RuleOption<O>; N]) -> [RuleDoc; N] {
    let mut out = [RuleDoc {
        name: "",
        section: "",
        doc: "",
    }; N];
    let mut i = 0;
    while i < N {
        out[i] = RuleDoc {
            name: table[i].name,
            section: table[i].section,
            doc: table[i].doc,
        };
        i += 1;
    }
    out
}

/// Every row's value in force, by name.
pub(crate) fn to_rules<O>(table: &[RuleOption<O>], o: &O) -> RuleMap {
    let mut m = RuleMap::new();
    for row in table {
        m.insert(row.name.to_string(), (row.get)(o));
    }
    m
}

/// Sets the option `key` of `o` from `value`: `None` when no row has that name, else the row's
/// result, its error naming `shown` (the name as given, which may be an alias of `key`), the
/// value and what is wrong.
pub(crate) fn set<O>(
    table: &[RuleOption<O>],
    o: &mut O,
    key: &str,
    shown: &str,
    value: &Value,
) -> Option<Result<(), RuleError>> {
    let row = table.iter().find(|row| row.name == key)?;
    Some((row.set)(o, value).map_err(|reason| RuleError::Value {
        key: shown.to_string(),
        value: value.clone(),
        reason,
    }))
}

/// The names of the rows, in table order.
pub(crate) fn names<O>(table: &[RuleOption<O>]) -> Vec<&'static str> {
    table.iter().map(|row| row.name).collect()
}

/// Option enums written by their variant names (`"ExposeQuan"`).
pub trait Named: Copy + PartialEq + 'static {
    /// Every value with its name, in declaration order.
    const NAMES: &'static [(Self, &'static str)];

    /// The value's name.
    fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(v, _)| *v == self)
            .map_or("?", |&(_, n)| n)
    }

    /// The names, joined for a message (`ExposeQuan, ExposeKong`).
    fn all_names() -> String {
        let names: Vec<&str> = Self::NAMES.iter().map(|&(_, n)| n).collect();
        names.join(", ")
    }
}

/// Implements [`Named`] for an enum from its variants, each named as it is spelt.
macro_rules! named {
    ($t:ident: $($v:ident),+) => {
        impl $crate::games::rule_table::Named for $t {
            const NAMES: &'static [($t, &'static str)] = &[$(($t::$v, stringify!($v))),+];
        }
    };
}
pub(crate) use named;

/// An integer in `lo..=hi`.
pub(crate) fn int<T: TryFrom<i64>>(v: &Value, lo: i64, hi: i64) -> Result<T, ValueError> {
    v.as_i64()
        .filter(|x| (lo..=hi).contains(x))
        .and_then(|x| T::try_from(x).ok())
        .ok_or(ValueError::Int { lo, hi })
}

/// `true` or `false`.
pub(crate) fn flag(v: &Value) -> Result<bool, ValueError> {
    v.as_bool().ok_or(ValueError::Flag)
}

/// One of an enum's names.
pub(crate) fn pick<T: Named>(v: &Value) -> Result<T, ValueError> {
    v.as_str()
        .and_then(|s| T::NAMES.iter().find(|&&(_, n)| n == s))
        .map(|&(x, _)| x)
        .ok_or_else(|| ValueError::OneOf {
            names: T::all_names(),
        })
}

/// One row of a game's option table: name, section, meaning, then the field of the options
/// struct and how its value reads — `int lo..=hi`, `flag`, `named` (a [`Named`] enum), or
/// `get: |o| …, set: |o, v| …` for anything else.
macro_rules! rule_option {
    ($name:literal, $section:literal, $doc:literal, $f:ident, int $lo:literal..=$hi:literal) => {
        $crate::games::rule_table::RuleOption {
            name: $name,
            section: $section,
            doc: $doc,
            get: |o| o.$f.into(),
            set: |o, v| $crate::games::rule_table::int(v, $lo, $hi).map(|x| o.$f = x),
        }
    };
    ($name:literal, $section:literal, $doc:literal, $f:ident, flag) => {
        $crate::games::rule_table::RuleOption {
            name: $name,
            section: $section,
            doc: $doc,
            get: |o| o.$f.into(),
            set: |o, v| $crate::games::rule_table::flag(v).map(|x| o.$f = x),
        }
    };
    ($name:literal, $section:literal, $doc:literal, $f:ident, named) => {
        $crate::games::rule_table::RuleOption {
            name: $name,
            section: $section,
            doc: $doc,
            get: |o| $crate::games::rule_table::Named::name(o.$f).into(),
            set: |o, v| $crate::games::rule_table::pick(v).map(|x| o.$f = x),
        }
    };
    ($name:literal, $section:literal, $doc:literal, get: $get:expr, set: $set:expr) => {
        $crate::games::rule_table::RuleOption {
            name: $name,
            section: $section,
            doc: $doc,
            get: $get,
            set: $set,
        }
    };
}
pub(crate) use rule_option;
