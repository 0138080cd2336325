//! The multi-pack core's rule-learner features (`packs::features`) and deal measures
//! (`packs::deals`): hand-built positions with every feature worked out by hand, the documented
//! ranges over random sisepai21 and dirtyking26 games for 2–8 players, zero allocation per
//! decision, the deal measures on constructed deals and against the state over many deals, and
//! `bailab deals` leaving out the measures a variant never takes.

use bailab::agent::features::{FeatureRow, MAX_FEATURES};
use bailab::agent::greedy::feature_slot;
use bailab::agent::uniform_index;
use bailab::game::RuleMap;
use bailab::game::{Game, GameState, Seat, MAX_SEATS};
use bailab::games::kind::{GameCore, NOT_APPLICABLE, NOT_MEASURED};
use bailab::games::tusac::actions::{Action, Phase};
use bailab::games::tusac::card::Rank;
use bailab::games::tusac::deals::{measure_index, MEASURES, ONE_PACK_MEASURES};
use bailab::games::tusac::features::FEATURES;
use bailab::games::tusac::options::Options;
use bailab::games::tusac::packs::deals::measure;
use bailab::games::tusac::packs::features::{features, RANGES};
use bailab::games::tusac::packs::loose::loose;
use bailab::games::tusac::packs::{MultiPack, PacksState, PacksView};
use bailab::games::tusac::{Meld, SetKind, TuSac};
use bailab::rng::{stream_rng, DEAL_STREAM};
use bailab::study::deals::{count_chunk, distributions};

use crate::counting_alloc;
use counting_alloc::allocations;

use crate::packs_position;
use packs_position::{card, cards, legal, position};

const S21: fn(u8) -> Options = Options::sisepai21;
const D26: fn(u8) -> Options = Options::dirtyking26;

/// The feature rows of the seat to move, by action.
fn rows(s: &PacksState) -> Vec<(Action, FeatureRow)> {
    let seat = s.to_move().expect("a decision");
    let list = legal(s);
    let mut rows = vec![[0i16; MAX_FEATURES]; list.len()];
    features(&PacksView::new(s, seat), &list, &mut rows);
    list.into_iter().zip(rows).collect()
}

/// The row of `action`.
fn row_of(rows: &[(Action, FeatureRow)], action: Action) -> FeatureRow {
    rows.iter()
        .find(|(a, _)| *a == action)
        .unwrap_or_else(|| panic!("{action} is legal"))
        .1
}

/// Checks the named features of a row.
fn check(row: &FeatureRow, what: &str, expected: &[(&str, i16)]) {
    for &(name, v) in expected {
        let i = FEATURES
            .iter()
            .position(|f| f.name == name)
            .unwrap_or_else(|| panic!("no feature {name}"));
        assert_eq!(row[i], v, "{what}: {name}");
    }
}

fn discard(c: &str) -> Action {
    Action::Discard(card(c))
}

// ---------------------------------------------------------------- hand-built positions

/// sisepai21, 2 players. Seat 0 holds `rR rC rH yP gP wA wA`: the chow, a pair and two loose
/// pawns (loose 2, 1 point). Seat 0 has not seen seat 1's `yK wP rP gA wE wK` and the stock
/// `wA yE gR`.
fn s21_game() -> PacksState {
    position(
        S21(2),
        &["rR rC rH yP gP wA wA", "yK wP rP gA wE wK"],
        "wA yE gR",
    )
}

