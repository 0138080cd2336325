//! The rule options of Tứ Sắc §7 as a user-facing feature (issue 14): the four presets against
//! the §7 table, `to_rules` / `from_rules` round trips, what each rule core honours and what it
//! rejects (every error names its option), old records, experiments' `[rules]` and the
//! `bailab rules` command end to end.

use crate::common;

use bailab::agent::uniform_index;
use bailab::game::RuleMap;
use bailab::game::{Game, GameState};
use bailab::games::kind::{GameCore, GameError, SoakChecks};
use bailab::games::tusac::onepack::state::OnePackState;
use bailab::games::tusac::options::{Core, Options, CORE_TABLE, OPTIONS};
use bailab::games::tusac::OnePack;
use bailab::games::tusac::TuSac;
use bailab::record::Record;
use bailab::rng::{stream_rng, DEAL_STREAM};
use bailab::sim::recorder::check;
use bailab::sim::run::experiment::Experiment;
use common::{fails, ok, stdout, Scratch};
use serde_json::{json, Value};

const VARIANTS: [&str; 4] = ["classic", "4sac", "sisepai21", "dirtyking26"];

fn preset(variant: &str, players: u8) -> Options {
    Options::preset(variant, players).unwrap()
}

/// `o` with one option set by name (through `Options::set`, as a `[rules]` key would).
fn with(o: Options, key: &str, value: Value) -> Options {
    let mut o = o;
    o.set(key, &value).unwrap_or_else(|e| panic!("{key}: {e}"));
    o
}

/// §7's value columns (classic, 4sac, sisepai21, dirtyking26) at 4 players, written from the
/// spec's table (not from the code), in the names records use.
fn section_7_table() -> Vec<(&'static str, [Value; 4])> {
    vec![
        ("players", [json!(4), json!(4), json!(4), json!(4)]),
        ("first_player", [json!(0), json!(0), json!(0), json!(0)]),
        // §1.1: 1, 1, max(2, ceil(4/2)) = 2, same
        ("decks", [json!(1), json!(1), json!(2), json!(2)]),
        ("hand_size", [json!(20), json!(20), json!(20), json!(25)]),
        (
            "redeal_dead_hands",
            [json!(false), json!(false), json!(true), json!(true)],
        ),
        (
            "double_rank",
            [json!(false), json!(false), json!(false), json!(true)],
        ),
        (
            "dealt_quad",
            [
                json!("ExposeQuan"),
                json!("ExposeKong"),
                json!("FaceDownLocked"),
                json!("FaceDownLocked"),
            ],
        ),
        (
            "natural_win_for_first",
            [json!(true), json!(true), json!(true), json!(true)],
        ),
        // yes, yes, no, only the Quad of Kings
        (
            "king_identical_sets",
            [json!("All"), json!("All"), json!("None"), json!("QuadOnly")],
        ),
        // pawns only ×3, any non-King rank
        (
            "cross_colour_sets",
            [json!(false), json!(false), json!(false), json!(true)],
        ),
        (
            "dealt_only_king_groups",
            [json!(false), json!(false), json!(false), json!(true)],
        ),
        (
            "point_table",
            [
                json!("Classic"),
                json!("FourSac"),
                json!("Sisepai21"),
                json!("DirtyKing26"),
            ],
        ),
        (
            "khap_lock",
            [json!(true), json!(true), json!(false), json!(false)],
        ),
        (
            "meld_must_not_raise_trash",
            [json!(true), json!(true), json!(false), json!(false)],
        ),
        (
            "discard_rule",
            [
                json!("ReduceTrashByOne"),
                json!("AnyNonKing"),
                json!("AnyNonKing"),
                json!("AnyNonKing"),
            ],
        ),
        (
            "khui_rule",
            [
                json!("Forced"),
                json!("Optional"),
                json!("Optional"),
                json!("Optional"),
            ],
        ),
        (
            "pair_claim_rule",
            [
                json!("Forced"),
                json!("Optional"),
                json!("Optional"),
                json!("Optional"),
            ],
        ),
        // true (CHOSEN) in classic; n/a elsewhere, where the field keeps classic's value
        (
            "pair_priority_excludes_turn_player",
            [json!(true), json!(true), json!(true), json!(true)],
        ),
        (
            "pair_waiting_exception",
            [json!(true), json!(false), json!(false), json!(false)],
        ),
        (
            "passed_draw",
            [
                json!("AnySet"),
                json!("ChowPawnsOrPair"),
                json!("DrawerDiscards"),
                json!("DrawerDiscards"),
            ],
        ),
        (
            "drawn_king",
            [
                json!("Ordinary"),
                json!("WinKongThenDrawer"),
                json!("WinCallsThenForcedLone"),
                json!("WinCallsThenForcedLone"),
            ],
        ),
        (
            "exposed_triple_upgrade",
            [json!(false), json!(true), json!(false), json!(false)],
        ),
        (
            "pair_meld_min_points",
            [json!("none"), json!("none"), json!(9), json!(20)],
        ),
        (
            "win_test",
            [
                json!("TrashZero"),
                json!("TrashZero"),
                json!("CompleteOver9"),
                json!("CompleteOver20Even"),
            ],
        ),
        ("stock_floor", [json!(7), json!(6), json!(0), json!(0)]),
        ("reshuffles", [json!(0), json!(0), json!(1), json!(1)]),
        (
            "payout",
            [
                json!("Classic"),
                json!("KongDeduction"),
                json!("Points"),
                json!("Points"),
            ],
        ),
        // m = 2, base 3 and flat 10 of m(3+hv)+10 (§6.1); unused by the other payouts
        (
            "quan_khui_multiplier",
            [json!(2), json!(2), json!(2), json!(2)],
        ),
        ("base", [json!(3), json!(3), json!(3), json!(3)]),
        ("flat", [json!(10), json!(10), json!(10), json!(10)]),
        (
            "points_multiplier",
            [json!(1), json!(1), json!(1), json!(1)],
        ),
        (
            "kong_deduction_floor_zero",
            [json!(false), json!(false), json!(false), json!(false)],
        ),
        (
            "worst_card_penalty",
            [json!(true), json!(false), json!(false), json!(false)],
        ),
        // fixed readings: same colour (CHOSEN), OutsV1 (CHOSEN)
        (
            "pair_exception_same_colour",
            [json!(true), json!(true), json!(true), json!(true)],
        ),
        (
            "worst_card_rule",
            [
                json!("OutsV1"),
                json!("OutsV1"),
                json!("OutsV1"),
                json!("OutsV1"),
            ],
        ),
    ]
}

