"""The package type-checks: mypyc compiles the search's modules only when mypy accepts the
whole program they import, and otherwise silently leaves them plain Python (about 1.5x
slower), so a type error anywhere is a slowdown nobody sees."""
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"


def test_the_package_type_checks() -> None:
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.fail("mypy is not installed: pip install -e '.[test]'", pytrace=False)
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "-p", "myriad"],
                         cwd=SRC, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"mypy found type errors (the compiled build would fail):\n{run.stdout}{run.stderr}"
