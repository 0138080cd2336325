//! Tiến Lên's observation, tensor and action vectors (`docs/observations/tienlen.md`): they are
//! functions of the seat's view (a view and the same seat's view of its determinizations encode
//! alike, at every decision of random games), the layouts match what is written, and the JSON
//! and the tensor say the same thing.

use crate::counting_alloc::allocations;
use bailab::game::SeatView;
use bailab::games::observe::{layout_len, Observe, Segment};
use bailab::games::tienlen::{Action, Card, Options, Phase, QuadChops, TienLen, TienLenState};
use bailab::rng::stream_rng;
use bailab::{Game, GameState, Seat};
use rand::Rng;
use serde_json::Value;
use std::ops::Range;

/// The top-level keys of the observation, in the documented order.
const KEYS: [&str; 16] = [
    "game",
    "variant",
    "players",
    "seat",
    "to_move",
    "phase",
    "hand",
    "seats",
    "initial",
    "leader",
    "required",
    "top",
    "chain",
    "finished",
    "set_aside",
    "unseen",
];
/// The keys of each `seats` entry.
const SEAT_KEYS: [&str; 7] = [
    "seat",
    "hand_size",
    "played",
    "shown",
    "passed",
    "status",
    "place",
];
/// Length of every action vector: 52 cards, 18 combination types, 4 action types, the chặt flag.
const ACTION_LEN: usize = 75;

/// Every encoding of one seat's view: observation, tensor, and each legal action's vector.
#[derive(PartialEq, Debug)]
struct Encoded {
    observation: Value,
    tensor: Vec<f32>,
    actions: Vec<(Action, Vec<f32>)>,
}

fn encode(game: &TienLen, state: &TienLenState, seat: Seat) -> Encoded {
    let view = state.view(seat);
    let mut tensor = vec![f32::NAN; layout_len(&game.tensor_layout())];
    game.tensor(&view, &mut tensor);
    let mut legal = <TienLenState as GameState>::Actions::default();
    view.legal_actions(&mut legal);
    let actions = legal
        .iter()
        .map(|&a| {
            let mut v = vec![f32::NAN; ACTION_LEN];
            game.action_vector(&view, a, &mut v);
            (a, v)
        })
        .collect();
    Encoded {
        observation: game.observation(&view),
        tensor,
        actions,
    }
}

/// The option sets the property runs over: the defaults for 2 to 4 players, every non-default
/// option, `forbid_finish_on_two` without out-of-turn chops, and `passed_player_may_chop_in_turn`
/// with the default out-of-turn chops (where the phase after another seat's window depends on
/// whether a passed seat holds a hàng chặt).
fn games() -> Vec<TienLen> {
    let mut all: Vec<TienLen> = (2..=4).map(|n| TienLen::standard(n).unwrap()).collect();
    let mut o = Options::default_for(4);
    o.ps3_chops_pair_of_twos = true;
    o.quad_chops = QuadChops::PairOnly;
    o.ps5_powers = false;
    o.same_type_hang_beat_is_chat = false;
    o.oot_chop_min_pairs = Some(5);
    o.passed_player_may_chop_in_turn = true;
    o.forbid_finish_on_two = true;
    o.initial_game_also_general_list = true;
    o.cong_den_enabled = false;
    all.push(TienLen::new(o).unwrap());
    let mut o = Options::default_for(3);
    o.forbid_finish_on_two = true;
    o.oot_chop_min_pairs = None;
    all.push(TienLen::new(o).unwrap());
    let mut o = Options::default_for(4);
    o.passed_player_may_chop_in_turn = true;
    all.push(TienLen::new(o).unwrap());
    all
}

/// What one run of the property saw.
#[derive(Default, Debug)]
struct Tally {
    decisions: u64,
    /// Decisions where a determinization changed another seat's observation.
    other_changed: u64,
    /// Decisions in an out-of-turn window.
    windows: u64,
    /// Decisions with a chặt chain in the trick.
    chains: u64,
    /// Decisions after a seat left play.
    leavers: u64,
    /// Decisions where a seat that passed is asked again to chặt in turn.
    asked_again: u64,
}

