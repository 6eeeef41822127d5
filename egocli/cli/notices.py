"""Advice the CLI gives once a day rather than on every run, remembered in $EGOCLI_HOME/notices.json."""

from __future__ import annotations

import json
import os
from datetime import date
from pathlib import Path

FILE = "notices.json"


def first_today(home: Path, topic: str, subject: str, today: date | None = None) -> bool:
    """True the first time today that `topic` comes up for `subject` (e.g. a log's path), and remembers it;
    True always when the home folder cannot be written (the advice is then given every time)."""
    day = (today or date.today()).isoformat()
    path = home / FILE
    try:
        seen = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        seen = {}
    if not isinstance(seen, dict):
        seen = {}
    found = seen.get(topic)
    said: dict[str, str] = found if isinstance(found, dict) else {}
    if said.get(subject) == day:
        return False
    seen[topic] = {**said, subject: day}
    try:
        home.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(seen, indent=1), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass
    return True
