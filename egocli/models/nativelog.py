"""Native libraries (MediaPipe, TensorFlow Lite, glog/absl) write log lines straight to file descriptor 2,
past Python's sys.stderr, and ignore the environment variables meant to quiet them. While they run,
fd 2 goes to a temporary file; afterwards every line that is not their log noise is written back."""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

NOISE = re.compile(
    r"^(?:[WIEF]\d{4} [\d:. ]+\s+\d+ [\w.]+:\d+\]"  # glog/absl: W0000 00:00:17.60 32148 file.cc:121]
    r"|INFO: Created TensorFlow Lite"
    r"|WARNING: Logging before InitGoogle\(\)"
    r"|WARNING: All log messages before absl::InitializeLog\(\))")
"""A line a native library logged, not something egocli or Python said."""


@contextmanager
def native_logs_silenced(noise: re.Pattern[str] = NOISE) -> Iterator[None]:
    """Drop native libraries' log lines written to fd 2 inside the block; keep everything else, in order."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            kept = [line for line in sink.read().decode("utf-8", "replace").splitlines(keepends=True)
                    if not noise.search(line)]
            if kept:
                sys.stderr.write("".join(kept))
                sys.stderr.flush()