#[test]
fn presets_equal_the_section_7_table_column_by_column() {
    let table = section_7_table();
    for (column, variant) in VARIANTS.iter().enumerate() {
        let rules = preset(variant, 4).to_rules();
        for (name, values) in &table {
            assert_eq!(
                rules.get(*name),
                Some(&values[column]),
                "§7 {name}, {variant}"
            );
        }
        assert_eq!(rules.len(), table.len(), "{variant}: no option beyond §7's");
        assert_eq!(preset(variant, 4).variant, *variant);
    }
}

#[test]
fn sisepai_decks_follow_section_1_1() {
    // §1.1: 2 packs for n ≤ 4, otherwise ceil(n/2): 3 for 5–6 players, 4 for 7–8
    let expected = [(2, 2), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4)];
    for (n, decks) in expected {
        for v in ["sisepai21", "dirtyking26"] {
            assert_eq!(preset(v, n).decks, decks, "{v}, {n} players");
            assert_eq!(preset(v, n).copies(), 4 * decks);
        }
    }
    assert_eq!(preset("classic", 2).decks, 1);
}

#[test]
fn round_trip_for_every_preset_and_player_count() {
    for v in VARIANTS {
        let seats: &[u8] = if v == "classic" || v == "4sac" {
            &[2, 3, 4]
        } else {
            &[2, 3, 4, 5, 6, 7, 8]
        };
        for &n in seats {
            let o = preset(v, n);
            assert_eq!(o.validate(), Ok(()), "{v} {n}");
            assert_eq!(Options::from_rules(v, &o.to_rules()), Ok(o), "{v} {n}");
            // the map is complete: read over any other preset it gives the same options
            for base in VARIANTS {
                let mut read = Options::from_rules(base, &o.to_rules()).unwrap();
                read.variant = o.variant;
                assert_eq!(read, o, "{v} {n} read over {base}");
            }
        }
    }
}

#[test]
fn the_section_1_3_stock_sizes_follow_from_the_presets() {
    // S0 = 112·decks − n·hand_size − 1, table of §1.3
    let table = [
        ("classic", [71, 51, 31]),
        ("4sac", [71, 51, 31]),
        ("sisepai21", [183, 163, 143]),
        ("dirtyking26", [173, 148, 123]),
    ];
    for (v, sizes) in table {
        for (i, s0) in sizes.into_iter().enumerate() {
            let o = preset(v, i as u8 + 2);
            let dealt = usize::from(o.players) * usize::from(o.hand_size) + 1;
            assert_eq!(o.deck_len() - dealt, s0, "{v}, {} players", o.players);
        }
    }
}

#[test]
fn a_key_not_given_keeps_the_preset_value() {
    let mut only = RuleMap::new();
    only.insert("players".into(), json!(3));
    for v in VARIANTS {
        assert_eq!(Options::from_rules(v, &only), Ok(preset(v, 3)));
    }
    only.insert("stock_floor".into(), json!(6));
    let o = Options::from_rules("classic", &only).unwrap();
    assert_eq!((o.stock_floor, o.variant), (6, "classic"));
    assert_eq!(
        o,
        Options {
            stock_floor: 6,
            ..preset("classic", 3)
        }
    );
}