/// True at the decisions the rarer rules shape: an out-of-turn window, a chặt chain, a seat
/// that left play, a seat that passed and is asked again to chặt in turn.
fn rare(s: &TienLenState) -> bool {
    let asked_again = matches!(s.phase(), Phase::Respond(p) if s.passed() >> p & 1 == 1);
    matches!(s.phase(), Phase::OotWindow(_))
        || s.chain().links > 0
        || !s.leavers().is_empty()
        || asked_again
}

/// Checks every seat's encodings at one decision against two determinizations.
fn check_decision(game: &TienLen, s: &TienLenState, key: (u64, u64), tally: &mut Tally) {
    let n = game.seats() as Seat;
    let here: Vec<Encoded> = (0..n).map(|q| encode(game, s, q)).collect();
    let mut changed = false;
    for seat in 0..n {
        let mine = &here[seat as usize];
        assert!(mine.tensor.iter().all(|x| x.is_finite()), "finite tensor");
        for j in 0..2u64 {
            let mut rng = stream_rng(0x0B5E, key.0, key.1 << 2 | j);
            let d = s.view(seat).determinize(&mut rng);
            let theirs = encode(game, &d, seat);
            // seat `seat` encodes its view and its determinization alike
            assert_eq!(mine.observation, theirs.observation, "seat {seat}");
            assert_eq!(mine.tensor, theirs.tensor, "seat {seat}");
            assert_eq!(mine.actions, theirs.actions, "seat {seat}");
            changed = changed
                || (0..n).any(|q| {
                    q != seat && game.observation(&d.view(q)) != here[q as usize].observation
                });
        }
    }
    tally.decisions += 1;
    tally.other_changed += u64::from(changed);
    tally.windows += u64::from(matches!(s.phase(), Phase::OotWindow(_)));
    tally.chains += u64::from(s.chain().links > 0);
    tally.leavers += u64::from(!s.leavers().is_empty());
    tally.asked_again +=
        u64::from(matches!(s.phase(), Phase::Respond(p) if s.passed() >> p & 1 == 1));
}

/// Plays `count` random games of `game`, checking every decision of the first `full` and the
/// [`rare`] decisions of the others.
fn random_games(game: &TienLen, g: u64, (full, count): (u64, u64), tally: &mut Tally) {
    let mut actions = <TienLenState as GameState>::Actions::default();
    for i in 0..count {
        let mut rng = stream_rng(0x0B5E_7000 + g, i, 0);
        let mut s = game.deal(&mut rng);
        let mut step = 0;
        while s.to_move().is_some() {
            if i < full || rare(&s) {
                check_decision(game, &s, (g << 32 | i, step), tally);
            }
            s.legal_actions(&mut actions);
            s.apply(actions[rng.random_range(0..actions.len())]);
            step += 1;
        }
        // the final state encodes too (every seat, no legal actions)
        if i < full {
            check_decision(game, &s, (g << 32 | i, step), tally);
        }
    }
}

#[test]
fn encodings_are_functions_of_the_view() {
    let mut tally = Tally::default();
    for (g, game) in games().iter().enumerate() {
        random_games(game, g as u64, (30, 3_000), &mut tally);
    }
    println!("{tally:?}");
    assert!(tally.decisions > 10_000, "enough decisions");
    assert!(
        tally.other_changed * 2 > tally.decisions,
        "determinizations change other seats' observations (the test has power)"
    );
    assert!(tally.windows > 50 && tally.chains > 500, "{tally:?}");
    assert!(tally.leavers > 50 && tally.asked_again > 50, "{tally:?}");
}

fn check_names(layout: &[Segment]) {
    for (i, s) in layout.iter().enumerate() {
        assert!(s.len > 0, "{}: no empty segment", s.name);
        assert!(!s.about.is_empty(), "{}: documented", s.name);
        assert!(
            s.name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
            "{}: lowercase, digits and _",
            s.name
        );
        assert!(
            layout[..i].iter().all(|t| t.name != s.name),
            "{}: unique",
            s.name
        );
    }
}

/// The expected tensor length for `n` players: 4 + n card segments, 10 entries per seat,
/// 4 + 18 + 3 + 1 fixed entries.
const fn tensor_len(n: usize) -> usize {
    52 * (4 + n) + 10 * n + 26
}

