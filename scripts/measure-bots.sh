#!/usr/bin/env bash
# Strength measurements, one match per line of JSON in the log given as $1.
# Usage: bash scripts/measure-bots.sh LOG [GAMES] [GAME ...]
# Default games: every registered game (`myriad games --json`), so none can be missing.
# Each game gets the bots that declare they can play it (a refused bot's match is
# skipped): alphabeta against random and heuristic, mcts against random and heuristic.
set -u
log=${1:-bots.log}; n=${2:-40}; shift $(( $# < 2 ? $# : 2 ))
games=("$@")
if [ ${#games[@]} -eq 0 ]; then
  mapfile -t games < <(myriad games --json | python -c 'import json, sys; print("\n".join(g["id"] for g in json.load(sys.stdin)))')
  [ ${#games[@]} -eq 0 ] && { echo "measure-bots: no games from 'myriad games --json'" >&2; exit 2; }
fi
plays() { python -c 'import sys; from myriad import get_game; from myriad.ai import make_bot; make_bot(sys.argv[2], get_game(sys.argv[1]))' "$1" "$2" 2>/dev/null; }  # the bot accepts the game
run() { echo "== $* ($(date +%T))" >> "$log"; myriad match "$@" --json --out "$log.$1.$2.$3.txt" >> "$log" 2>/dev/null || echo '{"error": true}' >> "$log"; }
for g in "${games[@]}"; do
  for bot in alphabeta:time=0.5 mcts:time=0.5; do
    if ! plays "$g" "$bot"; then echo "== $g $bot: refused, skipped" >> "$log"; continue; fi
    run "$g" "$bot" random --games "$n" --movetime 0.5
    run "$g" "$bot" heuristic --games "$n" --movetime 0.5
  done
done
