//! Partial deals (`docs/deals-spec.md`): fixed hands, some cards of a hand and the top of the
//! stock end up exactly where the specification puts them, the rest is random but the pack is
//! conserved, the deal is a function of (master seed, deal index); every impossible
//! specification is refused naming the card or seat; `play --deal`, `run` with a `[deal]` table
//! and `replay` agree and their records check.

use crate::common;
use bailab::deal_spec::PartialDeals;

use bailab::deal_spec::{deal_with_spec, DealLayout, DealSpec};
use bailab::game::RuleMap;
use bailab::games::chan::Chan;
use bailab::games::kind::GameKind;
use bailab::games::tienlen::TienLen;
use bailab::games::tusac::TuSac;
use bailab::rng::stream_rng;
use bailab::sim::deal::seeds::deal_rng;
use common::{fails, ok, stdout, Scratch};
use std::collections::BTreeMap;

/// The deck of a dealt state, as the record writes it.
fn deck_of<G: GameKind>(state: &G::State) -> Vec<String> {
    G::record_setup(state)
        .deck
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Sorted copy (a multiset as a list).
fn sorted(cards: &[String]) -> Vec<String> {
    let mut v = cards.to_vec();
    v.sort();
    v
}

/// True when `part` is a sub-multiset of `whole`.
fn within(part: &[String], whole: &[String]) -> bool {
    let mut left: BTreeMap<&str, i32> = BTreeMap::new();
    whole.iter().for_each(|c| *left.entry(c).or_default() += 1);
    part.iter().all(|c| {
        let n = left.entry(c).or_default();
        *n -= 1;
        *n >= 0
    })
}

/// A specification taken from a seeded deal of `game`: seat 0's whole hand, the first three
/// cards of seat 1's and (where there is a stock) the top two cards of the stock, each in the
/// deal's order; returns the spec and the fixed (position, card) pairs.
fn spec_from_deal<G: GameKind>(game: &G) -> (DealSpec, Vec<(usize, String)>) {
    let base = deck_of::<G>(&game.deal(&mut stream_rng(99, 0, 0)));
    let layout: DealLayout = game.deal_layout(None).unwrap();
    let mut fixed = Vec::new();
    let mut map = RuleMap::new();
    let mut list = |key: &str, positions: &[usize], rest: bool| {
        let cards: Vec<String> = positions.iter().map(|&p| base[p].clone()).collect();
        fixed.extend(positions.iter().map(|&p| (p, base[p].clone())));
        let text = cards.join(" ") + if rest { " ..." } else { "" };
        map.insert(key.into(), text.into());
    };
    list("seat0", &layout.hands[0], false);
    list("seat1", &layout.hands[1][..3], true);
    if !layout.stock.is_empty() {
        list("stock_top", &layout.stock[..2], false);
    }
    (DealSpec(map), fixed)
}

/// Fixed cards at their positions; the pack conserved; same (seed, index) same deal; other
/// indices differ; the seat's dealt hand (read from the state) holds its fixed cards.
fn fixed_cards_land<G: GameKind>(game: &G, dealt_hand: impl Fn(&G::State, u8) -> Vec<String>) {
    let (spec, fixed) = spec_from_deal(game);
    let plan = spec.check(game).unwrap();
    assert_eq!(plan.fixed_count(), fixed.len());
    let layout = game.deal_layout(None).unwrap();
    let pack = sorted(&layout.pack);
    let mut decks = Vec::new();
    for index in 0..20 {
        let state = deal_with_spec(game, &plan, &mut deal_rng(5, index, 0));
        let deck = deck_of::<G>(&state);
        for (p, card) in &fixed {
            assert_eq!(&deck[*p], card, "deal {index}: position {p}");
        }
        assert_eq!(sorted(&deck), pack, "deal {index}: the deck is one pack");
        let again = deal_with_spec(game, &plan, &mut deal_rng(5, index, 0));
        assert_eq!(deck_of::<G>(&again), deck, "deal {index} repeats");
        let hand0: Vec<String> = layout.hands[0].iter().map(|&p| deck[p].clone()).collect();
        assert_eq!(sorted(&dealt_hand(&state, 0)), sorted(&hand0));
        let seat1: Vec<String> = fixed
            .iter()
            .filter(|(p, _)| layout.hands[1].contains(p))
            .map(|(_, c)| c.clone())
            .collect();
        assert!(within(&seat1, &dealt_hand(&state, 1)), "deal {index}");
        decks.push(deck);
    }
    let mut distinct = decks.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), decks.len(), "different deal indices differ");
    let other = deal_with_spec(game, &plan, &mut deal_rng(6, 0, 0));
    assert_ne!(
        deck_of::<G>(&other),
        decks[0],
        "another master seed differs"
    );
}

