//! Tứ Sắc's rule-list features (`src/games/tusac/onepack/features.rs`): hand-worked values on constructed
//! classic deals (one decision of each kind), and properties over random games: the features
//! read the view only (a determinization of the view gives the same rows) and agree with the
//! engine's worst-card judgement and with the definitions of their outs. What every game's list
//! must be is tested in `rules_agent.rs`, that features never allocate in `alloc.rs`.

use crate::tusac_deck;
use crate::tusac_play;
use bailab::agent::features::{FeatureRow, MAX_FEATURES};
use bailab::agent::uniform_index;
use bailab::game::{Game, GameState, Seat, SeatView};
use bailab::games::kind::Features;
use bailab::games::tusac::actions::Phase;
use bailab::games::tusac::card::{parse_cards, CARD_TYPES};
use bailab::games::tusac::meld::Melds;
use bailab::games::tusac::onepack::rules::{can_win, cards_of, legal_discards, legal_melds};
use bailab::games::tusac::onepack::worst::worst_set;
use bailab::games::tusac::{trash, Action, Card, Event, Hand, OnePack, OnePackState, SetKind};
use bailab::games::tusac::{TuSac, TuSacView};
use bailab::generic_agents::catalogue::make_agent;
use bailab::rng::{stream_rng, GameRng};
use tusac_deck::deal;
use tusac_play::{act, legal};

// ------------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------------

type Actions = <OnePackState as GameState>::Actions;

fn c(s: &str) -> Card {
    s.parse().unwrap()
}

/// The feature rows of the seat to move, for its legal actions.
fn rows_of(s: &OnePackState) -> (Vec<Action>, Vec<FeatureRow>) {
    let seat = s.to_move().expect("a seat to move");
    let l = legal(s);
    let mut rows = vec![[0i16; MAX_FEATURES]; l.len()];
    TuSac::features(&TuSacView::OnePack(s.view(seat)), &l, &mut rows);
    (l, rows)
}

fn slot(name: &str) -> usize {
    TuSac::FEATURES
        .iter()
        .position(|f| f.name == name)
        .unwrap_or_else(|| panic!("no feature {name}"))
}

/// The values of the named features for one action, as `name=value` (for readable failures).
fn values(l: &[Action], rows: &[FeatureRow], action: Action, names: &[&str]) -> Vec<String> {
    let i = l
        .iter()
        .position(|&a| a == action)
        .unwrap_or_else(|| panic!("{action} is not legal: {l:?}"));
    names
        .iter()
        .map(|n| format!("{n}={}", rows[i][slot(n)]))
        .collect()
}

/// Asserts `name=value` pairs (written as `"name=value name=value …"`) for one action.
fn check(l: &[Action], rows: &[FeatureRow], action: Action, expected: &str) {
    let want: Vec<String> = expected.split_whitespace().map(String::from).collect();
    let names: Vec<&str> = want.iter().map(|w| w.split('=').next().unwrap()).collect();
    assert_eq!(values(l, rows, action, &names), want, "{action}");
}

fn discard(s: &str) -> Action {
    Action::Discard(c(s))
}

fn meld(kind: SetKind, used: &str) -> Action {
    Action::Meld(bailab::games::tusac::Meld::new(
        kind,
        &parse_cards(used, 4).unwrap(),
    ))
}

// ------------------------------------------------------------------------------------------------
// Worked positions (4 players, seat 0 is F)
// ------------------------------------------------------------------------------------------------

/// Seat 0: trash rR rC (waiting for rH) yH gE wC; the Khap rP rP rP; wA wA. Seat 1: a white
/// wR wC wC wH (one trash) and trash rC, yP. Seat 2 holds the Khap yC yC yC and 13 trash; seat 3
/// 16 trash. The stock starts yA, rC.
const HANDS: [&str; 4] = [
    "rK rA rE yK gR gC gH wA wA yP gP wP rP rP rP rR rC yH gE wC wK",
    "wR wH wC wC yK yA yE rK yR yC yH gP gP rH rH wE wE rC gK yP",
    "yC yC yC rA yA gA rE yE gE rR yR gR wR rH yH gH wH yP gK wK",
    "rA yA gA wA rE yE gE wE rR yR gR wR rH yH gH wH rP yP gP wP",
];