/// Every segment has its row in section `section` of `docs/observations/tienlen.md`, with its
/// length for `n` players.
fn check_documented(layout: &[Segment], section: &str, n: usize) {
    let doc = include_str!("../../docs/observations/tienlen.md");
    let doc = &doc[doc.find(section).expect("the section")..];
    for s in layout {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", s.name)))
            .unwrap_or_else(|| panic!("{}: a row in the documentation", s.name));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // tensor rows give the lengths for 2, 3 and 4 players, action rows one length
        let len = if cells.len() > 6 { cells[n] } else { cells[2] };
        assert_eq!(len, s.len.to_string(), "{}: documented length", s.name);
    }
}

#[test]
fn layouts_have_the_tensor_and_vector_lengths() {
    for game in games() {
        let n = game.seats();
        let layout = game.tensor_layout();
        check_names(&layout);
        assert_eq!(layout_len(&layout), tensor_len(n), "{n} players");
        let played = layout.iter().filter(|s| s.name.starts_with("played_"));
        assert_eq!(played.count(), n, "one played segment per seat");
        check_documented(&layout, "## The tensor", n);
        let actions = game.action_layout();
        check_names(&actions);
        check_documented(&actions, "## The action vector", n);
        assert_eq!(layout_len(&actions), ACTION_LEN);
        let s = game.deal(&mut stream_rng(1, n as u64, 0));
        let enc = encode(&game, &s, 0);
        assert_eq!(enc.tensor.len(), layout_len(&layout));
        assert!(enc.tensor.iter().all(|x| x.is_finite()));
        for (_, v) in &enc.actions {
            assert!(v.iter().all(|x| x.is_finite()));
        }
    }
}

/// The entries of segment `name`.
fn segment(layout: &[Segment], name: &str) -> Range<usize> {
    let mut at = 0;
    for s in layout {
        if s.name == name {
            return at..at + s.len;
        }
        at += s.len;
    }
    panic!("no segment {name}");
}

/// The cards of a JSON card list, as 0/1 entries by card key; the list is canonical.
fn card_entries(list: &Value) -> Vec<f32> {
    let mut out = vec![0.0; 52];
    let mut last = None;
    for c in list.as_array().expect("a card list") {
        let card: Card = c
            .as_str()
            .expect("a card string")
            .parse()
            .expect("notation");
        assert_eq!(
            c.as_str(),
            Some(card.to_string().as_str()),
            "canonical text"
        );
        assert!(last < Some(card.key()), "ascending key order");
        last = Some(card.key());
        out[card.key() as usize] = 1.0;
    }
    out
}

/// The observation has the documented keys and says what the tensor says.
fn check_json_against_tensor(game: &TienLen, s: &TienLenState, seat: Seat) {
    let enc = encode(game, s, seat);
    let o = enc.observation.as_object().expect("an object");
    let mut keys: Vec<&str> = o.keys().map(String::as_str).collect();
    let mut want = KEYS.to_vec();
    keys.sort_unstable();
    want.sort_unstable();
    assert_eq!(keys, want);
    let (n, layout) = (game.seats(), game.tensor_layout());
    let t = |name: &str| &enc.tensor[segment(&layout, name)];
    assert_eq!(
        (o["game"].as_str(), o["variant"].as_str()),
        (Some("tienlen"), Some("south"))
    );
    assert_eq!(
        (o["players"].as_u64(), o["seat"].as_u64()),
        (Some(n as u64), Some(seat.into()))
    );
    assert_eq!(card_entries(&o["hand"]), t("own_hand"));
    assert_eq!(card_entries(&o["unseen"]), t("unseen"));
    assert_eq!(o["set_aside"].as_u64(), Some(52 - 13 * n as u64));
    let seats = o["seats"].as_array().expect("seats");
    assert_eq!(seats.len(), n);
    for k in 0..n {
        let e = seats[(seat as usize + k) % n]
            .as_object()
            .expect("a seat object");
        let mut keys: Vec<&str> = e.keys().map(String::as_str).collect();
        let mut want = SEAT_KEYS.to_vec();
        keys.sort_unstable();
        want.sort_unstable();
        assert_eq!(keys, want);
        assert_eq!(card_entries(&e["played"]), t(&format!("played_{k}")));
        assert_eq!(e["hand_size"].as_f64(), Some(f64::from(t("hand_sizes")[k])));
        assert_eq!(e["passed"].as_bool(), Some(t("passed")[k] == 1.0));
        assert_eq!(
            e["place"].as_f64().unwrap_or(0.0),
            f64::from(t("places")[k])
        );
        card_entries(&e["shown"]);
    }
    match o["top"].as_object() {
        Some(top) => assert_eq!(card_entries(&top["cards"]), t("top_cards")),
        None => assert!(t("top_cards").iter().all(|&x| x == 0.0)),
    }
    let phases = ["lead", "respond", "oot_window", "over"];
    let phase = phases
        .iter()
        .position(|&p| o["phase"] == p)
        .expect("a phase");
    assert_eq!(t("phase")[phase], 1.0);
    assert_eq!(o["to_move"].is_null(), phase == 3);
    assert!(o["chain"].is_null() || o["chain"]["links"].as_u64() > Some(0));
    if let Some(r) = o["required"].as_str() {
        card_entries(&Value::from(vec![r]));
    }
}

