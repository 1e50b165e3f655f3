"""``python -m myriad``: the same as the ``myriad`` command."""

from myriad.cli import main

raise SystemExit(main())