#[test]
fn discard_features_by_hand_sisepai21() {
    let s = s21_game();
    assert_eq!(s.phase(), Phase::MustDiscard(0));
    let r = rows(&s);
    assert_eq!(r.len(), 6, "six non-King types: {:?}", legal(&s));
    let situation = [
        ("active_source", 0),
        ("draws_left", 3), // 3 stock cards, floor 0
        ("trash_now", 2),  // yP gP
        ("opp_khaps", 0),
        ("opp_min_hand", 6),
        ("opp_max_discards", 0),
        ("doubled", 0),
        ("khui_chance", 0),
        ("is_discard", 1),
        ("is_meld", 0),
        ("is_decline", 0),
    ];
    for (_, row) in &r {
        check(row, "situation", &situation);
    }
    // yP: kept, it would be set by rP (with gP) or wP (with gP): 1 + 1; the others could set
    // it with rP and wP: 1·0 + 1·1 + 0·1 + 1·0·1 = 1. After: [rR rC rH] [wA wA] and gP.
    check(
        &row_of(&r, discard("yP")),
        "discard yP",
        &[
            ("rank", 6),
            ("outs", 2),
            ("outs_over_min", 2),
            ("is_worst", 0),
            ("unseen_same", 0),
            ("dead_same", 0),
            ("feed_combos", 1),
            ("trash_after", 1),
            ("trash_drop", 1),
            ("cards_after", 6),
            ("value_after", 1),
            ("pairs_after", 1),
            ("win_outs", 0),
            ("improve_outs", 0), // only gP's pawns would set gP: none unseen
        ],
    );
    check(
        &row_of(&r, discard("gP")),
        "discard gP",
        &[("outs", 2), ("feed_combos", 1), ("trash_after", 1)],
    );
    // wA: its unseen copy (1); wK is no out (a drawn King is auto-melded) and wE needs wK held.
    // feed: 1 copy + wK·wE = 1·1. After: [rR rC rH] yP gP wA, loose 3; rP or wP would make
    // Pawns3 (loose 1); a second wA only a Pair, refused by the S5 gate (1 point ≤ 9).
    check(
        &row_of(&r, discard("wA")),
        "discard wA",
        &[
            ("rank", 1),
            ("outs", 1),
            ("outs_over_min", 1),
            ("is_worst", 0),
            ("unseen_same", 1),
            ("feed_combos", 2),
            ("trash_after", 3),
            ("trash_drop", 0),
            ("value_after", 1),
            ("pairs_after", 0),
            ("improve_outs", 2),
        ],
    );
    // rR breaks the chow: no unseen rC, rH or rR; loose 4 (rC rH yP gP); rP or wP help
    check(
        &row_of(&r, discard("rR")),
        "discard rR",
        &[
            ("rank", 3),
            ("outs", 0),
            ("is_worst", 1),
            ("feed_combos", 0),
            ("trash_after", 4),
            ("trash_drop", 0),
            ("value_after", 0),
            ("pairs_after", 1),
            ("improve_outs", 2),
        ],
    );
}

#[test]
fn turn_option_features_by_hand_sisepai21() {
    let mut s = s21_game();
    s.apply(discard("yP"));
    assert_eq!(s.phase(), Phase::TurnOption(1));
    let pawns3 = Action::Meld(Meld::new(SetKind::Pawns3, &cards("rP wP")));
    assert_eq!(legal(&s), vec![pawns3, Action::Draw]);
    let r = rows(&s);
    // seat 1 holds yK wP rP gA wE wK: loose 4 (wP rP gA wE), 2 points (the Kings); it has not
    // seen rR rC rH gP wA wA (seat 0) and wA yE gR (stock).
    let situation = [
        ("active_source", 1),
        ("draws_left", 3),
        ("trash_now", 4),
        ("opp_min_hand", 6),
        ("opp_max_discards", 1),
    ];
    check(&r[0].1, "meld", &situation);
    check(&r[1].1, "draw", &situation);
    // [yP rP wP] melded (1 point); left yK gA wE wK, loose 2; a discard must follow: after gA,
    // any of the three wA would make [wK wA wE] and leave loose 0 (4 points: no win, ≤ 9)
    check(
        &r[0].1,
        "meld Pawns3",
        &[
            ("is_meld", 1),
            ("meld_kind", 7),
            ("meld_cards", 2),
            ("meld_value", 1),
            ("followup_combos", 0),
            ("trash_after", 2),
            ("trash_drop", 2),
            ("cards_after", 4),
            ("value_after", 3),
            ("pairs_after", 0),
            ("win_outs", 0),
            ("improve_outs", 3),
        ],
    );
    // declining keeps the hand: gP (Pawns3 with wP rP) and wA (the KAE) lower the loose count
    check(
        &r[1].1,
        "draw",
        &[
            ("is_decline", 1),
            ("meld_kind", 0),
            ("feed_combos", 0),
            ("trash_after", 4),
            ("trash_drop", 0),
            ("cards_after", 6),
            ("value_after", 2),
            ("win_outs", 0),
            ("improve_outs", 4),
        ],
    );
}

