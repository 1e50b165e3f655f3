"""What the command line and the server both say about a game: an outcome as a line of
text or JSON, a legal move as JSON."""

from __future__ import annotations

import re
from typing import Any

from myriad.core.game import Game, Outcome
from myriad.core.move import Move
from myriad.core.state import State

#: a reason that reads after "wins by": a few lower-case words, no verb ("checkmate",
#: "five in a row", "threefold repetition"); else it follows a colon ("no legal move")
_BY = re.compile(r"(?!no |the |a |an )[a-z][a-z -]{0,40}")
_VERBS = {"is", "are", "has", "have", "cannot", "escapes", "reached", "joins", "enters", "taken",
          "captured", "left", "full", "repeated", "stands", "encircle", "bare"}


def outcome_json(game: Game, outcome: Outcome | None) -> dict[str, Any] | None:
    """``{"scores", "reason", "winner"}`` (winner: a player name, or null), or None."""
    if outcome is None:
        return None
    winner = outcome.winner
    return {"scores": list(outcome.scores), "reason": outcome.reason,
            "winner": None if winner is None else game.player_names[winner]}


def move_json(game: Game, state: State, move: Move) -> dict[str, Any]:
    """A legal move by notation, start and end square names (null for a pass) and captures."""
    frm, to = move.frm, move.to
    return {"notation": game.format_move(state, move),
            "from": game.square_name(frm) if frm >= 0 else None,
            "to": game.square_name(to) if to >= 0 else None,
            "captures": [game.square_name(p) for p in move.captures]}


def outcome_text(game: Game, outcome: Outcome | None) -> str:
    """'none (game goes on)', 'white wins (checkmate)', 'draw (stalemate)' or the scores."""
    if outcome is None:
        return "none (game goes on)"
    winner = outcome.winner
    scores = "-".join(f"{s:g}" for s in outcome.scores)
    if winner is not None and sorted(outcome.scores) == [0.0] * (game.players - 1) + [1.0]:
        return f"{game.player_names[winner]} wins ({outcome.reason})"
    if winner is None and len(set(outcome.scores)) == 1:
        return f"draw ({outcome.reason})"
    who = f", {game.player_names[winner]} wins" if winner is not None else ""
    return f"scores {scores}{who} ({outcome.reason})"


def outcome_sentence(game: Game, outcome: Outcome) -> str:
    """The end of a game in words: "White wins by checkmate", "Draw by stalemate",
    "Black wins: no legal move", or the scores when the game counts them."""
    winner = outcome.winner
    reason = outcome.reason
    joined = f" by {reason}" if _BY.fullmatch(reason) and not _VERBS & set(reason.split()) else f": {reason}"
    if winner is not None and sorted(outcome.scores) == [0.0] * (game.players - 1) + [1.0]:
        return f"{game.player_names[winner].capitalize()} wins{joined}"
    if winner is None and len(set(outcome.scores)) == 1:
        return f"Draw{joined}"
    scores = "-".join(f"{s:g}" for s in outcome.scores)
    who = f"{game.player_names[winner].capitalize()} wins" if winner is not None else "No single winner"
    return f"{who}, scores {scores} ({reason})"