#[test]
fn the_json_has_the_documented_keys_and_agrees_with_the_tensor() {
    let mut actions = <TienLenState as GameState>::Actions::default();
    for (g, game) in games().iter().enumerate() {
        for i in 0..40u64 {
            let mut rng = stream_rng(0x150, i, g as u64);
            let mut s = game.deal(&mut rng);
            loop {
                for seat in 0..game.seats() as Seat {
                    check_json_against_tensor(game, &s, seat);
                }
                if s.to_move().is_none() {
                    break;
                }
                s.legal_actions(&mut actions);
                s.apply(actions[rng.random_range(0..actions.len())]);
            }
        }
    }
}

#[test]
fn action_vectors_name_the_cards_the_kind_and_the_action() {
    let game = TienLen::standard(4).unwrap();
    let layout = game.action_layout();
    let mut actions = <TienLenState as GameState>::Actions::default();
    let mut rng = stream_rng(0xAC7, 0, 0);
    let mut s = game.deal(&mut rng);
    let mut seen_pass = false;
    while let Some(seat) = s.to_move() {
        s.legal_actions(&mut actions);
        for (a, v) in encode(&game, &s, seat).actions {
            let kind = &v[segment(&layout, "kind")];
            let action = &v[segment(&layout, "action")];
            assert_eq!(action.iter().sum::<f32>(), 1.0, "{a}: one action type");
            let cards = match a {
                Action::Play(x) | Action::Chop(x) => x,
                Action::Pass | Action::Decline => {
                    seen_pass = true;
                    Default::default()
                }
            };
            let mut want = vec![0.0; 52];
            cards.iter().for_each(|c| want[c.key() as usize] = 1.0);
            assert_eq!(v[segment(&layout, "cards")], want[..], "{a}");
            assert_eq!(
                kind.iter().sum::<f32>(),
                f32::from(!cards.is_empty()),
                "{a}"
            );
        }
        s.apply(actions[rng.random_range(0..actions.len())]);
    }
    assert!(seen_pass);
}

/// The entries the documentation gives: `play 4d 4h` sets cards 6 and 7, `pair` (53) and `play`
/// (70); `pass` sets 71 and `decline` 73; `chop` with four pairs sets the cards, `pair_sequence4`
/// (67) and `chop` (72).
#[test]
fn action_vector_entries_match_the_documentation() {
    let game = TienLen::standard(4).unwrap();
    let s = game.deal(&mut stream_rng(4, 0, 0));
    let on = |a: Action| -> Vec<usize> {
        let mut v = vec![0.0; ACTION_LEN];
        game.action_vector(&s.view(0), a, &mut v);
        (0..ACTION_LEN).filter(|&k| v[k] != 0.0).collect()
    };
    let cards = |text: &str| text.parse().unwrap();
    assert_eq!(on(Action::Play(cards("4d 4h"))), [6, 7, 53, 70]);
    assert_eq!(on(Action::Pass), [71]);
    assert_eq!(on(Action::Decline), [73]);
    let four_pairs = on(Action::Chop(cards("3s 3c 4s 4c 5s 5c 6s 6c"))); // no top: no chặt
    assert_eq!(four_pairs, [0, 1, 4, 5, 8, 9, 12, 13, 67, 72]);
}

