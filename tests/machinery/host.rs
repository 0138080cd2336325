//! Agents an embedding program supplies (`AgentHost`, as the Python package seats callables):
//! seated by name like any spec, and a failing one stops the run with a checkpoint from which
//! `resume_run` finishes byte for byte like a run that never failed.

use crate::common;
use bailab::agent::host::{AgentHost, Host};
use bailab::agent::{Agent, AgentError, HostError};
use bailab::game::GameState;
use bailab::games::chan::ChanState;
use bailab::rng::GameRng;
use bailab::sim::run::experiment::{Experiment, Runtime};
use bailab::sim::run::experiment_error::{CheckError, ExperimentError};
use bailab::sim::run::runner::{resume_run, run_experiment, RunOptions};
use std::any::Any;
use std::path::Path;
use std::sync::Arc;

/// The first legal action, failing at the decisions the shared switch names.
struct Picky {
    fail_at_decision: Option<u64>,
    decisions: u64,
    fault: Option<String>,
}

impl Agent<ChanState> for Picky {
    fn act(
        &mut self,
        view: &<ChanState as GameState>::View<'_>,
        _legal: &[<ChanState as GameState>::Action],
        _rng: &mut GameRng,
    ) -> usize {
        use bailab::game::SeatView;
        self.decisions += 1;
        if Some(self.decisions) == self.fail_at_decision {
            self.fault = Some(format!("seat {}: no answer", view.seat()));
        }
        0
    }
    fn fault(&mut self) -> Option<String> {
        self.fault.take()
    }
}

/// A host with one agent, `mine`, that fails at its `fail`-th decision of a thread (never with
/// `None`).
struct OneAgent(Option<u64>);

impl AgentHost for OneAgent {
    fn has(&self, name: &str) -> bool {
        name == "mine"
    }
    fn build(&self, game: &'static str, _name: &str) -> Result<Box<dyn Any>, HostError> {
        assert_eq!(game, "chan");
        let agent: Box<dyn Agent<ChanState>> = Box::new(Picky {
            fail_at_decision: self.0,
            decisions: 0,
            fault: None,
        });
        Ok(Box::new(agent))
    }
}

fn experiment(agent: &str, host: Host) -> Experiment {
    let text = format!(
        "name = \"host\"\ngame = \"chan\"\nagents = [\"{agent}\", \"random\", \"greedy\"]\n\
         deals = 60\nseed = 5\ngames_csv = true\n"
    );
    let runtime = Runtime {
        project: None,
        host,
    };
    Experiment::parse_in(&text, "host.toml", &runtime).unwrap()
}

fn options(dir: &Path, host: Host) -> RunOptions {
    RunOptions {
        threads: Some(2),
        quiet: true,
        output: Some(dir.to_path_buf()),
        runtime: Runtime {
            project: None,
            host,
        },
        ..RunOptions::default()
    }
}

fn host(fail: Option<u64>) -> Host {
    Host(Some(Arc::new(OneAgent(fail))))
}

#[test]
fn a_hosted_agent_plays_like_the_built_in_it_imitates() {
    let dir = common::Scratch::new("host_imitates");
    let (mine, first) = (dir.path("mine"), dir.path("first"));
    run_experiment(&experiment("mine", host(None)), &options(&mine, host(None))).unwrap();
    run_experiment(
        &experiment("first", Host::default()),
        &options(&first, host(None)),
    )
    .unwrap();
    let read = |d: &Path| std::fs::read_to_string(d.join("summary.csv")).unwrap();
    assert_eq!(read(&mine).replace("mine", "first"), read(&first));
}

#[test]
fn an_unknown_name_without_its_host_is_an_unknown_agent() {
    let text = "game = \"chan\"\nagents = [\"mine\", \"random\"]\ndeals = 5\n";
    let err = Experiment::parse(text, "x.toml").unwrap_err();
    let ExperimentError::Check { error, .. } = &err else {
        panic!("{err:?}")
    };
    let CheckError::Agents(agent) = error.as_ref() else {
        panic!("{err:?}")
    };
    assert!(
        matches!(agent.root(), AgentError::UnknownAgent { .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("unknown agent 'mine'"), "{err}");
}

#[test]
fn a_failing_agent_stops_the_run_with_a_checkpoint_that_resumes_to_the_same_files() {
    let dir = common::Scratch::new("host_fails");
    let (failed, straight) = (dir.path("failed"), dir.path("straight"));
    let err = run_experiment(
        &experiment("mine", host(None)),
        &options(&failed, host(Some(150))),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("agent 'mine' failed in deal"), "{err}");
    assert!(
        err.contains("no answer") && err.contains("checkpoint"),
        "{err}"
    );
    assert!(failed.join("checkpoint.json").exists());
    assert!(!failed.join("summary.csv").exists());
    resume_run(&failed, &options(&failed, host(None))).unwrap();
    run_experiment(
        &experiment("mine", host(None)),
        &options(&straight, host(None)),
    )
    .unwrap();
    common::assert_same_files(
        &failed,
        &straight,
        &["summary.csv", "games.csv", "tally.json"],
    );
}
