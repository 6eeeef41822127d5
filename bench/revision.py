"""A git revision's egocli package, extracted beside a bench's work, for a before/after in one run."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def baseline_code(rev: str, work: Path) -> Path:
    """The egocli package of `rev`, extracted into work/code-REV (a folder to put first on sys.path)."""
    dest = work / f"code-{rev}"
    dest.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "egocli"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest
