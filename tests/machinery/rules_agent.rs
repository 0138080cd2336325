//! The rule-list agent (`rules:PATH`) and `bailab learn`: every game's feature list is well
//! formed, the file round-trips, a malformed file's error names its line, the empty list is
//! greedy, the agent sees only the view, and learning twice from one seed writes the same files.

use crate::common;

use bailab::agent::features::{FeatureInfo, FeatureRow, MAX_FEATURES};
use bailab::agent::rule_file::RuleFileError;
use bailab::agent::Agent;
use bailab::game::GameId;
use bailab::game::RuleMap;
use bailab::game::{ActionBuffer, GameState, SeatView};
use bailab::games::kind::{Features, GameKind};
use bailab::games::tusac::TuSac;
use bailab::games::{with_game, GameVisitor, GAMES};
use bailab::generic_agents::rules::list::{Cond, Op, Rule, RuleList, Test};
use bailab::generic_agents::rules::{feature_names, feature_rows, greedy, RulesAgent};
use bailab::rng::stream_rng;
use bailab::sim::play_game;
use common::{fails, ok, Scratch};
use std::sync::Arc;

/// A list using every feature of game `G` once, in every kind of rule and test.
fn every_kind_of_rule<G: GameKind>() -> RuleList {
    let features = feature_names::<G>();
    let ops = [Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge];
    let test = |f: usize, k: usize| Test {
        feature: f as u8,
        op: ops[k % ops.len()],
        value: (k as i16 % 5) - 1,
    };
    let mut rules = Vec::new();
    for f in 0..features.len() {
        let one = Cond([test(f, f)].into_iter().collect());
        let two = Cond(
            [test(f, f + 1), test((f + 1) % features.len(), f + 2)]
                .into_iter()
                .collect(),
        );
        rules.push(match f % 4 {
            0 => Rule::Prefer(one),
            1 => Rule::Avoid(two),
            2 => Rule::Lowest(f as u8),
            _ => Rule::Highest(f as u8),
        });
        if f % 2 == 0 {
            rules.push(Rule::Prefer(Cond(
                [test(f, 1), test(f, 0)].into_iter().collect(),
            )));
        }
    }
    RuleList {
        game: G::INFO.name.to_string(),
        variant: G::INFO.variants[0].to_string(),
        rules,
        features,
    }
}

#[test]
fn a_rule_file_round_trips_for_every_game() {
    struct RoundTrip;
    impl GameVisitor for RoundTrip {
        type Output = ();
        fn visit<G: GameKind>(self) {
            let list = every_kind_of_rule::<G>();
            let notes: Vec<Vec<String>> = (0..list.rules.len())
                .map(|i| vec![format!("rule {i}"), String::new()])
                .collect();
            let text = list.to_toml(&["a header".into(), "over two lines".into()], &notes);
            let names = bailab::agent::features::all_features(G::FEATURES);
            let back = RuleList::parse(&text, "x.toml", G::INFO.name, names).unwrap();
            assert_eq!(back, list, "{}:\n{text}", G::INFO.name);
            assert_eq!(back.to_toml(&[], &[]), list.to_toml(&[], &[]));
        }
    }
    for g in GAMES {
        with_game(g.name, RoundTrip).unwrap();
    }
}

/// A variant holding characters that Rust's `{:?}` escapes unlike TOML (an escape character,
/// a quote, a backslash, a combining accent first), and header lines holding line breaks,
/// still read back from the written file (a list the fuzz target `rules_list` found did not).
#[test]
fn a_rule_file_with_odd_text_round_trips() {
    let mut list = every_kind_of_rule::<TuSac>();
    for variant in [
        "classi\u{1b} and",
        "a \"quoted\" \\ name",
        "\u{301}e\u{7f}\t",
        "",
    ] {
        list.variant = variant.to_string();
        let text = list.to_toml(
            &[
                "two\nlines".into(),
                "game = \"chan\"\r".into(),
                "esc \u{1b} del \u{7f}".into(),
            ],
            &[],
        );
        let names = bailab::agent::features::all_features(TuSac::FEATURES);
        let back = RuleList::parse(&text, "x.toml", "tusac", names)
            .unwrap_or_else(|e| panic!("{variant:?} written as\n{text}\ndoes not read: {e}"));
        assert_eq!(back, list, "{variant:?}");
    }
}