fn worked_deal() -> OnePackState {
    let s = deal(&HANDS, 0, "yA rC");
    let trashes: Vec<u8> = (0..4).map(|x| trash(s.private(x))).collect();
    assert_eq!(trashes, [5, 3, 13, 16]);
    s
}

#[test]
fn opening_discard() {
    let s = worked_deal();
    assert_eq!(s.phase(), Phase::MustDiscard(0));
    let (l, rows) = rows_of(&s);
    assert_eq!(
        l,
        ["gE", "rR", "rC", "wC", "yH"].map(discard),
        "the legal discards, canonical order"
    );
    let situation = "is_discard=1 is_meld=0 is_decline=0 active_source=0 draws_left=24 \
                     trash_now=5 opp_khaps=1 opp_min_hand=20 opp_max_discards=0";
    for &a in &l {
        check(&l, &rows, a, situation);
        // every discard lowers trash by one; none leaves a hand that can win
        check(
            &l,
            &rows,
            a,
            "trash_after=4 trash_drop=1 cards_after=20 value_after=8 pairs_after=1 win_outs=0 \
             meld_kind=0 meld_cards=0 meld_value=0 followup_combos=0",
        );
        // every candidate has 3 unseen copies; 1 Khap among 26 types with 3 or more unseen
        check(&l, &rows, a, "unseen_same=3 dead_same=0 khui_chance=3");
    }
    // gE, wC, yH have only their own copies as partners (outs 3): the worst set
    check(
        &l,
        &rows,
        discard("gE"),
        "rank=2 outs=3 outs_over_min=0 is_worst=1 feed_combos=19 improve_outs=16",
    );
    check(
        &l,
        &rows,
        discard("yH"),
        "rank=5 outs=3 outs_over_min=0 is_worst=1 feed_combos=19 improve_outs=16",
    );
    check(&l, &rows, discard("wC"), "rank=4 outs=3 is_worst=1");
    // rR: partners rR (3 unseen) and rH (4, with rC kept); for others rR pairs (3) or makes a
    // chow with rC and rH (3 × 4). Without it, rC only improves by its pair.
    check(
        &l,
        &rows,
        discard("rR"),
        "rank=3 outs=7 outs_over_min=4 is_worst=0 feed_combos=15 improve_outs=12",
    );
    check(&l, &rows, discard("rC"), "rank=4 outs=7 is_worst=0");
    // the engine judges the same card worst
    let worst = worst_set(s.private(0), s.visible());
    for (a, row) in l.iter().zip(&rows) {
        let Action::Discard(card) = *a else { panic!() };
        assert_eq!(row[slot("is_worst")] == 1, worst >> card.index() & 1 == 1);
    }
}

#[test]
fn turn_option_on_a_discard_melds_and_draw() {
    let mut s = worked_deal();
    act(&mut s, discard("wC"));
    assert_eq!(s.phase(), Phase::TurnOption(1));
    let (l, rows) = rows_of(&s);
    let pair = meld(SetKind::Pair, "wC");
    let chow = meld(SetKind::RookCannonHorse, "wR wH");
    assert_eq!(l, [pair, chow, Action::Draw]);
    for &a in &l {
        check(
            &l,
            &rows,
            a,
            "active_source=1 draws_left=24 trash_now=3 opp_khaps=2 opp_min_hand=20 \
             opp_max_discards=1 is_discard=0 rank=0 outs=0 is_worst=0 unseen_same=0 \
             khui_chance=0",
        );
    }
    // the pair leaves wR wC wH whole; the chow leaves the pair wC wC. Either way the discard
    // that follows is rC (11 ways for others: 3 unseen rC + rR × rH = 4 × 2) or yP (67), and
    // then one of 3 unseen cards (yP or rC) wins.
    check(
        &l,
        &rows,
        pair,
        "is_meld=1 meld_kind=2 meld_cards=1 meld_value=0 trash_after=2 trash_drop=1 \
         cards_after=19 value_after=5 pairs_after=3 followup_combos=11 win_outs=3 \
         improve_outs=3 feed_combos=0",
    );
    check(
        &l,
        &rows,
        chow,
        "is_meld=1 meld_kind=6 meld_cards=2 meld_value=1 trash_after=2 trash_drop=1 \
         cards_after=18 value_after=5 pairs_after=4 followup_combos=11 win_outs=3 \
         improve_outs=3",
    );
    // drawing keeps trash 3: the last unseen wC (as a pair), rC (3) or yP (3) would lower it
    check(
        &l,
        &rows,
        Action::Draw,
        "is_decline=1 is_meld=0 meld_kind=0 trash_after=3 trash_drop=0 cards_after=20 \
         value_after=5 pairs_after=4 win_outs=0 improve_outs=7 feed_combos=0 \
         followup_combos=0",
    );
}

