//! The one way to deal and play (`sim::deal`): deal `i` of a seed is the same deal from every
//! entry point (the library's `seeded_deal`, the deal loop of `run` and `play`, `bailab run`'s
//! records, `bailab play`, the deal study), and the one play loop calls every agent's hooks,
//! stopping at the seats its caller plays from outside.

use crate::common::{self, ok, Scratch};

use bailab::agent::Agent;
use bailab::game::{GameId, GameState, Outcome, RuleMap, Seat, MAX_SEATS};
use bailab::games::chan::Chan;
use bailab::games::kind::{GameCore, GameKind, Per, NOT_APPLICABLE, NOT_MEASURED};
use bailab::games::tienlen::TienLen;
use bailab::games::tusac::TuSac;
use bailab::generic_agents::FirstAgent;
use bailab::rng::GameRng;
use bailab::sim::deal::seeds::{agent_rngs, seeded_deal};
use bailab::sim::deal::turns::{play_out, Turn, Turns, OUTSIDE};
use bailab::sim::deal::{DealLoop, Event, Seating};
use bailab::sim::play::play;
use bailab::study::deals::count_chunk;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// The deck of a dealt state, as records write it.
fn deck_of<G: GameKind>(state: &G::State) -> String {
    G::record_setup(state).deck
}

/// The first state of each rotation of deal `deal` in the deal loop `bailab run` plays.
fn loop_decks<G: GameKind>(game: &G, seed: u64, deal: u64) -> Vec<String> {
    let looper = DealLoop::seeded(game, seed, Seating::Rotate(2), 0..2);
    let mut agents: Vec<Box<dyn Agent<G::State>>> =
        vec![Box::new(FirstAgent), Box::new(FirstAgent)];
    let mut decks = Vec::new();
    looper.play(deal, &mut agents, |_, event| {
        if let Event::Step((s, None)) = event {
            decks.push(deck_of::<G>(s));
        }
    });
    decks
}

/// Whether the deal study counted, in its one deal `deal` of `seed`, the measures of `state`.
fn study_counts<G: GameKind>(game: &G, seed: u64, deal: u64, state: &G::State) -> bool {
    let counts = count_chunk(game, seed, deal..deal + 1);
    let mut rows = vec![[NOT_MEASURED; MAX_SEATS]; G::DEAL_MEASURES.len()];
    G::measure_deal(state, &mut rows);
    G::DEAL_MEASURES.iter().enumerate().all(|(m, info)| {
        let slots = if info.per == Per::Hand {
            game.seats()
        } else {
            1
        };
        let mut expected = vec![0u64; info.max as usize + 1];
        for &v in &rows[m][..slots] {
            if v != NOT_MEASURED && v != NOT_APPLICABLE {
                expected[v as usize] += 1;
            }
        }
        counts.counts[m] == expected
    })
}

/// Deal `deal` of `seed` from the library, the deal loop, `play` and the deal study.
fn same_deal_in_the_library<G: GameKind>(game: &G, seed: u64, deal: u64) -> String {
    let state = seeded_deal(game, seed, deal);
    let deck = deck_of::<G>(&state);
    assert_eq!(loop_decks(game, seed, deal), [deck.clone(), deck.clone()]);
    let id = GameId {
        master: seed,
        deal,
        rotation: 1,
    };
    let played = play(game, id, None, &["first".to_string()]).unwrap();
    assert_eq!(played.record.deck, deck, "{} deal {deal}", G::INFO.name);
    assert!(study_counts(game, seed, deal, &state));
    deck
}

/// The decks of `bailab run`'s records of `deals` deals of `seed`, by deal (every rotation's the
/// same).
fn run_decks(s: &Scratch, game: &str, seed: u64, deals: u64) -> BTreeMap<u64, String> {
    let toml = format!(
        "name = \"d\"\ngame = \"{game}\"\nagents = [\"first\", \"random\"]\ndeals = {deals}\n\
         seed = {seed}\nrecords = true\n"
    );
    s.write("d.toml", &toml);
    ok(
        &s.0,
        &["run", "d.toml", "--output", "d", "--quiet", "--force"],
    );
    let text = std::fs::read_to_string(s.path("d/records.jsonl")).unwrap();
    let mut decks = BTreeMap::new();
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let deal = record["deal"].as_u64().unwrap();
        let deck = record["deck"].as_str().unwrap().to_string();
        assert_eq!(decks.entry(deal).or_insert_with(|| deck.clone()), &deck);
    }
    decks
}

