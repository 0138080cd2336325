"""Experiments from Python: `bailab.run` plays an experiment through the runner of `bailab run`
(the same seeds, rotation, paired statistics and checkpoints), with Python callables in any
seats, and returns its results as pandas DataFrames."""

import json
import os
import shutil
import tempfile
from pathlib import Path

from . import _bailab


class Results:
    """The results of a run: `summary`, `games` and `matches` as pandas DataFrames (the rows of
    summary.csv, games.csv and matches.csv; `games` is None unless games were written, `matches`
    None for single-game deals), `tally` (tally.json as a dict), `games_played`, `elapsed_s`,
    and `output` (the folder, or None when it was a temporary one, since removed)."""

    def __init__(self, folder, games_played, elapsed_s, keep):
        import pandas as pd

        folder = Path(folder)

        def table(name):
            path = folder / name
            return pd.read_csv(path) if path.exists() else None

        self.summary = table("summary.csv")
        self.games = table("games.csv")
        self.matches = table("matches.csv")
        self.tally = json.loads((folder / "tally.json").read_text())
        self.summary_csv = (folder / "summary.csv").read_text()
        self.games_played = games_played
        self.elapsed_s = elapsed_s
        self.output = str(folder) if keep else None

    def __repr__(self):
        return f"Results({self.games_played} games, {self.elapsed_s:.1f} s)\n{self.summary}"


def _source(experiment):
    """(TOML text, path) of an experiment given as a path, TOML text or a dict."""
    if isinstance(experiment, dict):
        return _bailab._toml(experiment), None
    if isinstance(experiment, os.PathLike):
        return None, os.fspath(experiment)
    if isinstance(experiment, str):
        one_line = "\n" not in experiment and "=" not in experiment
        return (None, experiment) if one_line else (experiment, None)
    raise ValueError("experiment: a path, TOML text or a dict")


def run(experiment=None, agents=None, threads=None, output=None, resume=None, games=True,
        records=False, force=False):
    """Runs an experiment and returns its `Results`.

    experiment: a path to an experiment file, its TOML text, or the same table as a dict
        (README "Experiments"); not needed with `resume`.
    agents: {name: callable} seated wherever the experiment's `agents` name them; each is called
        `callable(view, seed)` at its seat's decisions and returns an index into
        `view.legal_actions()` (an int or an Action). `seed` comes from the seat's own random
        stream, so a policy that draws from it is reproducible. A `bailab.Agent` is a callable.
    threads: worker threads (default: all cores). The results do not depend on it.
    output: the output folder (kept); default a temporary folder, removed after reading.
    resume: the folder of a stopped run to continue (pass the same `agents`).
    games, records: write games.csv / records.jsonl as well.
    force: write into a folder that holds other results.

    A bad experiment or agent raises ValueError naming it. An agent that raises or answers a
    bad index stops the run with a checkpoint (RuntimeError names the agent, deal, seat and
    decision); Ctrl-C stops it with a checkpoint (KeyboardInterrupt). Either keeps the folder,
    and `run(resume=folder, agents=...)` continues it.
    """
    agents = dict(agents or {})
    if resume is not None:
        folder, played, elapsed = _bailab._run(None, None, agents, threads, None,
                                               os.fspath(resume), games, records, force)
        return Results(folder, played, elapsed, keep=True)
    if experiment is None:
        raise ValueError("experiment: give an experiment (or resume=FOLDER)")
    text, path = _source(experiment)
    temporary = output is None
    folder = tempfile.mkdtemp(prefix="bailab-run-") if temporary else os.fspath(output)
    try:
        folder, played, elapsed = _bailab._run(text, path, agents, threads, folder, None, games,
                                               records, force or temporary)
    except ValueError:
        if temporary:  # nothing was run: the empty temporary folder goes
            shutil.rmtree(folder, ignore_errors=True)
        raise
    results = Results(folder, played, elapsed, keep=not temporary)
    if temporary:
        shutil.rmtree(folder, ignore_errors=True)
    return results