#[test]
fn tusac_fixed_cards_land_where_specified() {
    fixed_cards_land(&TuSac::preset("classic", 4).unwrap(), |s, seat| {
        let s = s.one_pack().unwrap();
        let mut cards: Vec<String> = s.private(seat).cards().map(|c| c.to_string()).collect();
        for set in s.public_sets(seat) {
            cards.extend(set.cards().iter().map(|c| c.to_string()));
        }
        cards
    });
}

#[test]
fn tienlen_fixed_cards_land_where_specified() {
    for players in [4, 3] {
        fixed_cards_land(&TienLen::standard(players).unwrap(), |s, seat| {
            s.hand(seat).iter().map(|c| c.to_string()).collect()
        });
    }
}

#[test]
fn chan_fixed_cards_land_where_specified() {
    fixed_cards_land(&Chan::standard(4).unwrap(), |s, seat| {
        s.seat(seat)
            .initial()
            .cards()
            .map(|c| c.to_string())
            .collect()
    });
}

#[test]
fn the_fill_is_uniform_over_the_free_cards() {
    // One fixed card; over many deals every other card reaches seat 1's first position.
    let game = TienLen::standard(4).unwrap();
    let mut map = RuleMap::new();
    map.insert("seat0".into(), "3s ...".into());
    let plan = DealSpec(map).check(&game).unwrap();
    let layout = game.deal_layout(None).unwrap();
    let mut seen = BTreeMap::new();
    for index in 0..5000 {
        let deck = deck_of::<TienLen>(&deal_with_spec(&game, &plan, &mut deal_rng(1, index, 0)));
        *seen.entry(deck[layout.hands[1][0]].clone()).or_insert(0u32) += 1;
    }
    assert!(!seen.contains_key("3s"));
    assert_eq!(seen.len(), 51, "every free card reaches the position");
    // 5000 / 51 ≈ 98 each: a biased fill (e.g. free cards in pack order) would leave some at 0.
    assert!(seen.values().all(|&n| n > 50), "{seen:?}");
}

