"""Deep Monte-Carlo self-play with a PyTorch learner over `bailab.VecEnv`: actors in Rust, the
learner in Python; writes a network file that `net:` plays.

    python3 -m pip install './python[torch]'        # PyTorch, an optional extra
    python3 examples/train_dmc.py --game tienlen --minutes 10 --output dmc-tienlen.safetensors
    bailab run ... agents = ["net:dmc-tienlen.safetensors", "greedy"]

The method is `bailab train`'s (docs/train.md), with the learning moved to PyTorch: each
generation, one seat of every environment learns while the other seats play the current network
in Rust (`net:FILE,eps=...`, the file this script just wrote); the learning seat picks the legal
action of highest Q (or a uniform one with probability --eps) from its view tensor (`obs`) and
each action's network input (`VecEnv.net_inputs()`); when a game ends, every decision the seat
took in it becomes a sample whose target is its payout over the game's payout scale. The learner
fits Q(view, action) to the samples by minibatch Adam on the squared error. The learning seat
goes round the table from one generation to the next.

The network is the one `bailab train` trains (an MLP over [view tensor, action input], ReLU
between layers, one output), saved with `bailab.net.save` in the format `net:` reads. At the
end, the network plays --eval-deals deals of a seed no training deal used, in one seat against
`greedy` (every rotation, through `bailab.run`), and the paired difference is printed.
"""

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

import bailab
from bailab import net as netfile

def arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tienlen", help="tienlen, chan or tusac")
    parser.add_argument("--variant", default=None, help="the variant (default: the game's first)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=10.0,
                        help="stop after the generation that reaches this wall time")
    parser.add_argument("--generations", type=int, default=None,
                        help="stop after this many generations (instead of --minutes)")
    parser.add_argument("--envs", type=int, default=256, help="environments stepped together")
    parser.add_argument("--games", type=int, default=512, help="games per generation")
    parser.add_argument("--hidden", default="256,128", help="hidden layer widths")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    parser.add_argument("--batch", type=int, default=512, help="minibatch rows")
    parser.add_argument("--eps", type=float, default=0.05,
                        help="chance of a uniform legal action, learner and opponents")
    parser.add_argument("--seed", type=int, default=1, help="training deals and first weights")
    parser.add_argument("--eval-deals", type=int, default=200,
                        help="deals of the final evaluation against greedy (0: none)")
    parser.add_argument("--eval-seed", type=int, default=9001,
                        help="the evaluation's master seed (keep it apart from --seed)")
    parser.add_argument("--threads", type=int, default=None, help="Rust worker threads")
    parser.add_argument("--output", default="dmc.safetensors", help="the network file written")
    return parser.parse_args()


def mlp(sizes):
    """The network: nn.Linear layers of `sizes`, ReLU between them (`net:`'s architecture)."""
    layers = []
    for k, (n_in, n_out) in enumerate(zip(sizes, sizes[1:])):
        layers.append(nn.Linear(n_in, n_out))
        if k + 2 < len(sizes):
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def linear_layers(model):
    """The (weight, bias) numpy pairs of the model's linear layers, as `bailab.net.save` takes."""
    return [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
            for m in model if isinstance(m, nn.Linear)]


def save(model, game, hidden, path, stats):
    """Writes the model as a network file that `net:` loads (through a temporary, renamed)."""
    header = netfile.header_for(game, hidden, command=stats["command"],
                                decisions=stats["decisions"], games=stats["games"],
                                seconds=stats["seconds"])
    temp = Path(str(path) + ".tmp")
    netfile.save(temp, header, linear_layers(model))
    temp.replace(path)


class Trajectories:
    """Each environment's decisions of its game in progress: view tensors and action inputs."""

    def __init__(self, num_envs):
        self.open = [[] for _ in range(num_envs)]

    def add(self, obs, inputs, actions, chosen):
        """Records the decisions of the environments `chosen` (those with a real choice)."""
        for i in np.flatnonzero(chosen):
            self.open[i].append((obs[i].copy(), inputs[i, actions[i]].copy()))

    def close(self, i):
        done, self.open[i] = self.open[i], []
        return done


def q_of_all(model, obs, inputs):
    """Q of every (environment, action) pair: `(num_envs, max_actions)`."""
    n, k, width = inputs.shape
    state = torch.from_numpy(obs).unsqueeze(1).expand(n, k, obs.shape[1])
    x = torch.cat([state, torch.from_numpy(inputs)], dim=2)
    with torch.no_grad():
        return model(x.reshape(n * k, -1)).reshape(n, k).numpy()


def choose(model, obs, mask, inputs, eps, rng):
    """The learning seat's actions: the highest Q, or a uniform legal one with chance eps."""
    q = np.where(mask, q_of_all(model, obs, inputs), -np.inf)
    actions = q.argmax(axis=1)
    explore = rng.random(len(actions)) < eps
    legal = mask.sum(axis=1)
    actions[explore] = (rng.random(explore.sum()) * legal[explore]).astype(np.int64)
    return actions


def play_generation(model, env, games, eps, rng):
    """Plays `games` games of the learning seat; returns its samples (views, inputs, targets),
    the decisions taken and the games played."""
    scale = env.game.payout_scale
    obs, mask = env.reset()
    inputs = np.zeros((env.num_envs, env.max_actions, env.net_input_size), dtype=np.float32)
    open_games, views, actions_in, targets = Trajectories(env.num_envs), [], [], []
    finished, decisions = 0, 0
    while finished < games:
        env.net_inputs(out=inputs)
        actions = choose(model, obs, mask, inputs, eps, rng)
        several = mask.sum(axis=1) > 1
        open_games.add(obs, inputs, actions, several)
        obs, mask, rewards, dones, _ = env.step(actions)
        for i in np.flatnonzero(dones):
            samples = open_games.close(i)
            views += [s[0] for s in samples]
            actions_in += [s[1] for s in samples]
            targets += [rewards[i] / scale] * len(samples)
            finished += 1
        decisions += int(several.sum())
    return (np.array(views, dtype=np.float32), np.array(actions_in, dtype=np.float32),
            np.array(targets, dtype=np.float32)), decisions, finished


def learn(model, optimizer, samples, batch, generator):
    """One pass of minibatch Adam over the samples; returns the mean squared error."""
    views, inputs, targets = (torch.from_numpy(a) for a in samples)
    order = torch.randperm(len(targets), generator=generator)
    losses = []
    for start in range(0, len(order), batch):
        rows = order[start:start + batch]
        q = model(torch.cat([views[rows], inputs[rows]], dim=1)).squeeze(1)
        loss = ((q - targets[rows]) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return float(np.mean(losses)) if losses else float("nan")


def evaluate(path, game, deals, seed, threads):
    """The network in one seat against greedy, every rotation: (difference, low, high)."""
    experiment = {"name": "dmc-vs-greedy", "game": game.name, "variant": game.variant,
                  "deals": deals, "seed": seed,
                  "agents": [f"net:{path}"] + ["greedy"] * (game.players - 1)}
    summary = bailab.run(experiment, threads=threads, games=False).summary
    pair = summary[summary.kind == "pair"].iloc[0]
    return pair.mean_diff, pair.mean_diff_lo95, pair.mean_diff_hi95


def main():
    args = arguments()
    torch.manual_seed(args.seed)
    rng, generator = np.random.default_rng(args.seed), torch.Generator().manual_seed(args.seed)
    game = bailab.Game(args.game, variant=args.variant, players=args.players)
    hidden = [int(w) for w in args.hidden.split(",")]
    width = game.tensor_size + netfile.input_sizes(game)[1]
    model = mlp([width] + hidden + [1])
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    output = Path(args.output)
    work = output.parent / (output.name + ".generations")
    work.mkdir(parents=True, exist_ok=True)
    stats = {"command": "examples/train_dmc.py " + " ".join(
        f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items() if v is not None),
        "decisions": 0, "games": 0, "seconds": 0.0}
    start, generation = time.time(), 0
    while True:
        # The opponents play the network as it is now: a new file per generation, since a
        # process reads a network file once.
        current = work / f"generation-{generation}.safetensors"
        save(model, game, hidden, current, stats)
        opponent = f"net:{current},eps={args.eps}"
        env = bailab.VecEnv(game, num_envs=args.envs, seed=args.seed * 1_000_003 + generation,
                            opponents=[opponent], seat=generation % game.players,
                            threads=args.threads)
        samples, decisions, games = play_generation(model, env, args.games, args.eps, rng)
        loss = learn(model, optimizer, samples, args.batch, generator)
        stats["decisions"] += decisions
        stats["games"] += games
        stats["seconds"] = time.time() - start
        generation += 1
        print(f"generation {generation}: {stats['games']} games, {stats['decisions']} decisions, "
              f"loss {loss:.5f}, {stats['seconds']:.0f} s", flush=True)
        current.unlink()
        done = (generation >= args.generations if args.generations is not None
                else stats["seconds"] >= args.minutes * 60)
        if done:
            break
    save(model, game, hidden, output, stats)
    work.rmdir()
    print(f"wrote {output}")
    if args.eval_deals > 0:
        diff, lo, hi = evaluate(output.resolve(), game, args.eval_deals, args.eval_seed,
                                args.threads)
        print(f"net − greedy in one seat, {args.eval_deals} deals of seed {args.eval_seed}: "
              f"{diff:+.3f} [{lo:+.3f}, {hi:+.3f}] per game")


if __name__ == "__main__":
    main()
