#!/usr/bin/env python3
"""Throughput of bailab from Python, beside RLCard's environments, on this machine.

    python3 scripts/python-bench.py [--seconds 3] [--envs 64,1024] [--csv bench.csv]

Measures, in one run:

  (a) single-state stepping driven from Python: `State.apply` with a uniformly random legal
      index, a new deal when the game ends, per game and variant (steps/s = decisions/s);
  (b) `bailab.VecEnv` on Tiến Lên, 4 players, the learning seat against `random` opponents,
      with a numpy policy uniform over the mask, at 1 thread and at every core, for each
      `--envs` (steps/s = learning-seat decisions/s: one per env per `step` call; the
      opponents' moves, played in Rust, are not counted);
  (c) RLCard's environments (`doudizhu`, `uno` by default) with a uniformly random legal
      action (steps/s = `env.step` calls/s, whichever player acts: every player is driven
      from Python). RLCard is installed with pip into a venv of its own under /tmp if this
      Python lacks it.

  (d) an experiment through `bailab.run` on one thread with a built-in agent called through
      Python (`bailab.Agent(spec)` seated as a Python agent) beside the same experiment with
      the agent seated in Rust, per game (games/s; their ratio is the cost of Python in the
      loop). Back to back, alternating, median of three.

  (e) the cost of a step through each interface on Tiến Lên, 4 players, uniformly random legal
      actions: an OpenSpiel state of `bailab.openspiel` (`apply_action`, every seat's decision
      counted, the deck's chance nodes included in the time), the Gymnasium env of
      `bailab.gymnasium` (one learning-seat `step`, three `random` opponents called from
      Python), its vector env and `VecEnv` (64 envs, 1 thread; per learning-seat decision).
      Skipped when OpenSpiel or Gymnasium is missing.

Then prints the ratios VecEnv / RLCard. Needs bailab installed (`pip install ./python`).
"""

import argparse
import csv
import json
import os
import platform
import subprocess
import sys
import time

VENV = "/tmp/bailab-bench-rlcard"


def machine():
    """CPU model, cores, Python and numpy versions."""
    import numpy as np

    model = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return {
        "cpu": model,
        "cores": cores,
        "load": load,
        "python": platform.python_version(),
        "numpy": np.__version__,
    }


def timed(seconds, step):
    """Calls `step()` (returning the steps it made) for about `seconds` after a short warm-up;
    returns (steps, elapsed seconds)."""
    end = time.perf_counter() + min(0.3, seconds / 5)
    while time.perf_counter() < end:
        step()
    steps, start = 0, time.perf_counter()
    end = start + seconds
    while True:
        steps += step()
        now = time.perf_counter()
        if now >= end:
            return steps, now - start


def bench_state(name, variant, seconds):
    """(a): one state stepped from Python with random legal indices."""
    import numpy as np

    import bailab

    game = bailab.Game(name, variant=variant)
    rng = np.random.default_rng(0)
    box = {"state": game.deal(1, 0), "index": 0}

    def step():
        state = box["state"]
        if state.is_terminal:
            box["index"] += 1
            box["state"] = state = game.deal(1, box["index"])
            if state.is_terminal:
                return 0
        state.apply(int(rng.integers(len(state.legal_actions()))))
        return 1

    return timed(seconds, step)


def bench_vecenv(num_envs, threads, seconds):
    """(b): VecEnv on Tiến Lên 4 players, random opponents, a numpy policy uniform over the
    mask (the legal indices are the mask's first `mask.sum()` entries)."""
    import numpy as np

    import bailab

    env = bailab.VecEnv(bailab.Game("tienlen", players=4), num_envs, 1, opponents=["random"], threads=threads)
    rng = np.random.default_rng(0)
    box = {"mask": env.reset()[1]}

    def step():
        counts = box["mask"].sum(axis=1)
        actions = (rng.random(num_envs) * counts).astype(np.int64)
        box["mask"] = env.step(actions)[1]
        return num_envs

    return timed(seconds, step)


