//! Chắn's observation, view tensor and action vectors (`docs/observations/chan.md`), over every
//! decision of seeded random hands at 2 to 5 players and under non-default options:
//! - they read only what the seat may see: a view and the same seat's view of two of its
//!   determinizations encode alike (the legal actions too, when the seat decides), while another
//!   seat's observation does change;
//! - an ù or chíu window asked of another seat is silent: the seats not asked see the table as
//!   they see it once the windows are declined;
//! - the layouts add up, every entry is set and finite, each segment holds what it names, the
//!   JSON has the documented keys, and the documentation's example and tables are real;
//! - the tensor and the action vectors allocate nothing.

use crate::counting_alloc::allocations;
use bailab::agent::uniform_index;
use bailab::game::{Game, GameState, Seat, SeatView};
use bailab::games::chan::types::Phase;
use bailab::games::chan::{Action, Chan, ChanDiscardRule, ChanState, Options};
use bailab::games::observe::{layout_len, Observe, Segment};
use bailab::rng::{stream_rng, DEAL_STREAM};
use bailab::sim::agent_stream;
use serde_json::Value;

use crate::observation_keys::{CHAN_KEYS as KEYS, CHAN_SEAT_KEYS as SEAT_KEYS};
/// The keys of a meld.
const MELD_KEYS: [&str; 4] = ["kind", "source", "cards", "taken"];
/// The keys of the live card.
const LIVE_KEYS: [&str; 5] = ["card", "gate", "origin", "via", "releaser"];
/// The phase names.
const PHASES: [&str; 8] = [
    "opening",
    "u_window",
    "chiu_window",
    "turn",
    "drawn",
    "must_discard",
    "must_return",
    "ended",
];

/// The tables tested: the defaults at 2 to 5 players, and every non-default option that
/// changes what is visible (quads kept in hand, strict Chắn discards, ù forfeits).
fn games() -> Vec<Chan> {
    let mut out: Vec<Chan> = (2..=5).map(|n| Chan::standard(n).unwrap()).collect();
    for players in [3, 4] {
        out.push(
            Chan::new(Options {
                auto_expose_thien_khai: false,
                chan_discard_rule: ChanDiscardRule::Strict,
                u_pass_forfeit: true,
                ..Options::default_for(players)
            })
            .unwrap(),
        );
    }
    out
}

/// Calls `f` on the state before every decision of a seeded random hand, then on the end.
fn each_state(game: &Chan, master: u64, index: u64, mut f: impl FnMut(&ChanState)) {
    let mut state = game.deal(&mut stream_rng(master, index, DEAL_STREAM));
    let mut rng = stream_rng(master, index, agent_stream(0, 0));
    let mut legal = <ChanState as GameState>::Actions::default();
    while state.to_move().is_some() {
        f(&state);
        state.legal_actions(&mut legal);
        let actions = legal.as_slice();
        state.apply(actions[uniform_index(actions.len(), &mut rng)]);
    }
    f(&state);
}

/// Everything a seat's view encodes to.
#[derive(Debug, PartialEq)]
struct Encoded {
    observation: Value,
    tensor: Vec<f32>,
    legal: Vec<Action>,
    actions: Vec<Vec<f32>>,
}

/// The encodings of `seat`'s view of `state`; every vector starts as NaN, so a finite entry
/// was set.
fn encode(game: &Chan, state: &ChanState, seat: Seat) -> Encoded {
    let view = state.view(seat);
    let mut tensor = vec![f32::NAN; layout_len(&game.tensor_layout())];
    game.tensor(&view, &mut tensor);
    let mut buf = <ChanState as GameState>::Actions::default();
    view.legal_actions(&mut buf);
    let width = layout_len(&game.action_layout());
    let actions = buf.as_slice().iter().map(|&a| {
        let mut row = vec![f32::NAN; width];
        game.action_vector(&view, a, &mut row);
        row
    });
    Encoded {
        observation: game.observation(&view),
        tensor,
        actions: actions.collect(),
        legal: buf.as_slice().to_vec(),
    }
}

/// The keys of a JSON object, sorted.
fn keys(v: &Value) -> Vec<&str> {
    let map = v.as_object().expect("a JSON object");
    map.keys().map(String::as_str).collect()
}

/// `expected`, sorted (serde_json writes an object's keys sorted).
fn sorted<'a>(expected: &[&'a str]) -> Vec<&'a str> {
    let mut k = expected.to_vec();
    k.sort_unstable();
    k
}

