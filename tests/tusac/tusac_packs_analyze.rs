//! `bailab analyze` in the multi-pack variants (sisepai21, dirtyking26): hand-checked hands
//! (§2.5, §3.3, §3.6, §4.6 S5, §4.7, the S1 and D1 examples of §6.3–6.4), the waits, random
//! hands checked for consistency, the CLI (text, JSON, JSON Lines) and bad input.

use bailab::games::tusac::card::{parse_cards, Card};
use bailab::games::tusac::packs::analyze::{analyze, Analysis};
use bailab::games::tusac::packs::loose::{counts_of, set_points};
use bailab::games::tusac::sets::SetRules;
use bailab::games::tusac::Options;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde_json::Value;
use std::process::Output;

use crate::common;

fn cards(text: &str) -> Vec<Card> {
    let mut v = parse_cards(text, 16).unwrap();
    v.sort();
    v
}

fn wait<'a>(a: &'a Analysis, card: &str) -> Option<&'a bailab::games::tusac::packs::analyze::Wait> {
    let c: Card = card.parse().unwrap();
    a.waits.iter().find(|w| w.card == c)
}

/// §4.6 S5 example of docs/tusac-sisepai-crosscheck.md (item 15), the face-down `gH×4` given in
/// the hand: fewest loose `[yR yC yH] [yR yR] [gH×4] | rC` is 9 points, the best value with
/// loose cards allowed is `[yR yR yR] [gH×4] | yC yH rC`, 11: the pair gate (> 9) is open.
#[test]
fn s5_current_points_are_the_best_value_and_open_the_pair_gate_section_4_6_s5() {
    let a = analyze("sisepai21", "gH gH gH gH yR yR yR yC yH rC", "").unwrap();
    assert_eq!(a.loose, 1);
    assert_eq!(a.loose_cards, cards("rC"));
    assert_eq!(a.points, 9);
    assert_eq!(a.current_points, 11);
    assert_eq!(a.pair_gate_open(), Some(true));
    assert_eq!(a.score, None);
    // rC completes the hand as a Pair (0 points): 9 is not more than 9, so it only improves
    let w = wait(&a, "rC").unwrap();
    assert!(w.improves && w.score.is_none());
    assert_eq!(w.unseen, 7);
    assert_eq!(a.wins().count(), 0);
    // without the quad the gate is closed (3 points), and the Pair meld is not offered
    let b = analyze("sisepai21", "yR yR yR yC yH rC", "").unwrap();
    assert_eq!((b.points, b.current_points), (1, 3));
    assert_eq!(b.pair_gate_open(), Some(false));
    assert!(wait(&b, "rC").is_none(), "the Pair of rC is gated (S5)");
}

/// Example S1 of §6.3: the hand part with the face-down `gH×4` is 8+3+2+1+1 = 15, complete, and
/// wins alone; before the winning meld `[yR yH yC]` the hand held `yR yH` loose and waited on yC.
#[test]
fn s1_hand_wins_and_its_wait_section_6_3() {
    let a = analyze("sisepai21", "gH gH gH gH wR wR wR rK rA rE rP yP gP gK", "").unwrap();
    assert!(a.complete());
    assert_eq!(a.points, 15);
    assert_eq!(a.score, Some(15));
    assert!(a.win_sets.is_none(), "the best partition pays");
    let rules = a.rules();
    let kinds: Vec<&str> = a.sets.iter().map(|s| s.kind.name()).collect();
    for k in ["Quad", "Triple", "KingAdvisorElephant", "Pawns3", "King"] {
        assert!(kinds.contains(&k), "{kinds:?}");
    }
    assert_eq!(
        a.sets.iter().map(|s| set_points(s, &rules)).sum::<u32>(),
        15
    );

    let b = analyze(
        "sisepai21",
        "gH gH gH gH wR wR wR rK rA rE rP yP gP gK yR yH",
        "rC rC rC yK",
    )
    .unwrap();
    assert_eq!(b.loose, 2);
    assert_eq!(b.loose_cards, cards("yR yH"));
    let yc = wait(&b, "yC").unwrap();
    // the meld [yR yH yC] is worth 1: 15 + 1 = 16 here (the game's 18 adds [rC rC rC] and [yK])
    assert_eq!(
        (yc.score, yc.meld.name(), yc.unseen),
        (Some(16), "RookCannonHorse", 8)
    );
    assert_eq!(
        wait(&b, "rC").map(|w| w.unseen),
        None,
        "rC makes no set here"
    );
    assert!(
        wait(&b, "yR").unwrap().improves,
        "a Pair of yR leaves one loose card"
    );
    assert_eq!(wait(&b, "yR").unwrap().score, None);
}

