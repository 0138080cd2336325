//! The learned agent `net:FILE`: it plays only legal actions in every game and variant, plays
//! the action of highest Q (with `search=`, unless a lookahead finds a clearly better one), and
//! refuses by name a file for another game, variant, seat count, rule options or feature
//! version, and a truncated, damaged or foreign file.

use crate::common::nets::{header_for, random_net, random_net_file, random_net_sized};
use crate::common::*;
use bailab::agent::features::MAX_FEATURES;
use bailab::game::{ActionBuffer, GameId, GameState, RuleMap, SeatView};
use bailab::games::chan::Chan;
use bailab::games::kind::{GameCore, GameKind};
use bailab::games::observe::layout_len;
use bailab::games::tienlen::TienLen;
use bailab::games::tusac::TuSac;
use bailab::games::{with_game, GameVisitor, GAMES};
use bailab::generic_agents::catalogue::{make_agent_with, Setting};
use bailab::generic_agents::net::file::{to_bytes, NetHeader, ShippedSearch};
use bailab::generic_agents::net::squash;
use bailab::generic_agents::rules::feature_rows;
use bailab::sim::play_game;

/// Plays `games` games of every seat a `net:` agent of random weights, with `extra` parameters.
fn net_games<G: GameKind>(s: &Scratch, variant: &str, players: usize, extra: &str, games: u64) {
    let file = s.path(&format!("{}-{variant}-{players}.safetensors", G::INFO.name));
    std::fs::write(&file, random_net_file::<G>(variant, players, 7)).unwrap();
    let spec = format!("net:{}{extra}", file.display());
    let rules = RuleMap::new();
    let setting = Setting {
        variant: Some(variant),
        table: Some((&rules, players)),
        ..Setting::default()
    };
    let game = G::build(variant, players, &rules).unwrap();
    let mut agents: Vec<_> = (0..2)
        .map(|_| make_agent_with::<G>(&spec, setting).unwrap())
        .collect();
    let seat_agent: Vec<usize> = (0..players).map(|s| s % 2).collect();
    for deal in 0..games {
        let id = GameId {
            master: 11,
            deal,
            rotation: 0,
        };
        let outcome = play_game(&game, id, &mut agents, &seat_agent, |_| {});
        assert_eq!(
            outcome.payouts.iter().sum::<i64>(),
            0,
            "{spec}: payouts sum to zero"
        );
    }
}

struct EveryTable<'a>(&'a Scratch);

impl GameVisitor for EveryTable<'_> {
    type Output = ();
    fn visit<G: GameKind>(self) {
        for &variant in G::INFO.variants {
            for players in [2, 4] {
                if G::build(variant, players, &RuleMap::new()).is_err() {
                    continue;
                }
                for extra in [
                    "",
                    ",eps=0.3",
                    ",temperature=0.05",
                    ",search=6",
                    ",search=6,leaf=q",
                    ",search=6,playout=own",
                    ",search=6,playout=own,horizon=1",
                    ",search=6,playout=all",
                ] {
                    net_games::<G>(self.0, variant, players, extra, 12);
                }
            }
        }
    }
}

#[test]
fn net_agent_plays_only_legal_actions_in_every_game_and_variant() {
    // an index out of the legal list panics in the play loop; every game ends with payouts
    // that sum to zero
    let s = Scratch::new("net-legal");
    for g in GAMES {
        with_game(g.name, EveryTable(&s)).unwrap();
    }
}

