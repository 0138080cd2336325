//! `bailab tune` and greedy's weights: the defaults play exactly the old greedy, weights parse
//! from specs and files (errors name the weight or the line), a small tune of every game writes
//! a loadable agent and a well-formed report, the same on 1 and 2 threads, and racing drops a
//! setting known to be bad.

use crate::common;

use bailab::agent::greedy::{parse_weights, TieBreak, Weights};
use bailab::agent::uniform_index;
use bailab::agent::weight_file::{WeightFileError, WeightKeyError};
use bailab::agent::Agent;
use bailab::game::{Game, GameState};
use bailab::games::chan::Chan;
use bailab::games::kind::GameKind;
use bailab::games::tienlen::TienLen;
use bailab::games::tusac::greedy::{TuSacGreedy, WEIGHTS};
use bailab::games::tusac::TuSac;
use bailab::games::tusac::{OnePack, OnePackState};
use bailab::games::GAMES;
use bailab::generic_agents::catalogue::make_agent;
use bailab::rng::stream_rng;
use common::{fails, ok, stdout, Scratch};
use std::path::Path;

/// Tứ Sắc's greedy with default weights decides exactly as its rule on many positions when
/// made to score every action by the weights (the path any other weights take).
#[test]
fn tusac_default_weights_score_like_the_rule() {
    let defaults = Weights::defaults(WEIGHTS);
    let (mut decisions, mut discards) = (0u64, 0u64);
    for tiebreak in [TieBreak::Canonical, TieBreak::Random] {
        let mut plain = TuSacGreedy::new(tiebreak, defaults);
        let mut scored = TuSacGreedy::new(tiebreak, defaults);
        scored.always_score = true;
        let mut actions = <bailab::games::tusac::OnePackState as GameState>::Actions::default();
        for g in 0..150u64 {
            let game = OnePack::classic(2 + (g % 3) as u8).unwrap();
            let mut rng = stream_rng(0x7E57, g, 0);
            let mut s = game.deal(&mut rng);
            while let Some(seat) = s.to_move() {
                s.legal_actions(&mut actions);
                let l = actions.as_slice();
                let view = s.view(seat);
                let (mut r1, mut r2) = (stream_rng(g, decisions, 1), stream_rng(g, decisions, 1));
                let a = <TuSacGreedy as Agent<OnePackState>>::act(&mut plain, &view, l, &mut r1);
                let b = <TuSacGreedy as Agent<OnePackState>>::act(&mut scored, &view, l, &mut r2);
                assert_eq!(a, b, "game {g}: {:?} vs {:?} among {l:?}", l[a], l[b]);
                decisions += 1;
                discards += u64::from(matches!(l[0], bailab::games::tusac::Action::Discard(_)));
                // half greedy's moves, half random ones: typical and odd positions
                let next = if g % 2 == 0 {
                    a
                } else {
                    uniform_index(l.len(), &mut rng)
                };
                s.apply(l[next]);
            }
        }
    }
    assert!(
        decisions > 10_000 && discards > 3_000,
        "{decisions} decisions"
    );
}

