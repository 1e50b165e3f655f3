"""Which games run on the kernel: the first kernel family that recognises a game compiles
it; any other game runs on the reference engine."""
from __future__ import annotations

from typing import TYPE_CHECKING

from myriad.core.game import Game

if TYPE_CHECKING:
    from myriad.kernel.engine import Kernel

_kernels: dict[int, tuple[Game, Kernel | None]] = {}


def kernel_for(game: Game) -> Kernel | None:
    """``game`` on the kernel, or None when no kernel family covers it (built once per
    game)."""
    found = _kernels.get(id(game))
    if found is not None and found[0] is game:
        return found[1]
    from myriad.kernel.engine import Kernel
    from myriad.kernel.rules import FAMILIES
    kernel = None
    if not game.chance and not game.hidden_information:
        for family in FAMILIES.values():
            tables = family.tables(game)
            if tables is not None:
                kernel = Kernel(game, family, tables)
                break
    _kernels[id(game)] = (game, kernel)
    return kernel


def engine_name(game: Game) -> str:
    """``"kernel"`` or ``"reference"``: the engine that runs ``game``'s bots."""
    return "kernel" if kernel_for(game) is not None else "reference"
