//! Random-play invariants of the Tiến Lên engine: ≥ 100,000 random games over 2, 3 and 4
//! players with uniform random legal actions, plus matches through `deal_next`.

use bailab::game::SeatView;
use bailab::games::tienlen::{Action, Cards, Options, TienLen, TienLenState};
use bailab::rng::stream_rng;
use bailab::{Game, GameState};
use rand::Rng;

/// Bound on decisions in one game: every decision either plays ≥ 1 card (≤ 52) or passes /
/// declines; between two plays each seat passes at most twice and declines at most once per
/// poll, so 52 · (2·4 + 4·4 + 1) is a generous bound.
const MAX_DECISIONS: usize = 52 * 25;

fn conserved(s: &TienLenState) {
    let n = s.players();
    let mut all = s.set_aside();
    let mut total = s.set_aside().len();
    for seat in 0..n as u8 {
        all = all.union(s.hand(seat)).union(s.played_by(seat));
        total += s.hand(seat).len() + s.played_by(seat).len();
    }
    assert_eq!((all, total), (Cards::ALL, 52), "52 cards conserved");
}

/// Plays one random game; returns the action texts.
fn play(game: &TienLen, mut s: TienLenState, seed: u64, log: &mut Vec<String>) -> TienLenState {
    let mut rng = stream_rng(seed, 0, 1);
    let mut actions = <TienLenState as GameState>::Actions::default();
    let mut steps = 0;
    conserved(&s);
    while s.to_move().is_some() {
        s.legal_actions(&mut actions);
        let list = actions.as_slice();
        assert!(!list.is_empty(), "a seat to move has a legal action");
        let a: Action = list[rng.random_range(0..list.len())];
        log.push(a.to_string());
        s.apply(a);
        conserved(&s);
        steps += 1;
        assert!(steps <= MAX_DECISIONS, "game ends within the bound");
    }
    let o = s.outcome().expect("an outcome once over");
    assert_eq!(o.payouts().iter().sum::<i64>(), 0, "zero-sum");
    let n = game.seats();
    let places = o.places().expect("places");
    if s.toi_trang().is_some() {
        assert_eq!(places.iter().filter(|&&p| p > 0).count(), 1);
        assert_eq!(places[o.winner.unwrap() as usize], 1);
    } else {
        let mut p: Vec<u8> = places.to_vec();
        p.sort();
        assert_eq!(
            p,
            (1..=n as u8).collect::<Vec<_>>(),
            "places are a permutation"
        );
        assert_eq!(places[o.winner.unwrap() as usize], 1);
    }
    s
}

fn random_games(players: u8, games: u64, opts: Options) {
    let game = TienLen::new(opts).unwrap();
    let mut over = [0u64; 3];
    for i in 0..games {
        let mut rng = stream_rng(17 + u64::from(players), i, 0);
        let s = game.deal(&mut rng);
        let mut log = Vec::new();
        let end = play(&game, s, i, &mut log);
        over[match end.outcome().unwrap().reason {
            "finish" => 0,
            "cong" => 1,
            _ => 2,
        }] += 1;
        if i % 97 == 0 {
            // a replayed seed gives the same actions
            let s2 = game.deal(&mut stream_rng(17 + u64::from(players), i, 0));
            let mut log2 = Vec::new();
            play(&game, s2, i, &mut log2);
            assert_eq!(log, log2);
            // views determinize to states that keep every hand size and the seat's own hand
            let seat = (i % u64::from(players)) as u8;
            let mid = game.deal(&mut stream_rng(17 + u64::from(players), i, 0));
            let d = mid.view(seat).determinize(&mut stream_rng(5, i, 9));
            conserved(&d);
            assert_eq!(d.hand(seat), mid.hand(seat));
            for q in 0..players {
                assert_eq!(d.hand_len(q), mid.hand_len(q));
            }
        }
    }
    assert!(
        over[0] > 0,
        "{players} players: normal ends happen: {over:?}"
    );
}

#[test]
fn random_games_four_players() {
    random_games(4, 50_000, Options::default_for(4));
}

#[test]
fn random_games_three_players() {
    random_games(3, 25_000, Options::default_for(3));
}

#[test]
fn random_games_two_players() {
    random_games(2, 25_000, Options::default_for(2));
}

#[test]
fn random_games_with_every_non_default_option() {
    let mut o = Options::default_for(4);
    o.ps3_chops_pair_of_twos = true;
    o.quad_chops = bailab::games::tienlen::QuadChops::PairOnly;
    o.ps5_powers = false;
    o.same_type_hang_beat_is_chat = false;
    o.oot_chop_min_pairs = Some(5);
    o.passed_player_may_chop_in_turn = true;
    o.forbid_finish_on_two = true;
    o.initial_game_also_general_list = true;
    o.toi_trang_dem_heo = true;
    o.cong_den_enabled = false;
    random_games(4, 10_000, o);
    let mut o = Options::default_for(3);
    o.forbid_finish_on_two = true;
    o.passed_player_may_chop_in_turn = true;
    o.oot_chop_min_pairs = None;
    random_games(3, 5_000, o);
}

#[test]
fn matches_through_deal_next() {
    for players in 2..=4u8 {
        let game = TienLen::standard(players).unwrap();
        for m in 0..1_000u64 {
            let mut s = game.deal(&mut stream_rng(99, m, 0));
            for g in 1..=4u64 {
                let mut log = Vec::new();
                let end = play(&game, s, m * 10 + g, &mut log);
                let next = game.deal_next(&end, &mut stream_rng(99, m, g));
                assert_eq!(next.dealer(), (end.dealer() + 1) % players);
                let o = end.outcome().unwrap();
                if end.toi_trang().is_some() {
                    assert!(next.initial());
                } else {
                    assert!(!next.initial());
                    let expect = end.den_player().or(o.winner).unwrap();
                    assert_eq!(next.leader(), expect);
                }
                s = next;
            }
        }
    }
}

use crate::counting_alloc;
use counting_alloc::allocations;

/// Deal, legal actions, apply, views and determinize do not touch the heap.
#[test]
fn the_engine_does_not_allocate() {
    let games: Vec<TienLen> = (2..=4).map(|n| TienLen::standard(n).unwrap()).collect();
    let mut actions = <TienLenState as GameState>::Actions::default();
    let probe = allocations();
    let v: Vec<u64> = Vec::with_capacity(4);
    assert!(allocations() > probe, "the counter works");
    drop(v);
    let before = allocations();
    let mut decisions = 0;
    for (g, game) in games.iter().enumerate() {
        for i in 0..2_000u64 {
            let mut rng = stream_rng(3, i, g as u64);
            let mut s = game.deal(&mut rng);
            while let Some(seat) = s.to_move() {
                s.legal_actions(&mut actions);
                if i % 16 == 0 {
                    let d = s.view(seat).determinize(&mut rng);
                    assert_eq!(d.hand(seat), s.hand(seat));
                }
                let a = actions[rng.random_range(0..actions.len())];
                s.apply(a);
                decisions += 1;
            }
            assert!(s.outcome().is_some());
        }
    }
    assert!(decisions > 10_000);
    assert_eq!(allocations() - before, 0);
}
