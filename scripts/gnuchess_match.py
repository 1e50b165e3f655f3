#!/usr/bin/env python3
"""A Myriad bot against GNU Chess at a fixed depth, spoken to over UCI.

GNU Chess (GPL, Debian's ``gnuchess``) runs as its own process (``gnuchess --uci``); Myriad
never links it.  Games alternate colours, in pairs from each opening of a small set (or
the start position); Myriad's rules referee every game (legality, checkmate, stalemate,
repetition, the fifty-move rule, insufficient material) and the result is Myriad's
outcome.  A bot that crashes, moves illegally or overruns ``--movetime`` by more than
0.25 s loses that game; so does GNU Chess when it answers an illegal move or nothing.
Prints a PGN per game, then the score, wins/draws/losses and the Elo difference with its
95% interval.

    python scripts/gnuchess_match.py alphabeta:time=1 --games 4 --depth 4 --out games.pgn
"""
from __future__ import annotations

import argparse
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from myriad.ai import Limits, make_bot
from myriad.arena.elo import describe_elo
from myriad.arena.match import GRACE, MAX_PLIES
from myriad.core.errors import MyriadError
from myriad.core.game import Outcome
from myriad.games import get_game
from myriad.games.chess import ChessGame
from myriad.notation.records import write_record

#: Short openings (SAN), each played twice with colours swapped; game 2k and 2k+1 use
#: opening k modulo the list.  Twenty, so 40 games are 40 different games: at fixed
#: nodes and a fixed depth both sides play the same opening the same way every time.
OPENINGS: tuple[tuple[str, ...], ...] = (
    (),
    ("e4", "e5", "Nf3", "Nc6"),
    ("d4", "d5", "c4", "e6"),
    ("e4", "c5", "Nf3", "d6"),
    ("d4", "Nf6", "c4", "g6"),
    ("e4", "e6", "d4", "d5"),
    ("c4", "e5", "Nc3", "Nf6"),
    ("e4", "c6", "d4", "d5"),
    ("Nf3", "d5", "g3", "Nf6"),
    ("d4", "d5", "Bf4", "Nf6"),
    ("e4", "e5", "Nf3", "Nf6"),
    ("e4", "d5", "exd5", "Qxd5"),
    ("d4", "Nf6", "c4", "e6"),
    ("e4", "e5", "f4", "exf4"),
    ("d4", "f5", "g3", "Nf6"),
    ("e4", "d6", "d4", "Nf6"),
    ("c4", "c5", "Nc3", "Nc6"),
    ("e4", "e5", "Nc3", "Nf6"),
    ("d4", "d5", "c4", "dxc4"),
    ("e4", "c5", "Nc3", "Nc6"),
)

#: Where Debian puts games (not on every PATH).
SEARCH_DIRS = ("/usr/games", "/usr/local/games")


class EngineError(MyriadError):
    """The UCI engine did not answer as the protocol says."""


def find_gnuchess() -> str | None:
    """The ``gnuchess`` executable, from PATH or Debian's games folder."""
    found = shutil.which("gnuchess")
    if found:
        return found
    for folder in SEARCH_DIRS:
        path = Path(folder) / "gnuchess"
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    return None


