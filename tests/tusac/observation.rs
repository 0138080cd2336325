//! The observation, the view tensor and the action vectors of every variant
//! (`docs/observations/tusac.md`): functions of the seat's view only (a view and the same seat's
//! view of its determinizations encode alike), fixed lengths per game, finite entries, the
//! documented JSON keys, and no allocation in the hot calls.

use bailab::agent::uniform_index;
use bailab::game::{Game, GameState, Seat, SeatView};
use bailab::games::observe::{layout_len, Observe};
use bailab::games::tusac::actions::{Action, ActionList};
use bailab::games::tusac::card::Card;
use bailab::games::tusac::{TuSac, TuSacState, TuSacView};
use bailab::rng::{stream_rng, GameRng};
use serde_json::Value;

use crate::counting_alloc::allocations;

/// Every variant with its table sizes.
const VARIANTS: &[(&str, std::ops::RangeInclusive<u8>)] = &[
    ("classic", 2..=4),
    ("4sac", 2..=4),
    ("sisepai21", 2..=8),
    ("dirtyking26", 2..=8),
];

/// Determinizations checked per seat and decision.
const SEEDS: u64 = 2;

/// A view's encodings: the observation, the tensor, and the vector of each of `legal`.
#[derive(Debug, PartialEq)]
struct Encoded {
    observation: Value,
    tensor: Vec<f32>,
    actions: Vec<Vec<f32>>,
}

fn encode(game: &TuSac, view: &TuSacView<'_>, legal: &[Action]) -> Encoded {
    let mut tensor = vec![f32::NAN; layout_len(&game.tensor_layout())];
    game.tensor(view, &mut tensor);
    let width = layout_len(&game.action_layout());
    let actions = legal
        .iter()
        .map(|&a| {
            let mut row = vec![f32::NAN; width];
            game.action_vector(view, a, &mut row);
            row
        })
        .collect();
    Encoded {
        observation: game.observation(view),
        tensor,
        actions,
    }
}

fn legal(s: &TuSacState) -> Vec<Action> {
    let mut out = ActionList::default();
    s.legal_actions(&mut out);
    out.to_vec()
}

/// What one game's check counted.
#[derive(Default)]
struct Counts {
    decisions: usize,
    /// (decision, seat) pairs checked.
    checks: usize,
    /// Those where a determinization changed the next seat's observation.
    changed: usize,
}

/// Plays game `index` of `game` with uniform choices; at every decision checks, for every seat
/// and [`SEEDS`] determinizations, that the seat's encodings are the same in the determinized
/// state, and counts where the next seat's observation changed (the test's power).
fn check_game(game: &TuSac, index: u64, counts: &mut Counts) {
    let mut rng = stream_rng(2024, index, 0);
    let mut s = game.deal(&mut rng);
    let players = game.seats() as Seat;
    while let Some(mover) = s.to_move() {
        counts.decisions += 1;
        let actions = legal(&s);
        let truth: Vec<Encoded> = (0..players)
            .map(|x| encode(game, &s.view(x), if x == mover { &actions } else { &[] }))
            .collect();
        for x in 0..players {
            check_encoded(game, &truth[x as usize]);
            let mut det: GameRng = stream_rng(2024, index, 1 + u64::from(x));
            let mut changed = false;
            for _ in 0..SEEDS {
                let d = s.view(x).determinize(&mut det);
                let mine = if x == mover { &actions[..] } else { &[] };
                let got = encode(game, &d.view(x), mine);
                assert_eq!(
                    got,
                    truth[x as usize],
                    "{} {players}p game {index}: seat {x}'s encodings differ in a determinization",
                    game.variant()
                );
                let y = (x + 1) % players;
                changed = changed || game.observation(&d.view(y)) != truth[y as usize].observation;
            }
            counts.checks += 1;
            counts.changed += usize::from(changed);
        }
        s.apply(actions[uniform_index(actions.len(), &mut rng)]);
    }
}

/// Every entry set (finite: `encode` starts from NaN) and a small non-negative integer, every
/// action's kind set, and the vectors of one decision's actions pairwise distinct.
fn check_encoded(game: &TuSac, e: &Encoded) {
    let name = game.variant();
    let count = |x: &f32| x.is_finite() && *x >= 0.0 && x.fract() == 0.0;
    assert!(e.tensor.iter().all(count), "{name}: tensor {:?}", e.tensor);
    for (i, row) in e.actions.iter().enumerate() {
        assert!(row.iter().all(count), "{name}: action vector {row:?}");
        assert!(
            row.iter().any(|&x| x != 0.0),
            "{name}: an action's kind is set"
        );
        assert!(!e.actions[..i].contains(row), "{name}: two actions alike");
    }
}