/// A full specification of every hand and the stock from `play --json`'s deck, in its order.
fn full_spec(game: &str, deck: &[String], seats: usize) -> String {
    struct Full(Vec<String>, usize);
    impl bailab::games::GameVisitor for Full {
        type Output = String;
        fn visit<G: GameKind>(self) -> String {
            let Full(deck, seats) = self;
            let game = G::build(G::INFO.variants[0], seats, &RuleMap::new()).unwrap();
            let layout = game.deal_layout(None).unwrap();
            let list = |ps: &[usize]| {
                ps.iter()
                    .map(|&p| deck[p].as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let mut toml = String::from("[deal]\n");
            for (s, ps) in layout.hands.iter().enumerate() {
                toml += &format!("seat{s} = \"{}\"\n", list(ps));
            }
            if !layout.stock.is_empty() {
                toml += &format!("stock_top = \"{}\"\n", list(&layout.stock));
            }
            toml
        }
    }
    bailab::games::with_game(game, Full(deck.to_vec(), seats)).unwrap()
}

#[test]
fn a_full_specification_plays_as_the_deck() {
    let dir = Scratch::new("partial-full");
    for game in ["tusac", "tienlen", "chan"] {
        let base = [
            "play", "--game", game, "--seed", "21", "--agent", "greedy", "--agent", "random",
            "--json",
        ];
        let by_seed: serde_json::Value = serde_json::from_str(&stdout(&ok(&dir.0, &base))).unwrap();
        let deck: Vec<String> = by_seed["deck"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let spec = dir.write(&format!("{game}.toml"), &full_spec(game, &deck, 4));
        let mut with_deck = base.to_vec();
        let deck_text = deck.join(" ");
        with_deck.extend(["--deck", &deck_text]);
        let mut with_spec = base.to_vec();
        with_spec.extend(["--deal", &spec]);
        let a: serde_json::Value = serde_json::from_str(&stdout(&ok(&dir.0, &with_deck))).unwrap();
        let b: serde_json::Value = serde_json::from_str(&stdout(&ok(&dir.0, &with_spec))).unwrap();
        for key in ["deck", "setup", "first", "events", "outcome"] {
            assert_eq!(a[key], b[key], "{game}: {key}");
        }
        assert_eq!(a["deck"], by_seed["deck"]);
    }
}

/// Writes a deal file and runs `play --deal` on it; returns the error.
fn refused(dir: &Scratch, game: &str, players: &str, spec: &str) -> String {
    let file = dir.write("bad.toml", spec);
    let args = [
        "play",
        "--game",
        game,
        "--players",
        players,
        "--deal",
        &file,
    ];
    fails(&dir.0, &args)
}

#[test]
fn impossible_specifications_name_the_card_or_seat() {
    let dir = Scratch::new("partial-errors");
    let cases: &[(&str, &str, &str, &[&str])] = &[
        // too many copies across hands and the stock top
        (
            "tusac",
            "[deal]\nseat0 = \"rK rK rK ...\"\nstock_top = \"rK rK\"\n",
            "4",
            &["rK", "5 times", "seat0 ×3", "stock_top ×2", "holds 4"],
        ),
        (
            "tienlen",
            "seat0 = \"3s ...\"\nseat2 = \"3s ...\"\n",
            "4",
            &["3s", "2 times", "seat0", "seat2", "holds 1"],
        ),
        (
            "chan",
            "seat1 = \"ch ch ch ...\"\nseat2 = \"ch ch ...\"\n",
            "4",
            &["ch", "5 times", "holds 4"],
        ),
        // more copies than the pack holds (a classic pack: 4 of each card)
        (
            "tusac",
            "seat0 = \"rK rK rK rK rK ...\"\n",
            "4",
            &["seat0 ×5", "card rK is fixed 5 times", "the pack holds 4"],
        ),
        // a whole hand of the wrong size
        (
            "tusac",
            "seat1 = \"rK yK gK\"\n",
            "4",
            &["seat1", "3 cards", "holds 20", "'...'"],
        ),
        (
            "tusac",
            "seat0 = \"rK yK gK\"\n",
            "4",
            &["seat0", "holds 21"],
        ),
        (
            "chan",
            "seat2 = \"2v\"\n",
            "4",
            &["seat2", "1 cards", "holds 19"],
        ),
        (
            "tienlen",
            "seat3 = \"3s 4s\"\n",
            "4",
            &["seat3", "2 cards", "holds 13"],
        ),
        // more fixed cards than the hand holds
        (
            "tienlen",
            "seat1 = \"3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2s 3h ...\"\n",
            "4",
            &["seat1", "14 cards fixed", "only 13"],
        ),
        // an unknown seat
        (
            "tusac",
            "seat5 = \"rK ...\"\n",
            "4",
            &["seat5", "seat 5 is not at the table of 4"],
        ),
        (
            "chan",
            "seat3 = \"ch ...\"\n",
            "3",
            &["seat3", "table of 3"],
        ),
        // a card not in the game's notation
        (
            "tusac",
            "seat2 = \"rK zQ ...\"\n",
            "4",
            &["seat2", "card 2 'zQ'", "not a Tứ Sắc card"],
        ),
        (
            "tienlen",
            "seat0 = \"3s 1x ...\"\n",
            "4",
            &["seat0", "card 2 '1x'"],
        ),
        (
            "chan",
            "stock_top = \"2v 9q\"\n",
            "4",
            &["stock_top", "card 2 '9q'"],
        ),
        // a stock top longer than the stock (31 at four Tứ Sắc seats, none in Tiến Lên)
        (
            "tusac",
            &format!(
                "stock_top = \"{}\"\n",
                ["rK"; 4].join(" ")
                    + &" yK".repeat(4)
                    + &" gK".repeat(4)
                    + &" wK".repeat(4)
                    + &" rA".repeat(4)
                    + &" yA".repeat(4)
                    + &" gA".repeat(4)
                    + &" wA".repeat(4)
            ),
            "4",
            &["stock_top", "32 cards", "stock holds 31"],
        ),
        (
            "tienlen",
            "stock_top = \"3s\"\n",
            "4",
            &["stock_top", "no stock"],
        ),
        // unknown keys, '...' in the middle, a value that is not text, a bad first seat
        (
            "tusac",
            "[deal]\nseats0 = \"rK ...\"\n",
            "4",
            &["unknown key 'seats0'", "seat0 to seat3"],
        ),
        ("chan", "hand = \"ch ...\"\n", "4", &["unknown key 'hand'"]),
        (
            "tusac",
            "seat0 = \"rK ... yK\"\n",
            "4",
            &["seat0", "card 2 '...'"],
        ),
        ("tusac", "seat0 = 12\n", "4", &["'seat0' = 12", "quotes"]),
        ("chan", "first = 4\n", "4", &["'first' = 4", "seats 0 to 3"]),
        (
            "tusac",
            "first = 1\n",
            "4",
            &["'first' = 1", "first_player"],
        ),
        (
            "tusac",
            "[deal]\nseat0 = \"rK ...\"\nstok_top = \"rK\"\n",
            "4",
            &["unknown key 'stok_top'"],
        ),
    ];
    for (game, spec, players, words) in cases {
        let err = refused(&dir, game, players, spec);
        assert!(err.contains("bad.toml"), "{game} {spec}: {err}");
        for w in *words {
            assert!(err.contains(w), "{game} {spec}: '{w}' missing from: {err}");
        }
    }
    let missing = fails(&dir.0, &["play", "--deal", "no-such.toml"]);
    assert!(missing.contains("no-such.toml"), "{missing}");
    let broken = refused(&dir, "tusac", "4", "seat0 = \"rK\n");
    assert!(broken.contains("line 1"), "{broken}");
}

/// A small experiment with a `[deal]` table.
fn experiment(dir: &Scratch, name: &str, extra: &str) -> String {
    dir.write(
        &format!("{name}.toml"),
        &format!(
            "name = \"{name}\"\ngame = \"tusac\"\nagents = [\"greedy\", \"random\", \"random\"]\n\
             deals = 6\nseed = 4\nrotate = true\noutput = \"out-{name}\"\nrecords = true\n\
             {extra}\n[deal]\nseat0 = \"rK rK yK yK gK gK wK wK ...\"\nstock_top = \"rP rP\"\n"
        ),
    )
}

#[test]
fn a_run_with_a_deal_table_fixes_every_deal_and_its_records_check() {
    let dir = Scratch::new("partial-run");
    let file = experiment(&dir, "fixed", "");
    let run = |threads: &str, out: &str| {
        let o = ok(
            &dir.0,
            &["run", &file, "--threads", threads, "--output", out],
        );
        (
            stdout(&o),
            std::fs::read_to_string(dir.path(out).join("records.jsonl")).unwrap(),
        )
    };
    let (summary, records) = run("1", "one");
    assert!(
        summary.contains("seat 0: 8 of 21 cards")
            && summary.contains("stock top: 2 cards")
            && summary.contains("agents rotate through them"),
        "{summary}"
    );
    let (_, records2) = run("2", "two");
    assert_eq!(records, records2, "the same records on any thread count");
    let lines: Vec<&str> = records.lines().collect();
    assert_eq!(lines.len(), 6 * 3);
    let mut decks = Vec::new();
    for line in &lines {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        let deck: Vec<&str> = r["deck"].as_str().unwrap().split_whitespace().collect();
        // Three seats, 20 cards each: seat 0 holds deck[0], deck[3], …; the stock starts at 61.
        let seat0: Vec<&str> = (0..8).map(|k| deck[3 * k]).collect();
        assert_eq!(seat0, ["rK", "rK", "yK", "yK", "gK", "gK", "wK", "wK"]);
        assert_eq!(&deck[61..63], ["rP", "rP"]);
        decks.push(r["deck"].as_str().unwrap().to_string());
    }
    // All rotations of a deal share its deck; different deals differ.
    for d in 0..6 {
        assert!(decks[3 * d..3 * d + 3].iter().all(|x| *x == decks[3 * d]));
    }
    let mut distinct: Vec<&String> = decks.iter().step_by(3).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 6);
    let check = ok(&dir.0, &["check", "one/records.jsonl"]);
    assert!(
        stdout(&check).contains("18 ok, 0 failed"),
        "{}",
        stdout(&check)
    );
    // Replay gives the run's game, record for record.
    let replay = ok(
        &dir.0,
        &["replay", &file, "--deal", "4", "--rotation", "2", "--json"],
    );
    let a: serde_json::Value = serde_json::from_str(&stdout(&replay)).unwrap();
    let b: serde_json::Value = serde_json::from_str(lines[4 * 3 + 2]).unwrap();
    assert_eq!(a, b);
    // The log of a replay names the deal specification.
    let log = ok(&dir.0, &["replay", &file, "--deal", "4"]);
    assert!(stdout(&log).contains("(deal [deal]: seat 0: 8 of 21 cards"));
}

#[test]
fn play_with_a_deal_file_deals_as_the_run() {
    let dir = Scratch::new("partial-play");
    let file = experiment(&dir, "same", "");
    let deal = dir.write(
        "deal.toml",
        "[deal]\nseat0 = \"rK rK yK yK gK gK wK wK ...\"\nstock_top = \"rP rP\"\n",
    );
    ok(&dir.0, &["run", &file, "-q"]);
    let records = std::fs::read_to_string(dir.path("out-same/records.jsonl")).unwrap();
    let run_deal3: serde_json::Value =
        serde_json::from_str(records.lines().nth(3 * 3).unwrap()).unwrap();
    let o = ok(
        &dir.0,
        &[
            "play",
            "--players",
            "3",
            "--seed",
            "4",
            "--index",
            "3",
            "--deal",
            &deal,
            "--agent",
            "greedy",
            "--agent",
            "random",
            "--agent",
            "random",
            "--json",
        ],
    );
    let played: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(played["deck"], run_deal3["deck"]);
    assert_eq!(played["events"], run_deal3["events"]);
    let game = dir.write("game.json", &stdout(&o));
    ok(&dir.0, &["check", &game]);
}

#[test]
fn experiments_refuse_a_bad_deal_table() {
    let dir = Scratch::new("partial-exp");
    let matches = experiment(&dir, "matches", "match_games = 2");
    let err = fails(&dir.0, &["run", &matches, "-q"]);
    assert!(
        err.contains("table [deal]") && err.contains("match_games"),
        "{err}"
    );
    let bad = dir.write(
        "bad.toml",
        "game = \"tusac\"\nagents = [\"random\", \"random\"]\ndeals = 2\n\
         [deal]\nseat2 = \"rK ...\"\n",
    );
    let err = fails(&dir.0, &["run", &bad, "-q"]);
    assert!(
        err.contains("bad.toml") && err.contains("table [deal]") && err.contains("seat2"),
        "{err}"
    );
    let err = fails(&dir.0, &["replay", &bad, "--deal", "0"]);
    assert!(err.contains("seat2"), "{err}");
}

#[test]
fn first_moves_the_deal_where_the_game_has_it() {
    let dir = Scratch::new("partial-first");
    // Chắn: the first player gets the 20th card; the record says so and checks.
    let chan = dir.write(
        "chan.toml",
        "first = 2\nseat2 = \"2v 2v 2v 2v 3v 3v 3v 3v 4v 4v 4v 4v 5v 5v 5v 5v 6v 6v 6v 6v\"\n",
    );
    let o = ok(
        &dir.0,
        &["play", "--game", "chan", "--deal", &chan, "--json"],
    );
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["first"], 2);
    assert_eq!(r["setup"]["first"], 2);
    let deck: Vec<&str> = r["deck"].as_str().unwrap().split_whitespace().collect();
    let seat2: Vec<&str> = (0..19).map(|k| deck[4 * k]).chain([deck[76]]).collect();
    assert_eq!(
        seat2.join(" "),
        "2v 2v 2v 2v 3v 3v 3v 3v 4v 4v 4v 4v 5v 5v 5v 5v 6v 6v 6v 6v"
    );
    let game = dir.write("chan.json", &stdout(&o));
    ok(&dir.0, &["check", &game]);
    // Tiến Lên: `first` is the dealer, who receives deck[0].
    let tienlen = dir.write("tienlen.toml", "first = 1\nseat1 = \"2h ...\"\n");
    let o = ok(
        &dir.0,
        &["play", "--game", "tienlen", "--deal", &tienlen, "--json"],
    );
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["setup"]["dealer"], 1);
    assert!(r["deck"].as_str().unwrap().starts_with("2h "));
    let game = dir.write("tienlen.json", &stdout(&o));
    ok(&dir.0, &["check", &game]);
}