/// The index of the highest Q among the legal actions (the view tensor, each action's vector and
/// its squashed rule features put together here, through the network's forward pass), the index
/// of greedy's action, and by how much the highest Q exceeds greedy's action's.
fn best_by_hand<G: GameKind>(
    game: &G,
    net: &bailab::generic_agents::net::qnet::QNet,
    state: &G::State,
) -> (usize, usize, f32) {
    let seat = state.to_move().unwrap();
    let view = state.view(seat);
    let mut legal = <G::State as GameState>::Actions::default();
    state.legal_actions(&mut legal);
    let mut tensor = vec![0.0; layout_len(&game.tensor_layout())];
    let mut action = vec![0.0; layout_len(&game.action_layout())];
    let mut rows = vec![[0i16; MAX_FEATURES]; legal.as_slice().len()];
    let mut greedy = bailab::generic_agents::rules::greedy::<G>();
    let mut rng = bailab::rng::stream_rng(0, 0, 0);
    let greedy_choice = feature_rows::<G>(
        &view,
        legal.as_slice(),
        greedy.as_mut(),
        &mut rows,
        &mut rng,
    );
    let features = bailab::agent::features::all_features(G::FEATURES).count();
    game.tensor(&view, &mut tensor);
    let mut scratch = net.scratch(1);
    net.begin(&tensor, &mut scratch);
    let mut best = (0, f32::NEG_INFINITY);
    let mut greedy_q = 0.0;
    for (i, &a) in legal.as_slice().iter().enumerate() {
        game.action_vector(&view, a, &mut action);
        let input: Vec<f32> = (action.iter().copied())
            .chain(rows[i][..features].iter().map(|&f| squash(f)))
            .collect();
        let q = net.q(&input, &mut scratch);
        if q > best.1 {
            best = (i, q);
        }
        if i == greedy_choice {
            greedy_q = q;
        }
    }
    assert_eq!(view.seat(), seat);
    (best.0, greedy_choice, best.1 - greedy_q)
}

/// Plays Tiến Lên deal 5 with `net:FILE{extra}` (random weights) in every seat; returns the
/// decisions with a choice, and how many of them took another action than the highest Q.
fn moves_off_the_highest_q(s: &Scratch, extra: &str) -> (usize, usize) {
    let (choices, off_best, _) = moves_off(s, extra);
    (choices, off_best)
}

/// As [`moves_off_the_highest_q`], with how many took another action than greedy's too.
fn moves_off(s: &Scratch, extra: &str) -> (usize, usize, usize) {
    let decisions = decisions_of(s, extra, 5);
    let off_best = decisions.iter().filter(|d| d.chosen != d.best).count();
    let off_greedy = decisions.iter().filter(|d| d.chosen != d.greedy).count();
    (decisions.len(), off_best, off_greedy)
}

/// A decision with a choice: the action taken, the highest Q's, greedy's, and the Q gap between
/// the last two.
struct Decision {
    chosen: usize,
    best: usize,
    greedy: usize,
    gap: f32,
}

/// Plays Tiến Lên deal `deal` with `net:FILE{extra}` (random weights) in every seat; returns its
/// decisions with a choice.
fn decisions_of(s: &Scratch, extra: &str, deal: u64) -> Vec<Decision> {
    let (header, net) = random_net::<TienLen>("south", 4, 3);
    let file = s.path("t.safetensors");
    std::fs::write(&file, to_bytes(&header, &net)).unwrap();
    let game = TienLen::build("south", 4, &RuleMap::new()).unwrap();
    let spec = format!("net:{}{extra}", file.display());
    let mut agent = make_agent_with::<TienLen>(&spec, Setting::default()).unwrap();
    let mut state = bailab::sim::deal::seeds::seeded_deal(&game, deal, 0);
    let mut rng = bailab::rng::stream_rng(1, 2, 3);
    let mut decisions = Vec::new();
    while let Some(seat) = state.to_move() {
        let mut legal = <<TienLen as bailab::game::Game>::State as GameState>::Actions::default();
        state.legal_actions(&mut legal);
        let chosen = agent.act(&state.view(seat), legal.as_slice(), &mut rng);
        if legal.as_slice().len() > 1 {
            let (best, greedy, gap) = best_by_hand(&game, &net, &state);
            decisions.push(Decision {
                chosen,
                best,
                greedy,
                gap,
            });
        }
        state.apply(legal.as_slice()[chosen]);
    }
    decisions
}

