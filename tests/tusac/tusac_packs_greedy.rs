//! `greedy` for the multi-pack variants (sisepai21, dirtyking26), `packs::greedy`: one
//! hand-built decision per branch of its rule, greedy beating random on paired deals, zero heap
//! allocations per decision, and greedy ×4 games that end with cards conserved and zero-sum
//! payouts at 2–8 players. `measure_greedy` (ignored) prints the figures of the report.

use bailab::agent::greedy::TieBreak;
use bailab::agent::Agent;
use bailab::game::GameId;
use bailab::game::{Game, GameState, Outcome, Seat};
use bailab::games::tusac::actions::{Action, Phase};
use bailab::games::tusac::card::{Card, Rank};
use bailab::games::tusac::meld::{Meld, Melds};
use bailab::games::tusac::options::{KingIdenticalSets, Options};
use bailab::games::tusac::packs::greedy::{
    prospects, prospects_by_default, unseen, PacksGreedy, Prospects, UnseenCards,
};
use bailab::games::tusac::packs::loose::{best, win_score, Counts};
use bailab::games::tusac::packs::melds::{meld_points, meld_shapes};
use bailab::games::tusac::packs::PacksView;
use bailab::games::tusac::packs::{MultiPack, PacksState};
use bailab::games::tusac::sets::SetRules;
use bailab::games::tusac::SetKind;
use bailab::generic_agents::RandomAgent;
use bailab::rng::stream_rng;
use bailab::sim::play_game;

use crate::counting_alloc;
use counting_alloc::allocations;

use crate::packs_position;
use packs_position::{act, card, cards, legal, meld, position};

const S21: fn(u8) -> Options = Options::sisepai21;
const D26: fn(u8) -> Options = Options::dirtyking26;
const GREEDY: PacksGreedy = PacksGreedy {
    tiebreak: TieBreak::Canonical,
    prospects: true,
};

/// Greedy as `greedy` plays under `options`: the rule, with its prospects step by the variant
/// ([`prospects_by_default`]).
fn default_greedy(options: &Options) -> PacksGreedy {
    PacksGreedy {
        prospects: prospects_by_default(options),
        ..GREEDY
    }
}

/// Greedy's action for the seat to move.
fn greedy(s: &PacksState) -> Action {
    let seat = s.to_move().expect("a seat to move");
    let list = legal(s);
    let mut rng = stream_rng(1, 2, 3);
    list[GREEDY.choose(&s.view(seat), &list, &mut rng)]
}

fn discard(c: &str) -> Action {
    Action::Discard(card(c))
}

/// The prospects greedy sees for seat `seat` keeping its hand less `gone`.
fn prospects_without(s: &PacksState, seat: Seat, gone: &str) -> Prospects {
    let view = s.view(seat);
    let mut left = *view.hand();
    for c in cards(gone) {
        left[c.index()] -= 1;
    }
    let rules = SetRules::new(s.options(), s.double_rank());
    let from_left = prospects(
        &view,
        &left,
        &UnseenCards::new(&left, &unseen(&view), &rules),
    );
    // greedy prepares the unseen cards once, for the whole hand: the same prospects
    let from_hand = UnseenCards::new(view.hand(), &unseen(&view), &rules);
    assert_eq!(prospects(&view, &left, &from_hand), from_left);
    from_left
}

/// A sisepai21 seat 1 of nine cards without sets with the hands below.
const FILL9: &str = "yR yC yH wA wE wR wC gR gC";

// ---------------------------------------------------------------- discards

#[test]
fn discard_keeps_the_fewest_loose_cards() {
    // [gA gA gA] and [rR rC rH] are sets, yA is loose: only the yA discard keeps 0 loose
    let s = position(S21(2), &["gA gA gA rR rC rH yA", "yR yC yH wA wE wC"], "gP");
    assert_eq!(s.phase(), Phase::MustDiscard(0));
    assert_eq!(greedy(&s), discard("yA"));
}

