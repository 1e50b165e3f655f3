"""Why a well-formed move is not legal: the rule it breaks, in words, for any game.

:func:`illegal_reason` looks, in order, at

1. the end of the game (no move is legal once it is over);
2. the game's *near moves* (:meth:`Game.near_moves`): moves that one named rule forbids
   here, each with that rule ("your king would be in check", "a capture is compulsory",
   "ko"), matched against the text by their spellings and by the squares they visit;
3. the squares the text names, read generically: a capture that stops before its end, a
   start square that is empty or holds another player's piece, a placement on an
   occupied cell (not in games with hidden information: the answer would tell what the
   mover may not see);
4. else: the move is not among the legal ones.

The answer is a short clause (no game id, no list of moves): :class:`IllegalMoveError`
carries it as ``reason`` and its message quotes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from myriad.core.move import CAPTURE, DROP, MOVE, Move

if TYPE_CHECKING:
    from myriad.core.game import Game
    from myriad.core.state import State

#: said when no rule more specific is found
NOT_AMONG_LEGAL = "it is not one of the legal moves here"


def named_squares(game: Game, text: str) -> list[int]:
    """The positions whose names occur in ``text``, left to right, the longest name first at
    each place (``e2e4`` -> e2, e4; ``21-17`` -> 21, 17; ``Nf3`` -> f3)."""
    names = game.move_square_names()
    index = {name.lower(): pos for pos, name in enumerate(names)}  # (e2e4 and E2-E4 alike)
    index.update((name, pos) for pos, name in enumerate(names))
    longest = max((len(name) for name in index), default=0)
    found: list[int] = []
    i = 0
    while i < len(text):
        for size in range(min(longest, len(text) - i), 0, -1):
            pos = index.get(text[i:i + size], index.get(text[i:i + size].lower()))
            if pos is not None and (i + size == len(text) or not (text[i + size - 1].isdigit()
                                                                  and text[i + size].isdigit())):
                found.append(pos)
                i += size
                break
        else:
            i += 1
    return found


def spellings(game: Game, state: State, move: Move) -> set[str]:
    """The texts ``move`` may be written as in ``state`` (empty when the game cannot
    write it: some notations need the move to be legal)."""
    try:
        return {game.format_move(state, move), *game.move_aliases(state, move)}
    except Exception:  # noqa: BLE001 - a notation may refuse a move that is not legal
        return set()


def _path(move: Move) -> tuple[int, ...]:
    return move.path if move else ()


def illegal_reason(game: Game, state: State, text: str, legal: Sequence[Move] | None = None) -> str:
    """Why the well-formed move ``text`` is not legal in ``state``, as a short clause."""
    text = text.strip()
    legal = game.legal_moves(state) if legal is None else legal
    outcome = None if legal else game.outcome(state)
    if outcome is not None:
        return f"the game is over ({outcome.reason})"
    squares = named_squares(game, text)
    bare = text.rstrip("+#!?")
    near = game.near_moves(state)
    for move, why in near:  # the move written so, then the move visiting those squares
        written = spellings(game, state, move)
        if text in written or bare in written:
            return why
    if len(squares) >= 2:
        for move, why in near:
            if _path(move) == tuple(squares):
                return why
    elif len(squares) == 1:
        for move, why in near:
            if move and move.to == squares[0] and move.frm == squares[0]:
                return why
    if game.hidden_information:  # what stands on a square may be what the mover must not learn
        return NOT_AMONG_LEGAL
    return _by_squares(game, state, squares, legal) or NOT_AMONG_LEGAL


def _by_squares(game: Game, state: State, squares: list[int], legal: Sequence[Move]) -> str:
    """A reason read from the squares the text names, or ''."""
    if not squares:
        return ""
    names = game.move_square_names()
    cells = state.cells
    moving = any(a[0] == MOVE for m in legal for a in m)
    placing = any(a[0] == DROP for m in legal for a in m)
    if len(squares) >= 2:
        path = tuple(squares)
        longer = [m for m in legal if len(_path(m)) > len(path) and _path(m)[:len(path)] == path
                  and any(a[0] == CAPTURE for a in m)]
        if longer:
            return (f"the capture must go on: {game.format_move(state, longer[0])} "
                    f"(a capture takes every piece it can reach)")
        if not moving:
            return ""
        frm, code = squares[0], cells[squares[0]]
        if not code:
            return f"there is no piece on {names[frm]}"
        owners = game.pieces.owner_of
        if code < len(owners) and 0 <= owners[code] < game.players and owners[code] != state.to_move:
            return f"the {game.pieces.kind(code).name} on {names[frm]} is not yours"
        if code < len(owners):
            own = [m for m in legal if m.frm == frm]
            shown = ", ".join(game.format_move(state, m) for m in own[:8])
            return (f"your {game.pieces.kind(code).name} on {names[frm]} cannot go to {names[squares[-1]]}"
                    + (f" (it may play {shown})" if own else " (it has no legal move)"))
        return ""
    pos = squares[0]
    if placing and not moving and cells[pos]:
        return f"{names[pos]} is occupied"
    if moving and not any(m.to == pos for m in legal):
        owners, code = game.pieces.owner_of, cells[pos]
        if code and code < len(owners) and owners[code] == state.to_move:
            return f"your own {game.pieces.kind(code).name} stands on {names[pos]}"
        return f"no piece of yours may go to {names[pos]} now"
    return ""