#[test]
fn own_draw_pass_and_a_later_discard() {
    let mut s = worked_deal();
    act(&mut s, discard("wC"));
    act(&mut s, Action::Draw);
    // seat 1 drew yA: it can neither pair it nor chow it without raising trash
    assert_eq!(s.phase(), Phase::TurnOption(1));
    let (l, rows) = rows_of(&s);
    assert_eq!(l, [Action::PassDrawn]);
    // passing yA gives the next seat its 2 unseen copies, or yK × yE (3 × 3)
    check(
        &l,
        &rows,
        Action::PassDrawn,
        "is_decline=1 active_source=2 draws_left=23 trash_now=3 feed_combos=11 \
         trash_after=3 improve_outs=7 win_outs=0",
    );

    act(&mut s, Action::PassDrawn);
    assert_eq!(s.phase(), Phase::TurnOption(2));
    let (l, rows) = rows_of(&s);
    let pair = meld(SetKind::Pair, "yA");
    assert_eq!(l, [pair, Action::Draw]);
    check(
        &l,
        &rows,
        pair,
        "active_source=3 trash_now=13 trash_after=12 trash_drop=1 meld_kind=2 meld_value=0 \
         value_after=5 opp_khaps=1",
    );

    // seat 2 declines (yA to the dead pile), draws rC and makes the chow rR rC rH
    act(&mut s, Action::Draw);
    act(&mut s, meld(SetKind::RookCannonHorse, "rR rH"));
    assert_eq!(s.phase(), Phase::MustDiscard(2));
    let (l, rows) = rows_of(&s);
    // yA: one copy dead, one in seat 2's hand, 2 unseen; partners yA (2) and yK (4, with yE)
    check(
        &l,
        &rows,
        discard("yA"),
        "is_discard=1 active_source=0 draws_left=22 trash_now=11 opp_khaps=1 \
         opp_min_hand=20 opp_max_discards=1 rank=1 outs=6 unseen_same=2 dead_same=1 \
         khui_chance=0 trash_after=10 cards_after=17 value_after=6",
    );
}

#[test]
fn a_quan_doubles_and_a_waiting_hand_counts_its_winning_cards() {
    // 2 players; seat 0 is dealt the Quan gH and holds one trash card, wA
    let hands = [
        "gH gH gH gH rK rA rE yK yA yE rR rC rH yR yC yH rP yP gP wP wA",
        "rK yK gK wK rA gA wA rE gE wE rR gR wR rC gC wC yH wH rH rH",
    ];
    let s = deal(&hands, 0, "");
    let (l, rows) = rows_of(&s);
    assert_eq!(l, [discard("wA")]);
    // after wA the block is waiting (trash 0): any King (lone) or pawn (pair beside Pawns3)
    // wins; unseen rK, yK 3, gK, wK 4, each pawn 3
    check(
        &l,
        &rows,
        discard("wA"),
        "doubled=1 draws_left=64 trash_now=1 opp_min_hand=20 opp_khaps=0 outs=3 is_worst=1 \
         feed_combos=19 khui_chance=0 trash_after=0 cards_after=16 value_after=14 win_outs=26 \
         improve_outs=0",
    );
}