/// Every game's own features fit a row beside the machinery's `greedy` (at most
/// `MAX_FEATURES - 1`), and each has a unique name a rule file can write (lowercase letters,
/// digits and `_`), not `greedy`, and says what it measures.
#[test]
fn every_games_feature_list_is_well_formed() {
    struct Features;
    impl GameVisitor for Features {
        type Output = &'static [FeatureInfo];
        fn visit<G: GameKind>(self) -> &'static [FeatureInfo] {
            G::FEATURES
        }
    }
    for g in GAMES {
        let f = with_game(g.name, Features).unwrap();
        assert!(
            (15..MAX_FEATURES).contains(&f.len()),
            "{}: {} features",
            g.name,
            f.len()
        );
        for (i, x) in f.iter().enumerate() {
            assert!(
                !x.name.is_empty()
                    && x.name
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "{}: bad name {:?}",
                g.name,
                x.name
            );
            assert_ne!(x.name, "greedy", "{}: the machinery appends greedy", g.name);
            assert!(
                x.about.len() > 20,
                "{}: {} says what it measures",
                g.name,
                x.name
            );
            assert!(
                f[..i].iter().all(|y| y.name != x.name),
                "{}: {} is named twice",
                g.name,
                x.name
            );
        }
    }
}

fn parse_tusac(text: &str) -> Result<RuleList, String> {
    let names = bailab::agent::features::all_features(TuSac::FEATURES);
    RuleList::parse(text, "my.toml", "tusac", names).map_err(|e| e.to_string())
}

#[test]
fn readable_conditions_read_as_written() {
    let list = parse_tusac(
        "game = \"tusac\"\nvariant = \"classic\"\n[[rule]]\nprefer = \"greedy\"\n\
         [[rule]]\navoid = \"not greedy and greedy <= 0\"\n[[rule]]\nhighest = \"greedy\"\n",
    )
    .unwrap();
    let g = list.features.iter().position(|f| *f == "greedy").unwrap() as u8;
    let t = |op, value| Test {
        feature: g,
        op,
        value,
    };
    assert_eq!(
        list.rules,
        [
            Rule::Prefer(Cond([t(Op::Ne, 0)].into_iter().collect())),
            Rule::Avoid(Cond([t(Op::Eq, 0), t(Op::Le, 0)].into_iter().collect())),
            Rule::Highest(g),
        ]
    );
    assert_eq!(
        list.to_string(),
        " 1. prefer greedy\n 2. avoid not greedy and greedy <= 0\n 3. highest greedy\n"
    );
}

#[test]
fn a_malformed_rule_file_gets_an_error_naming_its_line() {
    let head = "# my rules\ngame = \"tusac\"\nvariant = \"classic\"\n\n[[rule]]\n";
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "prefer = \"outz <= 1\"\n",
            "line 6",
            &["unknown feature 'outz'", "known: "],
        ),
        (
            "prefer = \"greedy <= x\"\n",
            "line 6",
            &["'x'", "not a whole number"],
        ),
        ("prefer = \"greedy <= 1 and\"\n", "line 6", &["empty test"]),
        ("prefer = \"greedy or x\"\n", "line 6", &["is not a test"]),
        (
            "lowest = \"nothing\"\n",
            "line 6",
            &["unknown feature 'nothing'"],
        ),
        (
            "prefer = \"greedy\"\navoid = \"greedy\"\n",
            "line 7",
            &["not both prefer and avoid"],
        ),
        (
            "prefer = \"greedy\"\nprefr = \"greedy\"\n",
            "line 7",
            &["prefr"],
        ),
        ("prefer = \"greedy\n", "line 6", &[]),
        (
            "\n[[rule]]\nprefer = \"greedy\"\n",
            "line 5",
            &["needs one of prefer"],
        ),
        (
            "prefer = \"greedy and greedy and greedy and greedy and greedy\"\n",
            "line 6",
            &["more than 4 tests"],
        ),
    ];
    for (body, line, words) in cases {
        let e = parse_tusac(&format!("{head}{body}")).unwrap_err();
        assert!(e.starts_with("my.toml: "), "{e}");
        assert!(e.contains(line), "{body:?}: {e}");
        for w in *words {
            assert!(e.contains(w), "{body:?}: {e}");
        }
    }
    let names = bailab::agent::features::all_features(TuSac::FEATURES);
    let e = RuleList::parse(
        &format!("{head}prefer = \"outz\"\n"),
        "my.toml",
        "tusac",
        names,
    );
    assert!(
        matches!(&e, Err(RuleFileError::Rule { file, line: 6, .. }) if file == "my.toml"),
        "{e:?}"
    );
    let e = parse_tusac("game = \"chan\"\nvariant = \"standard\"\n").unwrap_err();
    assert!(
        e.contains("line 1") && e.contains("for game 'chan', not tusac"),
        "{e}"
    );
}

