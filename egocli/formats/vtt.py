"""WebVTT (.vtt): a 'WEBVTT' header, then cues with optional ids and 'start --> end' lines."""

from __future__ import annotations

from pathlib import Path

from egocli.formats import Cue
from egocli.formats.srt import parse_blocks


def read(text: str, path: Path) -> list[Cue]:
    """Cues of a WebVTT file (times relative to the recording's start)."""
    return parse_blocks(text, path, header="WEBVTT")
