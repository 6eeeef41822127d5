"""Use-case: is this machine ready? The log, Stockfish, espeak-ng, disk space and each model role."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from egocli.core.config import Settings
from egocli.core.errors import EgoError

MIN_FREE_BYTES = 500_000_000
"""Below this much free space next to the log, ingest and model assembly can fail part-way."""
OPTIONAL_ROLES = frozenset({"narrator"})
"""Roles that are fine unconfigured (the narrator needs a vision model the user supplies)."""


@dataclass(frozen=True)
class Check:
    """One line of `egocli doctor`."""

    name: str
    """What was checked: 'database', 'stockfish', 'model llm', ..."""
    status: str
    """ok, warn (works, with a caveat) or fail (broken: doctor exits 1)."""
    detail: str
    """What was found, or what to do about it."""


def check_database(settings: Settings) -> Check:
    """The event log opens (and says how many events it holds), or does not exist yet."""
    from egocli.store import Store

    if not settings.db.exists():
        return Check("database", "warn",
                     f"{settings.db} does not exist yet (`egocli import` or `egocli init` creates it)")
    try:
        from egocli.privacy import crypto

        store = Store.open(settings.db, create=False, key=crypto.key_for(settings.db))
        try:
            count = store.count()
        finally:
            store.close()
    except EgoError as ex:
        return Check("database", "fail", str(ex))
    return Check("database", "ok", f"{settings.db} ({count} events)")


def _first_line(argv: list[str], stdin: str = "") -> str:
    run = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=10)
    lines = [line for line in (run.stdout or run.stderr).splitlines() if line.strip()]
    return lines[0].strip() if lines else ""


def check_stockfish() -> Check:
    """Stockfish (EGOCLI_STOCKFISH, PATH or /usr/games/stockfish) starts and speaks UCI."""
    from egocli.chess.engine import find_stockfish

    try:
        path = find_stockfish()
        name = _first_line([path], "uci\nquit\n")
    except (EgoError, OSError, subprocess.SubprocessError) as ex:
        return Check("stockfish", "fail", f"{ex} (chess needs it)")
    return Check("stockfish", "ok", f"{path} ({name or 'started'})")


def check_espeak() -> Check:
    """espeak-ng, the speech fallback, is installed."""
    path = shutil.which("espeak-ng")
    if path is None:
        return Check("espeak-ng", "warn",
                     "not installed (sudo apt-get install espeak-ng): spoken answers use hibari-tts only")
    try:
        version = _first_line([path, "--version"])
    except (OSError, subprocess.SubprocessError) as ex:
        return Check("espeak-ng", "fail", f"{path} does not run: {ex}")
    return Check("espeak-ng", "ok", f"{path} ({version})")


def check_disk(settings: Settings) -> Check:
    """Free space where the log and media are written."""
    db = settings.db.resolve()
    folder = next((p for p in (db.parent, *db.parent.parents) if p.exists()), Path("/"))
    free = shutil.disk_usage(folder).free
    status = "ok" if free >= MIN_FREE_BYTES else "fail"
    return Check("disk space", status, f"{free / 1e9:.1f} GB free in {folder}"
                 + ("" if status == "ok" else f" (under {MIN_FREE_BYTES / 1e9:.1f} GB: free some space)"))


def check_models(settings: Settings) -> Iterator[Check]:
    """Each model role: resolved and its files present (not loaded: `egocli models check` does that)."""
    from egocli.models import registry

    for row in registry.describe(settings):
        name = f"model {row['role']}"
        if row["present"]:
            yield Check(name, "ok", f"{row['model']} ({row['backend']})")
        elif row["role"] in OPTIONAL_ROLES:
            yield Check(name, "ok", f"not configured (optional): {row['note']}")
        else:
            yield Check(name, "fail", row["note"] or "missing")


def run_checks(settings: Settings) -> Iterator[Check]:
    """Every check, in the order doctor prints them."""
    yield check_database(settings)
    yield check_stockfish()
    yield check_espeak()
    yield check_disk(settings)
    yield from check_models(settings)
