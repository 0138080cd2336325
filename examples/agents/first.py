#!/usr/bin/env python3
"""A minimal bailab agent (docs/agent-protocol.md), standard library only: it takes the first
legal action, or a random one with `random` as its argument (drawn from the seed bailab sends, so
its games replay exactly).

    bailab run x.toml   # with agents = ["exec:python3 examples/agents/first.py", "greedy"]
"""

import json
import random
import sys

choose_randomly = sys.argv[1:] == ["random"]

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        reply = {"type": "hello", "name": "first.py", "protocol": 1}
    elif message["type"] == "decide":
        legal = message["legal"]  # the legal actions in the game's notation
        index = random.Random(message["seed"]).randrange(len(legal)) if choose_randomly else 0
        reply = {"action": index}
    elif message["type"] == "error":  # bailab stops this agent: say why in the run's log
        print(message["message"], file=sys.stderr)
        continue
    else:  # game and end messages, and any this agent does not know
        continue
    print(json.dumps(reply), flush=True)
