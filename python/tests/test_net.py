"""The learned agent's network files from Python: a file written by numpy loads in Rust and
plays as `net:`, the numpy forward pass gives Rust's Q-values (within 1e-5 on 1,000 views of
four tables), an ensemble's Q is its members' mean, and a file for another table is refused by
name."""

import numpy as np
import pytest

import bailab
from bailab import net

TABLES = [("tienlen", None), ("chan", None), ("tusac", "classic"), ("tusac", "sisepai21")]


def network_file(tmp_path, game, hidden=(24, 12), seed=0):
    path = tmp_path / f"{game.name}-{game.variant}-{game.players}.safetensors"
    net.save(path, net.header_for(game, hidden), net.random_layers(game, hidden, seed))
    return str(path)


def decision_views(game, count):
    """Views of seats with a real choice (two legal actions or more), from greedy games."""
    greedy, views, index = bailab.Agent("greedy"), [], 0
    while len(views) < count:
        state = game.deal(seed=3, index=index)
        index += 1
        while not state.is_terminal:
            view = state.view(state.current_seat)
            if len(view.legal_actions()) > 1:
                views.append(view)
            state.apply(greedy.act(view, seed=0))
    return views[:count]


@pytest.mark.parametrize("name,variant", TABLES)
def test_numpy_forward_pass_gives_rusts_q_values(tmp_path, name, variant):
    game = bailab.Game(name, variant=variant, players=4)
    path = network_file(tmp_path, game)
    model = net.load(path)
    assert model["header"]["game"] == name
    for view in decision_views(game, 250):
        rust = np.asarray(bailab.net_q_values(path, view), dtype=np.float64)
        mine = net.q_values(model, view)
        assert rust.shape == mine.shape == (len(view.legal_actions()),)
        assert np.max(np.abs(rust - mine)) < 1e-5


def test_a_numpy_written_file_plays_the_highest_q(tmp_path):
    game = bailab.Game("tienlen", players=4)
    path = network_file(tmp_path, game, seed=5)
    model, agent = net.load(path), bailab.Agent(f"net:{path}")
    state, checked = game.deal(seed=1, index=0), 0
    while not state.is_terminal:
        view = state.view(state.current_seat)
        chosen = agent.act(view, seed=0)
        if len(view.legal_actions()) > 1:
            assert chosen == int(np.argmax(net.q_values(model, view)))
            checked += 1
        state.apply(chosen)
    assert checked > 5


def test_an_ensemble_plays_the_mean_of_its_members_q(tmp_path):
    game = bailab.Game("tusac", variant="sisepai21", players=4)
    hidden = (24, 12)
    members = [{"header": net.header_for(game, hidden), "layers": net.random_layers(game, hidden, s)}
               for s in (1, 2, 3)]
    joined = net.ensemble(members, command="test")
    assert joined["header"]["hidden"] == [72, 36]
    path = tmp_path / "ensemble.safetensors"
    net.save(path, joined["header"], joined["layers"])
    for view in decision_views(game, 60):
        mean = np.mean([net.q_values(m, view) for m in members], axis=0)
        rust = np.asarray(bailab.net_q_values(str(path), view), dtype=np.float64)
        assert np.max(np.abs(rust - mean)) < 1e-5
    other = net.load(network_file(tmp_path, bailab.Game("tusac", variant="classic", players=4)))
    with pytest.raises(ValueError, match="variant differs"):
        net.ensemble([members[0], other])


def test_a_file_for_another_table_is_refused_by_name(tmp_path):
    path = network_file(tmp_path, bailab.Game("tienlen", players=4))
    chan = bailab.Game("chan", players=4).deal(seed=1, index=0)
    view = chan.view(chan.current_seat)
    with pytest.raises(ValueError, match="is a network for game tienlen, not chan"):
        bailab.Agent(f"net:{path}").act(view)
    with pytest.raises(ValueError, match="is a network for game tienlen, not chan"):
        bailab.net_q_values(path, view)
    three = bailab.Game("tienlen", players=3).deal(seed=1, index=0)
    with pytest.raises(ValueError, match="players 4, not 3"):
        bailab.net_q_values(path, three.view(three.current_seat))
    broken = tmp_path / "broken.safetensors"
    broken.write_bytes(open(path, "rb").read()[:-40])
    with pytest.raises(ValueError, match="not a readable safetensors file"):
        bailab.Agent(f"net:{broken}").act(view)