/// The observation has exactly the documented keys, at every level, and no floats.
fn check_keys(o: &Value) {
    assert_eq!(keys(o), sorted(&KEYS));
    assert!(PHASES.contains(&o["phase"].as_str().unwrap()));
    for s in o["seats"].as_array().unwrap() {
        assert_eq!(keys(s), sorted(&SEAT_KEYS));
        for m in s["melds"].as_array().unwrap() {
            assert_eq!(keys(m), sorted(&MELD_KEYS));
        }
    }
    if !o["live"].is_null() {
        assert_eq!(keys(&o["live"]), sorted(&LIVE_KEYS));
    }
    assert!(no_floats(o), "{o}");
}

/// True when every number in `v` is an integer.
fn no_floats(v: &Value) -> bool {
    match v {
        Value::Number(x) => x.is_u64() || x.is_i64(),
        Value::Array(a) => a.iter().all(no_floats),
        Value::Object(m) => m.values().all(no_floats),
        _ => true,
    }
}

/// The finite-ness and lengths every encoding must have.
fn check_shape(game: &Chan, e: &Encoded) {
    assert_eq!(e.tensor.len(), layout_len(&game.tensor_layout()));
    assert!(e.tensor.iter().all(|x| x.is_finite()), "{:?}", e.tensor);
    for row in &e.actions {
        assert_eq!(row.len(), layout_len(&game.action_layout()));
        assert!(row.iter().all(|x| x.is_finite()), "{row:?}");
    }
    check_keys(&e.observation);
}

#[test]
fn views_encode_alike_in_every_determinization() {
    let (mut decisions, mut changed, mut compared) = (0u64, 0u64, 0u64);
    for (g, game) in games().iter().enumerate() {
        let n = game.seats() as Seat;
        for index in 0..10 {
            each_state(game, 70 + g as u64, index, |state| {
                decisions += 1;
                let truth: Vec<Encoded> = (0..n).map(|s| encode(game, state, s)).collect();
                for (s, e) in (0..n).zip(&truth) {
                    check_shape(game, e);
                    for seed in 1..=2 {
                        let mut rng = stream_rng(decisions, u64::from(s), seed);
                        let d = state.view(s).determinize(&mut rng);
                        let mut sample = encode(game, &d, s);
                        if state.to_move() != Some(s) {
                            // a seat waiting on another seat's silent window may be the next to
                            // decide in a sample whose hands open no window: only its choices
                            // (none now) differ, not what it sees
                            (sample.legal, sample.actions) = (e.legal.clone(), e.actions.clone());
                        }
                        assert_eq!(&sample, e, "seat {s}, state {decisions}");
                        for o in (0..n).filter(|&o| o != s) {
                            let other = game.observation(&d.view(o));
                            changed += u64::from(other != truth[o as usize].observation);
                            compared += 1;
                        }
                    }
                }
            });
        }
    }
    eprintln!("{decisions} states; {changed} of {compared} other-seat observations changed");
    // the test has power: determinization resamples the hidden hands the others see
    assert!(changed > compared / 2, "{changed} of {compared}");
}

/// The seats asked in the windows from `state` on (declining each), and the state the gate
/// owner then decides in.
fn decline_windows(state: &ChanState) -> (Vec<Seat>, ChanState) {
    let mut s = *state;
    let mut asked = Vec::new();
    while let Phase::UWindow { seat, .. } | Phase::ChiuWindow { seat, .. } = s.phase() {
        asked.push(seat);
        s.apply(Action::Decline);
    }
    (asked, s)
}

#[test]
fn windows_of_other_seats_are_silent() {
    let (mut windows, mut silent) = (0u64, 0u64);
    for (g, game) in games().iter().enumerate() {
        for index in 0..150 {
            each_state(game, 170 + g as u64, index, |state| {
                if !matches!(
                    state.phase(),
                    Phase::UWindow { .. } | Phase::ChiuWindow { .. }
                ) {
                    return;
                }
                windows += 1;
                let (asked, resumed) = decline_windows(state);
                for s in (0..game.seats() as Seat).filter(|s| !asked.contains(s)) {
                    let (w, r) = (state.view(s), resumed.view(s));
                    assert_eq!(game.observation(&w), game.observation(&r), "seat {s}");
                    let len = layout_len(&game.tensor_layout());
                    let (mut tw, mut tr) = (vec![0.0; len], vec![0.0; len]);
                    game.tensor(&w, &mut tw);
                    game.tensor(&r, &mut tr);
                    assert_eq!(tw, tr);
                    silent += 1;
                }
            });
        }
    }
    eprintln!("{windows} windows, {silent} silent views checked");
    assert!(
        windows > 300 && silent > windows,
        "{windows} windows, {silent} views"
    );
}

/// The expected lengths of the tensor and of an action vector at `n` players.
fn expected_lengths(n: usize) -> (usize, usize) {
    (144 + 115 * n, 60 + n)
}