#[test]
fn section_7_spellings_are_aliases() {
    let o = with(preset("classic", 4), "natural_win_for_F", json!(false));
    assert!(!o.natural_win_for_first);
    let o = with(
        preset("classic", 4),
        "pair_priority_excludes_T",
        json!(false),
    );
    assert!(!o.pair_priority_excludes_turn_player);
}

#[test]
fn every_type_error_names_its_option_and_the_accepted_values() {
    for f in OPTIONS {
        let mut o = preset("classic", 4);
        let e = o.set(f.name, &json!([1])).unwrap_err().to_string();
        assert!(e.contains(&format!("'{}'", f.name)), "{e}");
        assert!(e.contains("expected"), "{e}");
    }
    let mut o = preset("classic", 4);
    let e = o.set("dealt_quad", &json!("Quan")).unwrap_err().to_string();
    assert!(
        e.contains("'dealt_quad'") && e.contains("ExposeQuan, ExposeKong, FaceDownLocked"),
        "{e}"
    );
    let e = o.set("stock_floor", &json!(-1)).unwrap_err().to_string();
    assert!(e.contains("'stock_floor'") && e.contains("0 to 255"), "{e}");
    let e = o
        .set("pair_meld_min_points", &json!("nine"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("or \"none\""), "{e}");
    let e = o.set("colour", &json!(1)).unwrap_err().to_string();
    assert!(
        e.contains("unknown option 'colour'") && e.contains("stock_floor"),
        "{e}"
    );
    let e = o
        .set("worst_card_rule", &json!("OutsV2"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("'worst_card_rule'") && e.contains("OutsV1"),
        "{e}"
    );
    let e = Options::from_rules("5sac", &preset("classic", 4).to_rules())
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown variant '5sac'"), "{e}");
    let e = Options::from_rules("classic", &RuleMap::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("'players' is missing"), "{e}");
}

/// Every value an option can take that some preset uses, plus the other enum and flag values.
fn candidates(name: &str) -> Vec<Value> {
    let mut out: Vec<Value> = VARIANTS
        .iter()
        .map(|v| preset(v, 4).to_rules()[name].clone())
        .collect();
    out.extend([
        json!(true),
        json!(false),
        json!(0),
        json!(5),
        json!(25),
        json!(9),
    ]);
    use bailab::games::tusac::options::*;
    let names: Vec<&str> = match name {
        "dealt_quad" => DealtQuad::NAMES.iter().map(|p| p.1).collect(),
        "discard_rule" => DiscardRule::NAMES.iter().map(|p| p.1).collect(),
        "khui_rule" | "pair_claim_rule" => ClaimRule::NAMES.iter().map(|p| p.1).collect(),
        "passed_draw" => PassedDraw::NAMES.iter().map(|p| p.1).collect(),
        "drawn_king" => DrawnKing::NAMES.iter().map(|p| p.1).collect(),
        "king_identical_sets" => KingIdenticalSets::NAMES.iter().map(|p| p.1).collect(),
        "point_table" => PointTable::NAMES.iter().map(|p| p.1).collect(),
        "win_test" => WinTest::NAMES.iter().map(|p| p.1).collect(),
        "payout" => Payout::NAMES.iter().map(|p| p.1).collect(),
        _ => Vec::new(),
    };
    out.extend(names.into_iter().map(Value::from));
    out
}

#[test]
fn every_rejection_names_its_option_and_every_row_rejects_something() {
    let mut rejected = vec![false; CORE_TABLE.len()];
    for base in VARIANTS {
        for row in CORE_TABLE {
            for value in candidates(row.option) {
                let mut o = preset(base, 4);
                if o.set(row.option, &value).is_err() {
                    continue; // a type error, tested above
                }
                let Err(e) = o.validate().map_err(|e| e.to_string()) else {
                    continue;
                };
                assert!(
                    e.contains(row.option),
                    "{base} + {} = {value}: {e}",
                    row.option
                );
                let i = CORE_TABLE
                    .iter()
                    .position(|r| r.option == row.option)
                    .unwrap();
                rejected[i] |= e.contains(&format!("'{}'", row.option));
                // the message says what the core runs
                assert!(e.contains("it runs") || e.contains("need"), "{e}");
            }
        }
    }
    for (row, r) in CORE_TABLE.iter().zip(rejected) {
        assert!(r, "row {} never rejected a value", row.option);
    }
}

#[test]
fn the_one_pack_core_takes_each_4sac_value_on_classic_and_no_sisepai_value() {
    let classic = preset("classic", 4);
    let four = preset("4sac", 4).to_rules();
    for (k, v) in &four {
        if classic.to_rules()[k] != *v && k != "pair_claim_rule" {
            assert_eq!(
                with(classic, k, v.clone()).validate(),
                Ok(()),
                "classic + 4sac {k}"
            );
        }
    }
    // optional pair claims go with 4sac's "no waiting-pair exception" (F2): the exception only
    // exempts a seat from a forced claim, so keeping it is an error that names both options
    let optional = with(classic, "pair_claim_rule", json!("Optional"));
    let e = optional.validate().unwrap_err().to_string();
    assert!(
        e.contains("'pair_waiting_exception'") && e.contains("pair_claim_rule = Forced"),
        "{e}"
    );
    let o = with(optional, "pair_waiting_exception", json!(false));
    assert_eq!(o.validate(), Ok(()));
    // sisepai21's values on classic, one at a time (khap_lock switches the core)
    let honoured = [
        "discard_rule",
        "khui_rule",
        "pair_waiting_exception",
        "worst_card_penalty",
    ];
    // pair_claim_rule = Optional alone keeps classic's waiting-pair exception: named below
    let rejected = [
        "pair_claim_rule",
        "decks",
        "redeal_dead_hands",
        "dealt_quad",
        "king_identical_sets",
        "point_table",
        "meld_must_not_raise_trash",
        "passed_draw",
        "drawn_king",
        "pair_meld_min_points",
        "win_test",
        "stock_floor",
        "reshuffles",
        "payout",
    ];
    check_one_at_a_time(classic, "sisepai21", &honoured, &rejected);
    let e = with(classic, "khap_lock", json!(false))
        .validate()
        .unwrap_err()
        .to_string();
    assert!(e.contains("multi-pack core"), "{e}");
}

#[test]
fn the_multi_pack_core_takes_sisepai_values_only() {
    let sisepai = preset("sisepai21", 4);
    // classic's values on sisepai21, one at a time
    let honoured = ["redeal_dead_hands", "pair_meld_min_points", "reshuffles"];
    let rejected = [
        "stock_floor",
        "decks",
        "dealt_quad",
        "king_identical_sets",
        "point_table",
        "meld_must_not_raise_trash",
        "discard_rule",
        "khui_rule",
        "pair_claim_rule",
        "pair_waiting_exception",
        "passed_draw",
        "drawn_king",
        "win_test",
        "payout",
        "worst_card_penalty",
    ];
    check_one_at_a_time(sisepai, "classic", &honoured, &rejected);
    // dirtyking26's values on sisepai21: its sets and doubling need its point table
    for k in [
        "double_rank",
        "cross_colour_sets",
        "dealt_only_king_groups",
        "king_identical_sets",
    ] {
        let v = preset("dirtyking26", 4).to_rules()[k].clone();
        let e = with(sisepai, k, v.clone())
            .validate()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(k) && e.contains("point_table = DirtyKing26"),
            "{e}"
        );
        let o = with(with(sisepai, "point_table", json!("DirtyKing26")), k, v);
        assert_eq!(o.validate(), Ok(()), "{k}");
    }
    for (k, v) in [
        ("hand_size", json!(25)),
        ("pair_meld_min_points", json!(20)),
    ] {
        assert_eq!(with(sisepai, k, v).validate(), Ok(()), "{k}");
    }
    // A floor only without the reshuffle: §4.7 does not say what becomes of the cards under it.
    let no_reshuffle = with(sisepai, "reshuffles", json!(0));
    assert_eq!(
        with(no_reshuffle, "stock_floor", json!(7)).validate(),
        Ok(())
    );
    let e = with(sisepai, "stock_floor", json!(7))
        .validate()
        .unwrap_err()
        .to_string();
    assert!(e.contains("any with reshuffles = 0"), "{e}");
    let e = with(sisepai, "reshuffles", json!(2))
        .validate()
        .unwrap_err()
        .to_string();
    assert!(e.contains("'reshuffles'") && e.contains("0 or 1"), "{e}");
}

fn check_one_at_a_time(base: Options, from: &str, honoured: &[&str], rejected: &[&str]) {
    let other = preset(from, 4).to_rules();
    let mut differing: Vec<&str> = Vec::new();
    for (k, v) in &other {
        if base.to_rules()[k] == *v || k == "khap_lock" {
            continue;
        }
        differing.push(k);
        let r = with(base, k, v.clone()).validate();
        if honoured.contains(&k.as_str()) {
            assert_eq!(r, Ok(()), "{} + {from}'s {k}", base.variant);
        } else {
            let e = r.unwrap_err().to_string();
            assert!(rejected.contains(&k.as_str()), "{k} is rejected: {e}");
            assert!(e.contains(k.as_str()), "{e}");
        }
    }
    differing.sort();
    let mut listed: Vec<&str> = honoured.iter().chain(rejected).copied().collect();
    listed.sort();
    assert_eq!(differing, listed, "every differing option is listed");
}

#[test]
fn seats_first_player_and_the_card_count_are_checked() {
    for (v, lo, hi) in [
        ("classic", 2, 4),
        ("4sac", 2, 4),
        ("sisepai21", 2, 8),
        ("dirtyking26", 2, 8),
    ] {
        for n in [0, 1, lo - 1, lo, hi, hi + 1, 9] {
            let r = preset(v, n).validate();
            if (lo..=hi).contains(&n) {
                assert_eq!(r, Ok(()), "{v} {n}");
            } else {
                let e = r.unwrap_err().to_string();
                assert!(
                    e.contains("'players'") && e.contains(&format!("{lo} to {hi}")),
                    "{e}"
                );
            }
        }
    }
    let e = with(preset("classic", 3), "first_player", json!(3))
        .validate()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("'first_player' = 3") && e.contains("seats 0 to 2"),
        "{e}"
    );
    // 4·20 + 1 dealt + a floor of 31 = 112: the whole pack; 32 is one card too many
    assert_eq!(
        with(preset("classic", 4), "stock_floor", json!(31)).validate(),
        Ok(())
    );
    let e = with(preset("classic", 4), "stock_floor", json!(32))
        .validate()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("'stock_floor' = 32") && e.contains("113 cards"),
        "{e}"
    );
    // dirtyking26, 8 players on 2 packs: 201 dealt + 23 = 224
    let o = with(preset("dirtyking26", 8), "decks", json!(2));
    let o = with(o, "reshuffles", json!(0));
    assert_eq!(with(o, "stock_floor", json!(23)).validate(), Ok(()));
    let e = with(o, "stock_floor", json!(24))
        .validate()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("'decks' = 2") && e.contains("raise decks"),
        "{e}"
    );
}

