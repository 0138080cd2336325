//! `bailab bench`: speed figures measured on this machine (never asserted in tests), per game:
//! its own figures (e.g. hand evaluations), random×4 and greedy×4 games/s on 1 thread and on all
//! cores (with the mean turns per game and turns/s: games of different lengths compare by the
//! work per turn), the luck-corrected estimator's cost (a run with and without it), and ISMCTS
//! iterations/s; or, with `--agent`, only the time per decision of the
//! agents given (an outside `exec:` program's round trip included).

use crate::agent::spec::AgentSpec;
use crate::game::RuleMap;
use crate::game::{ActionBuffer, GameState};
use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor, GAMES};
use crate::generic_agents::catalogue::{make_agent, make_agent_with, Setting};
use crate::generic_agents::exec::write_decide_message;
use crate::generic_agents::ismcts::Ismcts;
use crate::generic_agents::ismcts_spec::ismcts_params;
use crate::rng::{stream_rng, DEAL_STREAM};
use crate::sim::luck::{Estimator, ValueSpec};
use crate::sim::run::experiment::{Experiment, Runtime};
use crate::sim::run::runner::throughput;
use rand::Rng;
use std::hint::black_box;
use std::time::Instant;

/// Arguments of `bailab bench`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Only this game (default: every game).
    #[arg(long)]
    pub(crate) game: Option<String>,
    /// Deals per matchup (each played once, no rotation).
    #[arg(long, default_value_t = 200_000)]
    pub(crate) deals: u64,
    /// Hands to analyse for the hands/s figures.
    #[arg(long, default_value_t = 200_000)]
    pub(crate) hands: u64,
    /// Decisions searched for each ISMCTS figure.
    #[arg(long, default_value_t = 300)]
    pub(crate) searches: u64,
    /// ISMCTS iteration counts to time per decision (comma-separated), e.g. 100,300,1000,3000.
    #[arg(long, value_delimiter = ',', default_value = "1000")]
    pub(crate) ismcts_iters: Vec<u32>,
    /// A rule list to time per decision (default: agents/GAME-VARIANT.toml, when it exists);
    /// with --game only.
    #[arg(long, requires = "game")]
    pub(crate) rules: Option<String>,
    /// A network (`net:`) to time per decision (default: agents/GAME-VARIANT.safetensors, when
    /// it exists), and alone (`search=0`) too when its file names a lookahead; with --game only.
    #[arg(long, requires = "game")]
    pub(crate) net: Option<String>,
    /// The variant to time (default: the game's first); with --game only.
    #[arg(long, requires = "game")]
    pub(crate) variant: Option<String>,
    /// An agent spec to time per decision on one thread, seated at a table of the game (so
    /// `exec:COMMAND` plays: the program's start and handshake are not timed); repeatable, with
    /// --game only. Only these figures are printed.
    #[arg(long = "agent", requires = "game")]
    pub(crate) agents: Vec<String>,
    /// Decisions timed for each --agent.
    #[arg(long, default_value_t = 20_000)]
    pub(crate) agent_decisions: u64,
    /// Deals of each luck-corrected figure: the estimator's cost (docs/variance.md) as a run of
    /// greedy×4 and of ismcts×4 (the first --ismcts-iters) with it and without it, one thread,
    /// the same deals; 0 leaves them out.
    #[arg(long, default_value_t = 20)]
    pub(crate) luck_deals: u64,
}

/// The file agents timed for a game, as specs: the rule list (`--rules`, or
/// `agents/GAME-VARIANT.toml` when it exists) and the network (`--net`, or
/// `agents/GAME-VARIANT.safetensors` when it exists), and the network alone too when its file
/// names a lookahead.
fn file_agents(args: &Args, game: &str, variant: &str) -> Vec<String> {
    let or_default = |given: &Option<String>, ext: &str| {
        let default = format!("agents/{game}-{variant}.{ext}");
        (given.clone()).or_else(|| std::path::Path::new(&default).exists().then_some(default))
    };
    let rules = or_default(&args.rules, "toml").map(|f| format!("rules:{f}"));
    let net = or_default(&args.net, "safetensors");
    // a network shipped with a lookahead is timed as it plays and alone
    let alone = net.as_ref().filter(|f| ships_a_lookahead(f));
    let alone = alone.map(|f| format!("net:{f},search=0"));
    let net = net.map(|f| format!("net:{f}"));
    rules.into_iter().chain(net).chain(alone).collect()
}

