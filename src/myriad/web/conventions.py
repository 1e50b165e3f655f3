"""What each game's players expect to be told, derived from the rules, never from a game id.

* A compulsory capture: when the game declares captures compulsory (``forced_captures``,
  the draughts family, Lasca, Bashni, any game that switches the rule on) and every legal
  move of the side to move captures, the squares of the pieces that can take.
* A forced pass: every legal move is the pass (Othello with no disc to turn).
* Pieces per player, for games won by counting them on the board (the reversi family).
* Stores (and claimed houses: Toguz Kumalak's tuzdyks) with their owners and counts.
* The number of the first move: the position's own full-move number (a FEN starting at move
  23), for numbering the move list; None when the game does not number its moves.
"""

from __future__ import annotations

from typing import Any

from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State
from myriad.web.moves import clicked_path


def must_capture(game: Game, moves: list[Move]) -> list[str]:
    """The squares of the pieces that can take, when taking is compulsory and every legal
    move takes; else []."""
    if not moves or not getattr(game, "forced_captures", False) or not all(m.captures for m in moves):
        return []
    starts = {clicked_path(game, m)[0] for m in moves if clicked_path(game, m)}
    return [game.square_name(p) for p in sorted(starts)]


def must_pass(game: Game, state: State, moves: list[Move]) -> bool:
    """Whether the side to move has no move but the pass."""
    return bool(moves) and all(not clicked_path(game, m) and game.format_move(state, m) == "pass" for m in moves)


def piece_counts(game: Game, state: State) -> list[int] | None:
    """Pieces on the board per player in games decided by counting them (reversi family)."""
    if game.family != "reversi":
        return None
    own = getattr(game, "counts", None)  # a game's own count (Rolit: balls of each player's colour)
    if callable(own):
        return [int(n) for n in own(state.cells)]
    owner_of = game.pieces.owner_of
    counts = [0] * game.players
    for code in state.cells:
        if code and owner_of[code] < game.players:
            counts[owner_of[code]] += 1
    return counts


def stores(game: Game, state: State) -> list[dict[str, Any]]:
    """Each store: its ``name`` (position), ``owner`` and ``count``; then each claimed house
    (a tuzdyk) with ``claimed: true`` and the ``owner`` who holds it."""
    if game.family != "mancala":
        return []
    names = game.topology.names
    out: list[dict[str, Any]] = [{"name": names[pos], "owner": player, "count": state.cells[pos]}
                                 for player, pos in enumerate(getattr(game, "stores", ()))]
    claims = getattr(game, "claims", None)
    if claims is not None:
        for player, pos in enumerate(claims(state)):
            if pos >= 0:
                out.append({"name": names[pos], "owner": player, "claimed": True})
    return out


def first_move_number(game: Game, start: State) -> int | None:
    """The full-move number of ``start`` as its position text counts it, or None."""
    number = getattr(game, "full_move_number", None)
    return number(start) if number is not None else None


def conventions_json(game: Game, state: State, seen: State, moves: list[Move], start: State) -> dict[str, Any]:
    """The ``conventions`` of a view: ``must_capture`` (squares), ``must_pass``,
    ``piece_counts``, ``stores``, ``first_move`` (see the module's docstring) and
    ``starts_mid_round`` (the game began with another player to move than the rules' first);
    ``moves`` are the legal moves sent with the view (of ``state``), ``seen`` the viewer's
    observation, ``start`` the game's first position."""
    return {"must_capture": must_capture(game, moves), "must_pass": must_pass(game, state, moves),
            "piece_counts": piece_counts(game, seen), "stores": stores(game, seen),
            "first_move": first_move_number(game, start),
            "starts_mid_round": start.to_move != game.initial_state().to_move}