#[test]
fn win_outs_by_hand_sisepai21() {
    // seat 0: gH×4 face down (8) and rK rA rE yR yC wP in hand (loose 3, 8 + 2 points);
    // unseen: yH yH yR wP gK gA gE rC rH (seat 1) and yC wR (stock)
    let s = position(
        S21(2),
        &[
            "gH gH gH gH rK rA rE yR yC wP",
            "yH yH yR wP gK gA gE rC rH",
        ],
        "yC wR",
    );
    let r = rows(&s);
    check(&r[0].1, "situation", &[("trash_now", 3), ("opp_khaps", 0)]);
    // after wP: rK rA rE yR yC, waiting on yH: [yR yC yH] melded makes 8 + 1 + 2 = 11 > 9;
    // yH, yR and yC (a Pair, allowed above 9 points) each lower the loose count
    check(
        &row_of(&r, discard("wP")),
        "discard wP",
        &[
            ("outs", 1),
            ("win_outs", 2),
            ("improve_outs", 4),
            ("value_after", 10),
            ("trash_after", 2),
        ],
    );
    // after yR: yC and wP each pair up; its outs are its copy and yH (with yC kept)
    check(
        &row_of(&r, discard("yR")),
        "discard yR",
        &[("outs", 3), ("win_outs", 0), ("improve_outs", 2)],
    );
    // after rA: 9 points, the Pair is gated (S5): only yH (the chow) helps
    check(
        &row_of(&r, discard("rA")),
        "discard rA",
        &[
            ("outs", 0),
            ("is_worst", 1),
            ("value_after", 9),
            ("trash_after", 4),
            ("improve_outs", 2),
        ],
    );
}

/// dirtyking26, 2 players: seat 1's `wH`×4 go face down; the bottom `yP` names the double rank
/// (Pawns) and is public.
fn d26_game() -> PacksState {
    position(
        D26(2),
        &["rA yA gC gC gE wE yP", "wH wH wH wH rP gP"],
        "yE rE wA yP",
    )
}

#[test]
fn discard_and_meld_features_by_hand_dirtyking26() {
    let mut s = d26_game();
    assert_eq!(s.double_rank(), Some(Rank::Pawn));
    let r = rows(&s);
    // seat 0 has not seen rP gP (seat 1), wH×4 (face down) and yE rE wA (stock; yP is public)
    check(
        &r[0].1,
        "situation",
        &[("opp_khaps", 1), ("trash_now", 5), ("draws_left", 4)],
    );
    // rA: across-colour sets (Colours3) count: wA would set it with yA kept
    check(
        &row_of(&r, discard("rA")),
        "discard rA",
        &[("outs", 1), ("feed_combos", 0)],
    );
    // gE: rE or yE would make a Colours3 with wE; the others could set it with rE·yE = 1;
    // after it wA lowers the loose count (rA yA wA), the pairs are gated (0 ≤ 20 points)
    check(
        &row_of(&r, discard("gE")),
        "discard gE",
        &[
            ("outs", 2),
            ("feed_combos", 1),
            ("trash_after", 4),
            ("improve_outs", 1),
        ],
    );
    s.apply(discard("yP"));
    assert_eq!(s.phase(), Phase::TurnOption(1));
    let pawns3 = Action::Meld(Meld::new(SetKind::Pawns3, &cards("rP gP")));
    assert_eq!(legal(&s), vec![pawns3, Action::Draw]);
    let r = rows(&s);
    // Pawns3 of the double rank: 1 doubled; the hand is empty after it (no discard follows)
    check(
        &r[0].1,
        "meld Pawns3",
        &[
            ("meld_kind", 7),
            ("meld_value", 2),
            ("value_after", 10),
            ("trash_now", 2),
            ("trash_after", 0),
            ("trash_drop", 2),
            ("cards_after", 0),
            ("followup_combos", 0),
            ("win_outs", 0),
            ("improve_outs", 0),
        ],
    );
    check(
        &r[1].1,
        "draw",
        &[("value_after", 8), ("improve_outs", 0), ("opp_khaps", 0)],
    );
}

