//! Property tests over random-policy games (issue: Tứ Sắc classic engine): no panic, cards
//! conserved in every state, payouts sum to zero, trash discards lower trash by exactly one, no
//! meld raises trash, every game ends, and a replayed seed gives the same game.

use bailab::agent::uniform_index;
use bailab::game::GameId;
use bailab::game::{Game, GameState, Outcome, Seat};
use bailab::games::tusac::actions::{Action, Phase};
use bailab::games::tusac::onepack::deck::DECK_SIZE;
use bailab::games::tusac::onepack::state::OnePackState;
use bailab::games::tusac::TuSac;
use bailab::games::tusac::{trash, OnePack};
use bailab::generic_agents::catalogue::make_agent;
use bailab::rng::{stream_rng, DEAL_STREAM};
use bailab::sim::{agent_stream, play_game};

const GAMES: u64 = 100_000;

/// Plays one game checking every invariant after every step; returns the action sequence.
fn checked_game(game: &OnePack, master: u64, index: u64) -> (Vec<Action>, Outcome) {
    let mut state = game.deal(&mut stream_rng(master, index, DEAL_STREAM));
    let mut rngs: Vec<_> = (0..game.seats() as Seat)
        .map(|s| stream_rng(master, index, agent_stream(0, s)))
        .collect();
    let mut actions = <OnePackState as GameState>::Actions::default();
    let mut seq = Vec::new();
    assert_eq!(state.total_cards(), DECK_SIZE);
    while let Some(seat) = state.to_move() {
        assert!(seq.len() < 1000, "game {index} does not end");
        state.legal_actions(&mut actions);
        assert!(
            !actions.as_slice().is_empty(),
            "a seat to move has a legal action"
        );
        let chosen = uniform_index(actions.as_slice().len(), &mut rngs[seat as usize]);
        let action = actions.as_slice()[chosen];
        let before = state.private(seat);
        let phase = state.phase();
        state.apply(action);
        seq.push(action);
        assert_eq!(
            state.total_cards(),
            DECK_SIZE,
            "cards conserved, game {index}"
        );
        match (phase, action) {
            (Phase::MustDiscard(_), Action::Discard(_)) => {
                assert_eq!(
                    trash(state.private(seat)) + 1,
                    trash(before),
                    "a discard lowers trash by one"
                );
            }
            (_, Action::Meld(m)) => {
                let after = before.without_all(m.used());
                assert!(trash(after) <= trash(before), "a meld never raises trash");
            }
            _ => {}
        }
        for x in 0..game.seats() as Seat {
            assert!(state.private(x).len() <= 21);
        }
    }
    let o = state.outcome().expect("outcome");
    assert_eq!(
        o.payouts().iter().sum::<i64>(),
        0,
        "payouts sum to zero, game {index}"
    );
    assert_eq!(o.winner.is_some(), o.reason != "stock_floor");
    (seq, o)
}

#[test]
fn random_games_keep_every_invariant() {
    let (mut won, mut drawn, mut decisions) = (0u64, 0u64, 0usize);
    for players in 2..=4u8 {
        let game = OnePack::classic(players).unwrap();
        let games = if players == 4 { GAMES } else { GAMES / 10 };
        for index in 0..games {
            let (seq, o) = checked_game(&game, 11 + u64::from(players), index);
            decisions += seq.len();
            won += u64::from(o.winner.is_some());
            drawn += u64::from(o.winner.is_none());
        }
    }
    // both ends of a game (a win, the stock floor) were reached many times
    assert!(
        won > GAMES / 10 && drawn > GAMES / 10,
        "{won} won, {drawn} drawn"
    );
    assert!(decisions as u64 > 10 * GAMES);
}

#[test]
fn replaying_a_seed_gives_the_same_game() {
    let game = OnePack::classic(4).unwrap();
    for index in 0..200 {
        assert_eq!(
            checked_game(&game, 99, index),
            checked_game(&game, 99, index)
        );
    }
    assert_ne!(checked_game(&game, 99, 0).0, checked_game(&game, 99, 1).0);
}

#[test]
fn play_game_matches_the_checked_loop() {
    let game = OnePack::classic(4).unwrap();
    let mut seq = Vec::new();
    let mut agents = vec![make_agent::<TuSac>("random").unwrap()];
    let id = GameId {
        master: 5,
        deal: 3,
        rotation: 0,
    };
    play_game(&TuSac::from(game), id, &mut agents, &[0; 4], |(_, step)| {
        if let Some((_, a)) = step {
            seq.push(a)
        }
    });
    assert_eq!(seq, checked_game(&game, 5, 3).0);
}