#[test]
fn the_empty_list_plays_exactly_as_greedy() {
    struct Same;
    impl GameVisitor for Same {
        type Output = ();
        fn visit<G: GameKind>(self) {
            let game = G::build(G::INFO.variants[0], 4, &RuleMap::new()).unwrap();
            let empty = Arc::new(RuleList {
                game: G::INFO.name.into(),
                variant: G::INFO.variants[0].into(),
                rules: Vec::new(),
                features: feature_names::<G>(),
            });
            let mut rules: Vec<Box<dyn Agent<G::State>>> =
                vec![Box::new(RulesAgent::<G>::new(empty)), greedy::<G>()];
            let mut plain: Vec<Box<dyn Agent<G::State>>> = vec![greedy::<G>(), greedy::<G>()];
            for deal in 0..200 {
                let id = GameId {
                    master: 5,
                    deal,
                    rotation: 0,
                };
                let seats = [0, 1, 1, 1];
                let a = play_game(&game, id, &mut rules, &seats, |_| {});
                let b = play_game(&game, id, &mut plain, &seats, |_| {});
                assert_eq!(a, b, "{} deal {deal}", G::INFO.name);
            }
        }
    }
    for g in GAMES {
        with_game(g.name, Same).unwrap();
    }
}

/// Plays random games; at every decision the features (and greedy's choice) of the deciding
/// seat are the same on the state and on determinizations of its view, which differ in every
/// card the seat cannot see.
#[test]
fn features_and_choices_depend_on_the_view_only() {
    struct ViewOnly;
    impl GameVisitor for ViewOnly {
        type Output = usize;
        fn visit<G: GameKind>(self) -> usize {
            let list = Arc::new(every_kind_of_rule::<G>());
            let mut checked = 0;
            for players in [G::INFO.seats.0, 4.min(G::INFO.seats.1)] {
                let game = G::build(G::INFO.variants[0], players, &RuleMap::new()).unwrap();
                for deal in 0..40 {
                    checked += view_only_game(&game, &list, deal);
                }
            }
            checked
        }
    }
    for g in GAMES {
        let checked = with_game(g.name, ViewOnly).unwrap();
        assert!(checked > 500, "{}: {checked} decisions checked", g.name);
    }
}

fn view_only_game<G: GameKind>(game: &G, list: &Arc<RuleList>, deal: u64) -> usize {
    let mut rng = stream_rng(11, deal, 0);
    let mut state = game.deal(&mut rng);
    let mut actions = <G::State as GameState>::Actions::default();
    let mut other = <G::State as GameState>::Actions::default();
    let (mut shadow, mut agent) = (greedy::<G>(), RulesAgent::<G>::new(Arc::clone(list)));
    let mut rows: Vec<FeatureRow> = vec![[0; MAX_FEATURES]; 512];
    let mut rows2 = rows.clone();
    let mut checked = 0;
    while let Some(seat) = state.to_move() {
        state.legal_actions(&mut actions);
        let legal = actions.as_slice();
        let k = {
            let view = state.view(seat);
            let g = feature_rows::<G>(&view, legal, shadow.as_mut(), &mut rows, &mut rng);
            let pick = agent.act(&view, legal, &mut stream_rng(1, deal, 1));
            for _ in 0..2 {
                let twin = view.determinize(&mut rng);
                twin.legal_actions(&mut other);
                assert_eq!(other.as_slice(), legal);
                let twin_view = twin.view(seat);
                let g2 =
                    feature_rows::<G>(&twin_view, legal, shadow.as_mut(), &mut rows2, &mut rng);
                assert_eq!((g, &rows[..legal.len()]), (g2, &rows2[..legal.len()]));
                assert_eq!(
                    pick,
                    agent.act(&twin_view, legal, &mut stream_rng(1, deal, 1))
                );
                checked += 1;
            }
            bailab::agent::uniform_index(legal.len(), &mut rng)
        };
        let action = legal[k];
        state.apply(action);
    }
    checked
}

/// Runs `bailab learn --game GAME --teacher TEACHER ARGS... -q` in `dir`; it must succeed.
fn learn(dir: &Scratch, game: &str, teacher: &str, args: &[&str]) {
    let mut all = vec!["learn", "--game", game, "--teacher", teacher];
    all.extend_from_slice(args);
    all.push("-q");
    ok(&dir.0, &all);
}