class UciEngine:
    """A UCI engine in its own process: ``best_move`` searches to a fixed depth."""

    def __init__(self, command: list[str], depth: int, book: bool = False, timeout: float = 120.0) -> None:
        self.depth = depth
        self.timeout = timeout
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.name = self.wait_for("uciok", collect="id name ").strip() or command[0]
        self.send(f"setoption name OwnBook value {'true' if book else 'false'}")
        self.ready()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as err:
            raise EngineError(f"the engine is gone ({err})") from None

    def wait_for(self, prefix: str, collect: str = "") -> str:
        """Read lines until one starts with ``prefix``; return that line (or, with
        ``collect``, the text after ``collect`` of the last line starting with it)."""
        deadline = time.monotonic() + self.timeout
        kept = ""
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineError(f"no '{prefix}' from the engine within {self.timeout:g} s") from None
            if line is None:
                raise EngineError(f"the engine quit before '{prefix}'")
            if collect and line.startswith(collect):
                kept = line[len(collect):]
            if line.startswith(prefix):
                return kept if collect else line

    def ready(self) -> None:
        self.send("isready")
        self.wait_for("readyok")

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.ready()

    def best_move(self, fen: str, moves: list[str]) -> str:
        """The engine's move (UCI) after ``moves`` from ``fen``, searched to ``depth``."""
        self.send(f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else ""))
        self.send(f"go depth {self.depth}")
        parts = self.wait_for("bestmove").split()
        if len(parts) < 2:
            raise EngineError("the engine answered 'bestmove' without a move")
        return parts[1]

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (EngineError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


@dataclass
class GameRecord:
    """One game: who had White, Myriad's outcome, the moves (SAN) and the PGN."""

    bot_white: bool
    outcome: Outcome
    moves: list[str] = field(default_factory=list)
    pgn: str = ""

    @property
    def bot_score(self) -> float:
        return self.outcome.scores[0 if self.bot_white else 1]


def play_one(engine: UciEngine, spec: str, bot_white: bool, opening: tuple[str, ...], movetime: float,
             round_no: int, max_plies: int = MAX_PLIES) -> GameRecord:
    """One game of ``spec`` against ``engine``, refereed by Myriad's chess."""
    game = get_game("chess")
    assert isinstance(game, ChessGame)
    start = game.initial_state()
    fen = game.format_position(start)
    state = start
    san: list[str] = []
    uci: list[str] = []
    bot = make_bot(spec, game)
    engine.new_game()
    bot_side = 0 if bot_white else 1
    names = (spec, engine.name) if bot_white else (engine.name, spec)

    def record(outcome: Outcome) -> GameRecord:
        tags = {"Event": f"{spec} vs {engine.name} depth {engine.depth}", "Round": str(round_no),
                "White": names[0], "Black": names[1]}
        return GameRecord(bot_white, outcome, san, write_record(game, san, outcome, tags))

    def play(move_text: str) -> None:
        nonlocal state
        move = game.parse_move(state, move_text)
        san.append(game.format_move(state, move))
        uci.append(game.uci(state, move))
        state = game.play(state, move)

    for text in opening:
        play(text)
    while len(san) < max_plies:
        outcome = game.outcome(state)
        if outcome is not None:
            return record(outcome)
        mover = state.to_move
        if mover == bot_side:
            began = time.monotonic()
            try:
                move = bot.choose(state, Limits(deadline=began + movetime)).move
            except Exception as err:  # noqa: BLE001 - a crashing bot loses the game, the match goes on
                return record(Outcome.win(1 - mover, f"{spec} crashed: {err!r}"))
            if move not in game.legal_moves(state):
                return record(Outcome.win(1 - mover, f"{spec} played an illegal move"))
            if time.monotonic() - began > movetime + GRACE:
                return record(Outcome.win(1 - mover, f"{spec} overran its {movetime:g} s"))
            play(game.uci(state, move))
        else:
            answer = engine.best_move(fen, uci)
            legal = {game.uci(state, m) for m in game.legal_moves(state)}
            if answer not in legal:
                return record(Outcome.win(1 - mover, f"{engine.name} played an illegal move {answer!r}"))
            play(answer)
    return record(Outcome.draw(f"adjudicated after {max_plies // 2} moves"))


def run_match(spec: str, games: int, depth: int, movetime: float, command: list[str], book: bool = False,
              openings: tuple[tuple[str, ...], ...] = OPENINGS, out: Path | None = None,
              echo: bool = True, first: int = 1) -> list[GameRecord]:
    """``games`` games of ``spec`` against the engine, colours alternating, printing each PGN;
    the first is game number ``first`` of the series (its colours and opening), so a long
    match can be played in parts."""
    engine = UciEngine(command, depth, book)
    records = []
    try:
        for i in range(first - 1, first - 1 + games):
            bot_white = i % 2 == 0
            result = play_one(engine, spec, bot_white, openings[(i // 2) % len(openings)], movetime, i + 1)
            records.append(result)
            if echo:
                print(result.pgn, end="", flush=True)
            if out is not None:
                with out.open("a", encoding="utf-8") as handle:
                    handle.write(result.pgn)
    finally:
        engine.close()
    return records


def summary(spec: str, engine: str, records: list[GameRecord]) -> str:
    """Score, wins/draws/losses and Elo of ``spec`` over ``records``."""
    wins = sum(r.bot_score == 1.0 for r in records)
    losses = sum(r.bot_score == 0.0 for r in records)
    draws = len(records) - wins - losses
    points = wins + draws / 2
    share = points / len(records) if records else 0.0
    return (f"{spec} against {engine}: {points:g}/{len(records)} = {share:.1%}  "
            f"+{wins} ={draws} -{losses}  {describe_elo(wins, draws, losses)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bot", help="a Myriad bot spec, e.g. alphabeta:time=1")
    parser.add_argument("--games", type=int, default=4, help="games, colours alternating (default 4)")
    parser.add_argument("--depth", type=int, default=4, help="GNU Chess's fixed search depth (default 4)")
    parser.add_argument("--movetime", type=float, default=10.0,
                        help="seconds a Myriad move may take at most (default 10; the bot's own time= is its clock)")
    parser.add_argument("--book", action="store_true", help="let GNU Chess use its opening book")
    parser.add_argument("--start-only", action="store_true", help="every game from the start position")
    parser.add_argument("--engine", help="the UCI command (default: gnuchess --uci)")
    parser.add_argument("--out", type=Path, help="append each game's PGN to this file")
    parser.add_argument("--first", type=int, default=1,
                        help="start at this game of the series (its colours and opening; default 1)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.depth < 1 or args.first < 1 or args.movetime <= 0:
        parser.error("--games, --depth and --first must be at least 1, --movetime above 0")
    if args.engine:
        command = args.engine.split()
    else:
        found = find_gnuchess()
        if found is None:
            print("gnuchess not found (Debian: apt-get install gnuchess)", file=sys.stderr)
            return 2
        command = [found, "--uci"]
    try:
        make_bot(args.bot, get_game("chess"))
        records = run_match(args.bot, args.games, args.depth, args.movetime, command, args.book,
                            ((),) if args.start_only else OPENINGS, args.out, first=args.first)
    except MyriadError as err:
        print(f"gnuchess_match: {err}", file=sys.stderr)
        return 2
    name = f"{Path(command[0]).name} depth {args.depth}"
    for i, r in enumerate(records, start=args.first):
        side = "White" if r.bot_white else "Black"
        print(f"game {i}: {args.bot} as {side}: {r.bot_score:g} ({r.outcome.reason}, {len(r.moves)} plies)")
    print(summary(args.bot, name, records))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