/// Runs experiment `name` of `experiments/` into a scratch folder and compares its summary with
/// the committed one (every figure, to the last digit).
fn reproduces(name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(format!("experiments/{name}.toml"))).unwrap();
    let s = Scratch::new(name);
    let text: String = text
        .lines()
        .map(|l| {
            if l.starts_with("output") {
                "output = \"out\""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let exp = s.write("exp.toml", &text);
    ok(&s.0, &["run", &exp, "--quiet"]);
    let got = std::fs::read_to_string(s.path("out/summary.csv")).unwrap();
    let committed =
        std::fs::read_to_string(root.join(format!("results/{name}/summary.csv"))).unwrap();
    assert_eq!(
        got, committed,
        "{name}: greedy with default weights plays differently"
    );
}

/// Tiến Lên's and Chắn's greedy with default weights play the committed reference runs
/// exactly (greedy in every rotation of 2,000 deals).
#[test]
fn default_weights_reproduce_committed_results() {
    reproduces("tienlen-greedy-vs-random");
    reproduces("chan-greedy-vs-random");
}

/// A spec naming every weight at its default builds the same greedy as `greedy`.
#[test]
fn explicit_defaults_are_the_defaults() {
    fn check<G: GameKind>() {
        let w = Weights::defaults(G::GREEDY_WEIGHTS);
        let spec = bailab::agent::spec::AgentSpec::parse(&format!(
            "greedy:{}",
            w.to_params(G::GREEDY_WEIGHTS)
        ))
        .unwrap();
        let got = Weights::from_spec(&spec, G::GREEDY_WEIGHTS, G::INFO.name).unwrap();
        assert_eq!(got, w);
        assert!(got.is_default(G::GREEDY_WEIGHTS));
        assert!(
            !G::GREEDY_WEIGHTS.is_empty(),
            "{} has weights",
            G::INFO.name
        );
        // the catalogue lists every weight
        let info = G::INFO.agents.iter().find(|a| a.name == "greedy").unwrap();
        for weight in G::GREEDY_WEIGHTS {
            let p = info.params.iter().find(|p| p.name == weight.name).unwrap();
            assert_eq!(p.default.parse::<f64>().unwrap(), weight.default);
            let (lo, hi) = weight.range;
            assert!(
                lo <= weight.default && weight.default <= hi,
                "{}",
                weight.name
            );
        }
    }
    check::<TuSac>();
    check::<TienLen>();
    check::<Chan>();
}

#[test]
fn spec_weights_parse_and_errors_name_the_weight() {
    let spec = bailab::agent::spec::AgentSpec::parse("greedy:outs=1.5,no_win=2").unwrap();
    let w = Weights::from_spec(&spec, WEIGHTS, "tusac").unwrap();
    assert_eq!(w.get(0), 1.5);
    let i = WEIGHTS.iter().position(|x| x.name == "no_win").unwrap();
    assert_eq!(w.get(i), 2.0);
    assert!(make_agent::<TuSac>("greedy:outs=1.5,feed=0.2").is_ok());
    let err = |spec: &str| make_agent::<TuSac>(spec).err().expect(spec).to_string();
    let e = err("greedy:oats=1");
    assert!(
        e.contains("no parameter 'oats'") && e.contains("no_win"),
        "{e}"
    );
    let e = err("greedy:outs=abc");
    assert!(e.contains("outs 'abc' is not a number"), "{e}");
    let e = err("greedy:outs=NaN");
    assert!(e.contains("outs 'NaN' is not a number"), "{e}");
    let e = err("greedy:feed=7");
    assert!(e.contains("feed = 7 is outside 0 to 1"), "{e}");
    let e = make_agent::<TienLen>("greedy:outs=1")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("no parameter 'outs'"), "{e}");
    let e = make_agent::<Chan>("greedy:eat_gain=x")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("eat_gain 'x' is not a number"), "{e}");
}