/// §4.7 sisepai21: a complete hand worth 9 does not win (more than 9 is needed; a set must be
/// broken, S6); one more lone King makes 10, which wins.
#[test]
fn complete_hand_at_nine_points_fails_the_win_test_section_4_7() {
    let b = analyze("sisepai21", "wR wR wR rK rA rE rP yP gP gK yK wK", "").unwrap();
    assert!(b.complete());
    assert_eq!(b.points, 9);
    assert_eq!(b.score, None);
    assert!(b.to_text().contains("fails the points test"));
    let a = analyze("sisepai21", "wR wR wR rK rA rE rP yP gP gK yK wK rK", "").unwrap();
    assert!(a.complete());
    assert_eq!(a.points, 10);
    assert_eq!(a.score, Some(10));
    // the lone King wins from b: 9 + 1 (S1)
    assert_eq!(wait(&b, "rK").unwrap().score, Some(10));
}

/// §2.1 sisepai21: Kings form no identical sets; each King is a lone King (1 point).
#[test]
fn kings_are_lone_in_sisepai21_section_2_1() {
    let a = analyze("sisepai21", "rK rK rK rK", "").unwrap();
    assert!(a.complete());
    assert_eq!(a.points, 4);
    assert!(a.sets.iter().all(|s| s.kind.name() == "King"));
    // dirtyking26: four identical Kings are a Quad worth 12 (§2.5)
    let b = analyze("dirtyking26", "rK rK rK rK", "").unwrap();
    assert_eq!(b.points, 12);
}

/// Example D1 of §6.4, hand part with the face-down `wH×4` and double rank H: Kings4Colours 10,
/// `[rR rR rR]` 3, Pawns4 4, `[gA gA]` 0, `wH×4` 16: 33, odd; every other complete partition is
/// odd too (lone Kings: 27; pairs of wH: 17, 11), so the hand alone does not win. The game's
/// melded sets (2 + 1 + 2 = 5) make 38.
#[test]
fn d1_hand_part_is_complete_but_odd_section_6_4() {
    let a = analyze(
        "dirtyking26",
        "double=H rK yK gK wK rR rR rR rP yP gP wP gA gA wH wH wH wH",
        "",
    )
    .unwrap();
    assert!(a.complete());
    assert_eq!(a.points, 33);
    assert_eq!(a.score, None);
    // without the double rank the quad is worth 8: 25, still odd
    let b = analyze(
        "dirtyking26",
        "rK yK gK wK rR rR rR rP yP gP wP gA gA wH wH wH wH",
        "",
    )
    .unwrap();
    assert_eq!(b.points, 25);
    assert_eq!(b.double_rank, None);
    // a lone King melded makes it even: 33 + 1 = 34 (S1)
    assert_eq!(wait(&a, "rK").unwrap().score, Some(34));
}