// ---------------------------------------------------------------- ranges over random games

/// Plays random games of `variant` for each player count, computing every decision's rows and
/// passing them to `each` with the state.
fn random_decisions(
    variant: fn(u8) -> Options,
    games: u64,
    mut each: impl FnMut(&PacksState, &[Action], &[FeatureRow]),
) {
    for players in [2u8, 3, 4, 6, 8] {
        let game = MultiPack::new(variant(players)).unwrap();
        for index in 0..games {
            let mut s = game.deal(&mut stream_rng(31, index, DEAL_STREAM));
            let mut rng = stream_rng(31, index, 1);
            let mut list = Default::default();
            let mut rows = [[0i16; MAX_FEATURES]; 24];
            while let Some(seat) = s.to_move() {
                s.legal_actions(&mut list);
                let actions: &[Action] = list.as_slice();
                let rows = &mut rows[..actions.len()];
                features(&PacksView::new(&s, seat), actions, rows);
                each(&s, actions, rows);
                s.apply(actions[uniform_index(actions.len(), &mut rng)]);
            }
        }
    }
}

fn slot(name: &str) -> usize {
    FEATURES.iter().position(|f| f.name == name).unwrap()
}

fn rows_in_range(variant: fn(u8) -> Options) {
    let mut seen = [i16::MIN; MAX_FEATURES];
    let mut decisions = 0u64;
    random_decisions(variant, 40, |s, actions, rows| {
        decisions += 1;
        let seat = s.to_move().unwrap();
        for (a, row) in actions.iter().zip(rows) {
            for &(name, lo, hi) in RANGES {
                let v = row[slot(name)];
                assert!(
                    lo <= v && v <= hi,
                    "{name} = {v} for {a} in {:?}",
                    s.phase()
                );
                seen[slot(name)] = seen[slot(name)].max(v);
            }
            let kinds = row[slot("is_discard")] + row[slot("is_meld")] + row[slot("is_decline")];
            assert_eq!(kinds, 1, "one kind of action: {a}");
            let loose_now = loose(s.hand(seat), s.set_rules());
            assert_eq!(row[slot("trash_now")], i16::from(loose_now));
            let drop = row[slot("trash_now")] - row[slot("trash_after")];
            assert_eq!(row[slot("trash_drop")], drop.max(0));
            assert!(row[slot("outs_over_min")] <= row[slot("outs")]);
            // a winning non-King card also lowers the loose count; Kings win only a complete
            // hand; one card completes at most 3 loose cards (a meld row looks further ahead)
            if !matches!(a, Action::Meld(_)) {
                let (win, after) = (row[slot("win_outs")], row[slot("trash_after")]);
                if after > 0 {
                    assert!(win <= row[slot("improve_outs")], "{a}: {win} win outs");
                }
                if after > 3 {
                    assert_eq!(win, 0, "{a}: loose {after}");
                }
            }
            for x in row[FEATURES.len()..].iter() {
                assert_eq!(*x, 0, "slots after the game's features stay 0");
            }
        }
    });
    assert!(decisions > 10_000, "{decisions} decisions");
    // the features that vary in play do vary
    for name in [
        "outs",
        "feed_combos",
        "meld_kind",
        "value_after",
        "improve_outs",
        "opp_khaps",
        "opp_max_discards",
        "pairs_after",
    ] {
        assert!(seen[slot(name)] > 0, "{name} never above 0");
    }
}

#[test]
fn sisepai21_rows_stay_in_their_documented_ranges() {
    rows_in_range(S21);
}

#[test]
fn dirtyking26_rows_stay_in_their_documented_ranges() {
    rows_in_range(D26);
}

