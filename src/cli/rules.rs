//! `bailab rules`: the rule options in force for a game, a variant, a player count and
//! `KEY=VALUE` overrides (as an experiment's `[rules]` table would set them), one per line with
//! its meaning and spec section, or as the JSON map records store.

use crate::games::{game_info, with_game, GameKind, GameVisitor, RuleMap};

/// Arguments of `bailab rules`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (default: the first of the registry).
    #[arg(long, default_value_t = crate::games::GAMES[0].name.to_string(), value_parser = super::game_names())]
    pub game: String,
    /// The variant (default: the game's first); a variant that is specified but not playable
    /// yet prints its options too.
    #[arg(long)]
    pub variant: Option<String>,
    /// Number of players (default: 4 when the game seats 4, else its fewest).
    #[arg(long)]
    pub players: Option<usize>,
    /// A rule option, as in an experiment's `[rules]` table: `stock_floor=6`,
    /// `dealt_quad=ExposeKong` (a TOML value; a bare word is a string). Repeatable.
    #[arg(long = "rules", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
    /// Print the options as one JSON object instead.
    #[arg(long)]
    pub json: bool,
}

/// Reads `KEY=VALUE` pairs into a rule map: each value as a TOML value, or a bare string.
pub fn parse_rules(pairs: &[String]) -> Result<RuleMap, String> {
    let mut map = RuleMap::new();
    for pair in pairs {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("--rules '{pair}': expected KEY=VALUE"))?;
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() {
            return Err(format!("--rules '{pair}': the key is empty"));
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

impl GameVisitor for Print<'_> {
    type Output = Result<String, String>;
    fn visit<G: GameKind>(self) -> Result<String, String> {
        let map = G::rules_in_force(self.variant, self.players, self.rules)?;
        if self.json {
            return serde_json::to_string_pretty(&map).map_err(|e| e.to_string());
        }
        let info = G::INFO;
        let mut out = format!(
            "# {} ({}), variant {}, {} players\n",
            info.title, info.name, self.variant, self.players
        );
        if !info.variants.contains(&self.variant) {
            out += &format!(
                "# variant {} is specified but not playable yet (playable: {})\n",
                self.variant,
                info.variants.join(", ")
            );
        }
        let docs = G::rule_docs();
        // documented options in the game's order (§ order), then any others by name
        let place = |name: &str| {
            docs.iter()
                .position(|d| d.name == name)
                .unwrap_or(usize::MAX)
        };
        let mut names: Vec<&String> = map.keys().collect();
        names.sort_by_key(|n| place(n));
        let width = names.iter().map(|n| n.len()).max().unwrap_or(0);
        for name in names {
            let line = format!("{name:<width$} = {}", map[name]);
            match docs.iter().find(|d| d.name == name) {
                Some(d) => out += &format!("{line}  # {}: {}\n", d.section, d.doc),
                None => out += &format!("{line}\n"),
            }
        }
        Ok(out.trim_end().to_string())
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let info = game_info(&args.game).map_err(anyhow::Error::msg)?;
    let variant = args.variant.as_deref().unwrap_or(info.variants[0]);
    let (lo, hi) = info.seats;
    let players = args
        .players
        .unwrap_or(if (lo..=hi).contains(&4) { 4 } else { lo });
    let rules = parse_rules(&args.rules).map_err(anyhow::Error::msg)?;
    let print = Print {
        variant,
        players,
        rules: &rules,
        json: args.json,
    };
    let text = with_game(&args.game, print)
        .and_then(|r| r)
        .map_err(anyhow::Error::msg)?;
    println!("{text}");
    Ok(())
}