#[test]
fn learning_twice_from_one_seed_writes_the_same_files() {
    let dir = Scratch::new("learn-twice");
    for game in ["tusac", "tienlen", "chan"] {
        for (threads, out) in [("1", "a"), ("2", "b")] {
            let out = format!("{out}-{game}/rules.toml");
            learn(
                &dir,
                game,
                "ismcts:iters=30",
                &[
                    "--teacher-deals",
                    "40",
                    "--deals",
                    "60",
                    "--max-rules",
                    "3",
                    "--min-t",
                    "0",
                    "--threads",
                    threads,
                    "--output",
                    &out,
                ],
            );
        }
        for f in ["rules.toml", "rules.report.csv"] {
            let a = std::fs::read_to_string(dir.path(&format!("a-{game}/{f}"))).unwrap();
            let b = std::fs::read_to_string(dir.path(&format!("b-{game}/{f}"))).unwrap();
            assert_eq!(a, b, "{game} {f}");
        }
        let text = std::fs::read_to_string(dir.path(&format!("a-{game}/rules.toml"))).unwrap();
        assert!(text.contains(&format!("game = \"{game}\"")), "{text}");
        assert!(text.contains("bailab learn --game"), "{text}");
        // the written list plays
        let o = ok(
            &dir.0,
            &[
                "play",
                "--game",
                game,
                "--agent",
                &format!("rules:a-{game}/rules.toml"),
                "--agent",
                "greedy",
            ],
        );
        assert!(!o.stdout.is_empty());
    }
}

#[test]
fn bad_rule_agents_are_clear_errors() {
    let dir = Scratch::new("rules-errors");
    dir.write(
        "bad.toml",
        "game = \"tusac\"\nvariant = \"classic\"\n[[rule]]\nprefer = \"outz\"\n",
    );
    let exp = |agent: &str| {
        format!(
            "game = \"tusac\"\nagents = [\"{agent}\", \"greedy\"]\ndeals = 10\noutput = \"out\"\n"
        )
    };
    let cases = [
        ("rules", "needs its file"),
        ("rules:missing.toml", "missing.toml: cannot read it"),
        (
            "rules:bad.toml",
            "bad.toml: line 4: prefer = \"outz\": unknown feature 'outz'",
        ),
        ("first:bad.toml", "takes no bare value"),
        // greedy's bare value is a weight file
        (
            "greedy:bad.toml",
            "bad.toml: line 3: 'rule' is not a weight",
        ),
    ];
    for (agent, message) in cases {
        let file = dir.write("e.toml", &exp(agent));
        let e = fails(&dir.0, &["run", &file]);
        assert!(e.contains(message), "{agent}: {e}");
        assert!(!dir.path("out").exists());
    }
    let e = fails(
        &dir.0,
        &["learn", "--game", "tusac", "--teacher", "nobody", "-q"],
    );
    assert!(e.contains("unknown agent 'nobody'"), "{e}");
    assert!(!dir.path("results").exists(), "nothing written on an error");
}

#[test]
fn learning_finds_a_planted_rule_first() {
    // The teacher is itself a rule list: never greedy's choice. The best proposal must match
    // every one of its decisions.
    let dir = Scratch::new("learn-planted");
    for game in ["tusac", "tienlen", "chan"] {
        let variant = bailab::games::game_info(game).unwrap().variants[0];
        let teacher = dir.write(
            &format!("{game}-teacher.toml"),
            &format!("game = \"{game}\"\nvariant = \"{variant}\"\n[[rule]]\navoid = \"greedy\"\n"),
        );
        learn(
            &dir,
            game,
            &format!("rules:{teacher}"),
            &[
                "--teacher-deals",
                "30",
                "--deals",
                "10",
                "--max-rules",
                "1",
                "--shortlist",
                "1",
                "--pool",
                "1",
                "--output",
                &format!("{game}-learned.toml"),
            ],
        );
        let report =
            std::fs::read_to_string(dir.path(&format!("{game}-learned.report.csv"))).unwrap();
        let first = report.lines().nth(1).expect("a trial");
        let fields: Vec<&str> = first.split(',').collect();
        assert!(
            ["avoid greedy", "prefer not greedy"].contains(&fields[1]),
            "{game}: {report}"
        );
        assert_eq!(
            fields[2], "0.000000",
            "{game}: the teacher never agrees with greedy"
        );
        assert_eq!(fields[3], "1.000000", "{game}: {report}");
    }
}
