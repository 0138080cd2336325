"""Network files of the `net:` agent, from numpy: read, write and evaluate them.

A network file (docs/train.md) is a safetensors file: float32 tensors ``fc0.weight``,
``fc0.bias``, ..., ``fcK.weight``, ``fcK.bias`` (PyTorch's ``nn.Linear`` layout, weight
``[out, in]``) and, in the metadata under the key ``bailab``, a JSON header naming the table and
the feature layout. ``forward`` is the network's forward pass in numpy; ``q_values`` gives the
Q-value of every legal action of a view exactly as the Rust agent computes it
(``bailab.net_q_values``), to within float rounding.

    net = bailab.net.load("results/train-tienlen-south/network.safetensors")
    q = bailab.net.q_values(net, view)          # one value per view.legal_actions()

``ensemble`` joins networks of one table into one network whose Q is the mean of theirs, a file
``net:`` plays like any other.
"""

import json
import struct

import numpy as np

FORMAT = "bailab-net"
FEATURE_VERSION = 1
HEADER_KEY = "bailab"


def squash(features):
    """A rule feature as the network reads it: sign(x) * ln(1 + |x|)."""
    x = np.asarray(features, dtype=np.float32)
    return np.sign(x) * np.log1p(np.abs(x))


def action_inputs(view):
    """Each legal action's input: its action vector, then its squashed rule features."""
    vectors = np.asarray(view.action_features(), dtype=np.float32)
    features = squash(view.feature_rows())
    return np.concatenate([vectors, features], axis=1).astype(np.float32)


def forward(layers, state, inputs):
    """Q of each row of ``inputs`` (actions) with the view tensor ``state``: the MLP over
    ``[state, input]``, ReLU between layers."""
    inputs = np.asarray(inputs, dtype=np.float32)
    x = np.concatenate([np.broadcast_to(state, (len(inputs), len(state))), inputs], axis=1)
    for k, (weight, bias) in enumerate(layers):
        x = x @ weight.T + bias
        if k + 1 < len(layers):
            x = np.maximum(x, 0.0)
    return x[:, 0]


def q_values(net, view):
    """The Q-value of each legal action of ``view`` under ``net`` (from ``load``)."""
    return forward(net["layers"], np.asarray(view.tensor(), dtype=np.float32), action_inputs(view))


