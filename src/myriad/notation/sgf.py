"""SGF (Smart Game Format, FF[4]): reading and writing game trees, for any game.

A collection is ``(;FF[4]GM[1]SZ[9];B[ee];W[dc])``: game trees in parentheses, each a
sequence of nodes (``;``) holding properties (an upper-case name and one or more values in
brackets, ``\\`` escaping ``]`` and ``\\``), then variations (nested trees).  This module
knows the syntax only: :func:`parse` gives the trees, :func:`main_line` the nodes a record
plays (the first variation at each branch), :func:`write` writes a sequence of nodes.
Points are two letters, column then row from the top-left (``aa``); :func:`point` and
:func:`point_list` (with ``aa:cc`` rectangles) read them.  What the properties mean is the
game's business (Go: :meth:`myriad.games.go.Go.from_sgf`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from myriad.core.errors import PositionError
from myriad.core.numbers import shortened

#: Point letters: ``a``..``z`` then ``A``..``Z`` (boards up to 52 lines).
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The most characters of SGF read (a long 19x19 game with comments is well under this).
MAX_SGF = 2_000_000
#: How deep variations may nest.
MAX_DEPTH = 500

Node = list[tuple[str, list[str]]]


@dataclass
class Tree:
    """A game tree: its sequence of nodes, then its variations."""

    nodes: list[Node] = field(default_factory=list)
    variations: list[Tree] = field(default_factory=list)


def parse(text: str, source: str = "SGF") -> list[Tree]:
    """The game trees of an SGF collection; raises ``PositionError`` naming ``source`` and
    the character where the text stops being SGF."""
    if len(text) > MAX_SGF:
        raise PositionError(f"{source}: {len(text)} characters, more than the {MAX_SGF} read")
    pos, n = 0, len(text)

    def fail(message: str, at: int) -> PositionError:
        line = text.count("\n", 0, at) + 1
        return PositionError(f"{source}:{line}: {message} near {shortened(text[at:at + 20])}")

    def skip(i: int) -> int:
        while i < n and text[i].isspace():
            i += 1
        return i

    def tree(i: int, depth: int) -> tuple[Tree, int]:
        if depth > MAX_DEPTH:
            raise fail(f"variations nested more than {MAX_DEPTH} deep", i)
        out = Tree()
        i = skip(i + 1)  # past "("
        while i < n and text[i] == ";":
            node: Node = []
            i = skip(i + 1)
            while i < n and (text[i].isalpha()):
                start = i
                while i < n and text[i].isalpha():
                    i += 1
                name = "".join(ch for ch in text[start:i] if ch.isupper())
                if not name:
                    raise fail("property name without an upper-case letter", start)
                i = skip(i)
                values: list[str] = []
                while i < n and text[i] == "[":
                    i += 1
                    chars: list[str] = []
                    while i < n and text[i] != "]":
                        if text[i] == "\\" and i + 1 < n:
                            i += 1
                            if text[i] == "\n":  # an escaped line break is removed
                                i += 1
                                continue
                        chars.append(text[i])
                        i += 1
                    if i >= n:
                        raise fail("property value not closed by ']'", start)
                    values.append("".join(chars))
                    i = skip(i + 1)
                if not values:
                    raise fail(f"property {name} has no value", start)
                node.append((name, values))
            out.nodes.append(node)
        while i < n and text[i] == "(":
            child, i = tree(i, depth + 1)
            out.variations.append(child)
            i = skip(i)
        if i >= n or text[i] != ")":
            raise fail("expected ';', '(' or ')'", min(i, n))
        return out, skip(i + 1)

    trees: list[Tree] = []
    pos = skip(pos)
    while pos < n:
        if text[pos] != "(":
            raise fail("expected '(' to open a game tree", pos)
        found, pos = tree(pos, 0)
        trees.append(found)
    if not trees:
        raise PositionError(f"{source}: no SGF game tree (expected '(;')")
    return trees


def main_line(trees: Sequence[Tree]) -> list[Node]:
    """The nodes of the first game, following the first variation at each branch."""
    nodes: list[Node] = []
    tree: Tree | None = trees[0] if trees else None
    while tree is not None:
        nodes.extend(tree.nodes)
        tree = tree.variations[0] if tree.variations else None
    return nodes


def escape(value: str) -> str:
    """A property value as written between brackets."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


def write(nodes: Sequence[Node]) -> str:
    """One game tree of ``nodes`` (no variations), a line per node after the root."""
    parts = []
    for node in nodes:
        parts.append(";" + "".join(name + "".join(f"[{escape(v)}]" for v in values) for name, values in node))
    return "(" + "\n".join(parts) + ")\n"


def point(value: str, size: int, source: str = "SGF") -> int | None:
    """The position (row by row from the bottom-left, as square boards number them) of
    the point ``value`` on a ``size`` x ``size`` board; None for a pass (``""``, or
    ``tt`` on boards up to 19)."""
    if value == "" or (value == "tt" and size <= 19):
        return None
    if len(value) != 2 or value[0] not in LETTERS[:size] or value[1] not in LETTERS[:size]:
        raise PositionError(f"{source}: {shortened(value)} is not a point of a {size}x{size} board")
    col, row = LETTERS.index(value[0]), LETTERS.index(value[1])
    return (size - 1 - row) * size + col


def point_list(value: str, size: int, source: str = "SGF") -> list[int]:
    """The positions of a point, or of every point of a rectangle ``aa:cc``."""
    if ":" not in value:
        found = point(value, size, source)
        if found is None:
            raise PositionError(f"{source}: {shortened(value)} is not a point")
        return [found]
    a, b = value.split(":", 1)
    pa, pb = point(a, size, source), point(b, size, source)
    if pa is None or pb is None:
        raise PositionError(f"{source}: {shortened(value)} is not a rectangle of points")
    c0, c1 = sorted((pa % size, pb % size))
    r0, r1 = sorted((pa // size, pb // size))
    return [r * size + c for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
