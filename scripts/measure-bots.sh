#!/usr/bin/env bash
# Strength measurements of issue 3, one match per line of JSON in the log given as $1.
# Usage: bash scripts/measure-bots.sh LOG [GAMES] [GAME ...]
# (default games: every game the issue names; the mcts matches run when connect4 or
# gomoku is among them)
set -u
log=${1:-bots.log}; n=${2:-40}; shift $(( $# < 2 ? $# : 2 ))
games=("$@"); [ ${#games[@]} -eq 0 ] && games=(chess international russian breakthrough othello gomoku connect4)
run() { echo "== $* ($(date +%T))" >> "$log"; myriad match "$@" --json --out "$log.$1.$2.$3.txt" >> "$log" 2>/dev/null || echo '{"error": true}' >> "$log"; }
for g in "${games[@]}"; do
  if [ "$g" != connect4 ]; then
    run "$g" alphabeta:time=0.5 random --games "$n" --movetime 0.5
    run "$g" alphabeta:time=0.5 heuristic --games "$n" --movetime 0.5
  fi
  case $g in connect4|gomoku) run "$g" mcts:time=0.5 random --games "$n" --movetime 0.5 ;; esac
done
