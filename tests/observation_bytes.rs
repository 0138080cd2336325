//! The observation and the `decide` message of an outside agent are written as JSON text
//! straight into a buffer ([`Observe::write_observation`], [`write_decide_message`]). Over
//! seeded games of every game and variant (Tứ Sắc classic, 4sac, sisepai21 at 4 and 8 seats,
//! dirtyking26 at 4 and 6, Chắn at 4, Tiến Lên at 4 and 2) played by greedy and random agents,
//! every decision's written text is the canonical JSON of its value: parsed and written again by
//! `serde_json` (keys in alphabetical order) it is the same bytes, and the message is the one
//! [`decide_message`] returns.

use bailab::agent::Agent;
use bailab::game::{ActionBuffer, GameState, RuleMap};
use bailab::games::chan::Chan;
use bailab::games::kind::GameKind;
use bailab::games::tienlen::TienLen;
use bailab::games::tusac::TuSac;
use bailab::generic_agents::catalogue::make_agent;
use bailab::generic_agents::exec::{decide_message, write_decide_message};
use bailab::rng::{stream_rng, DEAL_STREAM};
use serde_json::Value;

/// Games played per table.
const GAMES: u64 = 200;

/// Plays [`GAMES`] seeded games of `game` and checks every decision; returns the decisions.
fn check_table<G: GameKind>(game: &G, master: u64) -> u64 {
    let n = game.seats();
    let mut agents: Vec<Box<dyn Agent<G::State>>> = (0..n)
        .map(|s| make_agent::<G>(if s % 2 == 0 { "greedy" } else { "random" }).unwrap())
        .collect();
    let mut legal = <G::State as GameState>::Actions::default();
    let (mut decisions, mut written, mut message) = (0u64, Vec::new(), Vec::new());
    for index in 0..GAMES {
        let mut state = game.deal(&mut stream_rng(master, index, DEAL_STREAM));
        let mut rngs: Vec<_> = (0..n as u64)
            .map(|s| stream_rng(master, index, 1 + s))
            .collect();
        while let Some(seat) = state.to_move() {
            state.legal_actions(&mut legal);
            let view = state.view(seat);
            let at = || format!("{} {} {n}p game {index}", game.name(), game.variant());
            written.clear();
            game.write_observation(&view, &mut written);
            let value: Value = serde_json::from_slice(&written).expect("JSON");
            let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            assert_eq!(
                text(&serde_json::to_vec(&value).unwrap()),
                text(&written),
                "{}: the written observation is not canonical JSON",
                at()
            );
            assert_eq!(value, game.observation(&view), "{}", at());
            let seed = master ^ (decisions << 8);
            message.clear();
            write_decide_message(game, &view, legal.as_slice(), seed, &mut message);
            let whole = decide_message(game, &view, legal.as_slice(), seed);
            assert_eq!(
                text(&serde_json::to_vec(&whole).unwrap()),
                text(&message),
                "{}: the written decide message",
                at()
            );
            let chosen =
                agents[seat as usize].act(&view, legal.as_slice(), &mut rngs[seat as usize]);
            drop(view);
            decisions += 1;
            let action = legal.as_slice()[chosen];
            state.apply(action);
        }
    }
    eprintln!(
        "{} {} {n}p: {decisions} decisions",
        game.name(),
        game.variant()
    );
    assert!(decisions >= 10 * GAMES);
    decisions
}

/// Game `G` in `variant` at `players` seats, with the default rules.
fn build<G: GameKind>(variant: &str, players: usize) -> G {
    G::build(variant, players, &RuleMap::new()).unwrap()
}

#[test]
fn tienlen_written_json_is_canonical() {
    check_table(&build::<TienLen>("south", 4), 1);
    check_table(&build::<TienLen>("south", 2), 2);
}

#[test]
fn chan_written_json_is_canonical() {
    check_table(&build::<Chan>("standard", 4), 3);
}

#[test]
fn tusac_written_json_is_canonical() {
    for (i, (variant, players)) in [
        ("classic", 4),
        ("4sac", 4),
        ("sisepai21", 4),
        ("sisepai21", 8),
        ("dirtyking26", 4),
        ("dirtyking26", 6),
    ]
    .into_iter()
    .enumerate()
    {
        check_table(&build::<TuSac>(variant, players), 10 + i as u64);
    }
}
