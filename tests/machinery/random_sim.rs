//! The shared random-simulation test, run against every game of the registry and every seat
//! count it supports (as OpenSpiel's `RandomSimTest`): random legal play never panics, a seat to
//! move always has a legal action within the game's capacity, every game ends, payouts are
//! zero-sum, places (when a game ranks seats) are a ranking, a clone plays on identically, the
//! deciding seat's legal actions are the same in every determinization of its view (what
//! information-set search relies on), and every game's record checks through the engine.

use bailab::agent::uniform_index;
use bailab::game::RuleMap;
use bailab::game::{ActionBuffer, Decision, GameId, GameState, SeatView};
use bailab::games::kind::GameKind;
use bailab::games::{with_game, GameVisitor, GAMES};
use bailab::rng::{stream_rng, DEAL_STREAM};
use bailab::sim::recorder::{check, Recorder};

/// Games per seat count of each game's default variant (a fifth of it for other variants).
const GAMES_EACH: u64 = 1500;
/// Decisions after which a game counts as endless.
const MAX_DECISIONS: usize = 5000;

struct Sim {
    variant: &'static str,
    players: usize,
    games: u64,
}

impl GameVisitor for Sim {
    type Output = u64;
    fn visit<G: GameKind>(self) -> u64 {
        let game = G::build(self.variant, self.players, &RuleMap::new()).unwrap();
        let mut decisions = 0;
        for i in 0..self.games {
            decisions += one_game(&game, 0x5EED + self.players as u64, i);
        }
        decisions
    }
}

/// Plays game `i` at random, checking every property; returns its number of decisions.
fn one_game<G: GameKind>(game: &G, master: u64, i: u64) -> u64 {
    let name = G::INFO.name;
    let mut state = game.deal(&mut stream_rng(master, i, DEAL_STREAM));
    let start = state.clone();
    let mut rng = stream_rng(master, i, 1);
    let mut actions = <G::State as GameState>::Actions::default();
    let mut other = <G::State as GameState>::Actions::default();
    let mut recorder = Recorder::<G>::default();
    recorder.observe(&state, None);
    let mut twin = state.clone();
    let mut n = 0usize;
    while let Some(seat) = state.to_move() {
        assert!(n < MAX_DECISIONS, "{name} game {i} does not end");
        assert!(
            state.outcome().is_none(),
            "{name}: an outcome before the end"
        );
        state.legal_actions(&mut actions);
        let legal = actions.as_slice();
        assert!(
            !legal.is_empty(),
            "{name} game {i}: seat {seat} has no legal action"
        );
        assert!(legal.len() <= <G::State as GameState>::Actions::CAPACITY);
        if n.is_multiple_of(7) {
            let d = state.view(seat).determinize(&mut rng);
            assert_eq!(
                d.to_move(),
                Some(seat),
                "{name}: a determinization moves the turn"
            );
            d.legal_actions(&mut other);
            assert_eq!(
                other.as_slice(),
                legal,
                "{name} game {i}: the deciding seat's legal actions differ in a determinization"
            );
        }
        let chosen = uniform_index(legal.len(), &mut rng);
        let action = legal[chosen];
        let decision = Decision {
            seat,
            legal: legal.len(),
            chosen,
        };
        state.apply(action);
        twin.apply(action);
        recorder.observe(&state, Some((decision, action)));
        n += 1;
    }
    assert_eq!(
        twin.outcome(),
        state.outcome(),
        "{name}: a clone played on differently"
    );
    let o = state.outcome().expect("a finished game has an outcome");
    assert_eq!(
        o.payouts().iter().sum::<i64>(),
        0,
        "{name} game {i}: payouts"
    );
    if let Some(places) = o.places() {
        let mut ranked: Vec<u8> = places.iter().copied().filter(|&p| p > 0).collect();
        ranked.sort_unstable();
        assert_eq!(
            ranked,
            (1..=ranked.len() as u8).collect::<Vec<_>>(),
            "{name}: places"
        );
        if let Some(w) = o.winner {
            assert_eq!(places[w as usize], 1, "{name}: the winner is first");
        }
    }
    let id = GameId {
        master,
        deal: i,
        rotation: 0,
    };
    let agents = vec!["random".to_string(); game.seats()];
    let record = recorder.finish(game, &start, &state, &agents, Some(id));
    if let Err(e) = check(&record) {
        panic!("{name} game {i}: its record does not check: {e}");
    }
    n as u64
}

#[test]
fn every_game_keeps_the_contracts_under_random_play() {
    for info in GAMES {
        for (k, &variant) in info.variants.iter().enumerate() {
            // the default variant in full, the others in a fifth as many games
            let games = if k == 0 { GAMES_EACH } else { GAMES_EACH / 5 };
            let (lo, hi) = info.seats_of(variant);
            for players in lo..=hi {
                let sim = Sim {
                    variant,
                    players,
                    games,
                };
                let decisions = with_game(info.name, sim).unwrap();
                assert!(
                    decisions > games * 5,
                    "{} {variant} with {players}: only {decisions} decisions",
                    info.name
                );
            }
        }
    }
}

#[test]
fn a_game_played_twice_from_its_seed_is_the_same() {
    struct Twice;
    impl GameVisitor for Twice {
        type Output = ();
        fn visit<G: GameKind>(self) {
            let variant = G::INFO.variants[G::INFO.variants.len() - 1];
            let most = G::INFO.seats_of(variant).1;
            let game = G::build(variant, most, &RuleMap::new()).unwrap();
            let seq = |i: u64| {
                let mut s = game.deal(&mut stream_rng(9, i, DEAL_STREAM));
                let mut rng = stream_rng(9, i, 1);
                let mut actions = <G::State as GameState>::Actions::default();
                let mut out = Vec::new();
                while s.to_move().is_some() {
                    s.legal_actions(&mut actions);
                    let a = actions.as_slice()[uniform_index(actions.as_slice().len(), &mut rng)];
                    out.push(a.to_string());
                    s.apply(a);
                }
                (out, s.outcome())
            };
            for i in 0..100 {
                assert_eq!(seq(i), seq(i), "{} game {i}", G::INFO.name);
            }
            assert_ne!(seq(0).0, seq(1).0);
        }
    }
    for info in GAMES {
        with_game(info.name, Twice).unwrap();
    }
}

/// Seats in the registry are what `MAX_SEATS` allows.
#[test]
fn registered_seat_counts_fit_the_machinery() {
    for info in GAMES {
        assert!(
            info.seats.0 >= 2 && info.seats.1 <= bailab::MAX_SEATS,
            "{}",
            info.name
        );
        for &(variant, lo, hi) in info.variant_seats {
            assert!(info.variants.contains(&variant), "{}: {variant}", info.name);
            assert!(info.seats.0 <= lo && lo <= hi && hi <= info.seats.1);
        }
    }
}
