"""``python -m myriad``: the same as the ``myriad`` command."""

from myriad.cli import run

run()