#[test]
fn the_game_plays_only_what_it_runs() {
    let all = |o: &Options| o.to_rules();
    // every variant builds, on the core its options select
    for v in ["classic", "4sac", "sisepai21", "dirtyking26"] {
        let g = TuSac::build(v, 4, &RuleMap::new()).unwrap();
        assert_eq!(g.rules(), all(&preset(v, 4)), "{v}");
        assert_eq!(
            matches!(g, TuSac::MultiPack(_)),
            preset(v, 4).core() == Core::MultiPack,
            "{v}"
        );
        assert_eq!(
            TuSac::rules_in_force(v, 4, &RuleMap::new()),
            Ok(all(&preset(v, 4)))
        );
    }
    assert_eq!(
        TuSac::rules_in_force("sisepai21", 8, &RuleMap::new()).unwrap()["decks"],
        json!(4)
    );
    // a combination a core cannot honour is an error naming the option, not a fallback
    let e = rules_refused(TuSac::build("classic", 5, &RuleMap::new()));
    assert!(
        e.contains("'players' = 5") && e.contains("one-pack core"),
        "{e}"
    );
    let mut rules = RuleMap::new();
    rules.insert("dealt_quad".into(), json!("FaceDownLocked"));
    let e = rules_refused(TuSac::build("classic", 4, &rules));
    assert!(e.contains("'dealt_quad'"), "{e}");
    // the options decide the core, whatever the variant name: sisepai21's under `classic`
    let mut sisepai_as_classic = all(&preset("sisepai21", 4));
    sisepai_as_classic.remove("players");
    let g = TuSac::build("classic", 4, &sisepai_as_classic).unwrap();
    assert!(matches!(g, TuSac::MultiPack(_)));
    assert!(OnePack::new(preset("sisepai21", 4)).is_err());
    assert_eq!(preset("sisepai21", 4).core(), Core::MultiPack);
}

