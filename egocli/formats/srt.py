"""SubRip (.srt): numbered cues 'HH:MM:SS,mmm --> HH:MM:SS,mmm' followed by text lines.

A cue whose text starts with a tag like '[speech] ' becomes an event of that modality
(egocli's own SRT export writes such tags, so export -> import round-trips).
"""

from __future__ import annotations

import re
from pathlib import Path

from egocli.core.errors import InputError
from egocli.formats import Cue
from egocli.core.timeutil import parse_clock

TAG = re.compile(r"^\[([a-z][a-z_-]{1,20})\]\s+", re.I)
LOOKS_TIMED = re.compile(r"-->|->|\d+:\d{2}[:,.]\d")
TIMING = re.compile(r"^\s*(\d+:\d{2}(?::\d{2})?[,.]\d{1,3})\s*-->\s*(\d+:\d{2}(?::\d{2})?[,.]\d{1,3})")


def parse_blocks(text: str, path: Path, header: str | None = None) -> list[Cue]:
    """Shared SRT/WebVTT cue parser: blank-line separated blocks with a timing line.

    A block holding several timing lines (cues written without a blank line between them) is
    split before each further timing line (and its cue number, if any)."""
    cues: list[Cue] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    i, n = 0, len(lines)
    if header is not None:
        if not lines or not lines[0].startswith(header):
            raise InputError(f"{path}:1: missing '{header}' header")
        while i < n and lines[i].strip():
            i += 1
    while i < n:
        while i < n and not lines[i].strip():
            i += 1
        if i >= n:
            break
        block_start = i
        block = []
        while i < n and lines[i].strip():
            block.append(lines[i])
            i += 1
        if header is not None and block[0].startswith(("NOTE", "STYLE", "REGION")):
            continue
        for offset, part in _split(block):
            cue = _cue(part, block_start + offset, path)
            if cue is not None:
                cues.append(cue)
    return cues


def _split(block: list[str]) -> list[tuple[int, list[str]]]:
    """(offset, lines) of each cue in a block: a new cue starts at a later timing line (or its number)."""
    starts = [0]
    for k in range(2, len(block)):
        if TIMING.match(block[k]) and k - 1 > starts[-1]:
            starts.append(k - 1 if block[k - 1].strip().isdigit() and k - 2 > starts[-1] else k)
    return [(a, block[a:b]) for a, b in zip(starts, [*starts[1:], len(block)])]


def _cue(block: list[str], first: int, path: Path) -> Cue | None:
    """One cue from its lines (first: the 0-based line number of block[0]); None when it has no text."""
    timing_idx = next((k for k, line in enumerate(block[:2]) if LOOKS_TIMED.search(line)), None)
    if timing_idx is None:
        raise InputError(f"{path}:{first + 1}: cue without a 'start --> end' timing line")
    where = f"{path}:{first + timing_idx + 1}"
    m = TIMING.match(block[timing_idx])
    if not m:
        raise InputError(f"{where}: malformed cue timing {block[timing_idx].strip()[:80]!r}")
    try:
        start, end = parse_clock(m.group(1)), parse_clock(m.group(2))
    except ValueError as ex:
        raise InputError(f"{where}: {ex}") from None
    if end < start:
        raise InputError(f"{where}: cue ends before it starts")
    body = " ".join(s.strip() for s in block[timing_idx + 1:]).strip()
    body = re.sub(r"<[^>]+>", "", body)
    tag = TAG.match(body)
    if tag:
        body = body[tag.end():]
    if not body:
        return None
    return Cue(start, end, body, modality=tag.group(1).lower() if tag else "text", where=where)


def read(text: str, path: Path) -> list[Cue]:
    """Cues of an SRT file (times relative to the recording's start)."""
    return parse_blocks(text, path)