#[test]
fn deal_i_is_one_deal_from_every_entry_point() {
    let s = Scratch::new("deal_loop_same_deal");
    let tusac = TuSac::build("classic", 4, &RuleMap::new()).unwrap();
    let packs = TuSac::build("sisepai21", 4, &RuleMap::new()).unwrap();
    let chan = Chan::build("standard", 4, &RuleMap::new()).unwrap();
    let tienlen = TienLen::build("south", 4, &RuleMap::new()).unwrap();
    for seed in [1, 2026] {
        let ran = [
            ("tusac", run_decks(&s, "tusac", seed, 6)),
            ("chan", run_decks(&s, "chan", seed, 6)),
            ("tienlen", run_decks(&s, "tienlen", seed, 6)),
        ];
        for deal in [0, 5] {
            let mine = [
                same_deal_in_the_library(&tusac, seed, deal),
                same_deal_in_the_library(&chan, seed, deal),
                same_deal_in_the_library(&tienlen, seed, deal),
            ];
            for ((game, decks), deck) in ran.iter().zip(&mine) {
                assert_eq!(&decks[&deal], deck, "{game} seed {seed} deal {deal}");
            }
            same_deal_in_the_library(&packs, seed, deal);
        }
        assert_ne!(
            same_deal_in_the_library(&chan, seed, 0),
            same_deal_in_the_library(&chan, seed, 1)
        );
    }
    let index = [
        "play", "--game", "chan", "--seed", "2026", "--index", "5", "--json",
    ];
    let record: serde_json::Value =
        serde_json::from_str(&common::stdout(&ok(&s.0, &index))).unwrap();
    assert_eq!(
        record["deck"].as_str().unwrap(),
        deck_of::<Chan>(&seeded_deal(&chan, 2026, 5))
    );
}

/// An agent that takes the first legal action and writes down every hook called.
struct Recording(Arc<Mutex<Vec<String>>>);

impl<S: GameState> Agent<S> for Recording {
    fn act(&mut self, _view: &S::View<'_>, _legal: &[S::Action], _rng: &mut GameRng) -> usize {
        self.0.lock().unwrap().push("act".into());
        0
    }
    fn begin(&mut self, seat: Seat, _rng: &mut GameRng) {
        self.0.lock().unwrap().push(format!("begin {seat}"));
    }
    fn end(&mut self, seat: Seat, outcome: &Outcome) {
        let payout = outcome.payouts()[usize::from(seat)];
        self.0.lock().unwrap().push(format!("end {seat} {payout}"));
    }
}

#[test]
fn the_play_loop_calls_every_hook_and_stops_at_seats_played_from_outside() {
    let game = TienLen::build("south", 4, &RuleMap::new()).unwrap();
    let id = GameId {
        master: 3,
        deal: 1,
        rotation: 0,
    };
    // every seat first: the whole game by play_out
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut agents: Vec<Box<dyn Agent<_>>> = vec![Box::new(Recording(log.clone()))];
    let mut state = seeded_deal(&game, id.master, id.deal);
    let whole = play_out(
        &mut state,
        &mut agents,
        &[0; 4],
        &mut agent_rngs(id),
        |_| {},
    );
    let all = log.lock().unwrap().clone();
    assert_eq!(all[..4], ["begin 0", "begin 1", "begin 2", "begin 3"]);
    let ends: Vec<String> = (0..4)
        .map(|s| format!("end {s} {}", whole.payouts()[s]))
        .collect();
    assert_eq!(all[all.len() - 4..], ends[..]);
    // seat 2 played from outside (taking the first action too): the same game, no hook of seat 2
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut agents: Vec<Box<dyn Agent<_>>> = vec![Box::new(Recording(log.clone()))];
    let seat_agent = [0, 0, OUTSIDE, 0];
    let mut state = seeded_deal(&game, id.master, id.deal);
    let mut rngs = agent_rngs(id);
    let mut turns = Turns {
        agents: &mut agents,
        seat_agent: &seat_agent,
        rngs: &mut rngs,
    };
    turns.begin(&state);
    let mut outside = 0;
    let mut actions = <<TienLen as bailab::game::Game>::State as GameState>::Actions::default();
    let outcome = loop {
        match turns.advance(&mut state, |_| {}) {
            Turn::Outside(seat) => {
                assert_eq!(seat, 2);
                outside += 1;
                state.legal_actions(&mut actions);
                state.apply(actions.as_slice()[0]);
            }
            Turn::Over(outcome) => break outcome,
        }
    };
    assert!(outside > 0, "seat 2 decided");
    assert_eq!(outcome, whole);
    let some = log.lock().unwrap().clone();
    assert!(!some
        .iter()
        .any(|e| e.starts_with("begin 2") || e.starts_with("end 2")));
    assert_eq!(some.len() + outside + 2, all.len());
    let hooks = |l: &[String]| -> Vec<String> {
        l.iter()
            .filter(|e| *e != "act" && !e.starts_with("begin 2") && !e.starts_with("end 2"))
            .cloned()
            .collect()
    };
    assert_eq!(hooks(&some), hooks(&all));
}

#[test]
#[should_panic(expected = "has no agent")]
fn play_out_refuses_a_seat_without_an_agent() {
    let game = Chan::build("standard", 4, &RuleMap::new()).unwrap();
    let id = GameId {
        master: 1,
        deal: 0,
        rotation: 0,
    };
    let mut agents: Vec<Box<dyn Agent<_>>> = vec![Box::new(FirstAgent)];
    let mut state = seeded_deal(&game, 1, 0);
    let seats = [OUTSIDE; 4];
    play_out(&mut state, &mut agents, &seats, &mut agent_rngs(id), |_| {});
}