#[test]
fn old_records_with_only_the_classic_keys_load_and_replay() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/tusac-classic.json"
    ))
    .unwrap();
    let mut r: Record = serde_json::from_str(&text).unwrap();
    let old_keys = [
        "base",
        "first_player",
        "flat",
        "hand_size",
        "natural_win_for_first",
        "pair_exception_same_colour",
        "pair_priority_excludes_turn_player",
        "pair_waiting_exception",
        "players",
        "quan_khui_multiplier",
        "stock_floor",
        "worst_card_penalty",
        "worst_card_rule",
    ];
    r.rules.retain(|k, _| old_keys.contains(&k.as_str()));
    assert_eq!(r.rules.len(), old_keys.len());
    check(&r).unwrap();
    let o = Options::from_rules("classic", &r.rules).unwrap();
    assert_eq!(o, preset("classic", 4));
}

/// Plays `games` random games of `game` to the end: payouts sum to zero, every game ends.
fn random_games(game: &OnePack, games: u64) -> (u64, u64) {
    let (mut drawn, mut floor_hits) = (0, 0);
    let mut actions = <OnePackState as GameState>::Actions::default();
    for i in 0..games {
        let mut s = game.deal(&mut stream_rng(61, i, DEAL_STREAM));
        let mut rng = stream_rng(61, i, 1);
        let mut steps = 0;
        while let Some(_seat) = s.to_move() {
            steps += 1;
            assert!(steps < 1000, "game {i} ends");
            s.legal_actions(&mut actions);
            let a = actions.as_slice()[uniform_index(actions.as_slice().len(), &mut rng)];
            s.apply(a);
            assert!(s.stock_len() >= usize::from(game.options().stock_floor));
        }
        let o = s.outcome().unwrap();
        assert_eq!(o.payouts().iter().sum::<i64>(), 0);
        if o.winner.is_none() {
            drawn += 1;
            floor_hits += u64::from(s.stock_len() == usize::from(game.options().stock_floor));
        }
    }
    (drawn, floor_hits)
}