def bench_rlcard(games, seconds):
    """(c): RLCard's environments with a uniformly random legal action; one JSON object."""
    import numpy as np
    import rlcard

    rows = []
    for name in games:
        env = rlcard.make(name, config={"seed": 0})
        rng = np.random.default_rng(0)
        box = {"state": env.reset()[0]}

        def step():
            legal = list(box["state"]["legal_actions"])
            box["state"], _ = env.step(legal[int(rng.integers(len(legal)))])
            if env.is_over():
                box["state"] = env.reset()[0]
            return 1

        steps, elapsed = timed(seconds, step)
        rows.append({"game": name, "steps": steps, "seconds": elapsed})
    return {"version": rlcard.__version__, "rows": rows}


def rlcard_python():
    """A Python that has RLCard: this one, or the venv under /tmp (made and filled if need be)."""
    try:
        import rlcard  # noqa: F401

        return sys.executable
    except ImportError:
        pass
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        print(f"installing rlcard into {VENV} (python -m venv, pip install rlcard) ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", VENV], check=True)
    probe = subprocess.run([python, "-c", "import rlcard"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "-q", "rlcard"], check=True)
    return python


def run_rlcard(games, seconds):
    """(c) in a Python that has RLCard (a subprocess when it is the venv's)."""
    python = rlcard_python()
    if python == sys.executable:
        return bench_rlcard(games, seconds)
    args = [python, __file__, "--rlcard-worker", ",".join(games), "--seconds", str(seconds)]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def bench_in_the_loop(game, spec, deals):
    """Games/s of `spec` against `random` seated through Python and in Rust, one thread: the
    medians of three alternating runs of `deals` deals each."""
    import statistics

    import bailab

    players = 4
    exp = {"name": "loop", "game": game, "deals": deals, "seed": 5,
           "agents": ["mine"] + ["random"] * (players - 1)}
    agent = bailab.Agent(spec)
    python, rust = [], []
    for _ in range(3):
        r = bailab.run(exp, agents={"mine": agent}, threads=1, games=False)
        python.append(r.games_played / r.elapsed_s)
        r = bailab.run(exp | {"agents": [spec] + ["random"] * (players - 1)}, threads=1,
                       games=False)
        rust.append(r.games_played / r.elapsed_s)
    return statistics.median(python), statistics.median(rust)


def bench_interfaces(seconds):
    """(e): rows (interface, steps/s) of one step through OpenSpiel, Gymnasium, its vector env
    and VecEnv, on Tiến Lên 4 players with random legal actions."""
    import numpy as np

    import bailab

    rows = []
    rng = np.random.default_rng(0)
    try:
        import pyspiel

        import bailab.openspiel  # noqa: F401

        game = pyspiel.load_game("bailab_tienlen(players=4)")
        box = {"state": game.new_initial_state()}

        def os_step():
            state = box["state"]
            if state.is_terminal():
                box["state"] = state = game.new_initial_state()
            while state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(outcomes[int(rng.choice(len(outcomes), p=probs))])
            if state.is_terminal():
                return 0
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            return 1

        steps, s = timed(seconds, os_step)
        rows.append(("OpenSpiel state.apply_action", "any seat, deck drawn", steps / s))
    except ImportError:
        pass
    try:
        import bailab.gymnasium as bg
    except ImportError:
        return rows
    env = bg.env("tienlen", opponents=["random"], seed=1)
    env.reset()

    def gym_step():
        legal = int(env.action_masks().sum())
        if env.step(int(rng.integers(legal)))[2]:
            env.reset()
        return 1

    steps, s = timed(seconds, gym_step)
    rows.append(("Gymnasium env.step", "learning seat, 3 random", steps / s))
    game = bailab.Game("tienlen", players=4)
    vector = bg.BailabVectorEnv(game, 64, 1, threads=1)
    plain = bailab.VecEnv(game, 64, 1, opponents=["random"], threads=1)
    # Where each finds the masks: the vector env's info, VecEnv's second array.
    for name, env, mask_of in [("Gymnasium vector env.step", vector, lambda out: out[-1]["action_mask"]),
                               ("VecEnv.step", plain, lambda out: out[1])]:
        box = {"mask": mask_of(env.reset())}

        def vec_step():
            actions = (rng.random(64) * box["mask"].sum(axis=1)).astype(np.int64)
            box["mask"] = mask_of(env.step(actions))
            return 64

        steps, s = timed(seconds, vec_step)
        rows.append((name, "64 envs, 1 thread, 3 random", steps / s))
    return rows