#[test]
fn weight_file_round_trip_and_errors_name_the_line() {
    let s = Scratch::new("weights");
    let mut w = Weights::defaults(WEIGHTS);
    w.set(1, 2.25);
    w.set(4, 5.0);
    let text = w.to_toml(WEIGHTS, &["tuned by hand".into()], "tusac", "classic");
    assert!(text.starts_with("# tuned by hand\n"));
    let path = s.write("w.toml", &text);
    let spec = bailab::agent::spec::AgentSpec::parse(&format!("greedy:{path}")).unwrap();
    assert_eq!(Weights::from_spec(&spec, WEIGHTS, "tusac").unwrap(), w);
    // the spec's weights override the file's
    let spec = bailab::agent::spec::AgentSpec::parse(&format!("greedy:{path},outs=2")).unwrap();
    assert_eq!(
        Weights::from_spec(&spec, WEIGHTS, "tusac").unwrap().get(0),
        2.0
    );
    assert!(make_agent::<TuSac>(&format!("greedy:{path}")).is_ok());

    let bad =
        |body: &str| (parse_weights(body, "w.toml", WEIGHTS, "tusac").expect_err(body)).to_string();
    let e = bad("game = \"tusac\"\nouts = = 2\n");
    assert!(e.contains("w.toml: line 2"), "{e}");
    let e = bad("game = \"tusac\"\n\noats = 2\n");
    assert!(e.contains("line 3: 'oats' is not a weight"), "{e}");
    let e = bad("game = \"tusac\"\nfeed = 3\n");
    assert!(e.contains("line 2: feed = 3 is outside"), "{e}");
    let e = bad("game = \"tusac\"\nfeed = \"x\"\n");
    assert!(e.contains("line 2: feed '\"x\"' is not a number"), "{e}");
    let e = bad("game = \"chan\"\nouts = 1\n");
    assert!(e.contains("line 1: weights for chan, not tusac"), "{e}");
    let e = parse_weights("game = \"chan\"\nouts = 1\n", "w.toml", WEIGHTS, "tusac").unwrap_err();
    assert!(
        matches!(&e, WeightFileError::Key { line: Some(1), problem: WeightKeyError::OtherGame { found, .. }, .. } if found == "chan"),
        "{e:?}"
    );
    let e = bad("outs = 1\n");
    assert!(e.contains("no `game = \"tusac\"` line"), "{e}");
    let e = make_agent::<TuSac>("greedy:/no/such/file.toml")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("/no/such/file.toml: cannot read it"), "{e}");
}

#[test]
fn cli_errors() {
    let s = Scratch::new("tune-errors");
    let e = fails(&s.0, &["tune", "--game", "poker"]);
    assert!(e.contains("poker"), "{e}");
    let e = fails(&s.0, &["tune", "--game", "tusac", "--variant", "sisepai22"]);
    assert!(e.contains("unknown variant 'sisepai22'"), "{e}");
    let e = fails(&s.0, &["tune", "--game", "tusac", "--candidates", "many"]);
    assert!(e.contains("--candidates"), "{e}");
    let e = fails(&s.0, &["tune", "--game", "tusac", "--candidates", "-1"]);
    assert!(e.contains("--candidates") || e.contains("-1"), "{e}");
    let e = fails(&s.0, &["tune", "--game", "tusac", "--deals", "1"]);
    assert!(e.contains("--deals"), "{e}");
    let e = fails(&s.0, &["tune", "--game", "tusac", "--deals", "0"]);
    assert!(e.contains("--deals"), "{e}");
    let e = fails(
        &s.0,
        &["tune", "--game", "tusac", "--opponents", "greedy:x=1"],
    );
    assert!(e.contains("no parameter 'x'"), "{e}");
    let e = fails(&s.0, &["tune", "--game", "tusac", "--include", "oats=1"]);
    assert!(e.contains("no parameter 'oats'"), "{e}");
    let e = fails(
        &s.0,
        &[
            "tune",
            "--game",
            "tusac",
            "--opponents",
            "greedy",
            "--opponents",
            "random",
        ],
    );
    assert!(e.contains("--opponents given 2 times"), "{e}");
    assert!(!s.path("results").exists(), "nothing written on an error");
}

/// The report's rows: (candidate, params, round, deals, mean, lo, hi, status).
fn report(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("candidate,params,round,deals,mean_diff,mean_diff_lo95,mean_diff_hi95,status")
    );
    let mut r = csv::Reader::from_path(path).unwrap();
    r.records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect()
}

fn tune_small(dir: &Path, game: &str, threads: &str) -> (String, String, String) {
    let out = ok(
        dir,
        &[
            "tune",
            "--game",
            game,
            "--candidates",
            "3",
            "--deals",
            "6",
            "--seed",
            "5",
            "--threads",
            threads,
            "--quiet",
        ],
    );
    let variant = GAMES.iter().find(|g| g.name == game).unwrap().variants[0];
    let name = format!("results/tune-{game}-{variant}/greedy");
    let toml = std::fs::read_to_string(dir.join(format!("{name}.toml"))).unwrap();
    let csv = std::fs::read_to_string(dir.join(format!("{name}.report.csv"))).unwrap();
    (toml, csv, stdout(&out))
}

/// A small tune of every game writes a loadable agent and a well-formed report, and the same
/// files on 1 and 2 threads.
#[test]
fn small_tune_of_every_game() {
    for g in GAMES {
        let s = Scratch::new(&format!("tune-{}", g.name));
        let (toml, csv, out) = tune_small(&s.0, g.name, "1");
        assert!(toml.starts_with("# Greedy weights for"), "{toml}");
        assert!(toml.contains("bailab tune --game"), "{toml}");
        assert!(out.is_empty(), "--quiet prints nothing: {out}");
        let path = format!("results/tune-{}-{}/greedy.toml", g.name, g.variants[0]);
        // loadable as an agent, from the folder it was written in
        let exp = format!(
            "game = \"{}\"\nagents = [\"greedy:{path}\", \"greedy\"]\ndeals = 2\nseed = 3\n\
             output = \"check\"\n",
            g.name
        );
        let file = s.write("check.toml", &exp);
        ok(&s.0, &["run", &file, "--quiet"]);
        let rows = report(&s.path(&path.replace(".toml", ".report.csv")));
        assert!(rows.iter().all(|r| r.len() == 8));
        assert_eq!(rows.iter().filter(|r| r[7] == "best").count(), 1, "{csv}");
        assert!(rows
            .iter()
            .all(|r| ["kept", "dropped", "best"].contains(&r[7].as_str())));
        for r in &rows {
            let (mean, lo, hi): (f64, f64, f64) = (
                r[4].parse().unwrap(),
                r[5].parse().unwrap(),
                r[6].parse().unwrap(),
            );
            assert!(lo <= mean && mean <= hi, "{r:?}");
            assert!(r[3].parse::<u64>().unwrap() >= 6);
        }
        // every candidate plays round 1; candidate 0 is the default
        assert_eq!(rows.iter().filter(|r| r[2] == "1").count(), 4, "{csv}");
        assert!(rows.iter().any(|r| r[0] == "0" && r[1] == "default"));
        let s2 = Scratch::new(&format!("tune2-{}", g.name));
        let (toml2, csv2, _) = tune_small(&s2.0, g.name, "2");
        assert_eq!(csv, csv2, "{}: 1 and 2 threads differ", g.name);
        assert_eq!(toml, toml2);
    }
}

/// Racing drops a setting known to be bad: a Tứ Sắc greedy that declines every meld it may.
#[test]
fn racing_drops_a_bad_setting() {
    let s = Scratch::new("tune-planted");
    ok(
        &s.0,
        &[
            "tune",
            "--game",
            "tusac",
            "--candidates",
            "0",
            "--include",
            "decline=-20",
            "--include",
            "win_outs=1",
            "--deals",
            "40",
            "--quiet",
            "--output",
            "t.toml",
        ],
    );
    let rows = report(&s.path("t.report.csv"));
    let bad = rows.iter().find(|r| r[1] == "decline=-20").unwrap();
    assert_eq!(
        (bad[2].as_str(), bad[7].as_str()),
        ("1", "dropped"),
        "{rows:?}"
    );
    assert!(
        bad[6].parse::<f64>().unwrap() < 0.0,
        "clearly worse: {bad:?}"
    );
    let best = rows.iter().find(|r| r[7] == "best").unwrap();
    assert_ne!(best[1], "decline=-20");
    let toml = std::fs::read_to_string(s.path("t.toml")).unwrap();
    assert!(toml.contains("decline = 100.0"), "{toml}");
}