/// Whether the network file at `path` names a lookahead in its header (unreadable: no, its
/// error comes when the agent is built).
fn ships_a_lookahead(path: &str) -> bool {
    crate::generic_agents::net::load(path.into()).is_ok_and(|f| f.header.search.is_some())
}

/// An agent's decisions per second on one thread over the decisions `states`: passes over them
/// up to 100,000 decisions, or fewer once 5 seconds have passed (a network shipped with a
/// lookahead costs what a search does: at least one pass, never half an hour).
fn decisions_per_second<G: GameKind>(states: &[G::State], spec: &str) -> anyhow::Result<f64> {
    let mut agent = make_agent::<G>(spec)?;
    if states.is_empty() {
        return Ok(0.0);
    }
    let mut actions = <G::State as GameState>::Actions::default();
    let mut rng = stream_rng(0x15C7, 0, 2);
    let start = Instant::now();
    let mut decisions = 0usize;
    while decisions == 0 || decisions < 100_000 && start.elapsed().as_secs_f64() < 5.0 {
        for s in states {
            let seat = s.to_move().expect("a decision");
            s.legal_actions(&mut actions);
            black_box(agent.act(&s.view(seat), actions.as_slice(), &mut rng));
        }
        decisions += states.len();
    }
    Ok(decisions as f64 / start.elapsed().as_secs_f64())
}

/// Decision points of greedy×4 games with more than one legal action (states for the search).
fn decision_states<G: GameKind>(game: &G, count: u64) -> Vec<G::State> {
    let mut greedy = make_agent::<G>("greedy").expect("every game has a greedy agent");
    let mut out = Vec::new();
    let mut actions = <G::State as GameState>::Actions::default();
    for deal in 0.. {
        let mut rng = stream_rng(0x15C7, deal, DEAL_STREAM);
        let mut s = game.deal(&mut rng);
        while let Some(seat) = s.to_move() {
            s.legal_actions(&mut actions);
            let legal = actions.as_slice();
            if legal.len() > 1 && out.len() < count as usize && rng.random_range(0..4) == 0 {
                out.push(s.clone());
            }
            let k = greedy.act(&s.view(seat), legal, &mut rng);
            s.apply(legal[k]);
        }
        if out.len() >= count as usize {
            return out;
        }
    }
    unreachable!()
}

/// The ISMCTS settings timed by the benchmark (after `iters=N,`): the spec's defaults (greedy
/// rollouts, root sweep, deviate 2.5, a one-level tree), the same with the unlimited tree (the
/// default before depth 1; `scripts/ismcts-strength.sh` reads its row), and the paper's search
/// with random and greedy rollouts.
pub(crate) const ISMCTS_BENCH_SETTINGS: [&str; 4] = [
    "rollout=greedy,root=sweep,deviate=2.5,depth=1",
    "rollout=greedy,root=sweep,deviate=2.5,depth=off",
    "rollout=random,root=ucb,depth=off",
    "rollout=greedy,root=ucb,depth=off",
];

/// ISMCTS with `settings` on one thread over the decisions `states`, `iterations` each:
/// `(iterations per second, milliseconds per decision)`.
fn ismcts_speed<G: GameKind>(states: &[G::State], settings: &str, iterations: u32) -> (f64, f64) {
    let spec = AgentSpec::parse(&format!("ismcts:iters={iterations},{settings}")).expect("spec");
    let params = ismcts_params(&spec).expect("bench settings are valid");
    let rollout = make_agent::<G>(spec.get("rollout").unwrap_or("greedy")).expect("rollout");
    let mut search = Ismcts::new(params, rollout);
    let mut actions = <G::State as GameState>::Actions::default();
    let mut rng = stream_rng(0x15C7, 0, 1);
    let start = Instant::now();
    let mut total = 0;
    for s in states {
        let seat = s.to_move().expect("a decision");
        s.legal_actions(&mut actions);
        black_box(search.search(&s.view(seat), actions.as_slice(), &mut rng));
        total += search.last_iterations;
    }
    let seconds = start.elapsed().as_secs_f64();
    (
        total as f64 / seconds,
        1000.0 * seconds / states.len() as f64,
    )
}

