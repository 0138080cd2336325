//! `bailab rules`: the rule options in force for a game, a variant, a player count and
//! `KEY=VALUE` overrides (as an experiment's `[rules]` table would set them), one per line with
//! its meaning, its section of the game's rules reference (`docs/games/<game>.md`) and, when
//! `--rules` changed it, its default; or as JSON: the map records store, and every option
//! explained.

use crate::game::RuleMap;
use crate::games::kind::{GameError, GameInfo, GameKind, RuleDoc};
use crate::games::{game_info, with_game, GameVisitor};

/// Arguments of `bailab rules`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The game (default: the first of the registry).
    #[arg(long, default_value_t = crate::games::GAMES[0].name.to_string(), value_parser = super::args::game_names())]
    pub(crate) game: String,
    /// The variant (default: the game's first); a variant that is specified but not playable
    /// yet prints its options too.
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// Number of players (default: 4 when the game seats 4, else its fewest).
    #[arg(long)]
    pub(crate) players: Option<usize>,
    /// A rule option, as in an experiment's `[rules]` table: `stock_floor=6`,
    /// `dealt_quad=ExposeKong` (a TOML value; a bare word is a string). Repeatable.
    #[arg(long = "rules", value_name = "KEY=VALUE")]
    pub(crate) rules: Vec<String>,
    /// Print one JSON object instead: `rules`, the map a record stores, and `options`, each
    /// option with its value, default, section and meaning.
    #[arg(long)]
    pub(crate) json: bool,
}

/// A `--rules` pair that does not read (the pair as given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RulePairError {
    /// No `=` in it.
    #[error("--rules '{0}': expected KEY=VALUE")]
    NoEquals(String),
    /// Nothing before its `=`.
    #[error("--rules '{0}': the key is empty")]
    EmptyKey(String),
}

/// Reads `KEY=VALUE` pairs into a rule map: each value as a TOML value, or a bare string.
pub(crate) fn parse_rules(pairs: &[String]) -> Result<RuleMap, RulePairError> {
    let mut map = RuleMap::new();
    for pair in pairs {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| RulePairError::NoEquals(pair.clone()))?;
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() {
            return Err(RulePairError::EmptyKey(pair.clone()));
        }
        let parsed = toml::from_str::<RuleMap>(&format!("v = {value}"))
            .ok()
            .and_then(|mut m| m.remove("v"))
            .unwrap_or_else(|| value.into());
        map.insert(key.to_string(), parsed);
    }
    Ok(map)
}

/// The options of one game, printed.
struct Print<'a> {
    variant: &'a str,
    players: usize,
    rules: &'a RuleMap,
    json: bool,
}

/// One option as `bailab rules` explains it.
#[derive(serde::Serialize)]
struct Explained<'a> {
    name: &'a str,
    value: &'a serde_json::Value,
    /// The variant's own value at this player count, before `--rules`.
    default: Option<&'a serde_json::Value>,
    section: &'a str,
    meaning: &'a str,
}

/// The options in force, explained, in the game's order (§ order), then any others by name.
fn explain<'a>(map: &'a RuleMap, defaults: &'a RuleMap, docs: &'a [RuleDoc]) -> Vec<Explained<'a>> {
    let place = |name: &str| {
        docs.iter()
            .position(|d| d.name == name)
            .unwrap_or(usize::MAX)
    };
    let mut names: Vec<&String> = map.keys().collect();
    names.sort_by_key(|n| place(n));
    names
        .into_iter()
        .map(|name| {
            let doc = docs.iter().find(|d| d.name == name);
            Explained {
                name,
                value: &map[name],
                default: defaults.get(name),
                section: doc.map_or("", |d| d.section),
                meaning: doc.map_or("", |d| d.doc),
            }
        })
        .collect()
}

/// The text form: a header naming the reference, then `name = value  # §: meaning`, with the
/// default beside each value that `--rules` changed.
fn text(info: &GameInfo, variant: &str, players: usize, options: &[Explained]) -> String {
    let mut out = format!(
        "# {} ({}), variant {variant}, {players} players\n\
         # sections refer to {}\n",
        info.title,
        info.name,
        reference(info)
    );
    if !info.variants.contains(&variant) {
        out += &format!(
            "# variant {variant} is specified but not playable yet (playable: {})\n",
            info.variants.join(", ")
        );
    }
    let width = options.iter().map(|o| o.name.len()).max().unwrap_or(0);
    for o in options {
        let mut line = format!("{:<width$} = {}", o.name, o.value);
        if !o.section.is_empty() || !o.meaning.is_empty() {
            line += &format!("  # {}: {}", o.section, o.meaning);
        }
        if let Some(d) = o.default.filter(|&d| d != o.value) {
            line += &format!(" (default {d})");
        }
        out += &line;
        out.push('\n');
    }
    out.trim_end().to_string()
}

/// The rules reference of a game, relative to the repository.
fn reference(info: &GameInfo) -> String {
    format!("docs/games/{}.md", info.name)
}

impl GameVisitor for Print<'_> {
    type Output = Result<String, GameError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        let map = G::rules_in_force(self.variant, self.players, self.rules)?;
        let defaults = G::rules_in_force(self.variant, self.players, &RuleMap::new())?;
        let docs = G::rule_docs();
        let options = explain(&map, &defaults, &docs);
        let info = G::INFO;
        if !self.json {
            return Ok(text(&info, self.variant, self.players, &options));
        }
        let out = serde_json::json!({
            "game": info.name,
            "variant": self.variant,
            "players": self.players,
            "reference": reference(&info),
            "rules": map,
            "options": options,
        });
        Ok(serde_json::to_string_pretty(&out).expect("a JSON value writes"))
    }
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let info = game_info(&args.game)?;
    let variant = args.variant.as_deref().unwrap_or(info.variants[0]);
    let (lo, hi) = info.seats;
    let players = args
        .players
        .unwrap_or(if (lo..=hi).contains(&4) { 4 } else { lo });
    let rules = parse_rules(&args.rules)?;
    let print = Print {
        variant,
        players,
        rules: &rules,
        json: args.json,
    };
    let text = with_game(&args.game, print)??;
    println!("{text}");
    Ok(())
}