#[test]
fn discard_then_keeps_the_most_points() {
    // rA and rE both leave a complete hand: [rK rA rE] (2) or [rK] [rA rA] (1 + 0)
    let s = position(S21(2), &["rK rA rE rA", "yR yC yH"], "gP");
    assert_eq!(legal(&s), vec![discard("rA"), discard("rE")]);
    assert_eq!(greedy(&s), discard("rA"));
}

#[test]
fn discard_breaks_a_set_when_the_complete_hand_fails_the_win_test_s6() {
    // complete but worth 3 + 1 = 4, not more than 9 (§4.7): a set must be broken. Taking one gA
    // out of the Triple leaves the Pair [gA gA]: still complete; a chow card would leave 2 loose.
    let s = position(S21(2), &["gA gA gA rR rC rH", "yR yC yH wA wE"], "gP");
    assert_eq!(s.phase(), Phase::MustDiscard(0));
    assert_eq!(greedy(&s), discard("gA"));
}

#[test]
fn discard_ties_go_to_the_most_improve_outs() {
    // five loose cards: every discard leaves 4 loose, 0 points. Keeping rR rC (rH completes the
    // chow) and gP yP (rP or wP make Pawns3) is best: wA goes. The pair gate is closed (0 ≤ 9),
    // so no Pair counts. Two packs: 8 copies of each type, none seen.
    let s = position(S21(2), &["rR rC gP yP wA", "yR yC yH wE"], "gK");
    let out = |c: &str| prospects_without(&s, 0, c);
    assert_eq!(
        out("wA"),
        Prospects {
            win_outs: 0,
            improve_outs: 24
        },
        "rH, rP, wP"
    );
    assert_eq!(out("rR").improve_outs, 16, "rP, wP");
    assert_eq!(out("gP").improve_outs, 8, "rH");
    assert_eq!(greedy(&s), discard("wA"));
}

#[test]
fn discard_ties_go_to_the_most_win_outs_first() {
    // gH×4 face down (8) and rK (1): 9. Keeping rR rC, rH wins (chow 1: 10 > 9, §4.7) and
    // lowers the loose count; keeping gA and rC (or rR), nothing wins.
    let s = position(S21(2), &["gH gH gH gH rK rR rC gA yA yA", FILL9], "gP");
    assert_eq!(s.face_down_len(0), 4);
    assert_eq!(s.phase(), Phase::MustDiscard(0));
    assert_eq!(
        prospects_without(&s, 0, "gA"),
        Prospects {
            win_outs: 8,
            improve_outs: 8
        }
    );
    assert_eq!(prospects_without(&s, 0, "rR"), Prospects::default());
    assert_eq!(greedy(&s), discard("gA"));
}

#[test]
fn dirtyking26_win_outs_need_an_even_total_over_20() {
    // gH×4 and wR×4 face down (16), [rK yK gK wK] in hand (10). Keeping yP gP, rP or wP makes a
    // melded Pawns3: 1 point, 27 (or 21 with four lone Kings) — odd, no win (§4.7) — unless the
    // double rank is the pawn, which doubles it to 2: 28.
    let hands = [
        "gH gH gH gH wR wR wR wR rK yK gK wK yP gP rC",
        "yA yE yC yH wA wE wC wH rA rE rH gA gE gC",
    ];
    let s = position(D26(2), &hands, "gR gE");
    assert_eq!(s.double_rank(), Some(Rank::Elephant));
    assert_eq!(s.fixed_points(0), 16);
    let odd = prospects_without(&s, 0, "rC");
    assert_eq!(odd.win_outs, 0, "every completion is odd");
    assert_eq!(greedy(&s), discard("rC"), "still the most improve outs");
    let s = position(D26(2), &hands, "gR yP");
    assert_eq!(s.double_rank(), Some(Rank::Pawn));
    assert_eq!(
        prospects_without(&s, 0, "rC").win_outs,
        16,
        "rP and wP: 16 + 10 + 2 = 28"
    );
    assert_eq!(prospects_without(&s, 0, "yP").win_outs, 0);
    assert_eq!(greedy(&s), discard("rC"));
}

// ---------------------------------------------------------------- melds, claims, declarations

