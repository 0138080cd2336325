//! The arguments several commands share: the game and its variant.

/// The `--game` argument: a name of the registry (`bailab agents` lists the games).
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct GameArgs {
    /// The game (default: the first of the registry).
    #[arg(long, default_value_t = crate::games::GAMES[0].name.to_string(), value_parser = game_names())]
    pub(crate) game: String,
    /// The variant (default: the game's first).
    #[arg(long)]
    pub(crate) variant: Option<String>,
}

impl GameArgs {
    /// The game's facts.
    pub(crate) fn info(&self) -> &'static crate::games::kind::GameInfo {
        crate::games::game_info(&self.game).expect("clap checked the name")
    }
    /// The variant asked for, or the game's default; checked against the game.
    pub(crate) fn variant(&self) -> anyhow::Result<String> {
        let info = self.info();
        let v = self.variant.as_deref().unwrap_or(info.variants[0]);
        crate::games::kind::check_variant(info, v)?;
        Ok(v.to_string())
    }
}

/// The registered game names, for clap's check and `--help`.
pub(crate) fn game_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(crate::games::GAMES.iter().map(|g| g.name))
}