/// Names are lowercase snake_case and unique; every segment is documented.
fn check_layout(layout: &[Segment]) {
    let mut names: Vec<_> = layout.iter().map(|s| s.name).collect();
    for s in layout {
        let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
        assert!(
            s.name.chars().all(ok) && s.len > 0 && !s.about.is_empty(),
            "{s:?}"
        );
    }
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), layout.len(), "unique names");
}

#[test]
fn layouts_add_up_for_every_table() {
    for game in games() {
        let (tensor, action) = (game.tensor_layout(), game.action_layout());
        check_layout(&tensor);
        check_layout(&action);
        let lengths = (layout_len(&tensor), layout_len(&action));
        assert_eq!(
            lengths,
            expected_lengths(game.seats()),
            "{:?}",
            game.options()
        );
        // the writers fill exactly the layout's length: a dealt view and its actions
        let state = game.deal(&mut stream_rng(5, 0, DEAL_STREAM));
        let f = state.to_move().unwrap();
        check_shape(&game, &encode(&game, &state, f));
    }
}

/// The entries of segment `name` in a vector of `layout`.
fn segment<'a>(layout: &[Segment], v: &'a [f32], name: &str) -> &'a [f32] {
    let mut at = 0;
    for s in layout {
        if s.name == name {
            return &v[at..at + s.len];
        }
        at += s.len;
    }
    panic!("no segment {name}")
}

/// The index of the one entry set in a one-hot, or `None` when all are 0.
fn hot(v: &[f32]) -> Option<usize> {
    assert!(v.iter().all(|&x| x == 0.0 || x == 1.0) && v.iter().sum::<f32>() <= 1.0);
    v.iter().position(|&x| x == 1.0)
}

/// The tensor agrees with the observation and the table: every identity's 4 copies are
/// somewhere, the 100 cards are, the one-hots name the JSON's seats and phase.
fn check_tensor(game: &Chan, e: &Encoded) {
    let (layout, t, o) = (game.tensor_layout(), &e.tensor, &e.observation);
    let seg = |name| segment(&layout, t, name);
    let n = game.seats();
    let me = o["seat"].as_u64().unwrap() as usize;
    let exposed = seg("exposed_by_seat");
    for i in 0..25 {
        let on_seats: f32 = (0..n).map(|k| exposed[25 * k + i]).sum();
        let parts = ["own_hand", "unseen", "dead", "live_card"].map(|s| seg(s)[i]);
        assert_eq!(parts.iter().sum::<f32>() + on_seats, 4.0, "identity {i}");
    }
    let total: f32 = [
        "hand_sizes",
        "exposed_by_seat",
        "dead",
        "live_card",
        "stock_size",
    ]
    .iter()
    .map(|s| seg(s).iter().sum::<f32>())
    .sum();
    assert_eq!(total, 100.0);
    assert_eq!(
        seg("hand_sizes")[0] as usize,
        o["hand"].as_array().unwrap().len()
    );
    assert_eq!(seg("own_hand").iter().sum::<f32>(), seg("hand_sizes")[0]);
    let unseen = o["unseen"].as_array().unwrap().len();
    assert_eq!(seg("unseen").iter().sum::<f32>() as usize, unseen);
    let phase = hot(seg("phase")).expect("a phase");
    assert_eq!(PHASES[phase], o["phase"].as_str().unwrap());
    let rel = |v: &Value| v.as_u64().map(|s| (s as usize + n - me) % n);
    assert_eq!(hot(seg("to_move")), rel(&o["to_move"]));
    assert_eq!(hot(seg("live_gate")), rel(&o["live"]["gate"]));
    assert_eq!(hot(seg("first_player")), rel(&o["first_player"]));
    assert_eq!(
        seg("stock_size")[0] as u64,
        o["stock_size"].as_u64().unwrap()
    );
}

/// Each action vector names its kind and moves the cards the action moves.
fn check_actions(game: &Chan, e: &Encoded) {
    let layout = game.action_layout();
    for (a, row) in e.legal.iter().zip(&e.actions) {
        let seg = |name| segment(&layout, row, name);
        let kind = hot(seg("kind")).expect("a kind");
        let (hand, table) = (seg("hand_cards"), hot(seg("table_card")));
        let moved = hand.iter().sum::<f32>();
        match *a {
            Action::Discard(x) => assert_eq!((kind, hand[x.index()], moved), (0, 1.0, 1.0)),
            Action::Eat { hand: h, card } => {
                assert_eq!(kind, if h == card { 1 } else { 2 });
                assert_eq!(
                    (hand[h.index()], moved, table),
                    (1.0, 1.0, Some(card.index()))
                );
            }
            Action::Chiu(t) => {
                assert_eq!((kind, hand[t.index()], table), (3, 3.0, Some(t.index())))
            }
            Action::ClaimU(c) => assert_eq!((kind, table), (8, Some(c.index()))),
            _ => assert_eq!(moved, 0.0, "{a}"),
        }
    }
}