/// §1.4 step 1, counted on the deck as a record writes it: every seat of the deal holds a King
/// or three identical non-King cards (the hands read through the game's layout).
fn every_seat_passes_the_redeal_check(game: &TuSac, deck: &[String]) -> Result<(), usize> {
    let layout = game.deal_layout(None).unwrap();
    for (seat, positions) in layout.hands.iter().enumerate() {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        positions
            .iter()
            .for_each(|&p| *counts.entry(deck[p].as_str()).or_default() += 1);
        let live = counts
            .iter()
            .any(|(c, &n)| if c.ends_with('K') { n >= 1 } else { n >= 3 });
        if !live {
            return Err(seat);
        }
    }
    Ok(())
}

/// 19 distinct non-King cards: a hand that needs a King in its one free card to be dealt.
const NO_KING_NO_PAIR: &str = "rA rE rR rC rH yA yE yR yC yH gA gE gR gC gH wA wE wR wC";

#[test]
fn partial_deals_of_sisepai21_and_dirtyking26_are_redealt_as_the_rules_say() {
    // seat 1's one free card must be a King (about 1 draw in 6): without the redeal of §1.4
    // step 1 most of these deals would be played with a dead hand
    let spec = DealSpec::parse(&format!("seat1 = \"{NO_KING_NO_PAIR} ...\"\n"), "t").unwrap();
    for variant in ["sisepai21", "dirtyking26"] {
        let game = TuSac::preset(variant, 4).unwrap();
        let plan = spec.check(&game).unwrap();
        for index in 0..60 {
            let state = deal_with_spec(&game, &plan, &mut deal_rng(32, index, 0));
            let deck = deck_of::<TuSac>(&state);
            assert_eq!(
                every_seat_passes_the_redeal_check(&game, &deck),
                Ok(()),
                "{variant} deal {index}"
            );
            let again = deal_with_spec(&game, &plan, &mut deal_rng(32, index, 0));
            assert_eq!(
                deck_of::<TuSac>(&again),
                deck,
                "{variant} deal {index} repeats"
            );
        }
    }
    // classic has no redeal: the same kind of specification is dealt as drawn
    let classic = TuSac::preset("classic", 4).unwrap();
    let plan = spec.check(&classic).unwrap();
    let dead = (0..60).filter(|&i| {
        let state = deal_with_spec(&classic, &plan, &mut deal_rng(32, i, 0));
        every_seat_passes_the_redeal_check(&classic, &deck_of::<TuSac>(&state)).is_err()
    });
    assert!(dead.count() > 10, "the hand is dead in most classic deals");
}

