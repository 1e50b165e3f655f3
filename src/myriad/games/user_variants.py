"""Variant files users write: read safely, held to limits, registered all or none, and
handed on as text to the worker processes that must know the same games.

``load_variant_file(path)`` is the whole story for a caller: the file is read as a user's
file (``myriad.notation.files.read_text_file``: a regular file, UTF-8, at most
:data:`MAX_FILE_BYTES`), checked against the limits below and the strict reader
(``myriad.games.variant_file.load_variants``), its ids checked against every registered
game, and only then are its games registered.  Any refusal is a ``GameDefinitionError``
(or ``FileError`` for a file that cannot be read) saying ``file:line: field: message``,
and then nothing of it is registered.

A process that builds games by id (a match's worker, the web server's bot workers) is
given :func:`loaded_sources` (the texts, never a path) and calls
:func:`load_variant_sources` with them before its first job: it then knows the same games.
Loading a source that this process already loaded (same name, same text) changes nothing,
so a forked worker that inherited the registry is fine too.

Limits, and why:

* **Board: 1-26 files, 1-26 ranks, at most 400 squares.**  Files are letters (a-z); 26
  ranks keep boards square-ish; 400 squares (20x20) hold the large variants people play,
  from Grand chess (10x10) to Chu (12x12), Tenjiku (16x16) and Maka dai dai shogi (19x19),
  while the move tables a board costs (squares x directions x ride length, per piece
  kind) stay a second or two to build in pure Python.  Measured: chess's pieces but the pawn on 20x20
  build in 0.65 s (7 MB at the peak), on 26x99 (what the reader alone accepts) in 5.4 s
  (57 MB), in every process that loads the file.
* **26 piece kinds**: each kind is one upper-case letter in positions.
* **64 variants and 6,400 squares per file** (64 boards of 10x10, 16 of 20x20), **1 MB
  per file**: several times the largest real file (the shipped chess.toml is 4 KB; a 20x20
  variant with a square table for each of 26 kinds is about 60 KB), and a bounded time to
  load in every process that needs it (the server and each of its bot workers; an 8x8
  variant builds in about 0.05 s, a 20x20 one with 26 riders in about 1.5 s).
* **Betza strings of at most 64 characters**: the longest real ones are a dozen or two.
"""

from __future__ import annotations

import argparse
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from myriad.core.errors import GameDefinitionError
from myriad.core.game import Game
from myriad.games import REGISTERED, REGISTRY, get_game, register
from myriad.notation.files import read_text_file

if TYPE_CHECKING:
    from myriad.games.variant_file import Source

# ``myriad.games.variant_file`` (and the chess family it builds) is imported where a file is
# read, not here: every command has the --variants option, few use it.

MAX_FILE_BYTES = 1024 * 1024
MAX_VARIANTS = 64
MAX_FILES = 26
MAX_RANKS = 26
MAX_SQUARES = 400
MAX_FILE_SQUARES = 6400
MAX_PIECE_KINDS = 26
MAX_BETZA = 64


@dataclass(frozen=True)
class VariantSource:
    """A variant file's text and the name its errors give (the path as the user wrote it)."""

    name: str
    text: str


#: The sources loaded in this process, in order, with the ids of their games.
_LOADED: dict[VariantSource, tuple[str, ...]] = {}


def loaded_sources() -> tuple[VariantSource, ...]:
    """The variant files loaded in this process, in order: what a worker process is given."""
    return tuple(_LOADED)


def read_variant_file(path: str | os.PathLike[str]) -> VariantSource:
    """The text of the variant file at ``path``; a ``FileError`` naming it when it is
    missing, not a regular file, larger than :data:`MAX_FILE_BYTES` or not UTF-8 text."""
    name = os.fspath(path)
    return VariantSource(name, read_text_file(name, "variant file", limit=MAX_FILE_BYTES))


def load_variant_file(path: str | os.PathLike[str]) -> list[Game]:
    """Read, check and register the variants of the file at ``path``, all or none; their
    games.  Raises ``GameDefinitionError`` (``file:line: field: message``) for anything
    wrong in it, an id already taken included, or ``FileError`` when it cannot be read."""
    return load_variant_files([path])


def load_variant_files(paths: Sequence[str | os.PathLike[str]]) -> list[Game]:
    """:func:`load_variant_file` for several files at once: all of them or none."""
    return load_variant_sources([read_variant_file(p) for p in paths])


def load_variant_sources(sources: Sequence[VariantSource]) -> list[Game]:
    """Check and register the variants of ``sources``, all of them or none (those this
    process already loaded are kept as they are); the games of every source."""
    from myriad.games.variant_file import Source

    taken: dict[str, str] = {}
    for source, ids in _LOADED.items():
        taken.update((gid, f"a variant of {source.name}") for gid in ids)
    new: list[tuple[VariantSource, list[Game]]] = []
    for source in dict.fromkeys(sources):
        if source in _LOADED:
            continue
        games = check_source(source)
        lines = Source(source.name, source.text)
        for game in games:
            owner = taken.get(game.id) or _registered_as(game.id)
            if owner:
                raise lines.error((game.id,), f"the id {game.id!r} is already taken by {owner}; "
                                              "give this variant another id")
            taken[game.id] = f"a variant of {source.name}"
        new.append((source, games))
    register(*(game for _, games in new for game in games))
    for source, games in new:
        _LOADED[source] = tuple(g.id for g in games)
    return [get_game(gid) for source in dict.fromkeys(sources) for gid in _LOADED[source]]