/// §3.6 dirtyking26: the best partition `[rK] [rA×3] [rE×3]` (7) makes 39, odd; the score is
/// the largest even total over 20, 34, paid by `[rK rA rE] [rA rA] [rE rE]` (2).
#[test]
fn dirtyking26_pays_the_largest_even_partition_section_3_6() {
    let a = analyze(
        "dirtyking26",
        "double=H rK rA rA rA rE rE rE gC gC gC gC yR yR yR yR wH wH wH wH",
        "",
    )
    .unwrap();
    assert_eq!(a.points, 39);
    assert_eq!(a.score, Some(34));
    let rules = a.rules();
    let win = a.win_sets.as_ref().expect("the paying partition differs");
    assert_eq!(win.iter().map(|s| set_points(s, &rules)).sum::<u32>(), 34);
    assert!(win.iter().any(|s| s.kind.name() == "KingAdvisorElephant"));
    let j = a.to_json();
    assert_eq!(j["score"], 34);
    assert_eq!(j["points"], 39);
    assert_eq!(j["double_rank"], "H");
    assert_eq!(j["win_sets"].as_array().unwrap().len(), win.len());
}

/// §1.1: 2 packs for 4 players hold 8 copies; a 9th is an error naming the card and the count.
#[test]
fn a_ninth_copy_is_an_error_section_1_1() {
    let e = analyze("sisepai21", "rH rH rH rH rH rH rH rH rH", "")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("card 9 'rH'") && e.contains("copy 9 of rH"),
        "{e}"
    );
    assert!(e.contains("holds only 8"), "{e}");
    let ok = analyze("sisepai21", "players=6 rH rH rH rH rH rH rH rH rH", "").unwrap();
    assert_eq!((ok.opts.decks, ok.loose), (3, 0));
    // eight copies: two dealt Quads, 16 points
    let q = analyze("sisepai21", "rH rH rH rH rH rH rH rH", "").unwrap();
    assert_eq!(q.points, 16);
    let s = analyze("sisepai21", "rH rH rH rH rH", "rH rH rH rH")
        .unwrap_err()
        .to_string();
    assert!(s.contains("seen: card 4 'rH'"), "{s}");
}

#[test]
fn bad_input_names_the_problem() {
    let cases = [
        ("", "empty"),
        ("rK zz", "card 2 'zz'"),
        ("double=K rK", "never K"),
        ("players=1 rK", "players must be 2 to 8"),
        ("colour=r rK", "unknown setting 'colour'"),
    ];
    for (hand, want) in cases {
        let e = analyze("dirtyking26", hand, "").unwrap_err().to_string();
        assert!(e.contains(want), "{hand:?}: {e}");
    }
    let e = analyze("sisepai21", "double=H rK", "")
        .unwrap_err()
        .to_string();
    assert!(e.contains("no double rank"), "{e}");
    let many = ["rP"; 8].join(" ") + " " + &["yP"; 8].join(" ") + " gP gP gP gP gP gP";
    let e = analyze("sisepai21", &many, "").unwrap_err().to_string();
    assert!(e.contains("22 cards") && e.contains("at most 21"), "{e}");
}

