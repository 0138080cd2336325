//! Results are tallied by agent, not by the spelling of its spec: `ismcts` and `ismcts:depth=1`
//! (the default spelled out) are one agent, written in files as the first seat spells it.

use std::path::Path;

use crate::common::*;
use bailab::sim::run::experiment::Experiment;

/// An experiment of ismcts (spelled `first`, then `second`) against random, tusac, 3 deals.
fn experiment(first: &str, second: &str) -> String {
    format!(
        "name = \"keys\"\ngame = \"tusac\"\nagents = [\"{first}\", \"random\", \"{second}\", \
         \"random\"]\ndeals = 3\nseed = 5\noutput = \"out\"\n"
    )
}

#[test]
fn two_spellings_of_one_agent_tally_as_one_written_as_the_first() {
    let exp = Experiment::parse(
        &experiment("ismcts:iters=20", "ismcts:depth=1,iters=20"),
        "x",
    )
    .unwrap();
    assert_eq!(exp.tally().agents, ["ismcts:iters=20", "random"]);
    assert_eq!(exp.tally_slots(&exp.tally().agents), [0, 1, 0, 1]);
    let other = Experiment::parse(
        &experiment("ismcts:iters=20", "ismcts:depth=off,iters=20"),
        "x",
    )
    .unwrap();
    let agents = other.tally().agents;
    assert_eq!(
        agents,
        ["ismcts:iters=20", "random", "ismcts:depth=off,iters=20"]
    );
    assert_eq!(other.tally_slots(&agents), [0, 1, 2, 1]);
}

#[test]
fn a_run_spelling_a_default_out_writes_the_summary_of_one_spelling() {
    let s = Scratch::new("agent-keys");
    let spelled = s.write(
        "a/x.toml",
        &experiment("ismcts:iters=20", "ismcts:iters=20,depth=1"),
    );
    let same = s.write(
        "b/x.toml",
        &experiment("ismcts:iters=20", "ismcts:iters=20"),
    );
    for exp in [&spelled, &same] {
        ok(&s.0, &["run", exp, "--threads", "1", "--quiet"]);
    }
    let summary = |dir: &str| read(&s.path(dir).join("out/summary.csv"));
    assert_eq!(summary("a"), summary("b"));
    let text = String::from_utf8(summary("a")).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}"); // the header, two agents, their pair
    assert!(text.contains(",agent,ismcts:iters=20,,2,"), "{text}");
}

#[test]
fn every_committed_experiment_tallies_each_written_spec_as_its_own_agent() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let Ok(exp) = Experiment::load(&path.to_string_lossy()) else {
            continue; // a tournament or another kind of file
        };
        let mut written: Vec<&String> = Vec::new();
        for a in &exp.agents {
            if !written.contains(&a) {
                written.push(a);
            }
        }
        assert_eq!(
            exp.tally().agents.iter().collect::<Vec<_>>(),
            written,
            "{}",
            path.display()
        );
        seen += 1;
    }
    assert!(seen > 20, "{seen} experiments read");
}

#[test]
fn a_tournament_refuses_two_spellings_of_one_agent() {
    use bailab::sim::tournament::spec::Tournament;
    use bailab::sim::tournament::spec_error::{TournamentError, TournamentKeyError};
    let text =
        |agents: &str| format!("name = \"t\"\ngame = \"tusac\"\nagents = [{agents}]\ndeals = 2\n");
    let e = Tournament::parse(
        &text("\"random\", \"ismcts\", \"ismcts:depth=1\""),
        "t.toml",
        None,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.toml: key 'agents': 'ismcts:depth=1' is listed twice (as 'ismcts': the same agent)"
    );
    let TournamentError::Check { error, .. } = &e else {
        panic!("{e:?}")
    };
    assert!(
        matches!(error.as_ref(), TournamentKeyError::Twice { spec, first: Some(f) }
            if spec == "ismcts:depth=1" && f == "ismcts"),
        "{e:?}"
    );
    let e = Tournament::parse(&text("\"random\", \"random\""), "t.toml", None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.toml: key 'agents': 'random' is listed twice"
    );
    assert!(Tournament::parse(
        &text("\"random\", \"ismcts:depth=off\", \"ismcts\""),
        "t.toml",
        None
    )
    .is_ok());
}