#[test]
fn ranges_name_every_feature_once() {
    let names: Vec<&str> = RANGES.iter().map(|r| r.0).collect();
    let expected: Vec<&str> = FEATURES.iter().map(|f| f.name).collect();
    assert_eq!(names, expected);
    assert_eq!(feature_slot(FEATURES, "improve_outs"), FEATURES.len() - 1);
}

// ---------------------------------------------------------------- allocation and timing

#[test]
fn features_allocate_nothing_per_decision() {
    let warm = std::cell::Cell::new(false);
    let mut worst = 0u64;
    for variant in [S21, D26] {
        random_decisions(variant, 3, |s, actions, _| {
            let seat = s.to_move().unwrap();
            let mut rows = [[0i16; MAX_FEATURES]; 24];
            let view = PacksView::new(s, seat);
            if !warm.get() {
                features(&view, actions, &mut rows[..actions.len()]); // per-thread caches
                warm.set(true);
            }
            let before = allocations();
            features(&view, actions, &mut rows[..actions.len()]);
            worst = worst.max(allocations() - before);
        });
    }
    assert_eq!(worst, 0, "heap allocations in one decision's features");
}

/// The features' cost per decision over random games (not asserted; run with `--ignored`).
#[test]
#[ignore]
fn time_features_per_decision() {
    for (name, variant) in [("sisepai21", S21), ("dirtyking26", D26)] {
        let mut decisions = 0u64;
        let mut spent = std::time::Duration::ZERO;
        random_decisions(variant, 100, |s, actions, _| {
            let seat = s.to_move().unwrap();
            let mut rows = [[0i16; MAX_FEATURES]; 24];
            let began = std::time::Instant::now();
            features(
                &PacksView::new(s, seat),
                actions,
                &mut rows[..actions.len()],
            );
            spent += began.elapsed();
            decisions += 1;
        });
        println!(
            "{name}: {decisions} decisions, {:.2} µs per decision",
            spent.as_secs_f64() * 1e6 / decisions as f64
        );
    }
}

// ---------------------------------------------------------------- deal measures

fn measured(s: &PacksState) -> Vec<[i32; MAX_SEATS]> {
    let mut out = vec![[NOT_MEASURED; MAX_SEATS]; MEASURES.len()];
    measure(s, &mut out);
    out
}

fn at(out: &[[i32; MAX_SEATS]], name: &str) -> [i32; MAX_SEATS] {
    out[measure_index(name)]
}

#[test]
fn deal_measures_of_a_constructed_dirtyking26_deal() {
    let out = measured(&d26_game());
    // seat 0: rA yA gC gC gE wE yP, loose 5 (the pair is a set), 0 points; seat 1: wH×4 face
    // down (8), rP gP loose
    assert_eq!(at(&out, "loose")[..2], [5, 2]);
    assert_eq!(at(&out, "complete")[..2], [0, 0]);
    assert_eq!(at(&out, "face_down_quads")[..2], [0, 1]);
    assert_eq!(at(&out, "points")[..2], [0, 8]);
    assert_eq!(at(&out, "kings")[..2], [0, 0]);
    assert_eq!(at(&out, "redeals")[0], 0);
    assert_eq!(at(&out, "double_rank")[0], Rank::Pawn as i32);
    assert_eq!(at(&out, "natural_win_points")[0], 0);
    assert_eq!(at(&out, "natural_win_score")[0], NOT_MEASURED);
    for (i, m) in MEASURES[..ONE_PACK_MEASURES].iter().enumerate() {
        let shared = matches!(m.name, "kings" | "copies_rK");
        assert_eq!(
            out[i] == [NOT_APPLICABLE; MAX_SEATS],
            !shared,
            "{} is one-pack only",
            m.name
        );
    }
}