// ------------------------------------------------------------------------------------------------
// Properties over random games
// ------------------------------------------------------------------------------------------------

/// Win and improve outs of a block by their definitions: unseen copies of the types `x` for
/// which `CanWin`, and for which some legal meld lowers trash (§4.4).
fn block_outs_by_definition(h: Hand, unseen: &[u8; CARD_TYPES]) -> (i16, i16) {
    let (mut win, mut improve) = (0, 0);
    let t = trash(h);
    for x in Card::all() {
        let u = i16::from(unseen[x.index()]);
        if u == 0 {
            continue;
        }
        if can_win(h, x) {
            win += u;
        }
        let mut melds = Melds::new();
        legal_melds(h, x, &mut melds);
        if melds.iter().any(|m| trash(h.without_all(m.used())) < t) {
            improve += u;
        }
    }
    (win, improve)
}

/// Plays random games for 2–4 players and calls `visit` at every decision with the state, the
/// seat to move, its legal actions and their feature rows.
fn random_decisions(
    games: u64,
    mut visit: impl FnMut(&OnePackState, Seat, &[Action], &[FeatureRow], &mut GameRng),
) {
    let mut actions = Actions::default();
    let mut rows = [[0i16; MAX_FEATURES]; 21];
    for g in 0..games {
        let game = OnePack::classic(2 + (g % 3) as u8).unwrap();
        let mut rng = stream_rng(0xFEA7, g, 0);
        let mut s = game.deal(&mut rng);
        while let Some(seat) = s.to_move() {
            s.legal_actions(&mut actions);
            let l = actions.as_slice();
            let rows = &mut rows[..l.len()];
            TuSac::features(&TuSacView::OnePack(s.view(seat)), l, rows);
            visit(&s, seat, l, rows, &mut rng);
            s.apply(l[uniform_index(l.len(), &mut rng)]);
        }
    }
}

#[test]
fn features_read_the_view_only() {
    let (mut decisions, mut resampled) = (0, 0);
    let mut seen_kinds = [0usize; 3];
    random_decisions(300, |s, seat, l, rows, rng| {
        let view = s.view(seat);
        let d = view.determinize(rng);
        let mut dl = Actions::default();
        d.legal_actions(&mut dl);
        assert_eq!(dl.as_slice(), l, "the same decision");
        let mut drows = vec![[0i16; MAX_FEATURES]; l.len()];
        TuSac::features(&TuSacView::OnePack(d.view(seat)), l, &mut drows);
        assert_eq!(drows, rows, "features differ on a determinization");
        decisions += 1;
        // what the seat cannot see did change (the check is not vacuous)
        resampled += usize::from((0..s.players() as Seat).any(|x| d.private(x) != s.private(x)));
        for row in rows {
            for (k, name) in ["is_discard", "is_meld", "is_decline"].iter().enumerate() {
                seen_kinds[k] += usize::from(row[slot(name)] == 1);
            }
        }
    });
    assert!(decisions > 10_000, "{decisions} decisions");
    assert!(
        resampled * 10 > decisions * 9,
        "{resampled} of {decisions} resampled"
    );
    assert!(seen_kinds.iter().all(|&k| k > 1000), "{seen_kinds:?}");
}

