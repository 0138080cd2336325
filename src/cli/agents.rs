//! `bailab agents`: the games, and the agents with the games they play and their parameters;
//! what a network file says (`--net`), and the margin and lookahead it is shipped with
//! (`--set-margin`, `--set-search`).

use crate::agent::features::all_features;
use crate::agent::AgentInfo;
use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor, GAMES};
use crate::generic_agents::catalogue::CATALOGUE;
use crate::generic_agents::net::file::{
    read_net, to_bytes, NetFile, NetHeader, ShippedSearch, DEFAULT_DEVIATE,
};
use crate::sim::files::atomic::write_atomic;
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// Arguments of `bailab agents`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Print the features a rule list (`rules:PATH`) can test for this game instead.
    #[arg(long, value_name = "GAME", value_parser = super::args::game_names())]
    pub(crate) features: Option<String>,
    /// Print what a network file (`net:FILE`) says about its network instead: its table, how it
    /// was trained, the margin and lookahead it plays with.
    #[arg(long, value_name = "FILE", conflicts_with = "features")]
    pub(crate) net: Option<PathBuf>,
    /// With --net: write into the file the margin (points of payout) its `net:` spec plays with
    /// when the spec gives none (the margin it is shipped with); 0 takes it out.
    #[arg(
        long,
        value_name = "POINTS",
        requires = "net",
        allow_negative_numbers = true
    )]
    pub(crate) set_margin: Option<f64>,
    /// With --net: write into the file the lookahead (`search=N`: determinizations per decision)
    /// its `net:` spec plays with when the spec gives none; 0 takes it out.
    #[arg(long, value_name = "N", requires = "net")]
    pub(crate) set_search: Option<u32>,
    /// With --set-search: the t-statistic of that lookahead (`deviate=`).
    #[arg(
        long,
        value_name = "Z",
        requires = "set_search",
        allow_negative_numbers = true,
        default_value_t = DEFAULT_DEVIATE
    )]
    pub(crate) set_deviate: f64,
    /// With --set-search: the network's own gains counted as so many determinizations (`prior=`).
    #[arg(
        long,
        value_name = "W",
        requires = "set_search",
        allow_negative_numbers = true,
        default_value_t = 0.0
    )]
    pub(crate) set_prior: f64,
}

/// Prints the features of a game.
struct Features;

impl GameVisitor for Features {
    type Output = ();
    fn visit<G: GameKind>(self) {
        println!(
            "Features of {} candidate actions (rule conditions test them; see docs/rules.md):\n",
            G::INFO.title
        );
        for f in all_features(G::FEATURES) {
            println!("  {:<22} {}", f.name, f.about);
        }
    }
}

fn print_agent(a: &AgentInfo, games: &str) {
    println!("{}  (games: {games})\n    {}", a.name, a.about);
    for p in a.params {
        println!("    {}={}  (default)  {}", p.name, p.default, p.about);
    }
    println!();
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    if let Some(game) = &args.features {
        return Ok(with_game(game, Features)?);
    }
    if let Some(path) = &args.net {
        if let Some(margin) = args.set_margin {
            if !(margin.is_finite() && margin >= 0.0) {
                bail!("--set-margin {margin}: a margin is a number of points, at least 0");
            }
            rewrite(path, |h| h.margin = (margin > 0.0).then_some(margin))?;
        }
        if let Some(iters) = args.set_search {
            let search = ShippedSearch {
                iters,
                deviate: args.set_deviate,
                prior: args.set_prior,
            };
            if let Some(problem) = search.problem().filter(|_| iters > 0) {
                bail!("--set-search: {problem}");
            }
            rewrite(path, |h| h.search = (iters > 0).then_some(search))?;
        }
        return print_net(path);
    }
    println!("Games (--game, or `game` in an experiment):");
    for g in GAMES {
        println!(
            "  {:<10} {} — variants: {}; {}–{} seats; payouts in {}",
            g.name,
            g.title,
            g.variants.join(", "),
            g.seats.0,
            g.seats.1,
            g.payout_unit
        );
        for (v, lo, hi) in g.variant_seats {
            println!("  {:<10} {v}: {lo}–{hi} seats", "");
        }
    }
    println!("\nAgent specs: NAME or NAME:KEY=VALUE,KEY=VALUE (e.g. greedy:tiebreak=random)");
    println!("The features rule lists test: bailab agents --features GAME\n");
    for a in CATALOGUE {
        print_agent(a, "all");
    }
    for g in GAMES {
        for a in g.agents {
            print_agent(a, g.name);
        }
    }
    Ok(())
}

/// The network file at `path` (its error is one message: it names the file and the problem).
fn read(path: &Path) -> anyhow::Result<NetFile> {
    read_net(path).map_err(|e| anyhow::anyhow!("{e}"))
}

/// Prints the header of the network file at `path`.
fn print_net(path: &Path) -> anyhow::Result<()> {
    let h = read(path)?.header;
    let rules: Vec<String> = h.rules.iter().map(|(k, v)| format!("{k}={v}")).collect();
    println!("{}", path.display());
    println!(
        "  table       {} {}, {} seats",
        h.game, h.variant, h.players
    );
    println!("  rules       {}", rules.join(" "));
    println!(
        "  network     {} {:?}, feature version {}",
        h.architecture, h.hidden, h.feature_version
    );
    println!("  Q           the payout over {}", h.payout_scale);
    println!("  margin      {} points", h.margin.unwrap_or(0.0));
    match h.search {
        Some(s) => println!(
            "  search      {} determinizations, deviate {}, prior {}",
            s.iters, s.deviate, s.prior
        ),
        None => println!("  search      none"),
    }
    println!(
        "  trained     {} decisions, {} games, {:.2} h wall, {:.2} CPU-h",
        h.decisions,
        h.games,
        h.seconds / 3600.0,
        h.cpu_seconds / 3600.0
    );
    println!("  command     {}", h.command);
    Ok(())
}

/// Rewrites the network file at `path` with its header changed by `change`, through a temporary
/// file.
fn rewrite(path: &Path, change: impl FnOnce(&mut NetHeader)) -> anyhow::Result<()> {
    let file = read(path)?;
    let mut header = file.header.clone();
    change(&mut header);
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let name = path.file_name().context("--net: not a file")?;
    write_atomic(
        dir.unwrap_or(Path::new(".")),
        &name.to_string_lossy(),
        &to_bytes(&header, &file.net),
    )
    .with_context(|| format!("writing {}", path.display()))
}