def _registered_as(game_id: str) -> str | None:
    if game_id in REGISTRY:
        return "a built-in game (see 'myriad games')"
    if game_id in REGISTERED:
        return "a game registered in this process"
    return None


def check_source(source: VariantSource) -> list[Game]:
    """The games of ``source``, checked against the limits and the strict reader, without
    registering anything; ``GameDefinitionError`` naming file, line and field."""
    from myriad.games.variant_file import Source, load_variants

    lines = Source(source.name, source.text)
    if len(source.text.encode("utf-8")) > MAX_FILE_BYTES:
        raise GameDefinitionError(f"{source.name}:0: the file is larger than the {MAX_FILE_BYTES:,} bytes allowed")
    try:
        data = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError:
        data = None  # the strict reader says where
    if data is not None:
        _check_declared(lines, data)
    # (inherited piece kinds cannot exceed the limit: each has its own letter, A to Z)
    # (text only: one line ending in .toml would be taken for a path)
    text = source.text if "\n" in source.text else source.text + "\n"
    return list(load_variants(text, name=source.name))


def _check_declared(lines: Source, data: Mapping[str, Any]) -> None:
    """The limits on what the file declares, before anything is built from it."""
    if len(data) > MAX_VARIANTS:
        raise lines.error((list(data)[MAX_VARIANTS],), f"more than {MAX_VARIANTS} variants in one file")
    squares = 0
    for vid, table in data.items():
        if not isinstance(table, dict):
            continue  # the strict reader refuses it
        files, ranks = _size(data, vid)
        for key, value, most in (("files", files, MAX_FILES), ("ranks", ranks, MAX_RANKS)):
            if value is not None and value > most:
                raise lines.error((vid, key), f"expected 1 to {most} {key}, got {value}")
        if files is not None and ranks is not None:
            if files * ranks > MAX_SQUARES:
                field = "ranks" if "ranks" in table else "files" if "files" in table else None
                raise lines.error((vid, field) if field else (vid,),
                                  f"a {files}x{ranks} board has {files * ranks} squares, more than the "
                                  f"{MAX_SQUARES} allowed")
            squares += max(files * ranks, 0)
            if squares > MAX_FILE_SQUARES:
                raise lines.error((vid,), f"the boards of the file's variants up to this one have {squares} "
                                          f"squares in all, more than the {MAX_FILE_SQUARES} allowed")
        pieces = table.get("pieces")
        if not isinstance(pieces, dict):
            continue
        if len(pieces) > MAX_PIECE_KINDS:
            raise lines.error((vid, "pieces", list(pieces)[MAX_PIECE_KINDS]),
                              f"more than {MAX_PIECE_KINDS} piece kinds")
        for name, piece in pieces.items():
            if not isinstance(piece, dict):
                continue
            betzas: list[tuple[tuple[str, ...], Any]] = [(("betza",), piece.get("betza"))]
            zone_moves = piece.get("zone_moves")
            if isinstance(zone_moves, dict):
                betzas += [(("zone_moves", zone), text) for zone, text in zone_moves.items()]
            for path, text in betzas:
                if isinstance(text, str) and len(text) > MAX_BETZA:
                    raise lines.error((vid, "pieces", name, *path),
                                      f"a Betza string of {len(text)} characters, more than the {MAX_BETZA} allowed")


def _size(data: Mapping[str, Any], vid: str) -> tuple[int | None, int | None]:
    """The board's files and ranks of variant ``vid`` as declared or inherited (None where
    unknown or not an integer: the strict reader says what is wrong)."""
    from myriad.games.variant_file import shipped_declarations

    shipped = {d.id: d.table for d in shipped_declarations()}
    found: dict[str, int | None] = {}
    table: Any = data[vid]
    local, seen = True, set()
    while isinstance(table, dict) and len(found) < 2:
        for key in ("files", "ranks"):
            if key in table and key not in found:
                value = table[key]
                found[key] = value if isinstance(value, int) and not isinstance(value, bool) else None
        parent = table.get("inherits")
        if not isinstance(parent, str) or (local, parent) in seen:
            break
        seen.add((local, parent))
        if local and parent in data:
            table = data[parent]
        else:
            local, table = False, shipped.get(parent)
    return found.get("files"), found.get("ranks")


# -- the command line ------------------------------------------------------------------------


def add_variants_option(parser: argparse.ArgumentParser) -> None:
    """``--variants FILE`` (repeatable) on a command that takes a game."""
    parser.add_argument("--variants", action="append", default=[], metavar="FILE",
                        help="load the variants of a variant file (TOML) first; repeatable")


def load_variants_option(args: argparse.Namespace) -> list[Game]:
    """Load the files of ``--variants``, if the command has the option; their games."""
    paths = getattr(args, "variants", None) or []
    return load_variant_files(paths) if paths else []
