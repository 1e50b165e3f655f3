"""The kernel engine: the rules of the games it covers, compiled by numba over flat integer
arrays, with perft, playouts and search each inside one compiled call.

The reference engine (``myriad.core`` and ``myriad.games``) stays the specification: a
game runs on the kernel only when a kernel family recognises it
(:func:`myriad.kernel.registry.kernel_for`), and the tests check both engines agree.
Importing this package is cheap; numba is imported with the first compiled module.
"""
