//! Chắn property tests over random-policy games: no panic, the 100 cards conserved in every
//! state, zero-sum payouts, every hand ends within a bound, a replayed seed gives the same
//! hand, `explain` agrees with `legal_actions`, the action list stays within its proven
//! capacity. (No heap allocation per game or decision: `tests/alloc.rs`.)

use bailab::agent::uniform_index;
use bailab::game::{ActionBuffer, Game, GameState, Outcome, Seat};
use bailab::games::chan::{Action, Chan, ChanState, MAX_ACTIONS};
use bailab::rng::{stream_rng, DEAL_STREAM};
use bailab::sim::agent_stream;

/// Random games at 4 seats (and a tenth as many at 2, 3 and 5).
const GAMES: u64 = 100_000;
/// Decisions after which a hand counts as endless: 23 draws, ≤ 50 eats, ≤ 25 chíus, each with
/// at most a discard and N + 1 window questions, stay far below.
const MAX_DECISIONS: usize = 1000;

fn total_cards(s: &ChanState) -> usize {
    let seats: usize = (0..s.players() as Seat)
        .map(|x| s.seat(x).concealed.len() + s.seat(x).exposed().len())
        .sum();
    seats + s.dead().len() + s.stock_len() + usize::from(s.live().is_some())
}

/// Plays one random hand checking every invariant; returns its actions, outcome and the most
/// legal actions seen.
fn checked_game(
    game: &Chan,
    master: u64,
    index: u64,
    explain: bool,
) -> (Vec<Action>, Outcome, usize) {
    let mut state = game.deal(&mut stream_rng(master, index, DEAL_STREAM));
    let mut rngs: Vec<_> = (0..game.seats() as Seat)
        .map(|s| stream_rng(master, index, agent_stream(0, s)))
        .collect();
    let mut actions = <ChanState as GameState>::Actions::default();
    let mut seq = Vec::new();
    let mut most = 0;
    assert_eq!(total_cards(&state), 100);
    while let Some(seat) = state.to_move() {
        assert!(seq.len() < MAX_DECISIONS, "game {index} does not end");
        state.legal_actions(&mut actions);
        let legal = actions.as_slice();
        assert!(!legal.is_empty() && legal.len() <= MAX_ACTIONS);
        most = most.max(legal.len());
        if explain {
            for &a in legal {
                assert!(state.explain(a).is_empty(), "{a} is listed but refused");
            }
        }
        let action = legal[uniform_index(legal.len(), &mut rngs[seat as usize])];
        state.apply(action);
        seq.push(action);
        assert_eq!(total_cards(&state), 100, "cards conserved, game {index}");
        for x in 0..game.seats() as Seat {
            let p = state.seat(x);
            assert!(p.concealed.len() + p.exposed().len() <= 20);
        }
    }
    let o = state.outcome().expect("outcome");
    assert_eq!(o.payouts().iter().sum::<i64>(), 0, "zero-sum, game {index}");
    assert_eq!(o.winner.is_none(), o.reason == "stock_empty");
    (seq, o, most)
}

#[test]
fn random_games_keep_every_invariant() {
    let (mut drawn, mut total, mut most) = (0u64, 0u64, 0usize);
    for players in 2..=5u8 {
        let game = Chan::standard(players).unwrap();
        let games = if players == 4 { GAMES } else { GAMES / 10 };
        for index in 0..games {
            let (_, o, m) = checked_game(&game, 40 + u64::from(players), index, index % 16 == 0);
            drawn += u64::from(o.winner.is_none());
            total += 1;
            most = most.max(m);
        }
    }
    eprintln!(
        "random play: {drawn} of {total} hands drawn ({:.1}%), at most {most} legal actions",
        100.0 * drawn as f64 / total as f64
    );
    // both ends (a win, the empty stock) were reached many times
    assert!(
        drawn > total / 100 && drawn < total - total / 100,
        "{drawn} drawn"
    );
    assert!(most <= MAX_ACTIONS);
}

#[test]
fn replaying_a_seed_gives_the_same_game() {
    let game = Chan::standard(4).unwrap();
    for index in 0..200 {
        assert_eq!(
            checked_game(&game, 99, index, false),
            checked_game(&game, 99, index, false)
        );
    }
    assert_ne!(
        checked_game(&game, 99, 0, false).0,
        checked_game(&game, 99, 1, false).0
    );
}

#[test]
fn action_capacity_is_enough() {
    // the bound is reached by an Opening hand of 20 distinct identities (no Thiên ù then)
    let s = Chan::standard(4)
        .unwrap()
        .position()
        .hand(
            0,
            "2v 2n 2s 3v 3n 3s 4v 4n 4s 5v 5n 5s 6v 6n 6s 7v 7n 7s 8v 8n",
        )
        .at(bailab::games::chan::Phase::Opening(0));
    let mut a = <ChanState as GameState>::Actions::default();
    s.legal_actions(&mut a);
    assert_eq!(a.as_slice().len(), 20);
    assert_eq!(<ChanState as GameState>::Actions::CAPACITY, MAX_ACTIONS);
}