#[test]
fn a_hand_the_rules_always_redeal_is_refused_naming_the_seat() {
    let dir = Scratch::new("partial-redeal");
    for variant in ["sisepai21", "dirtyking26"] {
        // a whole hand (20 cards at seat 1; 25 in dirtyking26) with neither a King nor a triple
        let whole = match variant {
            "sisepai21" => format!("{NO_KING_NO_PAIR} wH"),
            _ => format!("{NO_KING_NO_PAIR} wH rA rE rR rC rH"),
        };
        let file = dir.write("dead.toml", &format!("seat1 = \"{whole}\"\n"));
        let err = fails(
            &dir.0,
            &[
                "play",
                "--game",
                "tusac",
                "--variant",
                variant,
                "--deal",
                &file,
            ],
        );
        for w in [
            "dead.toml",
            "seat1:",
            "neither a King nor three identical",
            "§1.4 step 1",
        ] {
            assert!(err.contains(w), "{variant}: '{w}' missing from: {err}");
        }
    }
    // each of seats 1 and 2 could take the one King left to chance, but not both
    let kings = |n: usize| ["rK", "yK", "gK", "wK"].repeat(8)[..n].join(" ");
    let file = dir.write(
        "both.toml",
        &format!(
            "seat0 = \"{} ...\"\nstock_top = \"{}\"\nseat1 = \"{NO_KING_NO_PAIR} ...\"\n\
             seat2 = \"{NO_KING_NO_PAIR} ...\"\n",
            kings(21),
            ["wK", "gK", "yK", "rK", "wK", "gK", "yK", "rK", "wK", "gK"].join(" ")
        ),
    );
    let err = fails(
        &dir.0,
        &[
            "play",
            "--game",
            "tusac",
            "--variant",
            "sisepai21",
            "--deal",
            &file,
        ],
    );
    assert!(
        err.contains("no deal of this specification passes the redeal rule")
            && (err.contains("seat1:") || err.contains("seat2:")),
        "{err}"
    );
    // classic does not redeal: the dead whole hand is played
    let file = dir.write(
        "classic.toml",
        &format!("seat1 = \"{NO_KING_NO_PAIR} wH\"\n"),
    );
    ok(&dir.0, &["play", "--game", "tusac", "--deal", &file]);
}