/// Four copies of `agent` playing `deals` deals of game `name`, without rotation.
fn matchup(name: &str, variant: &str, agent: &str, deals: u64) -> Experiment {
    let mut exp = Experiment::default_experiment();
    exp.game = name.to_string();
    exp.variant = variant.to_string();
    exp.rules = RuleMap::new();
    exp.agents = vec![agent.to_string(); 4];
    exp.rotate = false;
    exp.deals = deals;
    exp
}

/// The agents of the luck-corrected figures: none when `--luck-deals` is 0.
fn luck_agents(args: &Args) -> Vec<String> {
    if args.luck_deals == 0 {
        return Vec::new();
    }
    let iters = args.ismcts_iters.first().copied().unwrap_or(1000);
    vec!["greedy".into(), format!("ismcts:iters={iters}")]
}

/// The label of a luck-corrected figure.
fn luck_label(name: &str, variant: &str, agent: &str) -> String {
    let value = ValueSpec::default();
    format!(
        "{name} {variant} {agent}×4, luck-corrected (value: {} playouts of {}), 1 thread",
        value.playouts, value.agent
    )
}

/// The luck-corrected figures of game `name`'s `variant`, each printed by `row` as measured.
fn luck_rows(
    args: &Args,
    (name, variant): (&str, &str),
    row: &dyn Fn(&str, f64, &str, &str),
) -> anyhow::Result<()> {
    for agent in &luck_agents(args) {
        let (plain, corrected) = luck_speed(name, variant, agent, args.luck_deals)?;
        let extra = format!(
            "{:>9.1}× the plain run's time ({plain:.1} games/s)",
            plain / corrected
        );
        row(
            &luck_label(name, variant, agent),
            corrected,
            "games/s",
            &extra,
        );
    }
    Ok(())
}

/// Games per second of four `agent` over `deals` deals on one thread, plain and luck-corrected
/// with the default value function.
fn luck_speed(name: &str, variant: &str, agent: &str, deals: u64) -> anyhow::Result<(f64, f64)> {
    let mut exp = matchup(name, variant, agent, deals);
    let plain = throughput((&exp, &Runtime::default()), 1, deals)?.games_per_s;
    exp.estimator = Estimator::LuckCorrected;
    let corrected = throughput((&exp, &Runtime::default()), 1, deals)?.games_per_s;
    Ok((plain, corrected))
}

/// The figures of game `G`.
struct Bench<'a>(&'a Args, usize);