def table(rows):
    """Prints rows of (section, what, config, steps/s) aligned."""
    widths = [max(len(str(r[i])) for r in rows) for i in range(3)]
    print(f"{'':{widths[0]}}  {'what':{widths[1]}}  {'config':{widths[2]}}  {'steps/s':>12}")
    for r in rows:
        print(f"{r[0]:{widths[0]}}  {r[1]:{widths[1]}}  {r[2]:{widths[2]}}  {r[3]:>12,.0f}")


def main():
    """Runs (a), (b) and (c), prints the table and the ratios, writes the CSV if asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (s)")
    parser.add_argument("--envs", default="64,1024", help="VecEnv sizes, comma-separated")
    parser.add_argument("--rlcard", default="doudizhu,uno", help="RLCard envs ('' to skip)")
    parser.add_argument("--csv", help="also write the figures to this CSV file")
    parser.add_argument("--rlcard-worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rlcard_worker:
        print(json.dumps(bench_rlcard(args.rlcard_worker.split(","), args.seconds)))
        return

    import bailab

    info = machine()
    print(f"CPU: {info['cpu']}, {info['cores']} cores (load average {info['load']:.2f} at start); "
          f"Python {info['python']}, numpy {info['numpy']}")
    rows = []
    for g in bailab.games():
        for variant in g["variants"]:
            steps, s = bench_state(g["name"], variant, args.seconds)
            rows.append(("(a) State.apply", f"{g['name']} {variant}", "1 state, Python", steps / s))
    vec = {}
    for threads in sorted({1, info["cores"]}):
        for n in [int(x) for x in args.envs.split(",")]:
            steps, s = bench_vecenv(n, threads, args.seconds)
            config = f"{n} envs, {threads} thread{'s' if threads > 1 else ''}"
            vec[config] = steps / s
            rows.append(("(b) VecEnv", "tienlen 4p vs random", config, steps / s))
    rl = {}
    games = [g for g in args.rlcard.split(",") if g]
    if games:
        result = run_rlcard(games, args.seconds)
        for r in result["rows"]:
            rl[r["game"]] = r["steps"] / r["seconds"]
            rows.append((f"(c) RLCard {result['version']}", r["game"], "env.step, random", rl[r["game"]]))
    loop = {}
    for game, deals in [("tusac", 300), ("chan", 300), ("tienlen", 300)]:
        python, rust = bench_in_the_loop(game, "greedy", deals)
        loop[game] = rust / python
        rows.append(("(d) run, greedy via Python", game, "1 thread, games/s", python))
        rows.append(("(d) run, greedy in Rust", game, "1 thread, games/s", rust))
    for name, config, rate in bench_interfaces(args.seconds):
        rows.append(("(e) " + name, "tienlen 4p", config, rate))
    print()
    table(rows)
    print("\nsteps: (a) one State.apply; (b) one learning-seat decision (per env per step call;")
    print("the opponents' moves in Rust not counted); (c) one RLCard env.step call (any player);")
    print("(e) one step of the interface (µs per step = 1e6 / steps/s).")
    if rl:
        print("\nVecEnv / RLCard (steps/s ratio):")
        print(f"{'VecEnv config':24}" + "".join(f"{g:>12}" for g in rl))
        for config, rate in vec.items():
            print(f"{config:24}" + "".join(f"{rate / r:>12.1f}" for r in rl.values()))
    print("\nPython in the loop: Rust games/s ÷ Python-seated games/s (goal ≤ 5):")
    for game, ratio in loop.items():
        print(f"  {game:10} {ratio:.2f}")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["section", "what", "config", "steps_per_s", "cpu", "cores", "python", "numpy"])
            for r in rows:
                w.writerow([*r[:3], f"{r[3]:.1f}", info["cpu"], info["cores"], info["python"], info["numpy"]])
        print(f"\nwrote {args.csv}")


if __name__ == "__main__":
    main()