/// Four seats; seat 0 discards `rC` (T = 1), stock `wP wP wP`.
fn s2_game(h1: &str, h2: &str, h3: &str) -> PacksState {
    let mut s = position(S21(4), &["yA yE yR yC gP rC", h1, h2, h3], "wP wP wP");
    act(&mut s, 0, discard("rC"));
    s
}

#[test]
fn turn_option_takes_a_meld_that_lowers_the_loose_count() {
    let s = s2_game("rR rH gA gE wH", "yC yC yA gE wR", "gR gC wH wA wE");
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(
        legal(&s),
        vec![meld(SetKind::RookCannonHorse, "rR rH"), Action::Draw]
    );
    assert_eq!(greedy(&s), meld(SetKind::RookCannonHorse, "rR rH"));
}

#[test]
fn turn_option_declines_a_meld_that_leaves_the_hand_worse() {
    // T holds [rR rC rH] (1) and gA, wH loose: melding rC with rR rH leaves its own rC loose
    // too (3 loose, not 2) for the same points, so greedy draws instead
    let s = s2_game("rR rC rH gA wH", "yC yC yA gE wR", "gR gC wH wA wE");
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(
        legal(&s),
        vec![meld(SetKind::RookCannonHorse, "rR rH"), Action::Draw]
    );
    assert_eq!(greedy(&s), Action::Draw);
}

#[test]
fn claim_takes_a_triple_from_a_pair_and_passes_when_it_breaks_a_chow() {
    // seat 2 holds the Pair [rC rC] (0 points): the melded Triple (1) loses nothing
    let mut s = s2_game("gA gE wH yP wR", "rC rC yA gE wR", "gR gC wH wA wE");
    act(&mut s, 1, Action::Draw);
    assert_eq!(s.phase(), Phase::Claim(2));
    assert_eq!(greedy(&s), meld(SetKind::Triple, "rC rC"));
    // seat 2 holds [rR rC rH] and one rC: the Triple would leave rR rH wR loose (3 loose, not 2)
    let mut s = s2_game("gA gE wH yP wR", "rC rC rR rH wR", "gR gC wH wA wE");
    act(&mut s, 1, Action::Draw);
    assert_eq!(s.phase(), Phase::Claim(2));
    assert_eq!(
        legal(&s),
        vec![meld(SetKind::Triple, "rC rC"), Action::Pass]
    );
    assert_eq!(greedy(&s), Action::Pass);
}

#[test]
fn claim_prefers_the_meld_leaving_the_best_key() {
    // seat 2 holds [rC rC rC] (dealt Triple, 3): the Triple claim leaves one rC loose, the Quad
    // (melded 6) leaves the hand as complete and 3 points richer
    let mut s = s2_game("gA gE wH yP wR", "rC rC rC yA wR", "gR gC wH wA wE");
    act(&mut s, 1, Action::Draw);
    assert_eq!(
        legal(&s),
        vec![
            meld(SetKind::Triple, "rC rC"),
            meld(SetKind::Quad, "rC rC rC"),
            Action::Pass
        ]
    );
    assert_eq!(greedy(&s), meld(SetKind::Quad, "rC rC rC"));
}

#[test]
fn own_draw_option_melds_or_passes_the_drawn_card_s4() {
    // seat 1 draws wP holding [yP gP]: Pawns3 lowers the loose count
    let mut s = s2_game("yP gP gA gE wH", "yC yC yA gE wR", "gR gC wH wA wE");
    act(&mut s, 1, Action::Draw);
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(s.active().unwrap().card, card("wP"));
    assert_eq!(greedy(&s), meld(SetKind::Pawns3, "yP gP"));
    // holding [yP gP rP] (Pawns3, 1): Pawns4 (4) with all three beats a Pawns3 leaving one loose
    let mut s = s2_game("yP gP rP gE wH", "yC yC yA gE wR", "gR gC wH wA wE");
    act(&mut s, 1, Action::Draw);
    assert_eq!(greedy(&s), meld(SetKind::Pawns4, "rP yP gP"));
    // no meld helps: PassDrawn (the engine then discards the drawn card, S4)
    let mut s = s2_game("rR rH gA gE wH", "yC yC yA gE wR", "gR gC wH wA wE");
    act(&mut s, 1, Action::Draw);
    assert_eq!(legal(&s), vec![Action::PassDrawn]);
    assert_eq!(greedy(&s), Action::PassDrawn);
}