/// The `chat` entry is 1 exactly for the plays that add a link to the trick's chain.
#[test]
fn the_chat_entry_marks_the_plays_that_grow_the_chain() {
    let game = TienLen::standard(4).unwrap();
    let mut actions = <TienLenState as GameState>::Actions::default();
    let mut grown = 0;
    for i in 0..2_000u64 {
        let mut rng = stream_rng(0xC4A7, i, 0);
        let mut s = game.deal(&mut rng);
        while let Some(seat) = s.to_move() {
            s.legal_actions(&mut actions);
            let a = actions[rng.random_range(0..actions.len())];
            let mut v = [0.0; ACTION_LEN];
            game.action_vector(&s.view(seat), a, &mut v);
            let before = s.chain().links;
            s.apply(a);
            let after = s.chain().links;
            // a chain is settled and cleared when the trick or the game ends
            if after != 0 {
                assert_eq!(v[74] == 1.0, after == before + 1, "{a}");
                grown += u32::from(v[74] == 1.0);
            }
        }
    }
    assert!(grown > 20, "{grown} chặt seen");
}

#[test]
fn tensor_and_action_vectors_do_not_allocate() {
    let games = games();
    let width = games.iter().map(|g| layout_len(&g.tensor_layout())).max();
    let mut tensor = vec![0.0f32; width.unwrap()];
    let mut row = [0.0f32; ACTION_LEN];
    let mut actions = <TienLenState as GameState>::Actions::default();
    let before = allocations();
    let mut calls = 0;
    for (g, game) in games.iter().enumerate() {
        let out = &mut tensor[..tensor_len(game.seats())];
        for i in 0..20u64 {
            let mut rng = stream_rng(0xA110C, i, g as u64);
            let mut s = game.deal(&mut rng);
            while let Some(seat) = s.to_move() {
                s.legal_actions(&mut actions);
                for q in 0..game.seats() as Seat {
                    game.tensor(&s.view(q), out);
                }
                for &a in actions.iter() {
                    game.action_vector(&s.view(seat), a, &mut row);
                    calls += 1;
                }
                s.apply(actions[rng.random_range(0..actions.len())]);
            }
        }
    }
    assert_eq!(allocations() - before, 0);
    assert!(calls > 1_000);
}

/// The first decision of a random 3-player game (seed 2025) where the trick has a chặt chain and
/// a seat has passed: the example of `docs/observations/tienlen.md`.
fn example_state(game: &TienLen) -> TienLenState {
    let mut actions = <TienLenState as GameState>::Actions::default();
    for i in 0.. {
        let mut rng = stream_rng(2025, i, 0);
        let mut s = game.deal(&mut rng);
        while s.to_move().is_some() {
            if s.chain().links > 0 && s.passed() != 0 {
                return s;
            }
            s.legal_actions(&mut actions);
            s.apply(actions[rng.random_range(0..actions.len())]);
        }
    }
    unreachable!()
}

/// Prints the example of `docs/observations/tienlen.md` (the view of the seat to move in
/// [`example_state`]) and every layout: `cargo test --release --test tienlen example --
/// --nocapture`.
#[test]
fn example_observation_and_layouts() {
    let game = TienLen::standard(3).unwrap();
    let s = example_state(&game);
    let seat = s.to_move().unwrap();
    let o = game.observation(&s.view(seat));
    println!("{o}");
    let mut actions = <TienLenState as GameState>::Actions::default();
    s.legal_actions(&mut actions);
    let layout = game.action_layout();
    for a in actions.iter() {
        let mut v = vec![0.0; ACTION_LEN];
        game.action_vector(&s.view(seat), *a, &mut v);
        let on: Vec<usize> = (0..v.len()).filter(|&k| v[k] != 0.0).collect();
        println!("{a}: entries {on:?} of {}", layout_len(&layout));
    }
    assert_eq!(o["to_move"], seat);
    assert!(!o["chain"].is_null());
    for n in 2..=4 {
        let g = TienLen::standard(n).unwrap();
        println!("{n} players: tensor {}", layout_len(&g.tensor_layout()));
        for seg in g.tensor_layout() {
            println!("| `{}` | {} | {} |", seg.name, seg.len, seg.about);
        }
    }
    for seg in game.action_layout() {
        println!("| `{}` | {} | {} |", seg.name, seg.len, seg.about);
    }
}