#[test]
fn a_deal_file_the_rules_redeal_is_redrawn_and_its_record_checks() {
    // the deal the issue found: with seat 1's two gP fixed, deal 176 of seed 32 left a seat with
    // neither a King nor three identical non-King cards, and `check` rejected its record
    let dir = Scratch::new("partial-redeal-play");
    let file = dir.write("deal.toml", "[deal]\nseat1 = \"gP gP ...\"\n");
    let args = [
        "play",
        "--game",
        "tusac",
        "--variant",
        "sisepai21",
        "--seed",
        "32",
        "--index",
        "176",
        "--deal",
        &file,
        "--json",
    ];
    let o = ok(&dir.0, &args);
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let deck: Vec<String> = r["deck"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let game = TuSac::preset("sisepai21", 4).unwrap();
    assert_eq!(every_seat_passes_the_redeal_check(&game, &deck), Ok(()));
    let layout = game.deal_layout(None).unwrap();
    assert_eq!(deck[layout.hands[1][0]], "gP");
    assert_eq!(deck[layout.hands[1][1]], "gP");
    let record = dir.write("game.json", &stdout(&o));
    let check = ok(&dir.0, &["check", &record]);
    assert!(
        stdout(&check).contains("1 ok, 0 failed"),
        "{}",
        stdout(&check)
    );
}

use crate::counting_alloc;
use counting_alloc::allocations;

fn deals_allocate<G: GameKind>(game: &G) -> u64 {
    let (spec, _) = spec_from_deal(game);
    let plan = spec.check(game).unwrap();
    let mut rng = deal_rng(3, 0, 0);
    let before = allocations();
    for _ in 0..1000 {
        std::hint::black_box(deal_with_spec(game, &plan, &mut rng));
    }
    allocations() - before
}

#[test]
fn dealing_from_a_plan_does_not_allocate() {
    assert_eq!(deals_allocate(&TuSac::preset("classic", 4).unwrap()), 0);
    // the multi-pack deal draws its free cards again while the rules redeal (§1.4 step 1)
    assert_eq!(deals_allocate(&TuSac::preset("sisepai21", 4).unwrap()), 0);
    assert_eq!(deals_allocate(&TienLen::standard(4).unwrap()), 0);
    assert_eq!(deals_allocate(&Chan::standard(4).unwrap()), 0);
}