impl GameVisitor for Bench<'_> {
    type Output = anyhow::Result<()>;
    fn visit<G: GameKind>(self) -> anyhow::Result<()> {
        let Bench(args, cores) = self;
        let info = G::INFO;
        let variant = match &args.variant {
            Some(v) => {
                crate::games::kind::check_variant(&info, v)?;
                v.as_str()
            }
            None => info.variants[0],
        };
        if !args.agents.is_empty() {
            return agent_rows::<G>(args, variant);
        }
        let own = G::bench_rows(variant, args.hands);
        let matchups: Vec<(&str, usize)> = ["random", "greedy"]
            .iter()
            .flat_map(|&a| [(a, 1), (a, cores)])
            .collect();
        let matchup_label = |agent: &str, threads: usize| {
            format!("{} {variant} {agent}×4, {threads} thread(s)", info.name)
        };
        let ismcts_label = |iters: u32, settings: &str| {
            format!("{} {variant} ismcts iters={iters},{settings}", info.name)
        };
        // One table per game: every label is known before the slow figures are measured, so
        // the columns line up whatever their lengths.
        let mut labels: Vec<String> = own
            .iter()
            .map(|r| format!("{} {variant} {}", info.name, r.label))
            .collect();
        labels.extend(matchups.iter().map(|&(a, t)| matchup_label(a, t)));
        labels.extend(
            luck_agents(args)
                .iter()
                .map(|a| luck_label(info.name, variant, a)),
        );
        for settings in ISMCTS_BENCH_SETTINGS {
            labels.extend(args.ismcts_iters.iter().map(|&i| ismcts_label(i, settings)));
        }
        let file_agents = file_agents(args, info.name, variant);
        let file_label = |spec: &str| format!("{} {spec}, 1 thread", info.name);
        labels.extend(file_agents.iter().map(|f| file_label(f)));
        let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        let units = own
            .iter()
            .map(|r| r.unit)
            .chain(["games/s", "iterations/s", "decisions/s"]);
        let unit_width = units.map(|u| u.chars().count()).max().unwrap_or(0);
        let row = |label: &str, value: f64, unit: &str, extra: &str| {
            let line = format!("{label:<width$} {value:>14.0} {unit:<unit_width$} {extra}");
            println!("{}", line.trim_end());
        };
        for (r, label) in own.iter().zip(&labels) {
            row(label, r.value, r.unit, "");
        }
        for &(agent, threads) in &matchups {
            let exp = matchup(info.name, variant, agent, args.deals);
            let speed = throughput((&exp, &Runtime::default()), threads, args.deals)?;
            let turns = speed.turns_per_game;
            let extra = format!(
                "{turns:>9.1} turns/game, {:.0} turns/s",
                speed.games_per_s * turns
            );
            row(
                &matchup_label(agent, threads),
                speed.games_per_s,
                "games/s",
                &extra,
            );
        }
        luck_rows(args, (info.name, variant), &row)?;
        let labels = SearchLabels {
            ismcts: &ismcts_label,
            file_agent: &file_label,
        };
        search_rows::<G>(args, variant, &file_agents, &labels, &row)?;
        Ok(())
    }
}

/// How the search rows of a game's table are labelled.
struct SearchLabels<'a> {
    /// An ismcts row, from its iterations and settings.
    ismcts: &'a dyn Fn(u32, &str) -> String,
    /// A rule list's or a network's row, from its spec.
    file_agent: &'a dyn Fn(&str) -> String,
}

/// The search figures of game `G` (ismcts at each setting and iteration count, then each of the
/// `file_agents`), each printed by `row` as it is measured.
fn search_rows<G: GameKind>(
    args: &Args,
    variant: &str,
    file_agents: &[String],
    labels: &SearchLabels<'_>,
    row: &dyn Fn(&str, f64, &str, &str),
) -> anyhow::Result<()> {
    let game = G::build(variant, 4, &RuleMap::new())?;
    let states = decision_states(&game, args.searches);
    let mut reference_ms = None;
    for settings in ISMCTS_BENCH_SETTINGS {
        for &iters in &args.ismcts_iters {
            let (per_s, ms) = ismcts_speed::<G>(&states, settings, iters);
            reference_ms.get_or_insert(ms);
            let extra = format!("{ms:>9.3} ms/decision (1 thread)");
            row(
                &(labels.ismcts)(iters, settings),
                per_s,
                "iterations/s",
                &extra,
            );
        }
    }
    for spec in file_agents {
        let per_s = decisions_per_second::<G>(&states, spec)?;
        let us = 1e6 / per_s;
        let mut extra = format!("{us:>9.3} µs/decision");
        if let (Some(ms), Some(iters)) = (reference_ms, args.ismcts_iters.first()) {
            let ratio = ms * 1000.0 / us;
            extra += &match ratio >= 1.0 {
                true => format!(", {ratio:.0}× faster than ismcts iters={iters} (defaults)"),
                false => format!(
                    ", {:.1}× slower than ismcts iters={iters} (defaults)",
                    1.0 / ratio
                ),
            };
        }
        row(&(labels.file_agent)(spec), per_s, "decisions/s", &extra);
    }
    Ok(())
}

