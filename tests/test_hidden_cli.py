"""The leak test of the terminal (``myriad play``) and of ``think --json`` for dark chess:
what they print while a game goes on is the human's view only."""

from __future__ import annotations

import json
import random

import pytest

from myriad.ai import make_bot
from myriad.arena.terminal import TerminalGame
from myriad.cli import main
from myriad.games import get_game


@pytest.mark.parametrize("seat", [0, 1])
def test_play_prints_only_the_human_view(seat: int) -> None:
    game = get_game("darkchess")
    rng = random.Random(seat)
    printed: list[tuple[int, str]] = []  # (plies played when printed, text)
    seats = [make_bot("random:seed=2", game), make_bot("random:seed=2", game)]
    seats[seat] = None
    asked = {"n": 0}

    def read(_prompt: str) -> str:
        asked["n"] += 1
        if asked["n"] % 5 == 0:
            return "position"
        legal = game.legal_moves(terminal.state)
        return game.format_move(terminal.state, rng.choice(legal))

    terminal = TerminalGame(game, seats, game.initial_state(), 0.5, read=read,
                            write=lambda text: printed.append((len(terminal.states) - 1, text)))
    assert terminal.run() == 0
    states = terminal.states
    assert game.outcome(states[-1]) is not None
    boards = positions = bot_moves = 0
    for ply, text in printed:
        state = states[ply]
        if text.startswith("game over") or text.startswith("moves:"):
            continue
        if game.outcome(state) is not None:
            continue  # the end reveals the whole game
        seen = game.observe(state, seat)
        if "\n" in text:
            assert text == game.render(seen)
            boards += 1
        elif text.startswith("random plays"):
            assert text == "random plays ?"
            bot_moves += 1
        elif "/" in text:
            assert text == game.format_position(seen)
            positions += 1
        elif "last: " in text and states[ply - 1].to_move != seat:
            assert text.endswith("last: ?")
    assert boards > 10 and positions > 1 and bot_moves > 5
    assert printed[-1][1].startswith("moves: ") and "?" not in printed[-1][1]  # the full record at the end


def test_think_json_says_only_the_move(capsys: pytest.CaptureFixture[str]) -> None:
    game = get_game("darkchess")
    state = game.parse_position("r3k2r/pppq1ppp/2n2n2/3pp3/4P3/2N2N2/PPPP1PPP/R1BQK2R[] w KQkq - 0 6")
    seen = game.observe(state, 0)
    assert main(["think", "darkchess", "--position", game.format_position(state),
                 "--bot", "determinize:samples=2,depth=1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    move = game.parse_move(state, out["move"])
    assert move in game.legal_moves(seen) and out["pv"] == [out["move"]]
    hidden = {game.topology.names[q] for q, c in enumerate(seen.cells) if c == game.fog_codes[0]}
    assert hidden and not any(name in json.dumps(out) for name in hidden if state.cells[game.topology.index[name]])
    # the observation itself is a position think reads: the same answer
    assert main(["think", "darkchess", "--position", game.format_position(seen),
                 "--bot", "determinize:samples=2,depth=1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["move"] == out["move"]
