"""Quiet a native library's chatter from ONE thread, without touching the process's stdout/stderr.

llama-cpp-python's `verbose=False` points file descriptors 1 and 2 at /dev/null (and swaps
sys.stdout/sys.stderr) for the whole process while a model loads; an error printed by another
thread meanwhile is lost, and `egocli ask` could exit 1 with no message at all. Here the
library runs verbose, its log lines (and prints) go through sys.stderr, and what the loading
thread writes there is dropped while every other thread's output passes through."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO, TypeVar

T = TypeVar("T")
_LOCK = threading.Lock()
_QUIET: set[int] = set()
_REAL: dict[str, TextIO] = {}


class _ThreadFilter:
    """A stand-in for sys.stdout/sys.stderr that drops the writes of quieted threads."""

    def __init__(self, real: TextIO) -> None:
        self._real = real

    def write(self, text: str) -> int:
        """Pass text on unless the current thread is quieted."""
        if threading.get_ident() in _QUIET:
            return len(text)
        return self._real.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


@contextmanager
def quiet_this_thread() -> Iterator[None]:
    """Drop what this thread prints to sys.stdout/sys.stderr inside the block; others print as usual."""
    with _LOCK:
        if not _QUIET:
            for name in ("stdout", "stderr"):
                _REAL[name] = getattr(sys, name)
                setattr(sys, name, _ThreadFilter(_REAL[name]))
        _QUIET.add(threading.get_ident())
    try:
        yield
    finally:
        with _LOCK:
            _QUIET.discard(threading.get_ident())
            if not _QUIET:
                for name, real in _REAL.items():
                    if isinstance(getattr(sys, name), _ThreadFilter):
                        setattr(sys, name, real)
                _REAL.clear()


def load_quietly(make: Callable[..., T], **kwargs: Any) -> T:
    """make(verbose=True, **kwargs) with its log lines dropped for this thread only; afterwards the
    library logs errors only (llama-cpp-python's Llama and chat handlers)."""
    with quiet_this_thread():
        made = make(verbose=True, **kwargs)
    try:
        from llama_cpp._logger import set_verbose

        set_verbose(False)
    except ImportError:
        pass
    if hasattr(made, "verbose"):
        made.verbose = False
    return made
