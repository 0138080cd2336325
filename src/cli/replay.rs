//! `bailab replay [EXPERIMENT.toml] --deal I [--rotation R]`: the readable log of one game of an
//! experiment, played again with the experiment's agents.

use super::play::show;
use super::run::load;
use crate::game::GameId;
use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor};
use crate::sim::play::{play_in_match, play_with_spec, PlayError, Played};
use crate::sim::run::experiment::{Experiment, Runtime};
use crate::sim::run::runner::deal_plan;

/// Arguments of `bailab replay`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The experiment file (TOML); the embedded default when omitted.
    pub(crate) experiment: Option<String>,
    /// The deal index.
    #[arg(long)]
    pub(crate) deal: u64,
    /// The rotation (0 .. players−1 with seat rotation, else 0).
    #[arg(long, default_value_t = 0)]
    pub(crate) rotation: usize,
    /// The game of the deal's match (experiments with `match_games` > 1), 0-based.
    #[arg(long, default_value_t = 0)]
    pub(crate) match_game: u32,
    /// Print the game as a JSON record instead of the readable log.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let (exp, runtime) = load(args.experiment.as_deref())?;
    if args.deal >= exp.deals {
        anyhow::bail!(
            "--deal {}: the experiment has deals 0–{}",
            args.deal,
            exp.deals - 1
        );
    }
    if args.rotation >= exp.rotations() {
        anyhow::bail!(
            "--rotation {}: the experiment has {}",
            args.rotation,
            match exp.rotations() {
                1 => "rotation 0 only (rotate = false)".to_string(),
                n => format!("rotations 0–{}", n - 1),
            }
        );
    }
    if args.match_game >= exp.match_games {
        anyhow::bail!(
            "--match-game {}: the experiment's matches have games 0..{}",
            args.match_game,
            exp.match_games
        );
    }
    let specs: Vec<String> = (0..exp.players())
        .map(|s| exp.agents[exp.slot(args.rotation, s)].clone())
        .collect();
    let id = GameId {
        master: exp.seed,
        deal: args.deal,
        rotation: args.rotation as u8,
    };
    struct Replay<'a>((&'a Experiment, &'a Runtime), GameId, u32, &'a [String]);
    impl GameVisitor for Replay<'_> {
        type Output = Result<Played, PlayError>;
        fn visit<G: GameKind>(self) -> Self::Output {
            let Replay((exp, runtime), id, j, specs) = self;
            let base = runtime.project.as_deref();
            let game = G::build(exp.variant(), exp.players(), &exp.rules)?;
            match deal_plan(&game, exp) {
                Some(plan) => play_with_spec(&game, id, &plan, "[deal]", specs, base),
                None => play_in_match(&game, id, j, specs, base),
            }
        }
    }
    show(
        with_game(
            &exp.game,
            Replay((&exp, &runtime), id, args.match_game, &specs),
        ),
        args.json,
    )
}