/// Runs [`check_game`] on `games` games of every table size of `variant`.
fn check_variant(variant: &str, games: u64) {
    let sizes = VARIANTS.iter().find(|v| v.0 == variant).unwrap().1.clone();
    for players in sizes {
        let game = TuSac::preset(variant, players).unwrap();
        let mut counts = Counts::default();
        for index in 0..games {
            check_game(&game, index, &mut counts);
        }
        assert!(counts.decisions > 0, "{variant} {players}p: no decision");
        // the next seat's hand is resampled: its observation changes but where little is hidden
        assert!(
            counts.changed * 10 > counts.checks * 9,
            "{variant} {players}p: determinization changed the next seat's observation in only \
             {} of {} checks",
            counts.changed,
            counts.checks
        );
    }
}

#[test]
fn classic_encodings_are_functions_of_the_view() {
    check_variant("classic", 16);
}

#[test]
fn four_sac_encodings_are_functions_of_the_view() {
    check_variant("4sac", 12);
}

#[test]
fn sisepai21_encodings_are_functions_of_the_view() {
    check_variant("sisepai21", 1);
}

#[test]
fn dirtyking26_encodings_are_functions_of_the_view() {
    check_variant("dirtyking26", 1);
}

use crate::observation_keys::{ONE_PACK_KEYS, ONE_PACK_SEAT_KEYS, PACKS_KEYS, PACKS_SEAT_KEYS};
const PHASES: [&str; 4] = ["must_discard", "turn_option", "claim", "over"];

/// The sorted keys of a JSON object.
fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort();
    k
}

fn sorted(keys: &[&'static str]) -> Vec<&'static str> {
    let mut k = keys.to_vec();
    k.sort();
    k
}

/// A JSON list of card strings as cards (each string must be a card of the notation).
fn cards(v: &Value) -> Vec<Card> {
    let list = v.as_array().expect("a list of cards");
    list.iter()
        .map(|c| c.as_str().unwrap().parse::<Card>().unwrap())
        .collect()
}

/// A list of cards in canonical order.
fn canonical(v: &Value) -> Vec<Card> {
    let c = cards(v);
    assert!(c.windows(2).all(|w| w[0] <= w[1]), "canonical order: {v}");
    c
}

/// The entries of segment `name` of a tensor.
fn segment<'a>(game: &TuSac, tensor: &'a [f32], name: &str) -> &'a [f32] {
    let mut at = 0;
    for s in game.tensor_layout() {
        if s.name == name {
            return &tensor[at..at + s.len];
        }
        at += s.len;
    }
    panic!("no segment {name}")
}

/// Checks seat `x`'s observation and tensor of `s` against the state and the documentation.
fn check_documented(game: &TuSac, s: &TuSacState, x: Seat) {
    let view = s.view(x);
    let obs = game.observation(&view);
    let one_pack = matches!(game, TuSac::OnePack(_));
    let (want, seat_keys) = if one_pack {
        (sorted(&ONE_PACK_KEYS), sorted(&ONE_PACK_SEAT_KEYS))
    } else {
        (sorted(&PACKS_KEYS), sorted(&PACKS_SEAT_KEYS))
    };
    assert_eq!(keys(&obs), want);
    let n = game.seats();
    assert_eq!(obs["game"], "tusac");
    assert_eq!(obs["variant"], game.variant());
    assert_eq!(obs["players"], n);
    assert_eq!(obs["seat"], x);
    // the seat to move as this seat sees it: a multi-pack claim window shows as T's option
    let to_move = s
        .multi_pack()
        .map_or_else(|| s.to_move(), |p| p.view(x).to_move());
    assert_eq!(obs["to_move"], to_move.map_or(Value::Null, Value::from));
    assert!(PHASES.contains(&obs["phase"].as_str().unwrap()));
    let seats = obs["seats"].as_array().unwrap();
    assert_eq!(seats.len(), n);
    for (y, entry) in seats.iter().enumerate() {
        assert_eq!(keys(entry), seat_keys);
        assert_eq!(entry["seat"], y);
        for set in entry["sets"].as_array().unwrap() {
            assert_eq!(keys(set), ["cards", "kind", "origin"]);
            canonical(&set["cards"]);
        }
        canonical(&entry["discarded"]);
        let hidden = game.variant() == "4sac" && y != x as usize;
        assert_eq!(entry.get("khaps").is_some_and(Value::is_null), hidden);
    }
    if let Some(a) = obs["active"].as_object() {
        let mut k: Vec<&str> = a.keys().map(String::as_str).collect();
        k.sort();
        let want: &[&str] = if one_pack {
            &["card", "owner", "source", "worst"]
        } else {
            &["card", "owner", "source"]
        };
        assert_eq!(k, want);
        let card = s
            .one_pack()
            .map_or_else(|| s.multi_pack().unwrap().active(), |o| o.active());
        assert_eq!(a["card"], card.unwrap().card.to_string());
    }
    let hand = canonical(&obs["hand"]);
    assert_eq!(seats[x as usize]["hand_size"], hand.len());
    check_conservation(game, &obs, hand.len());
    check_relative_seats(game, &obs, s, x);
}

