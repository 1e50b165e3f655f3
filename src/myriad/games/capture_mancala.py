"""Two-row mancala games that capture in the opponent's row (Oware, Toguz Kumalak).

The rules of the move are :class:`myriad.core.mechanics.capture_sowing.CaptureSowing`; this
module adds what every such game shares: the board (two rows, a store at each end, as Kalah
draws it), the goal (more than half of the seeds captured wins, half each is a draw), the end
when the side to move has no legal move (each player then takes the seeds on their side),
optionally the end at a repeated position (the same), position text, notation by house
labels, the terminal drawing and the bots' knowledge.  A game module only configures it.

Position text: ``<first player's houses>,<store>/<second player's houses>,<store> <side>``,
each side listing its own houses from its own left (its sowing order), e.g.
``4,4,4,4,4,4,0/4,4,4,4,4,4,0 s``.  A house claimed by the opponent (a tuzdyk) is written
``X`` (it never holds seeds: they go to the holder's store).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import REPEATED, Game, Next, Outcome
from myriad.core.mechanics.capture_sowing import NO_CLAIM, CaptureSowing, claimed_in
from myriad.core.mechanics.sowing import two_row_ring
from myriad.core.move import Move
from myriad.core.numbers import read_int, shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State

#: How a claimed house is written in position text and drawn.
CLAIM_MARK = "X"


class CaptureMancala(Game):
    """A two-row mancala with captures on the opponent's side (see the module docstring).

    ``labels[p]`` name player ``p``'s houses from their left (the move notation);
    ``side_letters`` name the side to move in position text; ``sowing`` takes the keyword
    arguments of :class:`CaptureSowing` (``max_seeds`` is set here).  ``repetition_ends``:
    a position repeated since the last capture ends the game, each player taking the seeds on
    their side.  ``no_move_reason`` names the end when the side to move cannot move.
    """

    family = "mancala"
    #: bots search on past their depth along captures (a sowing that fills the mover's store)
    quiescence = True
    quiescence_depth = 4
    #: the evaluation's weights per seed: of the store difference, of the seeds on the sides
    #: (the kernel reads them too; ``claim_value`` weighs a claimed house)
    store_weight = 100
    side_weight = 3

    def __init__(self, labels: Sequence[Sequence[str]], seeds: int, side_letters: Sequence[str], *,
                 store_names: Sequence[str] = ("store_s", "store_n"), repetition_ends: bool = False,
                 no_move_reason: str = "no legal move", claim_value: int = 0, **sowing: Any) -> None:
        pits = len(labels[0])
        if len(labels) != 2 or len(labels[1]) != pits or pits < 1:
            raise GameDefinitionError(f"{self.id or type(self).__name__}: two rows of house labels of one length")
        if seeds < 1:
            raise GameDefinitionError(f"{self.id or type(self).__name__}: seeds must be positive, not {seeds}")
        self.pits, self.seeds = pits, seeds
        self.total = 2 * pits * seeds
        self.labels = (tuple(labels[0]), tuple(labels[1]))
        self.side_letters = tuple(side_letters)
        self.repetition_ends = repetition_ends
        self.no_move_reason = no_move_reason
        self.claim_value = claim_value
        # -- equipment: positions are named after the labels (with the player's initial when
        # both rows use the same labels), stores at the row ends ----------------------------
        shared = bool(set(labels[0]) & set(labels[1]))
        names = [[f"{self.player_names[p][0]}{label}" if shared else label for label in labels[p]] for p in (0, 1)]
        topology = two_row_ring(names, store_names)
        self.houses = (tuple(map(topology.pos, names[0])), tuple(map(topology.pos, names[1])))
        self.stores = (topology.pos(store_names[0]), topology.pos(store_names[1]))
        start = ",".join([str(seeds)] * pits + ["0"])
        super().__init__(topology, PieceSet([PieceKind("seed", "o")]),
                         {"start": f"{start}/{start} {self.side_letters[0]}"}, cell_values=self.total + 1)
        # -- rules --------------------------------------------------------------------------
        self.sowing = CaptureSowing(topology, self.houses, self.stores, max_seeds=self.total, **sowing)
        self.claims_on = bool(self.sowing.claim_count)
        self._label_of = {h: self.labels[p][i] for p in (0, 1) for i, h in enumerate(self.houses[p])}
        self._all_labels = frozenset(self.labels[0]) | frozenset(self.labels[1])

    # -- claims (flags) ---------------------------------------------------------------------

    def claims(self, state: State) -> tuple[int, int]:
        """``claims[p]``: the opponent's house player ``p`` holds, or ``NO_CLAIM``."""
        if not self.claims_on:
            return (NO_CLAIM, NO_CLAIM)
        return (state.flags[0] - 1, state.flags[1] - 1)

    def claimed_houses(self, state: State) -> tuple[int, ...]:
        """The houses claimed so far (drawn as ``X``)."""
        return tuple(c for c in self.claims(state) if c != NO_CLAIM)

    def _flags(self, claims: Sequence[int]) -> tuple[int, ...]:
        return (claims[0] + 1, claims[1] + 1) if self.claims_on else ()

    # -- play ---------------------------------------------------------------------------------

    def _decided(self, state: State) -> str | None:
        """The end that needs no move generation: a majority, an even split, a repetition."""
        s0, s1 = state.cells[self.stores[0]], state.cells[self.stores[1]]
        if 2 * s0 > self.total or 2 * s1 > self.total or 2 * s0 == 2 * s1 == self.total:
            return "captured"
        if self.repetition_ends and state.history and state.key in state.history:
            return "position repeated"
        return None

    def legal_moves(self, state: State) -> list[Move]:
        """One sowing per playable house of the side to move; none once the game is over."""
        if self._decided(state):
            return []
        return self.sowing.moves(state.cells, state.to_move, self.claims(state))

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        """The other player moves; a claim is recorded; a capture clears the history."""
        player = state.to_move
        claims = list(self.claims(state))
        if self.claims_on:
            claimed = claimed_in(move)
            if claimed != NO_CLAIM:
                claims[player] = claimed
        captured = cells[self.stores[player]] != state.cells[self.stores[player]] or \
            cells[self.stores[1 - player]] != state.cells[self.stores[1 - player]]
        return Next(1 - player, self._flags(claims), state.counters, state.hands,
                    captured or not self.repetition_ends)

    def outcome(self, state: State) -> Outcome | None:
        """See :meth:`result`."""
        return self.result(state, self.legal_moves(state))

    def repetition_outcome(self, state: State) -> Outcome:
        """With ``repetition_ends``, a repeated position ends the game and the seeds are
        counted (:meth:`result`); else a draw."""
        if self.repetition_ends:
            return self.outcome(state) or REPEATED
        return REPEATED

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        """More than half of the seeds captured wins, half each draws; with no legal move (or
        at a repetition) each player adds the seeds on their side to their store and the
        larger store wins."""
        if moves is None:  # (not given: the outcome works them out)
            return self.outcome(state)
        reason = self._decided(state)
        if reason == "captured":
            scores = (state.cells[self.stores[0]], state.cells[self.stores[1]])
        elif reason or not moves:
            reason = reason or self.no_move_reason
            scores = self.sowing.final_scores(state.cells)
        else:
            return None
        text = f"{reason} {scores[0]}-{scores[1]}"
        if scores[0] == scores[1]:
            return Outcome.draw(text)
        return Outcome.win(0 if scores[0] > scores[1] else 1, text)

    # -- knowledge for bots --------------------------------------------------------------------

    def evaluate(self, state: State) -> float:
        """Store difference, then claimed houses, then seeds kept on one's own side."""
        me, cells = state.to_move, state.cells
        score = self.store_weight * (cells[self.stores[me]] - cells[self.stores[1 - me]])
        score += self.side_weight * (self.sowing.side_seeds(cells, me) - self.sowing.side_seeds(cells, 1 - me))
        if self.claims_on:
            claims = self.claims(state)
            score += self.claim_value * ((claims[me] != NO_CLAIM) - (claims[1 - me] != NO_CLAIM))
        return score

    def is_noisy(self, state: State, move: Move) -> bool:
        """A capture (or a claim): the mover's store fills."""
        store = self.stores[state.to_move]
        return any(a[2] == store for a in move)

    def noisy_moves(self, state: State) -> list[Move]:
        """The legal captures, generated directly."""
        if self._decided(state):
            return []
        return self.sowing.moves(state.cells, state.to_move, self.claims(state), captures_only=True)

    def move_heuristic(self, state: State, move: Move) -> float:
        """Sowings that capture most first; a claim counts as its value."""
        store = self.stores[state.to_move]
        gain = next((a[3] - state.cells[store] for a in move if a[2] == store), 0)
        return gain + (self.claim_value / 100 if self.claims_on and claimed_in(move) != NO_CLAIM else 0)

    # -- notation -----------------------------------------------------------------------------

    def format_move(self, state: State, move: Move) -> str:
        return self._label_of[move[0][2]]

    def check_move_syntax(self, text: str) -> None:
        if text not in self._all_labels:
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a house "
                                   f"({', '.join(sorted(self._all_labels))})")

    def format_position(self, state: State) -> str:
        cells, claims = state.cells, self.claims(state)
        rows = []
        for side in (0, 1):
            held = claims[1 - side]
            counts = [CLAIM_MARK if h == held else str(cells[h]) for h in self.houses[side]]
            rows.append(",".join(counts + [str(cells[self.stores[side]])]))
        return f"{'/'.join(rows)} {self.side_letters[state.to_move]}"

    def parse_position(self, text: str) -> State:
        fields = text.split()
        letters = "|".join(self.side_letters)
        if len(fields) != 2:
            raise PositionError(f"{self.id}: expected '<{self.player_names[0]}>/<{self.player_names[1]}> "
                                f"<{letters}>' (two fields), got {len(fields)} in {shortened(text)}")
        board, side = fields
        if side not in self.side_letters:
            raise PositionError(f"{self.id}: side to move must be one of {letters}, not {shortened(side)}")
        rows = board.split("/")
        if len(rows) != 2:
            raise PositionError(f"{self.id}: the board needs two rows ({self.player_names[0]}/"
                                f"{self.player_names[1]}) separated by '/', got {len(rows)} in {shortened(board)}")
        cells = [0] * self.topology.size
        claims = [NO_CLAIM, NO_CLAIM]
        for player, row in enumerate(rows):
            counts = row.split(",")
            if len(counts) != self.pits + 1:
                raise PositionError(f"{self.id}: {self.player_names[player]} row {shortened(row)} has "
                                    f"{len(counts)} counts, expected {self.pits} houses and a store")
            for pos, count in zip((*self.houses[player], self.stores[player]), counts):
                where = f"{self.player_names[player]} " + (
                    "store" if pos == self.stores[player] else f"house {self._label_of[pos]}")
                if count == CLAIM_MARK and pos != self.stores[player]:
                    if not self.claims_on:
                        raise PositionError(f"{self.id}: {where}: {self.name} has no claimed houses ({CLAIM_MARK})")
                    holder = 1 - player
                    if claims[holder] != NO_CLAIM:
                        raise PositionError(f"{self.id}: {where}: {self.player_names[holder]} holds two houses")
                    claims[holder] = pos
                    continue
                cells[pos] = read_int(count, f"{self.id}: {where}", high=self.total, error=PositionError)
        if sum(cells) != self.total:
            raise PositionError(f"{self.id}: {sum(cells)} seeds in all, this game has {self.total}")
        for holder in (0, 1):
            if claims[holder] != NO_CLAIM:
                self._check_claim(claims, holder)
        return self.make_state(cells, self.side_letters.index(side), self._flags(claims))

    def _check_claim(self, claims: Sequence[int], holder: int) -> None:
        """Refuse a written claim the rules could never have made."""
        house, sowing = claims[holder], self.sowing
        where = f"{self.id}: {self.player_names[1 - holder]} house {self._label_of[house]}"
        if not sowing.claim_last_house and sowing.index[house] == self.pits - 1:
            raise PositionError(f"{where}: the last house cannot be claimed")
        other = claims[1 - holder]
        if not sowing.claim_mirror and other != NO_CLAIM and sowing.index[other] == sowing.index[house]:
            raise PositionError(f"{where}: both claimed houses have the same number")

    # -- drawing ------------------------------------------------------------------------------

    def cell_text(self, value: int) -> str:
        return str(value)

    def render(self, state: State) -> str:
        """The second player's houses on top (their first house on the right), the first
        player's below, labels outside, stores at the ends; a claimed house shows X."""
        cells, claims = state.cells, self.claims(state)
        texts = {h: CLAIM_MARK if h in claims else str(cells[h]) for row in self.houses for h in row}
        width = max(2, *(len(t) for t in texts.values()), *(len(str(cells[s])) for s in self.stores))

        def row(positions: Sequence[int], labels: bool) -> str:
            return " ".join((self._label_of[p] if labels else texts[p]).rjust(width) for p in positions)

        north = tuple(reversed(self.houses[1]))
        pad = " " * (width + 1)
        gap = " " * (len(row(self.houses[0], True)) + 2)
        lines = [pad + row(north, True), pad + row(north, False),
                 str(cells[self.stores[1]]).rjust(width) + gap + str(cells[self.stores[0]]).rjust(width),
                 pad + row(self.houses[0], False), pad + row(self.houses[0], True),
                 f"{self.player_names[state.to_move]} to move"]
        return "\n".join(lines)