#[test]
fn segments_hold_what_they_name() {
    let mut actions = 0;
    for (g, game) in games().iter().enumerate() {
        for index in 0..10 {
            each_state(game, 270 + g as u64, index, |state| {
                for s in 0..game.seats() as Seat {
                    let e = encode(game, state, s);
                    check_tensor(game, &e);
                    check_actions(game, &e);
                    actions += e.actions.len();
                }
            });
        }
    }
    assert!(actions > 1000, "{actions} action vectors checked");
}

#[test]
fn tensor_and_action_vectors_do_not_allocate() {
    let game = Chan::standard(4).unwrap();
    let mut tensor = vec![0.0; layout_len(&game.tensor_layout())];
    let mut row = vec![0.0; layout_len(&game.action_layout())];
    let mut buf = <ChanState as GameState>::Actions::default();
    let mut calls = 0u64;
    for index in 0..20 {
        let mut state = game.deal(&mut stream_rng(370, index, DEAL_STREAM));
        let mut rng = stream_rng(370, index, agent_stream(0, 0));
        let before = allocations();
        while let Some(p) = state.to_move() {
            for s in 0..4 {
                game.tensor(&state.view(s), &mut tensor);
            }
            let view = state.view(p);
            view.legal_actions(&mut buf);
            for &a in buf.as_slice() {
                game.action_vector(&view, a, &mut row);
                calls += 1;
            }
            state.apply(buf.as_slice()[uniform_index(buf.as_slice().len(), &mut rng)]);
        }
        assert_eq!(allocations(), before, "hand {index} allocated");
    }
    assert!(calls > 100);
}

// ---------------------------------------------------------------------------------------------
// The documentation

/// The documented example: seat to move after [`EXAMPLE_DECISIONS`] random decisions of deal 0
/// of master seed [`EXAMPLE_MASTER`], 4 players.
const EXAMPLE_MASTER: u64 = 2024;
/// See [`EXAMPLE_MASTER`].
const EXAMPLE_DECISIONS: usize = 40;

/// The example observation, one top-level key a line in the documented order.
fn example() -> (Value, String) {
    let game = Chan::standard(4).unwrap();
    let mut k = 0;
    let mut found = None;
    each_state(&game, EXAMPLE_MASTER, 0, |state| {
        if k == EXAMPLE_DECISIONS {
            found = Some(game.observation(&state.view(state.to_move().unwrap())));
        }
        k += 1;
    });
    let o = found.expect("the hand lasts long enough");
    let line = |key: &str| format!("  \"{key}\": {}", o[key]);
    let mut lines: Vec<String> = KEYS.iter().map(|&k| line(k)).collect();
    let seats: Vec<String> = o["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("    {s}"))
        .collect();
    lines[7] = format!("  \"seats\": [\n{}\n  ]", seats.join(",\n"));
    (o, format!("{{\n{}\n}}", lines.join(",\n")))
}

/// The documentation of Chắn's encodings.
fn docs() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/observations/chan.md");
    std::fs::read_to_string(path).expect("docs/observations/chan.md")
}

#[test]
fn the_documented_example_is_real() {
    let docs = docs();
    let (o, text) = example();
    let start = docs.find("```json\n").expect("a json block") + 8;
    let end = start + docs[start..].find("\n```").unwrap();
    let documented: Value = serde_json::from_str(&docs[start..end]).expect("valid JSON");
    assert!(documented == o, "the example is now:\n{text}");
}

/// The table of `layouts` at 2 to 5 players: one row per segment, then the total.
fn table(layouts: &[Vec<Segment>]) -> Vec<String> {
    let mut rows = Vec::new();
    for (i, s) in layouts[0].iter().enumerate() {
        let lens: Vec<String> = layouts.iter().map(|l| l[i].len.to_string()).collect();
        rows.push(format!(
            "| `{}` | {} | {} |",
            s.name,
            lens.join(" | "),
            s.about
        ));
    }
    let totals: Vec<String> = layouts
        .iter()
        .map(|l| format!("**{}**", layout_len(l)))
        .collect();
    rows.push(format!("| total | {} | |", totals.join(" | ")));
    rows
}

#[test]
fn the_documented_layouts_are_the_layouts() {
    let docs = docs();
    let games: Vec<Chan> = (2..=5).map(|n| Chan::standard(n).unwrap()).collect();
    let tensors: Vec<_> = games.iter().map(|g| g.tensor_layout()).collect();
    let actions: Vec<_> = games.iter().map(|g| g.action_layout()).collect();
    let mut missing = Vec::new();
    for row in table(&tensors).into_iter().chain(table(&actions)) {
        if !docs.contains(&row) {
            missing.push(row);
        }
    }
    assert!(missing.is_empty(), "rows missing:\n{}", missing.join("\n"));
}
