//! `bailab soak` and the contracts checker it shares with the fuzz targets: the rule samples are
//! each played somewhere, a short soak of every table finds no fault and writes its CSV, the
//! checker reports a broken contract, and bad tables are refused by name.

use bailab::game::{Game, GameState, RuleMap};
use bailab::games::chan::Chan;
use bailab::games::kind::{GameCore, GameKind};
use bailab::games::tienlen::TienLen;
use bailab::games::tusac::TuSac;
use bailab::rng::stream_rng;
use bailab::sim::invariants::Checker;
use bailab::sim::soak::{soak, SoakOptions};

use crate::common::{self, Scratch};

/// The variants and seat counts of `G` that accept each of its rule samples.
fn accepted<G: GameKind>() -> Vec<(&'static str, Vec<String>)> {
    G::RULE_SAMPLES
        .iter()
        .map(|text| {
            let rules: RuleMap = serde_json::from_str(text).expect("a JSON object");
            let mut at = Vec::new();
            for v in G::INFO.variants {
                let (lo, hi) = G::INFO.seats_of(v);
                for p in lo..=hi {
                    if G::build(v, p, &rules).is_ok() {
                        at.push(format!("{v}/{p}"));
                    }
                }
            }
            (*text, at)
        })
        .collect()
}

#[test]
fn every_rule_sample_is_played_at_some_table() {
    let all = [
        accepted::<TuSac>(),
        accepted::<Chan>(),
        accepted::<TienLen>(),
    ];
    for (text, at) in all.iter().flatten() {
        assert!(!at.is_empty(), "no table accepts the rule sample {text}");
    }
    // Each Tứ Sắc core gets samples of its own beside the variant's rules.
    let tusac = accepted::<TuSac>();
    for v in ["classic/4", "sisepai21/8"] {
        let n = tusac
            .iter()
            .filter(|(_, at)| at.contains(&v.into()))
            .count();
        assert!(n >= 2, "{v} plays {n} rule samples");
    }
}

/// Soaks `games` deals of every table of `G` in this process (all deep every `deep` deals).
fn soak_all<G: GameKind>(games: u64, deep: u64) {
    let agents = ["random".to_string(), "greedy".to_string()];
    for v in G::INFO.variants {
        let (lo, hi) = G::INFO.seats_of(v);
        for p in lo..=hi {
            let opts = SoakOptions {
                seed: 9,
                first_deal: 0,
                games,
                deep_every: deep,
                agents: &agents,
                progress: &|_| {},
            };
            let r = soak::<G>(v, p, &opts).unwrap();
            assert_eq!(r.games, games, "{v}/{p}");
            assert_eq!(r.deep, games.div_ceil(deep), "{v}/{p}");
            assert!(r.decisions >= games, "{v}/{p}");
            assert_eq!(r.fault_count, 0, "{v}/{p}: {:?}", r.faults);
        }
    }
}

#[test]
fn a_short_soak_of_every_table_finds_no_fault() {
    soak_all::<TienLen>(300, 7);
    soak_all::<Chan>(300, 7);
    soak_all::<TuSac>(120, 10);
}

#[test]
fn the_checker_reports_a_game_that_does_not_end() {
    let game = TienLen::build("south", 4, &RuleMap::new()).unwrap();
    let mut state = game.deal(&mut stream_rng(3, 0, 0));
    let mut checker = Checker::<TienLen>::new(5, 1);
    checker.begin(&state, true);
    checker.step((&state, None)).unwrap();
    let mut actions = Default::default();
    let mut fault = None;
    for _ in 0..10 {
        state.legal_actions(&mut actions);
        let action = bailab::game::ActionBuffer::as_slice(&actions)[0];
        let seat = state.to_move().unwrap();
        state.apply(action);
        let d = bailab::game::Decision {
            seat,
            legal: 1,
            chosen: 0,
        };
        if let Err(e) = checker.step((&state, Some((d, action)))) {
            fault = Some(e);
            break;
        }
    }
    assert_eq!(
        fault.map(|e| e.to_string()).as_deref(),
        Some("the game does not end in 5 decisions")
    );
    // A game stopped before its end has no outcome: the end check says so.
    let e = checker.end(&game, &state, &[]).unwrap_err();
    assert!(e.to_string().contains("no outcome"), "{e}");
}

#[test]
fn soak_writes_its_csv_and_refuses_bad_tables() {
    let dir = Scratch::new("soak-cli");
    let csv = dir.path("soak.csv");
    let out = common::ok(
        &dir.0,
        &[
            "soak",
            "tienlen/south/2-3",
            "chan//5",
            "--games",
            "500",
            "--threads",
            "2",
            "--output",
            csv.to_str().unwrap(),
        ],
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 4, "{text}");
    assert!(rows[0].starts_with("game,variant,players,games,decisions,"));
    for row in &rows[1..] {
        assert!(row.ends_with(",\"random greedy\""), "{row}");
    }
    for (row, table) in rows[1..].iter().zip(["south,2", "south,3", "standard,5"]) {
        assert!(row.contains(&format!(",{table},500,")), "{row}");
        assert_eq!(row.split(',').nth(6), Some("0"), "faults: {row}");
    }
    assert!(common::stdout(&out).contains("chan/standard/5"));
    let bad = [
        ("tienlen/north", "tienlen has no variant 'north'"),
        ("tienlen/south/5", "tienlen south seats 2 to 4 players"),
        ("chan/standard/x", "players 'x' is not a number"),
        ("poker", "poker"),
    ];
    for (table, error) in bad {
        let args = [
            "soak",
            table,
            "--games",
            "1",
            "--output",
            csv.to_str().unwrap(),
        ];
        let e = common::fails(&dir.0, &args);
        assert!(e.contains(error), "{table}: {e}");
    }
    let e = common::fails(
        &dir.0,
        &["soak", "chan", "--agent", "exec:./mine", "--games", "1"],
    );
    assert!(e.contains("built-in agents only"), "{e}");
    // A failed command leaves the earlier CSV as it was.
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);
}