#[test]
fn features_agree_with_the_engine_and_the_definitions() {
    let mut discards = 0;
    let mut winning_outs = 0;
    random_decisions(200, |s, seat, l, rows, _| {
        let view = s.view(seat);
        let unseen = view.unseen();
        let hand = s.private(seat);
        for (a, row) in l.iter().zip(rows) {
            let f = |name: &str| row[slot(name)];
            assert_eq!(f("is_discard") + f("is_meld") + f("is_decline"), 1);
            assert!(row[TuSac::FEATURES.len()..].iter().all(|&v| v == 0));
            match *a {
                Action::Discard(card) => {
                    discards += 1;
                    // the engine's worst-card judgement (the flag of the Discard event)
                    let mut next = *s;
                    next.apply(*a);
                    let worst = next.last_events().iter().find_map(|e| match *e {
                        Event::Discard { worst, .. } => worst,
                        _ => None,
                    });
                    assert_eq!(worst, Some(f("is_worst") == 1), "{a}");
                    assert_eq!(f("outs_over_min") == 0, f("is_worst") == 1);
                    let after = hand.without(card);
                    let (w, i) = block_outs_by_definition(after, &unseen);
                    assert_eq!((f("win_outs"), f("improve_outs")), (w, i), "{hand} {a}");
                    winning_outs += usize::from(w > 0);
                    assert_eq!(f("trash_drop"), 1);
                    assert_eq!(f("meld_kind"), 0);
                    let quad = s.public_sets(seat).iter().any(|x| x.kind == SetKind::Quad);
                    assert_eq!(f("doubled"), i16::from(quad));
                }
                Action::Meld(m) => {
                    assert_eq!(f("meld_cards") as usize, m.used().len());
                    assert_eq!(
                        f("trash_after"),
                        i16::from(trash(hand.without_all(m.used())))
                    );
                    assert!(f("trash_drop") >= 0);
                    assert_eq!(f("outs"), 0);
                    // the best block over the discards that must follow the meld (C7)
                    let after = hand.without_all(m.used());
                    let best = cards_of(legal_discards(after))
                        .map(|d| block_outs_by_definition(after.without(d), &unseen))
                        .fold((0, 0), |(w, i), (dw, di)| (w.max(dw), i.max(di)));
                    assert_eq!((f("win_outs"), f("improve_outs")), best, "{hand} {a}");
                }
                Action::Draw | Action::PassDrawn | Action::Pass | Action::Upgrade => {
                    let (w, i) = block_outs_by_definition(hand, &unseen);
                    assert_eq!((f("win_outs"), f("improve_outs")), (w, i), "{hand} {a}");
                    assert_eq!(f("trash_drop"), 0);
                    assert_eq!(f("meld_value"), 0);
                }
            }
        }
    });
    assert!(
        discards > 10_000 && winning_outs > 100,
        "{discards} {winning_outs}"
    );
}

/// Cost per decision on the positions of greedy games, timed in play (the state is in cache, as
/// for an agent): `cargo test --release --test tusac tusac_features:: -- --ignored --nocapture`.
#[test]
#[ignore]
fn time_features_per_decision() {
    let mut agents: Vec<_> = (0..4)
        .map(|_| make_agent::<TuSac>("greedy").unwrap())
        .collect();
    let game = OnePack::classic(4).unwrap();
    let mut actions = Actions::default();
    let mut rows = [[0i16; MAX_FEATURES]; 21];
    let mut by_kind = [(0u128, 0u32); 2];
    for g in 0..3000 {
        let mut rng = stream_rng(0x7153, g, 0);
        let mut s = game.deal(&mut rng);
        while let Some(seat) = s.to_move() {
            s.legal_actions(&mut actions);
            let l = actions.as_slice();
            let t0 = std::time::Instant::now();
            TuSac::features(&TuSacView::OnePack(s.view(seat)), l, &mut rows[..l.len()]);
            std::hint::black_box(&rows);
            let k = usize::from(matches!(s.phase(), Phase::TurnOption(_)));
            by_kind[k].0 += t0.elapsed().as_nanos();
            by_kind[k].1 += 1;
            let k = agents[seat as usize].act(&TuSacView::OnePack(s.view(seat)), l, &mut rng);
            s.apply(l[k]);
        }
    }
    let ns = |(t, n): (u128, u32)| t as f64 / f64::from(n);
    let all = (by_kind[0].0 + by_kind[1].0, by_kind[0].1 + by_kind[1].1);
    println!(
        "{} decisions: {:.0} ns per decision (discards {:.0} ns, turn options {:.0} ns; \
         timer included)",
        all.1,
        ns(all),
        ns(by_kind[0]),
        ns(by_kind[1]),
    );
}