/// Every card is counted once over the zones the observation lists.
fn check_conservation(game: &TuSac, obs: &Value, hand: usize) {
    let len = |key: &str| obs.get(key).map_or(0, |v| cards(v).len());
    let sets: usize = obs["seats"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["sets"].as_array().unwrap())
        .map(|set| cards(&set["cards"]).len())
        .sum();
    let active = usize::from(!obs["active"].is_null());
    let public = len("dead") + len("unseen") + len("face_down") + len("stock_public");
    assert_eq!(
        hand + sets + active + public,
        game.options().deck_len(),
        "every card once: {obs}"
    );
}

/// A seat's hand size, read from the state.
fn hand_len(s: &TuSacState, y: Seat) -> usize {
    s.one_pack().map_or_else(
        || s.multi_pack().unwrap().hand_len(y),
        |o| o.private(y).len(),
    )
}

/// The observation's seats and the tensor's per-seat runs: run `k` is the seat `k` places
/// after the view's seat (its `hand_size`, and the mover's run of `to_move`).
fn check_relative_seats(game: &TuSac, obs: &Value, s: &TuSacState, x: Seat) {
    let n = game.seats();
    let mut tensor = vec![f32::NAN; layout_len(&game.tensor_layout())];
    game.tensor(&s.view(x), &mut tensor);
    let sizes = segment(game, &tensor, "hand_size");
    for (k, &size) in sizes.iter().enumerate() {
        let y = ((x as usize + k) % n) as Seat;
        assert_eq!(
            size as usize,
            hand_len(s, y),
            "hand_size run {k} of seat {x}"
        );
        assert_eq!(obs["seats"][y as usize]["hand_size"], hand_len(s, y));
    }
    let to_move = segment(game, &tensor, "to_move");
    let seen = obs["to_move"].as_u64().map(|m| m as usize);
    let want = seen.map(|m| (m + n - x as usize) % n);
    assert_eq!(to_move.iter().position(|&v| v == 1.0), want);
}

#[test]
fn observations_have_the_documented_keys_notation_and_seat_order() {
    for (variant, sizes) in VARIANTS {
        for players in [*sizes.start(), *sizes.end()] {
            let game = TuSac::preset(variant, players).unwrap();
            let mut rng = stream_rng(77, u64::from(players), 0);
            let mut s = game.deal(&mut rng);
            loop {
                (0..players).for_each(|x| check_documented(&game, &s, x));
                let Some(mover) = s.to_move() else { break };
                let actions = legal(&s);
                // the actions' cards are written as the hand's cards are
                let hand = game.observation(&s.view(mover))["hand"].to_string();
                for a in &actions {
                    let used: Vec<Card> = match a {
                        Action::Discard(c) => vec![*c],
                        Action::Meld(m) => m.used().to_vec(),
                        _ => vec![],
                    };
                    used.iter()
                        .for_each(|c| assert!(hand.contains(&format!("\"{c}\"")), "{a} {hand}"));
                }
                s.apply(actions[uniform_index(actions.len(), &mut rng)]);
            }
        }
    }
}