/// The time per decision of each `--agent` at a table of game `G`'s `variant` (four seats), on
/// one thread over the decisions of greedy games, one row each as it is measured.
fn agent_rows<G: GameKind>(args: &Args, variant: &str) -> anyhow::Result<()> {
    let game = G::build(variant, 4, &RuleMap::new())?;
    let states = decision_states(&game, args.searches);
    let label = |spec: &str| format!("{} {variant} {spec}, 1 thread", G::INFO.name);
    let width = args.agents.iter().map(|a| label(a).chars().count()).max();
    for spec in &args.agents {
        let us = agent_speed(&game, &states, spec, args.agent_decisions.max(1))?;
        let line = format!(
            "{:<width$} {:>14.0} decisions/s {us:>9.3} µs/decision",
            label(spec),
            1e6 / us,
            width = width.unwrap_or(0)
        );
        println!("{line}");
    }
    if args.agents.iter().any(|a| a.starts_with("exec")) {
        let us = message_speed(&game, &states, args.agent_decisions.max(1));
        println!(
            "{:<width$} {:>14.0} messages/s  {us:>9.3} µs/message",
            label("decide message built and written as JSON"),
            1e6 / us,
            width = width.unwrap_or(0)
        );
    }
    Ok(())
}

/// Microseconds to build one `decide` message of an outside agent and write it as JSON (the
/// part of an `exec:` round trip spent in bailab before the message leaves), over `count`
/// decisions cycling through `states`.
fn message_speed<G: GameKind>(game: &G, states: &[G::State], count: u64) -> f64 {
    let mut actions = <G::State as GameState>::Actions::default();
    let mut out = Vec::new();
    let start = Instant::now();
    for (i, s) in states.iter().cycle().take(count as usize).enumerate() {
        let seat = s.to_move().expect("a decision");
        s.legal_actions(&mut actions);
        out.clear();
        write_decide_message(game, &s.view(seat), actions.as_slice(), i as u64, &mut out);
        black_box(&out);
    }
    1e6 * start.elapsed().as_secs_f64() / count as f64
}

/// Microseconds per decision of agent `spec` seated at a table of `game`, over `count`
/// decisions cycling through `states`, after one untimed decision (which starts an outside
/// program and shakes hands with it). An agent's fault is an error.
fn agent_speed<G: GameKind>(
    game: &G,
    states: &[G::State],
    spec: &str,
    count: u64,
) -> anyhow::Result<f64> {
    let rules = game.rules();
    let setting = Setting {
        variant: Some(game.variant()),
        base: None,
        host: None,
        table: Some((&rules, game.seats())),
        stderr_log: None,
    };
    let mut agent = make_agent_with::<G>(spec, setting)?;
    let mut actions = <G::State as GameState>::Actions::default();
    let mut rng = stream_rng(0x15C7, 0, 2);
    let mut decide = |s: &G::State| {
        let seat = s.to_move().expect("a decision");
        s.legal_actions(&mut actions);
        black_box(agent.act(&s.view(seat), actions.as_slice(), &mut rng));
    };
    decide(&states[0]);
    let start = Instant::now();
    for s in states.iter().cycle().take(count as usize) {
        decide(s);
    }
    let seconds = start.elapsed().as_secs_f64();
    if let Some(fault) = agent.fault() {
        anyhow::bail!("agent `{spec}`: {fault}");
    }
    Ok(1e6 * seconds / count as f64)
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let build = if cfg!(debug_assertions) {
        "debug build: figures are not representative"
    } else {
        "release build"
    };
    println!(
        "machine: {cores} cores, {}; {build}",
        std::env::consts::ARCH
    );
    for info in GAMES {
        if args.game.as_deref().is_some_and(|g| g != info.name) {
            continue;
        }
        with_game(info.name, Bench(&args, cores))??;
    }
    if let Some(g) = &args.game {
        crate::games::game_info(g)?;
    }
    Ok(())
}
