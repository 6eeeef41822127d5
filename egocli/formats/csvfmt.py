"""CSV narrations: start/end/text columns, including EPIC-KITCHENS-style narration files."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from pathlib import Path

from egocli.core.errors import InputError
from egocli.formats import Cue
from egocli.core.timeutil import parse_clock

START_COLS = ("start", "start_timestamp", "start_time", "begin")
END_COLS = ("end", "stop", "stop_timestamp", "end_timestamp", "end_time")
TEXT_COLS = ("text", "narration", "content", "caption", "description")
MODALITY_COLS = ("modality",)


def _pick(header: Sequence[str], names: tuple[str, ...]) -> str | None:
    lower = {h.strip().lower(): h for h in header}
    return next((lower[n] for n in names if n in lower), None)


def _time(value: str) -> int:
    value = value.strip()
    if ":" in value:
        return parse_clock(value)
    seconds = float(value)
    if not math.isfinite(seconds):
        raise ValueError(f"not a time: {value!r}")
    return int(round(seconds * 1000))


def read(text: str, path: Path) -> list[Cue]:
    """Cues of a CSV file whose times are seconds or HH:MM:SS.ff offsets."""
    reader = csv.DictReader(io.StringIO(text))
    try:
        return _rows(reader, path)
    except csv.Error as ex:
        raise InputError(f"{path}:{reader.line_num + 1}: not a readable CSV row: {ex}") from None


def _rows(reader: csv.DictReader[str], path: Path) -> list[Cue]:
    header = reader.fieldnames or []
    start_c, end_c, text_c = _pick(header, START_COLS), _pick(header, END_COLS), _pick(header, TEXT_COLS)
    if start_c is None or text_c is None:
        raise InputError(f"{path}:1: CSV needs a start column ({'/'.join(START_COLS)}) and a text "
                         f"column ({'/'.join(TEXT_COLS)}); found {', '.join(header)[:200] or 'no header'}")
    mod_c = _pick(header, MODALITY_COLS)
    cues = []
    for row in reader:
        lineno = reader.line_num
        try:
            start = _time(row[start_c] or "")
            end = _time(row[end_c]) if end_c and (row.get(end_c) or "").strip() else start
        except (ValueError, AttributeError, OverflowError):
            raise InputError(f"{path}:{lineno}: cannot read the time {str(row.get(start_c))[:40]!r}") from None
        content = (row.get(text_c) or "").strip()
        if content:
            cues.append(Cue(start, max(end, start), content, where=f"{path}:{lineno}",
                            modality=(row.get(mod_c) or "text").strip() if mod_c else "text"))
    return cues
