"""Kernel families: each module compiles the games of one family of rules.

A family module provides, compiled by numba:

* ``gen(t, s, hist, nhist, moves) -> int``: the legal moves of state vector ``s`` written
  as rows of ``moves``, their count returned (``hist[:nhist]``: the keys of the earlier
  positions, as ``State.history``, for rules that read them);
* ``play(t, s, m, dst) -> int``: the state after move row ``m`` written into ``dst``
  (same length as ``s``); returns :data:`IRREVERSIBLE` and/or :data:`GAVE_CHECK` bits, as
  :class:`~myriad.core.game.Next` says them (the caller keeps the history);
* ``actions(t, s, m, out) -> int``: the reference actions of ``m`` as rows of ``out``
  ``(kind, frm, to, piece, part)``, their count returned;
* ``outcome(t, s, hist, nhist, nlegal) -> int``: -1 while the game goes on, else the bit
  set of the players with the best score (every player's bit: a draw); ``nlegal`` is the
  number of legal moves ``gen`` found;
* ``evaluate(t, s) -> float``, ``order(t, s, m) -> float``, ``noisy(t, s, m) -> bool``:
  the bots' knowledge, equal to the game's ``evaluate``, ``move_heuristic`` and ``is_noisy``;
* ``repetition(t, s) -> int``: the winners' bits of ``Game.repetition_outcome`` (what a
  search scores a position met again on its line), -1 where it is None; a family whose
  value depends on the position's earlier occurrences adds ``repeat(t, s, hist, nhist)``
  (tafl), dispatched by :func:`myriad.kernel.rules.repeat`;
* ``playout_move(t, s, moves, n) -> int``: the index of the move a playout plays among the
  ``n`` legal moves (the playout policy, knowledge as data in the tables; uniform by
  default);
* ``candidates(t, s, moves, n) -> int``: the game's ``candidate_moves``: the moves worth
  searching among the ``n`` legal ones, written to the front of ``moves``, their number
  returned (all of them by default);

and, in Python, ``tables(game) -> Tables | None`` (None: a game it does not cover, or
covers only in part) and ``prepare(t, s)``, which fills the family's own words of a
freshly packed state vector.
"""

#: ``play``'s result bits.
IRREVERSIBLE = 1
GAVE_CHECK = 2
#: The history keeps the board's key (the key without the side to move, ``key ^
#: side[to_move]``) instead of the state's: Go's superko compares boards.
BOARD_KEY = 4