#[test]
fn layouts_are_fixed_named_and_documented_for_every_variant_and_table() {
    for (variant, sizes) in VARIANTS {
        for players in sizes.clone() {
            let game = TuSac::preset(variant, players).unwrap();
            let n = usize::from(players);
            let (layout, actions) = (game.tensor_layout(), game.action_layout());
            let want = match game {
                TuSac::OnePack(_) => 122 + 60 * n,
                TuSac::MultiPack(_) => 187 + 61 * n,
            };
            assert_eq!(layout_len(&layout), want, "{variant} {players}p");
            assert_eq!(layout_len(&actions), 74);
            for l in [&layout, &actions] {
                let mut names: Vec<&str> = l.iter().map(|s| s.name).collect();
                names.sort();
                names.dedup();
                assert_eq!(names.len(), l.len(), "unique names");
                for s in l.iter() {
                    let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
                    assert!(s.name.chars().all(ok) && s.len > 0 && !s.about.is_empty());
                }
            }
            // every entry is written, at the layout's length
            let s = game.deal(&mut stream_rng(5, u64::from(players), 0));
            for x in 0..players {
                let mut out = vec![f32::NAN; want];
                game.tensor(&s.view(x), &mut out);
                assert!(out.iter().all(|v| v.is_finite()), "{variant} {players}p");
            }
        }
    }
}

#[test]
fn tensor_and_action_vectors_do_not_allocate() {
    for (variant, players) in [
        ("classic", 4),
        ("4sac", 3),
        ("sisepai21", 8),
        ("dirtyking26", 5),
    ] {
        let game = TuSac::preset(variant, players).unwrap();
        let mut tensor = vec![0.0; layout_len(&game.tensor_layout())];
        let mut row = vec![0.0; layout_len(&game.action_layout())];
        let mut actions = ActionList::default();
        let mut rng = stream_rng(3, 0, 0);
        let mut s = game.deal(&mut rng);
        while let Some(mover) = s.to_move() {
            s.legal_actions(&mut actions);
            let before = allocations();
            for x in 0..players {
                game.tensor(&s.view(x), &mut tensor);
            }
            for &a in actions.iter() {
                game.action_vector(&s.view(mover), a, &mut row);
            }
            assert_eq!(
                allocations(),
                before,
                "{variant}: tensor or action vector allocated"
            );
            s.apply(actions[uniform_index(actions.len(), &mut rng)]);
        }
    }
}

#[test]
fn action_vectors_name_the_kind_the_cards_and_the_set() {
    let game = TuSac::preset("classic", 4).unwrap();
    let width = layout_len(&game.action_layout());
    let mut rng = stream_rng(11, 0, 0);
    let mut s = game.deal(&mut rng);
    let mut seen = [false; 3];
    while let Some(mover) = s.to_move() {
        let actions = legal(&s);
        let active = s.view(mover);
        for &a in &actions {
            let mut v = vec![0.0; width];
            game.action_vector(&active, a, &mut v);
            let (kind, set, from_hand, taken) = (&v[..6], &v[6..18], &v[18..46], &v[46..74]);
            assert_eq!(kind.iter().sum::<f32>(), 1.0);
            match a {
                Action::Discard(c) => {
                    seen[0] = true;
                    assert_eq!(kind[0], 1.0);
                    assert_eq!(from_hand[c.index()], 1.0);
                    assert_eq!(
                        from_hand.iter().sum::<f32>() + taken.iter().sum::<f32>(),
                        1.0
                    );
                }
                Action::Meld(m) => {
                    seen[1] = true;
                    assert_eq!(kind[1], 1.0);
                    assert_eq!(set[m.kind as usize], 1.0);
                    assert_eq!(from_hand.iter().sum::<f32>(), m.used().len() as f32);
                    assert_eq!(taken.iter().sum::<f32>(), 1.0);
                }
                _ => {
                    seen[2] = true;
                    assert_eq!(set.iter().chain(from_hand).chain(taken).sum::<f32>(), 0.0);
                }
            }
        }
        s.apply(actions[uniform_index(actions.len(), &mut rng)]);
    }
    assert_eq!(seen, [true; 3], "discards, melds and draws were checked");
}

/// Prints observations of real deals, as `docs/observations/tusac.md` shows them
/// (`cargo test --release --test tusac observation::example -- --nocapture`).
#[test]
fn example_observations() {
    for (variant, players, steps) in [("classic", 4, 9), ("dirtyking26", 4, 6)] {
        let game = TuSac::preset(variant, players).unwrap();
        let mut rng = stream_rng(1, 0, 0);
        let mut s = game.deal(&mut rng);
        for _ in 0..steps {
            let actions = legal(&s);
            s.apply(actions[uniform_index(actions.len(), &mut rng)]);
        }
        let obs = game.observation(&s.view(s.to_move().unwrap_or(0)));
        println!("{variant}: {}", serde_json::to_string(&obs).unwrap());
    }
}