#[test]
fn dirtyking26_king_quad_is_taken_s1() {
    // seat 2 holds three rK (three lone Kings, 3): the King Quad is worth 12
    let hands = [
        "yA yE yR yC gP wP rH",
        "rA rE gR gC wH rP",
        "rK rK rK gC wC yP",
    ];
    let mut s = position(D26(3), &hands, "rK gP wR");
    act(&mut s, 0, discard("rH"));
    act(&mut s, 1, Action::Draw);
    assert_eq!(s.phase(), Phase::Claim(2));
    assert_eq!(greedy(&s), meld(SetKind::Quad, "rK rK rK"));
}

#[test]
fn a_winning_meld_is_never_left_to_greedy() {
    // the engine makes every winning meld itself (S1.1, S2.1): over greedy ×4 games no offered
    // meld passes the win test, so greedy's "a win first" never decides
    let mut offered = 0;
    greedy_positions(5, 30, |s, seat| {
        let (Some(a), rules) = (s.active(), SetRules::new(s.options(), s.double_rank())) else {
            return;
        };
        for action in legal(s) {
            if let Action::Meld(m) = action {
                let mut left = *s.hand(seat);
                m.used().iter().for_each(|c| left[c.index()] -= 1);
                let fixed = s.fixed_points(seat) + meld_points(m, a.card, &rules);
                let win = win_score(&left, fixed, &rules, s.options().win_test);
                assert_eq!(win, None, "{action} wins but was offered");
                offered += 1;
            }
        }
    });
    assert!(offered > 100, "{offered} melds offered");
}

/// Calls `f` with every position of greedy ×4 games (4 players) of sisepai21 and dirtyking26 on
/// deals `0..deals` of seed `seed`, and the seat to move.
fn greedy_positions(seed: u64, deals: u64, mut f: impl FnMut(&PacksState, Seat)) {
    for variant in [S21, D26] {
        let game = MultiPack::new(variant(4)).unwrap();
        for deal in 0..deals {
            let mut s = game.deal(&mut stream_rng(seed, deal, 0));
            while let Some(seat) = s.to_move() {
                f(&s, seat);
                s.apply(greedy(&s));
            }
        }
    }
}

// ---------------------------------------------------------------- play

/// The seat-0 payout of one game of greedy (`greedy_first`, as `greedy` plays by default) or
/// random against three `random`s on deal `deal`.
fn payout_vs_random(game: &MultiPack, deal: u64, greedy_first: bool) -> i64 {
    let mut agents: Vec<Box<dyn Agent<PacksState>>> = vec![Box::new(RandomAgent)];
    if greedy_first {
        agents.push(Box::new(default_greedy(game.options())));
    } else {
        agents.push(Box::new(RandomAgent));
    }
    let id = GameId {
        master: 14,
        deal,
        rotation: 0,
    };
    play_game(game, id, &mut agents, &[1, 0, 0, 0], |_| {}).payouts()[0]
}

