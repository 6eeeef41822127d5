"""CSV narrations: start/end/text columns, including EPIC-KITCHENS-style narration files."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from egocli.errors import InputError
from egocli.formats import Cue
from egocli.timeutil import parse_clock

START_COLS = ("start", "start_timestamp", "start_time", "begin")
END_COLS = ("end", "stop", "stop_timestamp", "end_timestamp", "end_time")
TEXT_COLS = ("text", "narration", "content", "caption", "description")
MODALITY_COLS = ("modality",)


def _pick(header: list[str], names: tuple[str, ...]) -> str | None:
    lower = {h.strip().lower(): h for h in header}
    return next((lower[n] for n in names if n in lower), None)


def _time(value: str) -> int:
    value = value.strip()
    if ":" in value:
        return parse_clock(value)
    return int(round(float(value) * 1000))


def read(text: str, path: Path) -> list[Cue]:
    """Cues of a CSV file whose times are seconds or HH:MM:SS.ff offsets."""
    reader = csv.DictReader(io.StringIO(text))
    header = reader.fieldnames or []
    start_c, end_c, text_c = _pick(header, START_COLS), _pick(header, END_COLS), _pick(header, TEXT_COLS)
    if start_c is None or text_c is None:
        raise InputError(f"{path}:1: CSV needs a start column ({'/'.join(START_COLS)}) and a text "
                         f"column ({'/'.join(TEXT_COLS)}); found {', '.join(header) or 'no header'}")
    mod_c = _pick(header, MODALITY_COLS)
    cues = []
    for lineno, row in enumerate(reader, start=2):
        try:
            start = _time(row[start_c] or "")
            end = _time(row[end_c]) if end_c and (row.get(end_c) or "").strip() else start
        except (ValueError, AttributeError):
            raise InputError(f"{path}:{lineno}: cannot read the time {row.get(start_c)!r}") from None
        content = (row.get(text_c) or "").strip()
        if content:
            cues.append(Cue(start, max(end, start), content,
                            modality=(row.get(mod_c) or "text").strip() if mod_c else "text"))
    return cues
