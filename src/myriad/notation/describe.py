"""What the command line and the server both say about a game: an outcome as a line of
text or JSON, a legal move as JSON."""

from __future__ import annotations

import re
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


def _headline(game: Game, outcome: Outcome) -> str:
    """'white wins', 'draw' or 'scores 10-16-17-21, fourth wins': who won, without why."""
    winner = outcome.winner
    if winner is not None and sorted(outcome.scores) == [0.0] * (game.players - 1) + [1.0]:
        return f"{game.player_names[winner]} wins"
    if winner is None and len(set(outcome.scores)) == 1:
        return "draw"
    scores = "-".join(f"{s:g}" for s in outcome.scores)
    who = f", {game.player_names[winner]} wins" if winner is not None else ""
    return f"scores {scores}{who}"


def outcome_text(game: Game, outcome: Outcome | None) -> str:
    """'none (game goes on)', 'white wins (checkmate)', 'draw (stalemate)' or the scores."""
    if outcome is None:
        return "none (game goes on)"
    return f"{_headline(game, outcome)} ({outcome.reason})"


#: Reasons that name a rule or a goal, read after "wins by" / "draw by" ("checkmate",
#: "threefold repetition", "50-move rule", "five in a row"); any other reason is a clause
#: ("the king escapes") and follows a colon.
_BY_REASON = re.compile(r"(checkmate|stalemate|(threefold |fourfold )?repetition|\d+-move rule|"
                        r"insufficient material|bare king|perpetual check|counting\b|bikjang\b|"
                        r"first capture|more |most |equal |(three|four|five|six) in a row|"
                        r"resignation|agreement|time\b|flag fall)")


def end_text(game: Game, outcome: Outcome) -> str:
    """The end of a game in words, its reason included: 'White wins by checkmate', 'Draw by
    threefold repetition', 'Black wins: the king escapes', 'Red wins: all of black's pieces
    are captured', 'Scores 10-16-17-21, fourth wins by most balls: ...'; a lone player's
    score after its reason."""
    reason = outcome.reason
    if game.players == 1:
        return f"Game over: {reason} (score {outcome.scores[0]:.2f})"
    joint = f" by {reason}" if _BY_REASON.match(reason) else f": {reason}"
    headline = _headline(game, outcome)
    return f"{headline[0].upper()}{headline[1:]}{joint}"
