"""SubRip (.srt): numbered cues 'HH:MM:SS,mmm --> HH:MM:SS,mmm' followed by text lines.

A cue whose text starts with a tag like '[speech] ' becomes an event of that modality
(egocli's own SRT export writes such tags, so export -> import round-trips).
"""

from __future__ import annotations

import re
from pathlib import Path

from egocli.errors import InputError
from egocli.formats import Cue
from egocli.timeutil import parse_clock

TAG = re.compile(r"^\[([a-z][a-z_-]{1,20})\]\s+", re.I)
LOOKS_TIMED = re.compile(r"-->|->|\d+:\d{2}[:,.]\d")
TIMING = re.compile(r"^\s*(\d+:\d{2}(?::\d{2})?[,.]\d{1,3})\s*-->\s*(\d+:\d{2}(?::\d{2})?[,.]\d{1,3})")


def parse_blocks(text: str, path: Path, header: str | None = None) -> list[Cue]:
    """Shared SRT/WebVTT cue parser: blank-line separated blocks with a timing line."""
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
        timing_idx = next((k for k, line in enumerate(block[:2]) if LOOKS_TIMED.search(line)), None)
        if timing_idx is None:
            raise InputError(f"{path}:{block_start + 1}: cue without a 'start --> end' timing line")
        m = TIMING.match(block[timing_idx])
        if not m:
            raise InputError(f"{path}:{block_start + timing_idx + 1}: malformed cue timing "
                             f"{block[timing_idx].strip()!r}")
        start, end = parse_clock(m.group(1)), parse_clock(m.group(2))
        if end < start:
            raise InputError(f"{path}:{block_start + timing_idx + 1}: cue ends before it starts")
        body = " ".join(s.strip() for s in block[timing_idx + 1:]).strip()
        body = re.sub(r"<[^>]+>", "", body)
        tag = TAG.match(body)
        if tag:
            body = body[tag.end():]
        if body:
            cues.append(Cue(start, end, body, modality=tag.group(1).lower() if tag else "text"))
    return cues


def read(text: str, path: Path) -> list[Cue]:
    """Cues of an SRT file (times relative to the recording's start)."""
    return parse_blocks(text, path)
