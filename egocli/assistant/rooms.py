"""Which wearer's log serves which Janus room: a small TOML file, no service.

    janus = "ws://127.0.0.1:8188"      # default Janus address for every room
    [rooms.1001]
    db = "/var/lib/egocli/wearers/ana.db"
    [rooms.1002]
    db = "/var/lib/egocli/wearers/ben.db"
    janus = "ws://10.0.0.5:8188"       # this room on another Janus

One agent process per room (`egocli agent --rooms rooms.toml --room 1001`, a systemd template
unit per room); two rooms may never share a log."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from egocli.core.errors import UsageError


@dataclass(frozen=True)
class RoomEntry:
    """One room's assignment."""

    room: int
    """VideoRoom room id."""
    db: Path
    """The wearer's event log."""
    janus: str | None
    """Janus WebSocket address for this room (None: give --janus)."""


def read_rooms(path: Path) -> dict[int, RoomEntry]:
    """Parse a rooms file (UsageError on anything malformed, or one log named by two rooms)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as ex:
        raise UsageError(f"{path}: {ex.strerror or ex}") from ex
    except tomllib.TOMLDecodeError as ex:
        raise UsageError(f"{path}: not valid TOML: {ex}") from ex
    default = data.get("janus")
    rooms = data.get("rooms")
    if not isinstance(rooms, dict) or not rooms:
        raise UsageError(f"{path}: no [rooms.N] tables")
    out: dict[int, RoomEntry] = {}
    for key, spec in rooms.items():
        if not key.isdigit() or not isinstance(spec, dict) or not isinstance(spec.get("db"), str):
            raise UsageError(f"{path}: [rooms.{key}] needs a numeric room id and db = \"path\"")
        janus = spec.get("janus", default)
        db = (path.parent / Path(spec["db"]).expanduser()).resolve()
        out[int(key)] = RoomEntry(int(key), db, janus if isinstance(janus, str) else None)
    seen: dict[Path, int] = {}
    for entry in out.values():
        if entry.db in seen:
            raise UsageError(f"{path}: rooms {seen[entry.db]} and {entry.room} share the log {entry.db}")
        seen[entry.db] = entry.room
    return out