#[test]
fn net_margin_keeps_greedys_move_unless_the_network_expects_more() {
    let s = Scratch::new("net-margin");
    let (choices, _, network_off_greedy) = moves_off(&s, "");
    assert!(
        network_off_greedy > 0,
        "the random network played greedy's moves"
    );
    // a margin no Q gap reaches: greedy's every move
    let (_, off_best, off_greedy) = moves_off(&s, ",margin=1000000");
    assert_eq!(off_greedy, 0);
    assert!(off_best > 0, "greedy's moves were all the network's");
    // a margin every real Q gap passes: the network's every move
    assert_eq!(
        moves_off(&s, ",margin=0.000001"),
        (choices, 0, network_off_greedy)
    );
}

#[test]
fn net_margin_is_in_points_of_payout() {
    // Where the highest Q is not greedy's action, the network's move is played exactly when the
    // gap, times the payout scale (Tiến Lên: 4 points), exceeds the margin.
    let s = Scratch::new("net-margin-points");
    let game = TienLen::build("south", 4, &RuleMap::new()).unwrap();
    let scale = bailab::generic_agents::net::payout_scale(&game) as f32;
    let margin = 0.1;
    let (mut kept, mut left) = (0, 0);
    for deal in 0..20 {
        for d in decisions_of(&s, &format!(",margin={margin}"), deal) {
            if d.best == d.greedy {
                assert_eq!(d.chosen, d.best);
                continue;
            }
            let sure = d.gap * scale > margin;
            assert_eq!(
                d.chosen,
                if sure { d.best } else { d.greedy },
                "gap {}",
                d.gap
            );
            *(if sure { &mut left } else { &mut kept }) += 1;
        }
    }
    assert!(
        kept > 0 && left > 0,
        "{kept} kept greedy's move, {left} left it"
    );
}

/// The actions `spec` (Tiến Lên south, 4 seats, every seat) takes over deals 0 to 5.
fn choices_of(spec: &str) -> Vec<usize> {
    let game = TienLen::build("south", 4, &RuleMap::new()).unwrap();
    let mut agent = make_agent_with::<TienLen>(spec, Setting::default()).unwrap();
    let mut rng = bailab::rng::stream_rng(1, 2, 3);
    let mut chosen = Vec::new();
    for deal in 0..6 {
        let mut state = bailab::sim::deal::seeds::seeded_deal(&game, deal, 0);
        while let Some(seat) = state.to_move() {
            let mut legal =
                <<TienLen as bailab::game::Game>::State as GameState>::Actions::default();
            state.legal_actions(&mut legal);
            let i = agent.act(&state.view(seat), legal.as_slice(), &mut rng);
            chosen.push(i);
            state.apply(legal.as_slice()[i]);
        }
    }
    chosen
}

