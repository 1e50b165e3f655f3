#!/usr/bin/env bash
# Strength measurements of issue 3, one match per line of JSON in the log given as $1.
# Usage: bash scripts/measure-bots.sh LOG [GAMES]
set -u
log=${1:-bots.log}; n=${2:-40}
run() { echo "== $*" >> "$log"; myriad match "$@" --json >> "$log" 2>/dev/null || echo '{"error": true}' >> "$log"; }
for g in chess international russian breakthrough othello gomoku; do
  run "$g" alphabeta:time=0.5 random --games "$n" --movetime 0.5
  run "$g" alphabeta:time=0.5 heuristic --games "$n" --movetime 0.5
done
run connect4 mcts:time=0.5 random --games "$n" --movetime 0.5
run gomoku mcts:time=0.5 random --games "$n" --movetime 0.5
