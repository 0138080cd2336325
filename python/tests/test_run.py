"""Experiments from Python: bailab.run plays through the runner of `bailab run`, so a Python
agent that plays like a built-in one gives the built-in's figures byte for byte; a failing agent
stops the run with a checkpoint that resumes to the same files; bad input raises ValueError."""

import pytest

import bailab

GAMES = [("tusac", "classic", 4), ("tusac", "sisepai21", 4), ("chan", "standard", 4),
         ("tienlen", "south", 4)]


def experiment(game, variant, players, first, deals=40):
    """A small experiment with `first` at seat 0 and random elsewhere."""
    return {"name": "py", "game": game, "variant": variant, "deals": deals, "seed": 11,
            "agents": [first] + ["random"] * (players - 1)}


def take_first(view, seed):
    """A Python agent: always the first legal action."""
    return 0


@pytest.mark.parametrize("game,variant,players", GAMES)
@pytest.mark.parametrize("threads", [1, 2])
def test_a_python_first_gives_the_summary_of_the_built_in_first(game, variant, players, threads):
    mine = bailab.run(experiment(game, variant, players, "mine"), agents={"mine": take_first},
                      threads=threads)
    theirs = bailab.run(experiment(game, variant, players, "first"), threads=threads)
    assert mine.summary_csv.replace("mine", "first") == theirs.summary_csv
    assert mine.games_played == theirs.games_played > 0


def test_a_built_in_agent_called_through_python_plays_as_it_does_in_rust():
    exp = experiment("tienlen", "south", 4, "mine", deals=100)
    mine = bailab.run(exp, agents={"mine": bailab.Agent("greedy")}, threads=2)
    theirs = bailab.run(experiment("tienlen", "south", 4, "greedy", deals=100), threads=2)
    assert mine.summary_csv.replace("mine", "greedy") == theirs.summary_csv


def test_the_dataframes_hold_the_numbers_of_the_csv_files(tmp_path):
    results = bailab.run(experiment("chan", "standard", 3, "mine"), agents={"mine": take_first},
                         output=tmp_path / "out", records=True)
    assert results.output == str(tmp_path / "out")
    assert (tmp_path / "out" / "records.jsonl").exists()
    summary = results.summary[results.summary.kind == "agent"].set_index("agent")
    assert set(summary.index) == {"mine", "random"}
    assert summary.loc["mine", "seat_games"] == 40 * 3
    games = results.games
    assert len(games) == results.games_played == 40 * 3
    payouts = [row[f"payout_{s}"] for _, row in games.iterrows()
               for s in range(3) if row[f"agent_{s}"] == "mine"]
    assert summary.loc["mine", "mean_payout"] == pytest.approx(sum(payouts) / len(payouts),
                                                               abs=1e-5)
    assert results.matches is None


def test_a_failing_agent_stops_the_run_with_a_checkpoint_that_resumes(tmp_path):
    def fails_late(view, seed):
        if seed % 89 == 0:
            raise ValueError("my bug")
        return 0

    out = tmp_path / "run"
    exp = experiment("tusac", "classic", 4, "mine", deals=60)
    with pytest.raises(RuntimeError) as failure:
        bailab.run(exp, agents={"mine": fails_late}, output=out)
    message = str(failure.value)
    for words in ["agent 'mine'", "deal", "seat", "decision", "my bug", "checkpoint"]:
        assert words in message
    # resumed the Python way: the command line cannot load a Python agent
    assert f'bailab.run(resume="{out}"' in message and "--resume" not in message
    assert (out / "checkpoint.json").exists()
    resumed = bailab.run(resume=out, agents={"mine": take_first})
    straight = bailab.run(exp, agents={"mine": take_first})
    assert resumed.summary_csv == straight.summary_csv


@pytest.mark.parametrize("answer", [99, -1, "zero", None])
def test_a_bad_answer_is_a_fault_naming_it(answer, tmp_path):
    exp = experiment("tienlen", "south", 2, "mine", deals=5)
    with pytest.raises(RuntimeError, match="agent 'mine'"):
        bailab.run(exp, agents={"mine": lambda view, seed: answer}, output=tmp_path / "o")


@pytest.mark.parametrize(
    "exp,agents,words",
    [
        (experiment("tienlen", "south", 4, "mine"), {"greedy": take_first}, "built-in"),
        (experiment("tienlen", "south", 4, "mine"), {"mine": 3}, "not callable"),
        (experiment("tienlen", "south", 4, "mine"), {"mine": take_first, "b": take_first},
         "'b' is not seated"),
        (experiment("tienlen", "south", 4, "mine"), {}, "unknown agent 'mine'"),
        (experiment("tienlen", "south", 4, "first") | {"deals": 0}, {}, "deals"),
        (experiment("poker", "x", 4, "first"), {}, "poker"),
        ("game = \"chan\"\nagents = [\"first\", \"first\"]\n", {}, "deals"),
    ],
)
def test_bad_experiments_and_agents_raise_value_error(exp, agents, words):
    with pytest.raises(ValueError, match=words):
        bailab.run(exp, agents=agents)


def test_an_experiment_file_runs_as_bailab_run_runs_it(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text("name = \"x\"\ngame = \"chan\"\nagents = [\"greedy\", \"random\"]\n"
                    "deals = 30\nseed = 4\n")
    by_path = bailab.run(str(path))
    by_text = bailab.run(path.read_text())
    assert by_path.summary_csv == by_text.summary_csv


@pytest.mark.parametrize("spec,words", [("nobody", "unknown agent"),
                                        ("ismcts:iters=lots", "iters")])
def test_a_bad_agent_spec_raises_value_error(spec, words):
    with pytest.raises(ValueError, match=words):
        bailab.Agent(spec)


def test_an_agent_answers_for_the_seat_to_decide_only():
    state = bailab.Game("chan").deal(2, 0)
    agent = bailab.Agent("ismcts:iters=50")
    seat = state.current_seat
    choice = agent.act(state.view(seat), seed=5)
    assert 0 <= choice < len(state.legal_actions())
    assert choice == agent.act(state.view(seat), seed=5)
    other = (seat + 1) % 4
    with pytest.raises(ValueError, match="not the one to decide"):
        agent.act(state.view(other), seed=5)
