"""What the command line and the server both say about a game: an outcome as a line of
text or JSON, a legal move as JSON."""

from __future__ import annotations

from typing import Any

from myriad.core.game import Game, Outcome
from myriad.core.move import Move
from myriad.core.state import State


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