def load(path):
    """Reads a network file: ``{"header": dict, "layers": [(weight, bias), ...]}``."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 8:
        raise ValueError(f"{path}: not a readable safetensors file (too short)")
    (size,) = struct.unpack("<Q", data[:8])
    if 8 + size > len(data):
        raise ValueError(f"{path}: not a readable safetensors file (header past the end)")
    meta = json.loads(data[8 : 8 + size])
    header = json.loads(meta.get("__metadata__", {}).get(HEADER_KEY, "null") or "null")
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"{path}: a safetensors file without bailab's header")
    body = data[8 + size :]

    def tensor(name):
        info = meta[name]
        start, end = info["data_offsets"]
        return np.frombuffer(body[start:end], dtype="<f4").reshape(info["shape"]).copy()

    count = len(header["hidden"]) + 1
    layers = [(tensor(f"fc{k}.weight"), tensor(f"fc{k}.bias")) for k in range(count)]
    return {"header": header, "layers": layers}


def save(path, header, layers):
    """Writes a network file that ``net:`` loads: ``header`` (see ``header_for``) and
    ``layers`` as ``[(weight [out, in], bias [out]), ...]``."""
    tensors, offset, blobs = {}, 0, []
    for k, (weight, bias) in enumerate(layers):
        for name, array in ((f"fc{k}.weight", weight), (f"fc{k}.bias", bias)):
            blob = np.ascontiguousarray(array, dtype="<f4").tobytes()
            tensors[name] = {"dtype": "F32", "shape": list(np.shape(array)),
                             "data_offsets": [offset, offset + len(blob)]}
            offset += len(blob)
            blobs.append(blob)
    meta = {"__metadata__": {HEADER_KEY: json.dumps(header)}}
    meta.update(tensors)
    text = json.dumps(meta, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def ensemble(nets, command=None):
    """One network (``{"header", "layers"}``, as ``load`` gives) whose Q is the mean of the Q of
    ``nets`` (each from ``load``, all for the same table and with as many layers): their first
    layers stacked, their hidden layers side by side (block-diagonal), their outputs averaged.
    The header is the first network's, with the widths summed and ``command`` (by default, what
    the members were trained by); its decisions and times stay the first member's (members may
    be snapshots of one training), and a shipped ``margin`` or ``search`` is dropped. In
    ``net:`` a decision costs about the sum of its members' (a hidden layer's rows are read over
    their nonzero weights only); ``forward`` reads the hidden layers whole."""
    if not nets:
        raise ValueError("an ensemble needs at least one network")
    first = nets[0]["header"]
    for member in nets[1:]:
        for key in ("game", "variant", "players", "rules", "feature_version", "state_layout",
                    "action_layout", "architecture", "payout_scale"):
            if member["header"].get(key) != first.get(key):
                raise ValueError(f"networks of different tables: {key} differs")
        if len(member["layers"]) != len(nets[0]["layers"]):
            raise ValueError("networks of different depths")
    depth, count = len(first["hidden"]) + 1, len(nets)
    layers = []
    for k in range(depth):
        weights = [m["layers"][k][0].astype(np.float64) for m in nets]
        biases = [m["layers"][k][1].astype(np.float64) for m in nets]
        if k == 0:
            weight, bias = np.concatenate(weights, 0), np.concatenate(biases)
        elif k == depth - 1:
            weight, bias = np.concatenate(weights, 1) / count, sum(biases) / count
        else:
            weight = np.zeros((sum(w.shape[0] for w in weights), sum(w.shape[1] for w in weights)))
            row = col = 0
            for w in weights:
                weight[row:row + w.shape[0], col:col + w.shape[1]] = w
                row, col = row + w.shape[0], col + w.shape[1]
            bias = np.concatenate(biases)
        layers.append((weight.astype(np.float32), np.asarray(bias, dtype=np.float32)))
    header = dict(first)
    header["hidden"] = [int(layers[k][0].shape[0]) for k in range(depth - 1)]
    header["command"] = command or "ensemble of: " + " | ".join(
        m["header"].get("command", "?") for m in nets)
    header.pop("margin", None)
    header.pop("search", None)
    return {"header": header, "layers": layers}


def header_for(game, hidden, command="python", decisions=0, games=0, seconds=0.0):
    """The header of a network for ``game`` (a ``bailab.Game``) with ``hidden`` widths."""
    layout = lambda segments: ",".join(f"{name}:{size}" for name, size, _ in segments)
    action = layout(game.action_layout()) + "".join(
        f",rule.{name}:1" for name in game.feature_names())
    return {
        "format": FORMAT, "game": game.name, "variant": game.variant, "players": game.players,
        "rules": json.loads(game.rules_json()), "feature_version": FEATURE_VERSION,
        "state_layout": layout(game.tensor_layout()), "action_layout": action,
        "architecture": "mlp", "hidden": list(hidden), "payout_scale": game.payout_scale,
        "command": command, "decisions": decisions, "games": games, "seconds": seconds,
        "cpu_seconds": seconds,
    }


def input_sizes(game):
    """(view tensor length, action input length) of ``game``."""
    return game.tensor_size, game.action_size + len(game.feature_names())


def random_layers(game, hidden, seed=0, scale=1.0):
    """Layers of random weights for ``game`` (as ``nn.Linear`` would start, times ``scale``)."""
    rng = np.random.default_rng(seed)
    state, action = input_sizes(game)
    sizes = [state + action] + list(hidden) + [1]
    layers = []
    for n_in, n_out in zip(sizes, sizes[1:]):
        bound = scale / np.sqrt(n_in)
        layers.append((rng.uniform(-bound, bound, (n_out, n_in)).astype(np.float32),
                       rng.uniform(-bound, bound, n_out).astype(np.float32)))
    return layers