#[test]
fn a_stock_floor_set_in_rules_is_in_force() {
    for n in [4u8, 3, 2] {
        let mut rules = RuleMap::new();
        rules.insert("stock_floor".into(), json!(6));
        let TuSac::OnePack(game) = TuSac::build("classic", usize::from(n), &rules).unwrap() else {
            panic!("classic is on the one-pack core");
        };
        assert_eq!(game.options().stock_floor, 6);
        let (drawn, at_floor) = random_games(&game, 400);
        eprintln!("{n} players, stock floor 6: {drawn} of 400 random games drawn");
        // random 2-player games rarely reach the floor; 3 and 4 players do
        assert!(
            n == 2 || drawn > 0,
            "{n} players: some random games reach the floor"
        );
        assert_eq!(drawn, at_floor, "drawn games stop at 6 cards");
    }
}

#[test]
fn experiments_take_rules_one_by_one_and_reject_bad_combinations() {
    let base =
        "game = \"tusac\"\nagents = [\"greedy\", \"random\", \"random\"]\ndeals = 4\nseed = 5\n";
    let exp = Experiment::parse(&format!("{base}[rules]\nstock_floor = 6\n"), "x.toml").unwrap();
    assert_eq!(exp.rules["stock_floor"], json!(6));
    let bad = |rules: &str| {
        Experiment::parse(&format!("{base}[rules]\n{rules}"), "x.toml")
            .err()
            .unwrap_or_else(|| panic!("{rules} is accepted"))
            .to_string()
    };
    let e = bad("dealt_quad = \"FaceDownLocked\"\n");
    assert!(
        e.contains("table [rules]") && e.contains("'dealt_quad'"),
        "{e}"
    );
    let e = bad("stock_floor = 3\n");
    assert!(e.contains("'stock_floor' = 3"), "{e}");
    let e = bad("payout = \"Points\"\n");
    assert!(e.contains("'payout'") && e.contains("multi-pack"), "{e}");
    let e = bad("discard_rule = \"AnyTrash\"\n");
    assert!(
        e.contains("'discard_rule'") && e.contains("ReduceTrashByOne, AnyNonKing"),
        "{e}"
    );

    // end to end: the records of a run carry the option
    let dir = Scratch::new("tusac-options-run");
    let path = dir.write(
        "floor.toml",
        &format!("name = \"floor\"\n{base}records = true\n[rules]\nstock_floor = 6\n"),
    );
    let out = dir.path("out");
    ok(
        &dir.0,
        &["run", &path, "--quiet", "--output", out.to_str().unwrap()],
    );
    let records = std::fs::read_to_string(out.join("records.jsonl")).unwrap();
    assert_eq!(records.lines().count(), 4 * 3);
    for line in records.lines() {
        let r: Record = serde_json::from_str(line).unwrap();
        assert_eq!(r.rules["stock_floor"], json!(6));
        check(&r).unwrap();
    }
    let bad_path = dir.write(
        "bad.toml",
        &format!("name = \"bad\"\n{base}[rules]\nwin_test = \"CompleteOver9\"\n"),
    );
    let e = fails(&dir.0, &["run", &bad_path, "--quiet"]);
    assert!(e.contains("'win_test'"), "{e}");
}

