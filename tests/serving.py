"""A live server on loopback in a background thread, plus the real media the clients stream.

Shared by tests/stream (the transports) and tests/assistant (what sessions do); their conftests
import the fixtures from here."""

from __future__ import annotations

import asyncio
import re
import threading
import wave
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from egocli.assistant.serve_options import ServeOptions
from egocli.assistant.serve import serve
from egocli.core.config import load_settings

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
JFK = SHARED / "audio" / "jfk.wav"
VIDEO = SHARED / "video" / "1.mp4"
ASR = "base"  # Whisper base: exact on jfk.wav (tiny.en sometimes hears "asked not")
PHRASE = "ask not what your country can do for you"


def words(text: str) -> str:
    """Lower-case words only (punctuation from ASR dropped) for comparing transcripts."""
    return " ".join(re.findall(r"[a-z']+", text.lower()))


def heard_phrase(speech: str, phrase: str = PHRASE) -> bool:
    """True when the logged speech holds the phrase's words in order, at most one misheard.

    Whisper on two loaded cores now and then swaps one short word ("americans is not what
    your country can do for you"); the rest of the sentence, in order, still shows the
    audio went through VAD and ASR into the log."""
    said, want = words(speech).split(), phrase.split()
    return any(sum(a != b for a, b in zip(said[i:i + len(want)], want)) <= 1
               for i in range(len(said) - len(want) + 1))


FAKES = {"llm": "fake", "tts": "fake", "labeler": "fake", "ocr": "fake", "embedder": "fake", "asr": "fake"}


class LiveServer:
    """`egocli serve` running in its own thread and event loop."""

    def __init__(self, db: Path, home: Path, models: dict[str, str], options: ServeOptions) -> None:
        self.db = db
        self.settings = load_settings(db=db, home=home, models=models)
        self.options = options
        self.url = ""
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._main, daemon=True)

    def _main(self) -> None:
        async def go() -> None:
            self.loop = asyncio.get_running_loop()
            self.stop_event = asyncio.Event()
            await serve(self.settings, self.options, self.stop_event, self._set_url)

        try:
            asyncio.run(go())
        except BaseException as ex:  # surfaced to the test by start()/stop()
            self._error = ex
            self._ready.set()

    def _set_url(self, url: str) -> None:
        self.url = url.rstrip("/")
        self._ready.set()

    def start(self) -> LiveServer:
        """Start and wait until it listens."""
        self._thread.start()
        assert self._ready.wait(60), "server did not start"
        if self._error is not None:
            raise self._error
        return self

    def stop(self) -> None:
        """Graceful stop: sessions closed, log finished."""
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.stop_event.set)
            self._thread.join(120)
        assert not self._thread.is_alive(), "server did not stop"
        if self._error is not None:
            raise self._error

    def events(self, modality: str | None = None) -> list[Any]:
        """Events in the server's log (read with a separate connection)."""
        from egocli.store import EventFilter, Store

        store = Store.open(self.db)
        try:
            return list(store.events(EventFilter(modalities=(modality,) if modality else ())))
        finally:
            store.close()

    def sources(self) -> list[Any]:
        """Sources in the server's log."""
        from egocli.store import Store

        store = Store.open(self.db)
        try:
            return store.sources()
        finally:
            store.close()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """Factory: live_server(models=..., **ServeOptions fields) -> a started LiveServer (stopped after the test)."""
    started: list[LiveServer] = []

    def make(models: dict[str, str] | None = None, **opts: Any) -> LiveServer:
        options = ServeOptions.of(port=0, ice_loopback=True, heartbeat_s=1.0).but(**opts)
        server = LiveServer(tmp_path / "log.db", tmp_path / "home", {**FAKES, **(models or {})}, options)
        started.append(server.start())
        return server

    yield make
    for server in started:
        server.stop()


def read_wav(path: Path) -> np.ndarray:
    """A 16 kHz mono 16-bit WAV as float32."""
    with wave.open(str(path)) as fh:
        assert fh.getframerate() == 16000 and fh.getnchannels() == 1
        return np.frombuffer(fh.readframes(fh.getnframes()), "<i2").astype(np.float32) / 32768.0


@pytest.fixture
def jfk() -> np.ndarray:
    """jfk.wav with a second of silence before and after."""
    if not JFK.is_file():
        pytest.skip(f"shared test data not found at {JFK}")
    pad = np.zeros(16000, np.float32)
    return np.concatenate([pad, read_wav(JFK), pad])


@pytest.fixture(scope="session")
def video_frames() -> list[np.ndarray]:
    """Frames of a real clip (1.mp4, 640x360) at 5 fps."""
    if not VIDEO.is_file():
        pytest.skip(f"shared test data not found at {VIDEO}")
    import av

    with av.open(str(VIDEO)) as container:
        frames = [f.to_ndarray(format="bgr24") for f in container.decode(video=0)]
    return frames[::5]