/// Random hands of both variants: the partition holds exactly the hand, its points and loose
/// count match, a score only comes with a complete hand and meets the test, and the unseen
/// counts are the copies less the hand and the seen cards.
#[test]
fn random_hands_are_reported_consistently() {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(14);
    for variant in ["sisepai21", "dirtyking26"] {
        let opts = Options::preset(variant, 4).unwrap();
        let mut deck: Vec<Card> = (0..opts.decks).flat_map(|_| Card::all()).collect();
        for i in 0..150 {
            deck.shuffle(&mut rng);
            let n = 1 + i % usize::from(opts.hand_size + 1);
            let text = bailab::notation::spaced(deck[..n].iter());
            let seen = bailab::notation::spaced(deck[n..n + 10].iter());
            let a = analyze(variant, &text, &seen).unwrap();
            let rules = SetRules::new(&opts, None);
            let mut parts: Vec<Card> = a.sets.iter().flat_map(|s| s.cards().to_vec()).collect();
            parts.extend(&a.loose_cards);
            parts.sort();
            assert_eq!(parts, a.hand, "{text}");
            assert_eq!(usize::from(a.loose), a.loose_cards.len());
            let pts: u32 = a.sets.iter().map(|s| set_points(s, &rules)).sum();
            assert_eq!(pts, a.points);
            assert!(a.current_points >= a.points);
            if let Some(s) = a.score {
                assert!(a.complete());
                assert!(s > u32::from(opts.pair_meld_min_points.unwrap()));
                if variant == "dirtyking26" {
                    assert_eq!(s % 2, 0);
                }
            }
            let counts = counts_of(&a.hand);
            let seen_counts = counts_of(&parse_cards(&seen, 8).unwrap());
            for w in &a.waits {
                let k = w.card.index();
                assert_eq!(w.unseen, 8 - counts[k] - seen_counts[k]);
                assert!(w.score.is_some() || w.improves);
            }
            // an incomplete hand more than 3 loose cards away cannot win with one card
            if a.loose > 3 {
                assert_eq!(a.wins().count(), 0, "{text}");
            }
        }
    }
}

fn bailab(args: &[&str], stdin: Option<&str>) -> Output {
    common::bailab_with_input(&std::env::temp_dir(), args, stdin)
}

fn out(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn cli_text_and_json_for_sisepai21() {
    let hand = "gH gH gH gH yR yR yR yC yH rC";
    let o = bailab(
        &["analyze", "--game", "tusac", "--variant", "sisepai21", hand],
        None,
    );
    assert!(o.status.success());
    let text = out(&o);
    assert!(text.contains("loose        1"), "{text}");
    assert!(text.contains("[yR yC yH] RookCannonHorse 1"), "{text}");
    assert!(text.contains("best value 11"), "{text}");
    assert!(text.contains("improves     rC (7 unseen)"), "{text}");
    assert!(
        !text.contains("trash") && !text.contains("Khap"),
        "no one-pack terms: {text}"
    );
    let o = bailab(
        &[
            "analyze",
            "--game",
            "tusac",
            "--variant",
            "sisepai21",
            "--json",
            "--seen",
            "rC rC",
            hand,
        ],
        None,
    );
    assert!(o.status.success());
    let j: Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(j["variant"], "sisepai21");
    assert_eq!(j["loose"], 1);
    assert_eq!(j["points"], 9);
    assert_eq!(j["current_points"], 11);
    assert_eq!(j["pair_gate"]["open"], true);
    assert_eq!(j["improve_unseen"]["rC"], 5);
    assert_eq!(j["loose_cards"], serde_json::json!(["rC"]));
    assert!(j.get("trash").is_none());
}

#[test]
fn cli_json_lines_for_dirtyking26_take_settings_per_line() {
    let input = "double=H wH wH wH wH\nwH wH wH wH\nrK zz\n";
    let o = bailab(
        &[
            "analyze",
            "--game",
            "tusac",
            "--variant",
            "dirtyking26",
            "-",
        ],
        Some(input),
    );
    assert!(!o.status.success(), "a bad line makes the exit non-zero");
    let lines: Vec<Value> = out(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["points"], 16);
    assert_eq!(lines[1]["points"], 8);
    assert!(lines[2]["error"].as_str().unwrap().contains("card 2 'zz'"));
}

#[test]
fn cli_bad_input_exits_non_zero_naming_the_problem() {
    let cases = [
        ("rK zz", "card 2 'zz'"),
        ("rH rH rH rH rH rH rH rH rH", "copy 9 of rH"),
        ("", "empty"),
    ];
    for (hand, want) in cases {
        let o = bailab(
            &["analyze", "--game", "tusac", "--variant", "sisepai21", hand],
            None,
        );
        assert!(!o.status.success(), "{hand:?}");
        let err = String::from_utf8(o.stderr.clone()).unwrap();
        assert!(err.contains(want), "{hand:?}: {err}");
    }
}