/// Mean and half-width of the 95% interval of greedy's seat-0 payout minus random's on the
/// same deals.
fn paired(variant: fn(u8) -> Options, deals: u64) -> (f64, f64) {
    let game = MultiPack::new(variant(4)).unwrap();
    let diffs: Vec<f64> = (0..deals)
        .map(|d| (payout_vs_random(&game, d, true) - payout_vs_random(&game, d, false)) as f64)
        .collect();
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let var = diffs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

#[test]
fn greedy_beats_random_on_paired_deals() {
    for (name, variant) in [("sisepai21", S21), ("dirtyking26", D26)] {
        let (mean, half) = paired(variant, 2000);
        assert!(
            mean - half > 0.0,
            "{name}: greedy − random = {mean:.2} ± {half:.2}"
        );
    }
}

/// Greedy ×4 (every seat greedy) on deal `deal`, checking every step.
fn greedy_game(game: &MultiPack, deal: u64) -> Outcome {
    let mut agents: Vec<Box<dyn Agent<PacksState>>> = vec![Box::new(GREEDY)];
    let id = GameId {
        master: 21,
        deal,
        rotation: 0,
    };
    let mut steps = 0;
    let o = play_game(game, id, &mut agents, &[0; 8], |(s, _)| {
        steps += 1;
        assert!(steps < 5000, "deal {deal} ends");
        assert_eq!(s.total_cards(), s.deck().len(), "cards conserved");
    });
    assert_eq!(o.payouts().iter().sum::<i64>(), 0, "zero-sum");
    assert_eq!(o.winner.is_some(), o.reason != "stock_floor");
    o
}

#[test]
fn greedy_games_end_conserve_cards_and_pay_zero_sum_at_2_to_8_players() {
    for variant in [S21, D26] {
        for players in [2u8, 3, 4, 6, 8] {
            let game = MultiPack::new(variant(players)).unwrap();
            let won = (0..25)
                .filter(|&d| greedy_game(&game, d).winner.is_some())
                .count();
            assert!(won > 0, "{players} players: some greedy game is won");
        }
    }
}

static CHOOSE_ALLOCATIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Greedy counting the heap allocations made inside `choose`.
struct Counted;

impl Agent<PacksState> for Counted {
    fn act(
        &mut self,
        view: &<PacksState as GameState>::View<'_>,
        legal: &[Action],
        rng: &mut bailab::rng::GameRng,
    ) -> usize {
        let before = allocations();
        let i = GREEDY.choose(view, legal, rng);
        let made = allocations() - before;
        CHOOSE_ALLOCATIONS.fetch_add(made, std::sync::atomic::Ordering::Relaxed);
        i
    }
}

#[test]
fn greedy_decisions_do_not_allocate() {
    use std::sync::atomic::Ordering::Relaxed;
    let before = allocations();
    drop(std::hint::black_box(vec![1u8; 10]));
    assert_eq!(allocations() - before, 1, "the counter works");
    for variant in [S21, D26] {
        for players in [4u8, 8] {
            let game = MultiPack::new(variant(players)).unwrap();
            let mut agents: Vec<Box<dyn Agent<PacksState>>> = vec![Box::new(Counted)];
            let seats = [0usize; 8];
            // a warm-up game builds the solver's tables and per-thread caches
            let warm = GameId {
                master: 0,
                deal: 0,
                rotation: 0,
            };
            play_game(&game, warm, &mut agents, &seats, |_| {});
            CHOOSE_ALLOCATIONS.store(0, Relaxed);
            let (mut decisions, before) = (0u64, allocations());
            for deal in 1..=20 {
                let id = GameId {
                    master: 31,
                    deal,
                    rotation: 0,
                };
                play_game(&game, id, &mut agents, &seats, |(_, d)| {
                    decisions += u64::from(d.is_some())
                });
            }
            assert!(decisions > 200, "{decisions} decisions");
            assert_eq!(CHOOSE_ALLOCATIONS.load(Relaxed), 0, "in choose");
            assert_eq!(allocations() - before, 0, "in whole games");
        }
    }
}

/// The figures of the report: greedy ×4 games/s on one thread at 4 players, the share of
/// drawn greedy ×4 games over 10,000 deals, and greedy − random on 2,000 paired deals.
/// `cargo test --release --test tusac tusac_packs_greedy:: -- --ignored --nocapture`
#[test]
#[ignore]
fn measure_greedy() {
    for (name, variant) in [("sisepai21", S21), ("dirtyking26", D26)] {
        let game = MultiPack::new(variant(4)).unwrap();
        let greedy = default_greedy(game.options());
        let mut agents: Vec<Box<dyn Agent<PacksState>>> = vec![Box::new(greedy)];
        let deals = 10_000u64;
        let start = std::time::Instant::now();
        let (mut drawn, mut turns) = (0u64, 0u64);
        for deal in 0..deals {
            let id = GameId {
                master: 77,
                deal,
                rotation: 0,
            };
            let o = play_game(&game, id, &mut agents, &[0; 4], |_| {});
            drawn += u64::from(o.winner.is_none());
            turns += u64::from(o.turns);
        }
        let secs = start.elapsed().as_secs_f64();
        let share = drawn as f64 / deals as f64;
        println!(
            "{name}: greedy ×4, 4 players: {:.0} games/s (1 thread), {:.1} discards a game, \
             drawn {drawn}/{deals} = {:.2}%",
            deals as f64 / secs,
            turns as f64 / deals as f64,
            100.0 * share
        );
        let (mean, half) = paired(variant, 2000);
        println!("{name}: greedy − random, 2000 paired deals: {mean:.2} ± {half:.2}");
        let mut agents: Vec<Box<dyn Agent<PacksState>>> = vec![Box::new(RandomAgent)];
        let start = std::time::Instant::now();
        let mut turns = 0u64;
        for deal in 0..deals {
            let id = GameId {
                master: 77,
                deal,
                rotation: 0,
            };
            turns += u64::from(play_game(&game, id, &mut agents, &[0; 4], |_| {}).turns);
        }
        println!(
            "{name}: random ×4, 4 players: {:.0} games/s (1 thread), {:.1} discards a game",
            deals as f64 / start.elapsed().as_secs_f64(),
            turns as f64 / deals as f64
        );
    }
}

// ---------------------------------------------------------------- tuned weights

/// The row slot of a feature by name.
fn slot(name: &str) -> usize {
    use bailab::games::tusac::features::FEATURES;
    FEATURES.iter().position(|f| f.name == name).expect(name)
}

/// Tuned weights in the multi-pack variants score each action over the multi-pack features
/// (`TuSacGreedy::scored_multi_pack`): `feed` alone picks a discard feeding the fewest combos;
/// a rewarded decline (`decline=-20`) refuses every meld; with `trash=1` every meld beats the
/// default decline cost and the one leaving the fewest loose cards is taken.
#[test]
fn tuned_weights_score_multi_pack_actions_by_their_features() {
    use bailab::agent::features::{FeatureRow, MAX_FEATURES};
    use bailab::games::tusac::packs::features::features;
    use bailab::games::tusac::{TuSac, TuSacView};
    use bailab::generic_agents::catalogue::make_agent;
    let mut feed = make_agent::<TuSac>("greedy:outs=0,feed=1").unwrap();
    let mut refuse = make_agent::<TuSac>("greedy:decline=-20").unwrap();
    let mut tidy = make_agent::<TuSac>("greedy:trash=1").unwrap();
    let (feed_at, trash_at, decline_at) =
        (slot("feed_combos"), slot("trash_after"), slot("is_decline"));
    let mut actions = <PacksState as GameState>::Actions::default();
    let (mut discards, mut melds) = (0, 0);
    for variant in [S21, D26] {
        let game = MultiPack::new(variant(4)).unwrap();
        for deal in 0..30u64 {
            let mut s = game.deal(&mut stream_rng(0x5C0, deal, 0));
            let mut rng = stream_rng(0x5C0, deal, 1);
            while let Some(x) = s.to_move() {
                s.legal_actions(&mut actions);
                let l = actions.as_slice();
                let mut rows: Vec<FeatureRow> = vec![[0; MAX_FEATURES]; l.len()];
                features(&s.view(x), l, &mut rows);
                let view = TuSacView::MultiPack(s.view(x));
                let col = |f: usize| rows.iter().map(move |r| r[f]);
                if matches!(s.phase(), Phase::MustDiscard(_)) && l.len() > 1 {
                    let k = feed.act(&view, l, &mut rng);
                    assert_eq!(rows[k][feed_at], col(feed_at).min().unwrap(), "{l:?}");
                    discards += 1;
                } else if l.iter().any(|a| matches!(a, Action::Meld(_))) {
                    let k = refuse.act(&view, l, &mut rng);
                    assert!(rows[k][decline_at] > 0, "declines: {:?} among {l:?}", l[k]);
                    let k = tidy.act(&view, l, &mut rng);
                    assert!(matches!(l[k], Action::Meld(_)), "melds: {:?}", l[k]);
                    let fewest = l
                        .iter()
                        .zip(&rows)
                        .filter(|(a, _)| matches!(a, Action::Meld(_)))
                        .map(|(_, r)| r[trash_at])
                        .min();
                    assert_eq!(Some(rows[k][trash_at]), fewest, "{l:?}");
                    melds += 1;
                }
                let k = GREEDY.choose(&s.view(x), l, &mut rng);
                s.apply(l[k]);
            }
        }
    }
    assert!(
        discards > 500 && melds > 50,
        "{discards} discards, {melds} meld choices"
    );
}

/// The prospects of the hand `left` by their definition (`packs::greedy`'s module
/// documentation), with none of greedy's shortcuts: every unseen type, every meld of it open to
/// the turn player, the whole hand solved again.
fn prospects_by_definition(view: &PacksView<'_>, left: &Counts, rules: &SetRules) -> Prospects {
    let (fixed, test) = (view.fixed_points(), view.options().win_test);
    let (loose, points) = best(left, rules);
    // greedy reads the pair gate with the points of the best partition
    let gate = view.options().pair_meld_min_points;
    let pair_open = gate.is_none_or(|min| fixed + points > u32::from(min));
    let after = |m: &Meld| {
        let mut after = *left;
        m.used().iter().for_each(|c| after[c.index()] -= 1);
        after
    };
    let mut p = Prospects::default();
    for (t, &copies) in unseen(view).iter().enumerate().filter(|(_, &n)| n > 0) {
        let u = Card::from_index(t);
        let mut melds = Melds::new();
        if u.is_king() {
            melds.push(Meld::new(SetKind::King, &[]));
            if rules.king_identical == KingIdenticalSets::QuadOnly && left[t] >= 3 {
                melds.push(Meld::new(SetKind::Quad, &[u; 3]));
            }
        } else {
            meld_shapes(left, u, rules.cross_colour, &mut melds);
            melds.retain(|m| pair_open || m.kind != SetKind::Pair);
        }
        let wins = melds.iter().any(|m| {
            let made = fixed + meld_points(*m, u, rules);
            win_score(&after(m), made, rules, test).is_some()
        });
        let improves = !u.is_king() && melds.iter().any(|m| best(&after(m), rules).0 < loose);
        p.win_outs += u16::from(copies) * u16::from(wins);
        p.improve_outs += u16::from(copies) * u16::from(improves);
    }
    p
}

#[test]
fn prospects_from_the_whole_hand_equal_those_from_the_hand_left() {
    // Greedy prepares the unseen cards once per discard decision, for the whole hand, reads
    // each block's outs from per-thread caches keyed by the block's counts, settles a card's
    // improve bit with one solve of the block holding it, and skips the win test where no
    // meld can win. Over greedy ×4 games, every
    // legal discard's prospects must equal those computed afresh from the hand it leaves, and
    // those of the definition.
    let mut compared = 0;
    greedy_positions(6, 12, |s, seat| {
        if !matches!(s.phase(), Phase::MustDiscard(_)) {
            return;
        }
        let view = s.view(seat);
        let rules = SetRules::new(s.options(), s.double_rank());
        let from_hand = UnseenCards::new(view.hand(), &unseen(&view), &rules);
        for action in legal(s) {
            let Action::Discard(c) = action else { continue };
            let mut left = *view.hand();
            left[c.index()] -= 1;
            let fresh = UnseenCards::new(&left, &unseen(&view), &rules);
            let greedy = prospects(&view, &left, &from_hand);
            assert_eq!(greedy, prospects(&view, &left, &fresh), "discarding {c}");
            let defined = prospects_by_definition(&view, &left, &rules);
            assert_eq!(greedy, defined, "discarding {c}");
            compared += 1;
        }
    });
    assert!(compared > 1000, "{compared} discards compared");
}

#[test]
fn prospects_off_sends_the_best_discards_to_the_tie_break() {
    // `greedy:prospects=off`: among the discards leaving the best key (fewest loose cards, then
    // most points), the first in canonical order, where the rule compares their prospects.
    let off = PacksGreedy {
        prospects: false,
        ..GREEDY
    };
    let (mut decisions, mut differ) = (0, 0);
    greedy_positions(8, 6, |s, seat| {
        if !matches!(s.phase(), Phase::MustDiscard(_)) {
            return;
        }
        let view = s.view(seat);
        let rules = SetRules::new(s.options(), s.double_rank());
        let key = |c: Card| {
            let mut left = *view.hand();
            left[c.index()] -= 1;
            let (loose, points) = best(&left, &rules);
            (loose, std::cmp::Reverse(points))
        };
        let list = legal(s);
        let discards = list.iter().filter_map(|a| match a {
            Action::Discard(c) => Some(*c),
            _ => None,
        });
        let Some(top) = discards.clone().map(key).min() else {
            return;
        };
        let first = discards.clone().find(|&c| key(c) == top).unwrap();
        let mut rng = stream_rng(1, 2, 3);
        let chosen = list[off.choose(&view, &list, &mut rng)];
        assert_eq!(chosen, Action::Discard(first));
        decisions += 1;
        differ += usize::from(chosen != greedy(s));
    });
    assert!(decisions > 100, "{decisions} discards");
    assert!(differ > 0, "prospects=off never changed a discard");
}

#[test]
fn the_prospects_parameter_reads_auto_on_or_off() {
    use bailab::agent::spec::AgentSpec;
    use bailab::games::tusac::greedy::TuSacGreedy;
    let read = |text: &str| TuSacGreedy::from_spec(&AgentSpec::parse(text).unwrap());
    assert_eq!(read("greedy").unwrap().prospects, None);
    assert_eq!(read("greedy:prospects=auto").unwrap().prospects, None);
    assert_eq!(read("greedy:prospects=on").unwrap().prospects, Some(true));
    assert_eq!(read("greedy:prospects=off").unwrap().prospects, Some(false));
    let err = read("greedy:prospects=maybe").unwrap_err().to_string();
    assert!(
        err.contains("prospects 'maybe' is not auto or on or off"),
        "{err}"
    );
}

/// The actions of a greedy ×4 game of `variant` with every seat playing `spec`.
fn spec_game(variant: &str, spec: &str, deal: u64) -> Vec<Action> {
    use bailab::games::tusac::TuSac;
    use bailab::generic_agents::catalogue::make_agent;
    let game = TuSac::preset(variant, 4).unwrap();
    let mut agents = vec![make_agent::<TuSac>(spec).unwrap()];
    let id = GameId {
        master: 17,
        deal,
        rotation: 0,
    };
    let mut actions = Vec::new();
    play_game(&game, id, &mut agents, &[0; 4], |(_, step)| {
        actions.extend(step.map(|(_, a)| a))
    });
    actions
}

#[test]
fn greedy_uses_its_prospects_by_default_in_sisepai21_but_not_in_dirtyking26() {
    // the default is `prospects=auto`: the whole game equals `on`'s in sisepai21 and `off`'s
    // in dirtyking26, and over a few deals the other setting plays differently in each
    for (variant, same, other) in [("sisepai21", "on", "off"), ("dirtyking26", "off", "on")] {
        let mut differ = 0;
        for deal in 0..6 {
            let default = spec_game(variant, "greedy", deal);
            let forced = spec_game(variant, &format!("greedy:prospects={same}"), deal);
            assert!(
                default == forced,
                "{variant} deal {deal}: the default is not {same}"
            );
            let other_game = spec_game(variant, &format!("greedy:prospects={other}"), deal);
            differ += usize::from(default != other_game);
        }
        assert!(
            differ > 0,
            "{variant}: prospects={other} played every deal alike"
        );
    }
}
