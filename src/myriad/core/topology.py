"""Board topology: integer positions, named directions, a link table, zones.

Positions are ``0..size-1``.  ``links[d][p]`` is the position reached from ``p`` by one
step in direction ``d`` or ``-1`` when there is no link.  Directions are written from the
first player's point of view; ``player_dirs[player][d]`` maps them for each player (for the
second player of a chess-like game, "n" means towards rank 1).  Zones are named sets of
positions, one per player.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from myriad.core.errors import GameDefinitionError

NO_LINK = -1

#: Compass directions of a square grid, as (name, column step, row step).
COMPASS: tuple[tuple[str, int, int], ...] = (
    ("n", 0, 1), ("s", 0, -1), ("e", 1, 0), ("w", -1, 0),
    ("ne", 1, 1), ("nw", -1, 1), ("se", 1, -1), ("sw", -1, -1),
)
ORTHOGONAL = ("n", "s", "e", "w")
DIAGONAL = ("ne", "nw", "se", "sw")
#: How the second player of a two-player board game sees the compass: mirrored top-bottom.
MIRRORED = {"n": "s", "s": "n", "ne": "se", "se": "ne", "nw": "sw", "sw": "nw", "e": "e", "w": "w"}


@dataclass(frozen=True, eq=False)
class Topology:
    """Positions, their names and drawing coordinates, directions and links."""

    names: tuple[str, ...]
    coords: tuple[tuple[float, float], ...]
    directions: tuple[str, ...]
    links: tuple[tuple[int, ...], ...]
    player_dirs: tuple[tuple[int, ...], ...]
    zones: Mapping[str, tuple[frozenset[int], ...]] = field(default_factory=dict)
    width: int = 0
    height: int = 0
    index: dict[str, int] = field(init=False, repr=False)
    dir_index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        size = len(self.names)
        if len(set(self.names)) != size:
            raise GameDefinitionError("topology: position names are not unique")
        if len(self.coords) != size:
            raise GameDefinitionError("topology: one drawing coordinate per position is needed")
        for d, row in enumerate(self.links):
            if len(row) != size or any(not NO_LINK <= p < size for p in row):
                raise GameDefinitionError(f"topology: bad link table for direction {self.directions[d]!r}")
        object.__setattr__(self, "index", {n: i for i, n in enumerate(self.names)})
        object.__setattr__(self, "dir_index", {n: i for i, n in enumerate(self.directions)})

    @property
    def size(self) -> int:
        """Number of positions."""
        return len(self.names)

    def pos(self, name: str) -> int:
        """The position called ``name``; raises ``GameDefinitionError`` if there is none."""
        try:
            return self.index[name]
        except KeyError:
            raise GameDefinitionError(f"no square named {name!r}") from None

    def direction(self, name: str) -> int:
        """The index of direction ``name``."""
        try:
            return self.dir_index[name]
        except KeyError:
            raise GameDefinitionError(
                f"no direction named {name!r} (known: {', '.join(self.directions)})") from None

    def step(self, pos: int, direction: str | int, player: int = 0) -> int:
        """Where one step from ``pos`` in ``direction`` (as ``player`` sees it) leads, or -1."""
        d = self.direction(direction) if isinstance(direction, str) else direction
        return self.links[self.player_dirs[player][d]][pos]

    def walk(self, pos: int, path: Sequence[str], player: int = 0) -> int:
        """Follow a path of directions; -1 as soon as a link is missing."""
        for name in path:
            pos = self.step(pos, name, player)
            if pos == NO_LINK:
                return NO_LINK
        return pos

    def ray(self, pos: int, direction: str | int, player: int = 0, limit: int | None = None) -> tuple[int, ...]:
        """Positions met walking from ``pos`` in ``direction`` until the edge (or ``limit`` steps)."""
        out: list[int] = []
        while limit is None or len(out) < limit:
            pos = self.step(pos, direction, player)
            if pos == NO_LINK:
                break
            out.append(pos)
        return tuple(out)

    def zone(self, name: str, player: int) -> frozenset[int]:
        """The positions of zone ``name`` for ``player``."""
        try:
            return self.zones[name][player]
        except KeyError:
            raise GameDefinitionError(f"no zone named {name!r}") from None

    def rows_zone(self, *rows: int) -> tuple[frozenset[int], ...]:
        """Per player, the positions on ``rows`` counted from that player's side (1 = the
        first player's bottom row and the second player's top row)."""
        top = max(y for _, y in self.coords)
        return (frozenset(p for p, (_, y) in enumerate(self.coords) if int(y) + 1 in rows),
                frozenset(p for p, (_, y) in enumerate(self.coords) if int(top - y) + 1 in rows))

    def with_zones(self, **zones: Iterable[Iterable[str | int]]) -> Topology:
        """A copy with extra zones, each given as one collection of squares per player."""
        merged = dict(self.zones)
        for zone_name, per_player in zones.items():
            merged[zone_name] = tuple(
                frozenset(self.pos(s) if isinstance(s, str) else s for s in squares)
                for squares in per_player)
        return Topology(self.names, self.coords, self.directions, self.links, self.player_dirs,
                        merged, self.width, self.height)


def opposite_directions(topology: Topology) -> tuple[int, ...]:
    """For each direction, the direction that walks back (-1 when there is none)."""
    out = []
    for d, row in enumerate(topology.links):
        back = -1
        for o, orow in enumerate(topology.links):
            pairs = [(p, q) for p, q in enumerate(row) if q != NO_LINK]
            if pairs and all(orow[q] == p for p, q in pairs):
                back = o
                break
        out.append(back)
    return tuple(out)


def file_letter(col: int) -> str:
    """Column letters a, b, ... z, then aa, ab ... for very wide boards."""
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def square_board(width: int, height: int, *, diagonals: bool = True, orthogonals: bool = True,
                 keep: Callable[[int, int], bool] | None = None,
                 name: Callable[[int, int], str] | None = None,
                 players: int = 2) -> Topology:
    """A rectangular board, ``width`` columns by ``height`` rows.

    Positions are numbered row by row from the bottom-left corner (a1 = 0).  ``keep(col,
    row)`` selects a subset of cells (the dark squares of a draughts board); ``name``
    overrides the algebraic names.  The second player's directions are mirrored top-bottom.
    """
    if width < 1 or height < 1:
        raise GameDefinitionError(f"board size {width}x{height} is empty")
    cells = [(c, r) for r in range(height) for c in range(width) if keep is None or keep(c, r)]
    at = {cr: i for i, cr in enumerate(cells)}
    namer = name or (lambda c, r: f"{file_letter(c)}{r + 1}")
    compass = [d for d in COMPASS
               if (orthogonals and d[0] in ORTHOGONAL) or (diagonals and d[0] in DIAGONAL)]
    directions = tuple(d[0] for d in compass)
    links = tuple(tuple(at.get((c + dc, r + dr), NO_LINK) for c, r in cells) for _, dc, dr in compass)
    dir_index = {n: i for i, n in enumerate(directions)}
    identity = tuple(range(len(directions)))
    mirrored = tuple(dir_index[MIRRORED[n]] for n in directions)
    player_dirs = (identity, mirrored) + (identity,) * (players - 2) if players >= 2 else (identity,)
    return Topology(tuple(namer(c, r) for c, r in cells), tuple((float(c), float(r)) for c, r in cells),
                    directions, links, player_dirs, {}, width, height)


def ring(names: Sequence[str], coords: Sequence[tuple[float, float]], *,
         extra_links: Mapping[str, Sequence[int]] | None = None, players: int = 2) -> Topology:
    """A cycle of positions (mancala pits and stores) with direction "next" going round.

    ``extra_links`` adds named directions given as a full link row (-1 for none), such as
    "across" from a pit to the pit facing it.
    """
    size = len(names)
    directions = ["next"]
    links = [tuple((i + 1) % size for i in range(size))]
    for dname, row in (extra_links or {}).items():
        directions.append(dname)
        links.append(tuple(row))
    identity = tuple(range(len(directions)))
    return Topology(tuple(names), tuple(coords), tuple(directions), tuple(links),
                    (identity,) * players, {}, 0, 0)


def without_links(topology: Topology, drop: Callable[[int, str, int], bool]) -> Topology:
    """A copy with the links ``drop(from, direction, to)`` is true for removed: the lines a
    graph board lacks (an alquerque board's diagonals run through every other point only)."""
    links = tuple(tuple(NO_LINK if t != NO_LINK and drop(p, name, t) else t for p, t in enumerate(row))
                  for name, row in zip(topology.directions, topology.links))
    return Topology(topology.names, topology.coords, topology.directions, links, topology.player_dirs,
                    topology.zones, topology.width, topology.height)


#: The six directions of a board of hexagons (pointy tops, rows shifted half a cell to the
#: right going down, as a Hex board is drawn), as (name, column step, row step) with rows
#: counted downwards.
HEX_DIRECTIONS: tuple[tuple[str, int, int], ...] = (
    ("e", 1, 0), ("w", -1, 0), ("ne", 1, -1), ("nw", 0, -1), ("se", 0, 1), ("sw", -1, 1),
)
#: How the second player sees a hex board: turned half a turn.
HEX_TURNED = {"e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}
#: The height of a row of hexagons when their width (the distance between the centres of
#: two neighbours in a row) is 1.
HEX_ROW_HEIGHT = 3 ** 0.5 / 2


def hex_board(width: int, height: int | None = None, *, players: int = 2) -> Topology:
    """A rhombus of hexagons, ``width`` columns by ``height`` rows (``height`` = ``width``
    unless given): the board of Hex.

    Cells are named ``<column letter><row number>`` with ``a1`` in the top-left corner, row
    1 at the top, and numbered row by row from there (``a1`` = 0, ``b1`` = 1, ...), so each
    of the six directions (``e w ne nw se sw``) is the same shift of the position numbers.
    Each row is drawn half a cell right of the row above; the drawing coordinates are the
    centres of the hexagons (neighbours 1 apart, y upwards).  The second player's
    directions are turned half a turn.
    """
    height = width if height is None else height
    if width < 1 or height < 1:
        raise GameDefinitionError(f"hex board size {width}x{height} is empty")
    cells = [(c, r) for r in range(height) for c in range(width)]
    at = {cr: i for i, cr in enumerate(cells)}
    directions = tuple(d[0] for d in HEX_DIRECTIONS)
    links = tuple(tuple(at.get((c + dc, r + dr), NO_LINK) for c, r in cells) for _, dc, dr in HEX_DIRECTIONS)
    dir_index = {n: i for i, n in enumerate(directions)}
    identity = tuple(range(len(directions)))
    turned = tuple(dir_index[HEX_TURNED[n]] for n in directions)
    player_dirs = (identity, turned) + (identity,) * (players - 2) if players >= 2 else (identity,)
    coords = tuple((c + r / 2, (height - 1 - r) * HEX_ROW_HEIGHT) for c, r in cells)
    return Topology(tuple(f"{file_letter(c)}{r + 1}" for c, r in cells), coords,
                    directions, links, player_dirs, {}, width, height)


def edge_cells(topology: Topology, side: str) -> frozenset[int]:
    """The cells on one side of a board: those with no link in direction ``side`` (on a hex
    board, ``"nw"`` gives the top row, ``"se"`` the bottom, ``"w"`` the left column and
    ``"e"`` the right; on a square board ``"n"`` the top rank)."""
    row = topology.links[topology.direction(side)]
    return frozenset(p for p, q in enumerate(row) if q == NO_LINK)
