"""Kalah, the mancala with stores (Kalah(6,4) by default).

Equipment: two rows of ``pits`` houses facing each other and a store ("kalah") at each
end; ``seeds`` seeds in every house.  South moves first.

Notation.  Each player names their own houses ``a, b, c ...`` from their left, which is
also the order they sow in, so a house's letter says how far it is from its owner's store
(house ``c`` of six with 4 seeds ends in the store).  South writes lower case, north upper
case: south's ``a`` faces north's ``F``, south's ``f`` faces north's ``A``.  A move is the
letter of the house sown (``c``, ``D``).

Position text: ``<south houses a..f>,<south store>/<north houses A..F>,<north store> <s|n>``,
e.g. ``4,4,4,4,4,4,0/4,4,4,4,4,4,0 s``: each side lists its own houses in its own sowing
order, then its store, then the side to move.
"""

from __future__ import annotations

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import Game, Next, Outcome
from myriad.core.mechanics.sowing import Leftovers, Sowing, two_row_ring
from myriad.core.move import Move
from myriad.core.numbers import read_int, shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State
from myriad.core.topology import file_letter

SIDE_LETTERS = ("s", "n")


class Kalah(Game):
    """Kalah(pits, seeds) and its rule variants."""

    id = "kalah"
    name = "Kalah"
    family = "mancala"
    player_names = ("south", "north")
    rules = ("Pick up all seeds of one of your houses and sow them one by one counter-clockwise "
             "into the following houses and your own store, never the opponent's store. "
             "If the last seed lands in your store, move again. If it lands in an empty house "
             "of yours and the facing house holds seeds, put both into your store. When one "
             "side has no seeds left, each player adds the seeds on their side to their store; "
             "the larger store wins.")

    def __init__(self, pits: int = 6, seeds: int = 4, *, capture_facing_empty: bool = False,
                 leftovers: Leftovers = "owner", skip_origin: bool = False) -> None:
        if not 1 <= pits <= 26:
            raise GameDefinitionError(f"kalah: pits must be 1..26, not {pits}")
        if seeds < 1:
            raise GameDefinitionError(f"kalah: seeds must be positive, not {seeds}")
        self.pits, self.seeds = pits, seeds
        self.total = 2 * pits * seeds
        # -- equipment ----------------------------------------------------------------------
        south = [file_letter(i) for i in range(pits)]
        north = [name.upper() for name in south]
        topology = two_row_ring((south, north), ("store_s", "store_n"))
        self.houses = (tuple(map(topology.pos, south)), tuple(map(topology.pos, north)))
        self.stores = (topology.pos("store_s"), topology.pos("store_n"))
        start = ",".join([str(seeds)] * pits + ["0"])
        super().__init__(topology, PieceSet([PieceKind("seed", "o")]), {"start": f"{start}/{start} s"},
                         cell_values=self.total + 1)
        if (pits, seeds) != (6, 4):
            self.name = f"Kalah({pits},{seeds})"
        # -- rules --------------------------------------------------------------------------
        self.sowing = Sowing(topology, self.houses, self.stores, max_seeds=self.total,
                             capture_facing_empty=capture_facing_empty, leftovers=leftovers,
                             skip_origin=skip_origin)
        self._letters = frozenset(south) | frozenset(north)

    # -- play ---------------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        """One sowing per non-empty house of the side to move; none once a side is empty."""
        return self.sowing.moves(state.cells, state.to_move)

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        """The last seed in one's own store gives another turn."""
        player = state.to_move
        again = self.sowing.ends_in_store(state.cells, player, move[0][2])
        return Next(player if again else 1 - player, state.flags, state.counters, state.hands, True)

    def outcome(self, state: State) -> Outcome | None:
        """Once a side is empty: the larger store (leftovers collected) wins, equal stores draw."""
        if not self.sowing.is_over(state.cells):
            return None
        south, north = self.sowing.final_scores(state.cells)
        score = f"{south}-{north}"
        if south == north:
            return Outcome.draw(f"equal stores {score}")
        return Outcome.win(0 if south > north else 1, f"stores {score}")

    # -- knowledge for bots --------------------------------------------------------------------

    quiescence = False  # every sowing moves seeds: nothing quiet to stop at
    #: the evaluation's weights per seed: of the store difference, of the seeds on the sides;
    #: the ordering's bonus for a sowing that earns another turn (the kernel reads them too)
    store_weight = 100
    side_weight = 10
    again_bonus = 100

    def evaluate(self, state: State) -> float:
        """Store difference, then seeds kept on one's own side, for the side to move."""
        me, cells = state.to_move, state.cells
        stores = cells[self.stores[me]] - cells[self.stores[1 - me]]
        sides = self.sowing.side_seeds(cells, me) - self.sowing.side_seeds(cells, 1 - me)
        return self.store_weight * stores + self.side_weight * sides

    def move_heuristic(self, state: State, move: Move) -> float:
        """Sowings that earn another turn first, then those that fill the store most."""
        me = state.to_move
        again = self.sowing.ends_in_store(state.cells, me, move[0][2])
        gain = next((a[3] - state.cells[a[2]] for a in move if a[2] == self.stores[me]), 0)
        return self.again_bonus * again + gain

    # -- notation -----------------------------------------------------------------------------

    def format_move(self, state: State, move: Move) -> str:
        return self.topology.names[move[0][2]]

    def check_move_syntax(self, text: str) -> None:
        if text not in self._letters:
            last = file_letter(self.pits - 1)
            raise InvalidMoveError(
                f"{self.id}: {shortened(text)} is not a house letter (a-{last} for south, A-{last.upper()} for north)")

    def format_position(self, state: State) -> str:
        cells = state.cells
        rows = (",".join(str(cells[p]) for p in (*self.houses[side], self.stores[side])) for side in (0, 1))
        return f"{'/'.join(rows)} {SIDE_LETTERS[state.to_move]}"

    def parse_position(self, text: str) -> State:
        fields = text.split()
        if len(fields) != 2:
            raise PositionError(
                f"{self.id}: expected '<south>/<north> <s|n>' (two fields), got {len(fields)} in {shortened(text)}")
        board, side = fields
        if side not in SIDE_LETTERS:
            raise PositionError(f"{self.id}: side to move must be 's' or 'n', not {shortened(side)}")
        rows = board.split("/")
        if len(rows) != 2:
            raise PositionError(f"{self.id}: the board needs two rows (south/north) separated by '/', "
                                f"got {len(rows)} in {shortened(board)}")
        cells = [0] * self.topology.size
        names = self.topology.names
        for player, row in enumerate(rows):
            counts = row.split(",")
            if len(counts) != self.pits + 1:
                raise PositionError(f"{self.id}: {self.player_names[player]} row {shortened(row)} has {len(counts)} "
                                    f"counts, expected {self.pits} houses and a store")
            for pos, count in zip((*self.houses[player], self.stores[player]), counts):
                where = "store" if pos == self.stores[player] else f"house {names[pos]}"
                cells[pos] = read_int(count, f"{self.id}: {self.player_names[player]} {where}",
                                      high=self.total, error=PositionError)
        if sum(cells) > self.total:
            raise PositionError(f"{self.id}: {sum(cells)} seeds in all, this game has only {self.total}")
        return self.make_state(cells, SIDE_LETTERS.index(side))

    # -- drawing ------------------------------------------------------------------------------

    def cell_text(self, value: int) -> str:
        return str(value)

    def render(self, state: State) -> str:
        """North's houses on top (A on the right), south's below, stores at the ends."""
        cells = state.cells
        width = max(2, len(str(max(cells))))

        def row(positions: tuple[int, ...], text: bool) -> str:
            names = self.topology.names
            return " ".join((names[p] if text else str(cells[p])).rjust(width) for p in positions)

        north = tuple(reversed(self.houses[1]))
        pad = " " * (width + 1)
        n_store = str(cells[self.stores[1]]).rjust(width)
        s_store = str(cells[self.stores[0]]).rjust(width)
        gap = " " * (len(row(self.houses[0], True)) + 2)
        lines = [pad + row(north, True), pad + row(north, False), n_store + gap + s_store,
                 pad + row(self.houses[0], False), pad + row(self.houses[0], True),
                 f"{self.player_names[state.to_move]} to move"]
        return "\n".join(lines)


def kalah(pits: int = 6, seeds: int = 4, *, capture_facing_empty: bool = False,
          leftovers: Leftovers = "owner", skip_origin: bool = False) -> Kalah:
    """Kalah(pits, seeds); the defaults are the standard Kalah(6,4).

    Variants: ``capture_facing_empty`` (the "empty capture" rule: a last seed in an own empty
    house is stored even when the facing house is empty), ``leftovers`` ("owner": at the end
    each side's seeds go to their owner; "empty_side": to the player whose side is empty),
    ``skip_origin`` (a lap of sowing passes over the emptied house).
    """
    return Kalah(pits, seeds, capture_facing_empty=capture_facing_empty, leftovers=leftovers,
                 skip_origin=skip_origin)
