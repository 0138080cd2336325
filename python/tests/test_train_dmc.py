"""`examples/train_dmc.py`, the PyTorch learner over `VecEnv`: it trains for a few generations
and writes a file that `net:` plays, and a PyTorch network saved that way gives in Rust the
Q-values PyTorch computes. Only where PyTorch is installed (`./python[torch]`)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import bailab
from bailab import net

torch = pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_dmc.py"


def example():
    """The example as a module (its functions, without running main)."""
    spec = importlib.util.spec_from_file_location("train_dmc", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_pytorch_network_gives_its_q_values_in_rust(tmp_path):
    dmc = example()
    game = bailab.Game("tusac", variant="classic", players=4)
    torch.manual_seed(3)
    hidden = [24, 12]
    model = dmc.mlp([game.tensor_size + net.input_sizes(game)[1]] + hidden + [1])
    path = tmp_path / "torch.safetensors"
    dmc.save(model, game, hidden, path, {"command": "test", "decisions": 0, "games": 0,
                                        "seconds": 0.0})
    state, greedy, checked = game.deal(seed=2, index=0), bailab.Agent("greedy"), 0
    while not state.is_terminal:
        view = state.view(state.current_seat)
        if len(view.legal_actions()) > 1:
            inputs = net.action_inputs(view)
            x = np.concatenate([np.broadcast_to(view.tensor(), (len(inputs), game.tensor_size)),
                                inputs], axis=1)
            with torch.no_grad():
                mine = model(torch.from_numpy(x.astype(np.float32))).squeeze(1).numpy()
            rust = np.asarray(bailab.net_q_values(str(path), view))
            assert np.max(np.abs(rust - mine)) < 1e-5
            checked += 1
        state.apply(greedy.act(view, seed=0))
    assert checked > 5


def test_the_example_trains_and_writes_a_file_net_plays(tmp_path):
    output = tmp_path / "dmc.safetensors"
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--game", "tienlen", "--generations", "2", "--games", "24",
         "--envs", "8", "--hidden", "16,8", "--eval-deals", "4", "--threads", "1",
         "--output", str(output)],
        capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "generation 2:" in out.stdout and "net − greedy" in out.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dmc.safetensors"]
    header = net.load(output)["header"]
    assert (header["game"], header["hidden"]) == ("tienlen", [16, 8]) and header["games"] >= 48
    assert header["decisions"] > 0 and header["command"].startswith("examples/train_dmc.py")
    experiment = {"name": "t", "game": "tienlen", "deals": 3, "seed": 5,
                  "agents": [f"net:{output}", "greedy", "random", "first"]}
    assert bailab.run(experiment, threads=1).games_played == 12