#[test]
fn deal_measures_of_a_sisepai21_natural_win() {
    // F: gH×4 face down (8) + [rK rA rE] (2) = 10 > 9, complete (tests/tusac/tusac_packs.rs)
    let s = position(S21(2), &["gH gH gH gH rK rA rE", "yK yA yR yC yH yP"], "gP");
    assert_eq!(s.outcome().map(|o| o.reason), Some("natural_win"));
    let out = measured(&s);
    assert_eq!(at(&out, "natural_win_points")[0], 1);
    assert_eq!(at(&out, "natural_win_score")[0], 10);
    assert_eq!(at(&out, "complete")[..2], [1, 0]); // yP is loose
    assert_eq!(at(&out, "points")[..2], [10, 2]); // [yK yA] is no set: yK 1 + [yR yC yH] 1
    assert_eq!(at(&out, "kings")[..2], [1, 1]);
    assert_eq!(at(&out, "copies_rK")[..2], [1, 0]);
    assert_eq!(
        at(&out, "double_rank")[0],
        NOT_APPLICABLE,
        "no double rank in sisepai21"
    );
}

#[test]
fn deal_measures_agree_with_the_state_over_many_deals() {
    let mut redealt = 0;
    for variant in [S21, D26] {
        for players in [2u8, 3, 4, 6, 8] {
            let game = MultiPack::new(variant(players)).unwrap();
            for deal in 0..400 {
                let s = game.deal(&mut stream_rng(5, deal, DEAL_STREAM));
                let out = measured(&s);
                for (m, row) in MEASURES.iter().zip(&out) {
                    let slots = if m.per == bailab::games::kind::Per::Hand {
                        usize::from(players)
                    } else {
                        1
                    };
                    for &v in &row[..slots] {
                        assert!(
                            v == NOT_MEASURED
                                || v == NOT_APPLICABLE
                                || (0..=i32::from(m.max)).contains(&v),
                            "{} = {v}",
                            m.name
                        );
                    }
                }
                for seat in 0..players as Seat {
                    let x = seat as usize;
                    let quads = s.face_down(seat).count() as i32;
                    assert_eq!(at(&out, "face_down_quads")[x], quads);
                    assert_eq!(4 * quads as usize, s.face_down_len(seat));
                    let l = i32::from(loose(s.hand(seat), s.set_rules()));
                    assert_eq!(at(&out, "loose")[x], l);
                    assert_eq!(at(&out, "complete")[x], i32::from(l == 0));
                    let kings: i32 = s.hand(seat)[..4].iter().map(|&n| i32::from(n)).sum();
                    assert_eq!(at(&out, "kings")[x], kings);
                    let dealt = s.hand_len(seat) + s.face_down_len(seat);
                    let size = usize::from(game.options().hand_size) + usize::from(seat == 0);
                    assert_eq!(dealt, size, "every dealt card is counted once");
                }
                let o = s.outcome();
                let won = o.is_some_and(|o| o.reason == "natural_win");
                assert_eq!(at(&out, "natural_win_points")[0], i32::from(won));
                let score = o
                    .filter(|_| won)
                    .map_or(NOT_MEASURED, |o| o.hand_value as i32);
                assert_eq!(at(&out, "natural_win_score")[0], score);
                assert_eq!(at(&out, "redeals")[0], i32::from(s.redeals()));
                let rank = s.double_rank().map_or(NOT_APPLICABLE, |r| r as i32);
                if game.options().double_rank {
                    assert_eq!(at(&out, "double_rank")[0], rank);
                    assert!(rank >= 1, "never a King");
                }
                redealt += i32::from(s.redeals() > 0);
            }
        }
    }
    assert!(redealt > 0, "some deals were redone");
}

#[test]
fn classic_deals_leave_out_the_multi_pack_measures() {
    let game = TuSac::build("classic", 4, &RuleMap::new()).unwrap();
    let counts = count_chunk(&game, 3, 0..200);
    for (i, m) in MEASURES.iter().enumerate() {
        assert_eq!(counts.applies(i), i < ONE_PACK_MEASURES, "{}", m.name);
    }
    let names: Vec<String> = distributions(MEASURES, &counts)
        .into_iter()
        .map(|d| d.measure)
        .collect();
    let one_pack: Vec<&str> = MEASURES[..ONE_PACK_MEASURES]
        .iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(names, one_pack);
    assert_eq!(
        ONE_PACK_MEASURES,
        measure_index("natural_win_value") + 1,
        "the multi-pack measures come after the one-pack ones"
    );
}
