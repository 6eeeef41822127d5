"""The installed `egocli` console script, as a user runs it.

Tests that drive the real command use `egocli()` rather than the bare name: CI runs
the suite through `.venv/bin/python -m pytest` without the venv's bin/ on PATH, so
"egocli" alone is not found there. A missing script is a failed install, not a skip.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def egocli() -> str:
    """The path of the console script beside this interpreter (else the one on PATH)."""
    beside = Path(sys.executable).with_name("egocli")
    if beside.is_file():
        return str(beside)
    found = shutil.which("egocli")
    if found is None:
        raise FileNotFoundError(f"the egocli console script is not installed beside {sys.executable} "
                                "nor on PATH: run `make install`")
    return found