#[test]
fn the_rules_command_prints_the_options_in_force() {
    let dir = Scratch::new("tusac-rules-command");
    let text = stdout(&ok(&dir.0, &["rules", "--game", "tusac"]));
    assert!(
        text.starts_with("# Tứ Sắc (tusac), variant classic, 4 players"),
        "{text}"
    );
    for f in OPTIONS {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{} ", f.name)))
            .unwrap_or_else(|| panic!("{} printed", f.name));
        assert!(line.contains(f.section) && line.contains(f.doc), "{line}");
    }
    assert!(text.contains("\nstock_floor "), "{text}");
    assert!(!text.contains("not playable"), "{text}");

    // --rules and --players; --json holds the map records store and the defaults
    let o = ok(
        &dir.0,
        &[
            "rules",
            "--game",
            "tusac",
            "--players",
            "3",
            "--rules",
            "stock_floor=6",
            "--json",
        ],
    );
    let out: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let map: RuleMap = serde_json::from_value(out["rules"].clone()).unwrap();
    let expected = Options {
        stock_floor: 6,
        ..preset("classic", 3)
    };
    assert_eq!(map, expected.to_rules());
    let floor = out["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "stock_floor")
        .unwrap();
    assert_eq!(floor["value"], json!(6));
    assert_eq!(
        floor["default"],
        preset("classic", 3).to_rules()["stock_floor"]
    );
    let o = ok(
        &dir.0,
        &[
            "rules",
            "--game",
            "tusac",
            "--rules",
            "stock_floor = 6",
            "--rules",
            "discard_rule=AnyNonKing",
        ],
    );
    let text = stdout(&o);
    assert!(
        text.lines().any(|l| l.starts_with("stock_floor")
            && l.contains("= 6")
            && l.ends_with("(default 7)")),
        "{text}"
    );
    assert!(text.contains("\"AnyNonKing\""), "{text}");
    assert!(
        text.contains("# sections refer to docs/games/tusac.md"),
        "{text}"
    );

    // every variant prints, none as planned
    for v in ["4sac", "sisepai21", "dirtyking26"] {
        let text = stdout(&ok(&dir.0, &["rules", "--game", "tusac", "--variant", v]));
        assert!(!text.contains("not playable yet"), "{text}");
        assert!(
            text.starts_with(&format!("# Tứ Sắc (tusac), variant {v}, 4 players")),
            "{text}"
        );
        let o = ok(
            &dir.0,
            &["rules", "--game", "tusac", "--variant", v, "--json"],
        );
        let out: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let map: RuleMap = serde_json::from_value(out["rules"].clone()).unwrap();
        assert_eq!(map, preset(v, 4).to_rules(), "{v}");
        let options = out["options"].as_array().unwrap();
        assert_eq!(options.len(), map.len(), "{v}");
        for o in options {
            assert_eq!(o["value"], map[o["name"].as_str().unwrap()], "{v}: {o}");
            assert_eq!(o["default"], o["value"], "{v}: {o}");
            assert!(o["section"].as_str().unwrap().starts_with('§'), "{v}: {o}");
            assert!(!o["meaning"].as_str().unwrap().is_empty(), "{v}: {o}");
        }
    }
    let o = ok(
        &dir.0,
        &[
            "rules",
            "--game",
            "tusac",
            "--variant",
            "dirtyking26",
            "--players",
            "8",
            "--json",
        ],
    );
    let out: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(out["rules"]["decks"], json!(4));
    assert_eq!(out["reference"], json!("docs/games/tusac.md"));
    // play runs every variant
    ok(
        &dir.0,
        &[
            "play",
            "--game",
            "tusac",
            "--variant",
            "sisepai21",
            "--seed",
            "3",
        ],
    );

    // errors exit non-zero with the message
    let e = fails(
        &dir.0,
        &[
            "rules",
            "--game",
            "tusac",
            "--rules",
            "dealt_quad=FaceDownLocked",
        ],
    );
    assert!(
        e.contains("'dealt_quad'") && e.contains("khap_lock = false"),
        "{e}"
    );
    let e = fails(&dir.0, &["rules", "--game", "tusac", "--rules", "colour=1"]);
    assert!(e.contains("unknown option 'colour'"), "{e}");
    let e = fails(
        &dir.0,
        &["rules", "--game", "tusac", "--rules", "stock_floor"],
    );
    assert!(e.contains("KEY=VALUE"), "{e}");
    let e = fails(&dir.0, &["rules", "--game", "tusac", "--variant", "5sac"]);
    assert!(e.contains("unknown variant '5sac'"), "{e}");
    let e = fails(
        &dir.0,
        &[
            "rules",
            "--game",
            "tusac",
            "--variant",
            "classic",
            "--players",
            "6",
        ],
    );
    assert!(e.contains("'players' = 6"), "{e}");
    fails(&dir.0, &["rules", "--game", "nosuchgame"]);

    // any game: the generic path through build(...).rules()
    for game in ["tienlen", "chan"] {
        let text = stdout(&ok(&dir.0, &["rules", "--game", game]));
        assert!(text.lines().count() > 3, "{game}: {text}");
        let e = fails(
            &dir.0,
            &["rules", "--game", game, "--rules", "no_such_rule=1"],
        );
        assert!(e.contains("no_such_rule"), "{e}");
    }
}

#[test]
fn the_docs_table_shows_the_presets() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/tusac-variants.md"
    ))
    .unwrap();
    let mut rows = 0;
    for line in doc.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line
            .split('|')
            .map(|c| c.trim().trim_matches('`'))
            .collect();
        // | option | classic | 4sac | sisepai21 | dirtyking26 | spec |
        if cells.len() != 8 {
            continue;
        }
        for (i, v) in VARIANTS.iter().enumerate() {
            let value = &preset(v, 4).to_rules()[cells[1]];
            let shown = value
                .as_str()
                .map_or_else(|| value.to_string(), str::to_string);
            assert_eq!(shown, cells[2 + i], "{} of {v}", cells[1]);
        }
        rows += 1;
    }
    assert_eq!(
        rows,
        preset("classic", 4).to_rules().len(),
        "one row per option"
    );
}