/// Writes `bytes` to the file `name` in `s`, giving its path.
fn write_file(s: &Scratch, name: &str, bytes: &[u8]) -> String {
    let p = s.path(name);
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

#[test]
fn a_net_files_own_margin_plays_when_the_spec_gives_none() {
    let s = Scratch::new("net-file-margin");
    let (header, net) = random_net::<TienLen>("south", 4, 3);
    let plain = to_bytes(&header, &net);
    let write = |name: &str, bytes: &[u8]| write_file(&s, name, bytes);
    let t = write("t.safetensors", &plain);
    // `bailab agents --net FILE --set-margin` writes the margin into the header, 0 takes it out
    let m = write("m.safetensors", &plain);
    let out = bailab(&s.0, &["agents", "--net", &m, "--set-margin", "0.1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("margin      0.1 points"), "{shown}");
    let marked = std::fs::read(&m).unwrap();
    let with = NetHeader {
        margin: Some(0.1),
        ..header.clone()
    };
    assert_eq!(marked, to_bytes(&with, &net));
    let back = write("back.safetensors", &marked);
    assert!(
        bailab(&s.0, &["agents", "--net", &back, "--set-margin", "0"])
            .status
            .success()
    );
    assert_eq!(
        std::fs::read(&back).unwrap(),
        plain,
        "0 gives the file back"
    );
    // a bad margin is refused and leaves the file as it was
    let out = bailab(&s.0, &["agents", "--net", &m, "--set-margin", "-1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--set-margin -1"));
    assert_eq!(std::fs::read(&m).unwrap(), marked);
    // the file's margin plays unless the spec gives one
    let by_spec = choices_of(&format!("net:{t},margin=0.1"));
    assert_ne!(
        choices_of(&format!("net:{t}")),
        by_spec,
        "the margin changes moves"
    );
    assert_eq!(choices_of(&format!("net:{m}")), by_spec);
    assert_eq!(
        choices_of(&format!("net:{m},margin=0")),
        choices_of(&format!("net:{t}"))
    );
    // a header's margin that is not a number of points is refused
    let bad = NetHeader {
        margin: Some(-1.0),
        ..header
    };
    let b = write("bad.safetensors", &to_bytes(&bad, &net));
    let e = refused::<TienLen>(&format!("net:{b}"), "south", 4);
    assert!(e.contains("margin") && e.contains("bad.safetensors"), "{e}");
}

#[test]
fn a_net_files_own_lookahead_plays_when_the_spec_gives_none() {
    let s = Scratch::new("net-file-search");
    let (header, net) = random_net::<TienLen>("south", 4, 3);
    let plain = to_bytes(&header, &net);
    let write = |name: &str, bytes: &[u8]| write_file(&s, name, bytes);
    let t = write("t.safetensors", &plain);
    let m = write("m.safetensors", &plain);
    let set = [
        "--set-search",
        "40",
        "--set-deviate",
        "1",
        "--set-prior",
        "5",
    ];
    let out = bailab(&s.0, &[&["agents", "--net", m.as_str()][..], &set].concat());
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        shown.contains("search      40 determinizations, deviate 1, prior 5"),
        "{shown}"
    );
    let marked = std::fs::read(&m).unwrap();
    let shipped = ShippedSearch {
        iters: 40,
        deviate: 1.0,
        prior: 5.0,
    };
    let with = NetHeader {
        search: Some(shipped),
        ..header.clone()
    };
    assert_eq!(marked, to_bytes(&with, &net));
    // the file's lookahead plays unless the spec gives one; each option the spec names wins
    let by_spec = choices_of(&format!("net:{t},search=40,deviate=1,prior=5"));
    assert_ne!(
        choices_of(&format!("net:{t}")),
        by_spec,
        "the search changes moves"
    );
    assert_eq!(choices_of(&format!("net:{m}")), by_spec);
    assert_eq!(
        choices_of(&format!("net:{m},search=0")),
        choices_of(&format!("net:{t}"))
    );
    assert_eq!(
        choices_of(&format!("net:{m},prior=1000000000")),
        choices_of(&format!("net:{t},search=40,deviate=1,prior=1000000000"))
    );
    // 0 takes it out; a bad value, or deviate= without a search, is refused and changes nothing
    let back = write("back.safetensors", &marked);
    assert!(
        bailab(&s.0, &["agents", "--net", &back, "--set-search", "0"])
            .status
            .success()
    );
    assert_eq!(
        std::fs::read(&back).unwrap(),
        plain,
        "0 gives the file back"
    );
    for bad in [
        &["--set-search", "5", "--set-deviate", "-1"][..],
        &["--set-deviate", "1"],
    ] {
        let out = bailab(&s.0, &[&["agents", "--net", m.as_str()][..], bad].concat());
        assert!(!out.status.success(), "{bad:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("deviate"),
            "{bad:?}"
        );
        assert_eq!(std::fs::read(&m).unwrap(), marked);
    }
    // a header's lookahead out of bounds is refused by name
    let zero = NetHeader {
        search: Some(ShippedSearch {
            iters: 0,
            ..shipped
        }),
        ..header
    };
    let b = write("bad.safetensors", &to_bytes(&zero, &net));
    let e = refused::<TienLen>(&format!("net:{b}"), "south", 4);
    assert!(
        e.contains("lookahead") && e.contains("bad.safetensors"),
        "{e}"
    );
}

#[test]
fn net_agent_plays_the_action_of_highest_q() {
    let s = Scratch::new("net-argmax");
    let (choices, other) = moves_off_the_highest_q(&s, "");
    assert!(choices > 5, "{choices} real choices checked");
    assert_eq!(other, 0);
    // one iteration compares nothing: the search keeps the network's move
    assert_eq!(moves_off_the_highest_q(&s, ",search=1"), (choices, 0));
}

#[test]
fn net_search_overrules_some_moves_of_a_bad_network_and_refuses_a_bad_count() {
    // A network of random weights plays badly: greedy's rollouts find better moves often.
    let s = Scratch::new("net-search");
    let (choices, other) = moves_off_the_highest_q(&s, ",search=300");
    assert!(other > 0, "the search changed none of {choices} moves");
    assert!(other < choices, "the search changed all {choices} moves");
    // the network's own gains, counted as that many determinizations, outweigh the search
    let (sure, off) = moves_off_the_highest_q(&s, ",search=300,prior=1000000000");
    assert_eq!(
        off, 0,
        "a prior without limit keeps the network's {sure} moves"
    );
    let rules = RuleMap::new();
    let setting = Setting {
        table: Some((&rules, 4)),
        ..Setting::default()
    };
    let bad = format!("net:{},search=-1", s.path("t.safetensors").display());
    let e = make_agent_with::<TienLen>(&bad, setting).err().unwrap();
    assert!(e.to_string().contains("search"), "{e}");
    for alone in [
        "prior=10",
        "deviate=1",
        "leaf=q",
        "playout=own",
        "horizon=2",
        "infer=on",
    ] {
        let bad = format!("net:{},{alone}", s.path("t.safetensors").display());
        let e = make_agent_with::<TienLen>(&bad, setting).err().unwrap();
        assert!(e.to_string().contains("need search=N"), "{e}");
    }
    let bad = format!(
        "net:{},search=5,leaf=mid",
        s.path("t.safetensors").display()
    );
    let e = make_agent_with::<TienLen>(&bad, setting).err().unwrap();
    assert!(e.to_string().contains("leaf=mid"), "{e}");
    let bad = format!(
        "net:{},search=5,playout=mine",
        s.path("t.safetensors").display()
    );
    let e = make_agent_with::<TienLen>(&bad, setting).err().unwrap();
    assert!(e.to_string().contains("playout=mine"), "{e}");
    for (extra, says) in [
        (",search=5,horizon=2", "horizon= needs playout=own"),
        (
            ",search=5,playout=all,horizon=2",
            "horizon= needs playout=own",
        ),
        (",search=5,playout=own,horizon=0", "horizon"),
        (",search=5,playout=own,horizon=1001", "horizon"),
        (",search=5,playout=own,horizon=two", "horizon"),
    ] {
        let bad = format!("net:{}{extra}", s.path("t.safetensors").display());
        let e = make_agent_with::<TienLen>(&bad, setting).err().unwrap();
        assert!(e.to_string().contains(says), "{extra}: {e}");
    }
}

#[test]
fn net_playouts_by_the_network_change_what_the_search_finds() {
    // a network of random weights plays unlike greedy: the same search with the network in its
    // playouts (the searching seat's, or every seat's) judges moves otherwise
    let s = Scratch::new("net-playout");
    let chosen = |extra: &str| -> Vec<usize> {
        let decisions = decisions_of(&s, extra, 5);
        decisions.iter().map(|d| d.chosen).collect()
    };
    let greedy = chosen(",search=200");
    assert_eq!(greedy, chosen(",search=200,playout=greedy"));
    let own = chosen(",search=200,playout=own");
    let all = chosen(",search=200,playout=all");
    assert_ne!(greedy, own, "playout=own played as greedy playouts");
    assert_ne!(own, all, "playout=all played as playout=own");
    // a horizon past every choice a seat makes in a game is no horizon; the network at the
    // seat's next choice only judges moves otherwise than at all of them or at none
    assert_eq!(own, chosen(",search=200,playout=own,horizon=1000"));
    let next = chosen(",search=200,playout=own,horizon=1");
    assert_ne!(next, greedy, "horizon=1 played as greedy playouts");
    assert_ne!(
        next, own,
        "horizon=1 played as the network at every later choice"
    );
}

/// The error of building `spec` for game `G` at a table of `variant` and `players`.
fn refused<G: GameKind>(spec: &str, variant: &str, players: usize) -> String {
    let rules = RuleMap::new();
    let setting = Setting {
        variant: Some(variant),
        table: Some((&rules, players)),
        ..Setting::default()
    };
    match make_agent_with::<G>(spec, setting) {
        Ok(_) => panic!(
            "{spec} was accepted for {} {variant} at {players}",
            G::INFO.name
        ),
        Err(e) => e.to_string(),
    }
}

#[test]
fn net_files_for_another_table_are_refused_by_name() {
    let s = Scratch::new("net-refused");
    let write = |name: &str, bytes: Vec<u8>| {
        let p = s.path(name);
        std::fs::write(&p, bytes).unwrap();
        format!("net:{}", p.display())
    };
    let tienlen = write(
        "tienlen.safetensors",
        random_net_file::<TienLen>("south", 4, 1),
    );
    let classic = write(
        "classic.safetensors",
        random_net_file::<TuSac>("classic", 4, 1),
    );
    let e = refused::<Chan>(&tienlen, "standard", 4);
    assert!(e.contains("is a network for game tienlen, not chan"), "{e}");
    let e = refused::<TuSac>(&classic, "4sac", 4);
    assert!(
        e.contains("is a network for variant classic, not 4sac"),
        "{e}"
    );
    let e = refused::<TienLen>(&tienlen, "south", 3);
    assert!(e.contains("is a network for players 4, not 3"), "{e}");
    // another feature version
    let game = TienLen::build("south", 4, &RuleMap::new()).unwrap();
    let (_, net) = random_net::<TienLen>("south", 4, 1);
    let mut header = header_for(&game, &[24, 12]);
    header.feature_version += 1;
    let old = write("old.safetensors", to_bytes(&header, &net));
    let e = refused::<TienLen>(&old, "south", 4);
    assert!(e.contains("is a network for feature version"), "{e}");
    // a table this build cannot play (an unknown rule option in the file)
    let mut header = header_for(&game, &[24, 12]);
    header
        .rules
        .insert("no_such_option".into(), serde_json::Value::from(1));
    let odd = write("odd.safetensors", to_bytes(&header, &net));
    let e = make_agent_with::<TienLen>(&odd, Setting::default())
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("cannot be played here") && e.contains("no_such_option"),
        "{e}"
    );
    // another layout of the same length
    let mut header = header_for(&game, &[24, 12]);
    header.state_layout = header.state_layout.replacen("own_hand", "hand_own", 1);
    let moved = write("layout.safetensors", to_bytes(&header, &net));
    let e = refused::<TienLen>(&moved, "south", 4);
    assert!(e.contains("view tensor layout"), "{e}");
    let mut header = header_for(&game, &[24, 12]);
    header.action_layout = header
        .action_layout
        .replacen("rule.greedy:1", "rule.other:1", 1);
    let renamed = write("features.safetensors", to_bytes(&header, &net));
    let e = refused::<TienLen>(&renamed, "south", 4);
    assert!(e.contains("action input layout"), "{e}");
}

#[test]
fn damaged_or_foreign_net_files_are_clear_errors() {
    let s = Scratch::new("net-damaged");
    let bytes = random_net_file::<TienLen>("south", 4, 2);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "truncated",
            bytes[..bytes.len() - 100].to_vec(),
            "not a readable safetensors file",
        ),
        (
            "header-cut",
            bytes[..20].to_vec(),
            "not a readable safetensors file",
        ),
        ("empty", Vec::new(), "not a readable safetensors file"),
        (
            "text",
            b"name = \"x\"\n".to_vec(),
            "not a readable safetensors file",
        ),
    ];
    for (name, content, expected) in cases {
        let p = s.path(&format!("{name}.safetensors"));
        std::fs::write(&p, content).unwrap();
        let e = refused::<TienLen>(&format!("net:{}", p.display()), "south", 4);
        assert!(
            e.contains(expected) && e.contains(&p.display().to_string()),
            "{name}: {e}"
        );
    }
    // a safetensors file without bailab's header
    let plain = safetensors_without_header();
    let p = s.path("plain.safetensors");
    std::fs::write(&p, plain).unwrap();
    let e = refused::<TienLen>(&format!("net:{}", p.display()), "south", 4);
    assert!(e.contains("without bailab's header"), "{e}");
    // a missing file, and no file at all
    let e = refused::<TienLen>("net:no-such.safetensors", "south", 4);
    assert!(e.contains("no-such.safetensors"), "{e}");
    let e = refused::<TienLen>("net", "south", 4);
    assert!(e.contains("needs its file"), "{e}");
}

