#!/usr/bin/env bash
# A minimal bailab agent in bash (docs/agent-protocol.md): answers the handshake, then takes the
# first legal action at every decision.   agents = ["exec:bash examples/agents/first.sh", ...]
while IFS= read -r line; do
    case "$line" in
        *'"type":"hello"'*) echo '{"type":"hello","name":"first.sh","protocol":1}' ;;
        *'"type":"decide"'*) echo '{"action":0}' ;;
    esac
done