/// A rules map of `pairs`.
fn rules(pairs: &[(&str, Value)]) -> RuleMap {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Found by `bailab soak` (seed 1, deal 60041 of classic at four seats): with
/// `natural_win_for_first = false`, a first seat dealt a trash-free hand had no legal discard
/// under C7 and the game could not go on. §1.4 step 5 calls a win the only consistent end there,
/// so the one-pack core refuses the pair; with `discard_rule = AnyNonKing` the seat discards and
/// the game plays to its end.
#[test]
fn no_natural_win_needs_a_discard_rule_a_trash_free_hand_can_follow() {
    let refused = TuSac::build(
        "classic",
        4,
        &rules(&[("natural_win_for_first", json!(false))]),
    );
    let e = rules_refused(refused);
    assert!(
        e.contains("natural_win_for_first") && e.contains("discard_rule = AnyNonKing"),
        "{e}"
    );
    let game = TuSac::build(
        "classic",
        4,
        &rules(&[
            ("natural_win_for_first", json!(false)),
            ("discard_rule", json!("AnyNonKing")),
        ]),
    )
    .unwrap();
    // The deal's first seat holds a trash-free hand: by default it wins before any decision.
    let default = TuSac::build("classic", 4, &RuleMap::new()).unwrap();
    let natural = default.deal(&mut stream_rng(1, 60041, DEAL_STREAM));
    assert_eq!(natural.to_move(), None);
    let mut state = game.deal(&mut stream_rng(1, 60041, DEAL_STREAM));
    let mut actions = Default::default();
    let mut rng = stream_rng(2, 0, 0);
    let mut turns = 0;
    while state.to_move().is_some() {
        state.legal_actions(&mut actions);
        let legal = bailab::game::ActionBuffer::as_slice(&actions);
        assert!(!legal.is_empty(), "no legal action after {turns} turns");
        state.apply(legal[uniform_index(legal.len(), &mut rng)]);
        turns += 1;
    }
    assert!(state.outcome().is_some());
}

/// Found by `bailab soak` (seed 1, sisepai21 at four seats, deals 9,248,930 and 9,526,706 of 10
/// million): with a stock floor of 3 and one reshuffle, the reshuffle laid the dead pile over the
/// stock and the 3 cards under the floor vanished (221 of 224 cards left). §4.7 says only that the
/// dead pile becomes the stock, for a floor of 0, so the multi-pack core now refuses a reshuffle
/// with a floor; either alone plays with every card kept.
#[test]
fn a_reshuffle_needs_an_empty_stock_floor_and_either_alone_keeps_every_card() {
    let both = rules(&[("reshuffles", json!(1)), ("stock_floor", json!(3))]);
    let e = rules_refused(TuSac::build("sisepai21", 4, &both));
    assert!(e.contains("'stock_floor' = 3") && e.contains("§4.7"), "{e}");
    for alone in [
        rules(&[("reshuffles", json!(1)), ("stock_floor", json!(0))]),
        rules(&[("reshuffles", json!(0)), ("stock_floor", json!(3))]),
    ] {
        let game = TuSac::build("sisepai21", 4, &alone).unwrap();
        for deal in [9_248_930, 9_526_706] {
            let mut state = game.deal(&mut stream_rng(1, deal, DEAL_STREAM));
            let mut actions = Default::default();
            let mut rng = stream_rng(deal, 1, 1);
            while state.to_move().is_some() {
                state.legal_actions(&mut actions);
                let legal = bailab::game::ActionBuffer::as_slice(&actions);
                state.apply(legal[uniform_index(legal.len(), &mut rng)]);
                TuSac::check_cards(&state).unwrap();
            }
        }
    }
}

/// The message of a build refused for its rule options (any other outcome fails the test).
fn rules_refused(built: Result<TuSac, GameError>) -> String {
    match built {
        Err(GameError::Rules(e)) => e.to_string(),
        other => panic!("not refused as rules: {:?}", other.err()),
    }
}