/// A valid safetensors file of one tensor and no metadata.
fn safetensors_without_header() -> Vec<u8> {
    let json = br#"{"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}"#;
    let mut out = (json.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(json);
    out.extend_from_slice(&1.0f32.to_le_bytes());
    out
}

#[test]
fn run_plays_a_net_seat_from_an_experiment() {
    let s = Scratch::new("net-run");
    std::fs::write(
        s.path("t.safetensors"),
        random_net_file::<TienLen>("south", 4, 4),
    )
    .unwrap();
    let exp = s.write(
        "e.toml",
        "name = \"n\"\ngame = \"tienlen\"\nagents = [\"net:t.safetensors\", \"greedy\", \"greedy\", \"greedy\"]\n\
         deals = 20\nseed = 3\nrotate = true\noutput = \"out\"\n",
    );
    ok(&s.0, &["run", &exp, "--quiet", "--threads", "1"]);
    let summary = String::from_utf8(read(&s.path("out/summary.csv"))).unwrap();
    assert!(summary.contains("net:t.safetensors"), "{summary}");
    let listed = stdout(&ok(&s.0, &["agents"]));
    assert!(listed.contains("net"), "{listed}");
}

#[test]
fn run_plays_a_net_file_larger_than_a_weight_file_may_be() {
    // a run records a digest of every agent file: a network is read as a network file (up to
    // 256 MiB), not under the 1 MiB cap of a greedy weight file
    let s = Scratch::new("net-run-large");
    let (header, net) = random_net_sized::<TienLen>("south", 2, 5, [1200, 8]);
    let bytes = to_bytes(&header, &net);
    assert!(bytes.len() > 1 << 20, "{} bytes", bytes.len());
    std::fs::write(s.path("big.safetensors"), bytes).unwrap();
    let exp = s.write(
        "e.toml",
        "name = \"n\"\ngame = \"tienlen\"\nagents = [\"net:big.safetensors\", \"greedy\"]\n\
         deals = 4\nseed = 3\noutput = \"out\"\n",
    );
    ok(&s.0, &["run", &exp, "--quiet", "--threads", "1"]);
    let summary = String::from_utf8(read(&s.path("out/summary.csv"))).unwrap();
    assert!(summary.contains("net:big.safetensors"), "{summary}");
}
