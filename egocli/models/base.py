"""The small Protocols every model backend implements, and their plain value types."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # annotations only: the Protocols load no numpy (the backends that take arrays do)
    import numpy as np

Message = dict[str, str]
"""A chat message: {"role": "system"|"user"|"assistant", "content": "..."}."""


@dataclass(frozen=True)
class Segment:
    """A piece of recognised speech."""

    start: float
    """Seconds from the start of the audio given to transcribe()."""
    end: float
    """Seconds from the start of the audio."""
    text: str
    """The words, trimmed."""
    words: list[tuple[float, float, str]] = field(default_factory=list)
    """(start, end, word) where the backend gives word timings."""


@dataclass(frozen=True)
class TextRegion:
    """Text read from an image."""

    text: str
    """The text."""
    box: tuple[int, int, int, int]
    """x0, y0, x1, y1 in pixels."""
    score: float
    """Recogniser confidence 0..1."""


@runtime_checkable
class TextModel(Protocol):
    """A local text LLM (answers, summaries, coaching, tool calls)."""

    name: str
    context_size: int

    def generate(self, messages: Sequence[Message], max_tokens: int = 256, temperature: float = 0.0,
                 grammar: str | None = None, json_schema: dict[str, Any] | None = None,
                 stop: Sequence[str] | None = None) -> Generator[str, None, None]:
        """Stream the reply's text pieces for a chat (optionally grammar/schema constrained); close() stops it."""
        ...

    def count_tokens(self, text: str) -> int:
        """How many tokens text takes in this model's vocabulary."""
        ...


@runtime_checkable
class PrefixCachedModel(TextModel, Protocol):
    """A TextModel that keeps evaluated prompt tokens (a KV cache), so a prompt sharing a prefix with
    earlier work costs only its new tokens: callers put the stable part first and pre-fill it while idle.

    Every text model egocli loads for the `llm` role implements this (the fakes too); `kv_cache` says
    whether pre-filling actually saves anything, so callers choose a path without probing the model."""

    kv_cache: bool
    """True when `warm` keeps what it evaluates for later `stream` calls; False for a model that accepts
    the calls but keeps nothing (then `generate` on the whole chat is just as good)."""

    def format_chat(self, messages: Sequence[Message]) -> str:
        """The prompt text the model sees for a chat, ending with the assistant's reply header."""
        ...

    def count_chat_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens the chat takes once formatted with the model's chat template."""
        ...

    def prime_system(self, system: str) -> bool:
        """Have a chat's fixed system turn evaluated before the chat runs; True if it came from disk."""
        ...

    def warm(self, pieces: Sequence[str], limit: int | None = None) -> int:
        """Evaluate a prompt prefix (given as pieces) ahead of time, at most `limit` new tokens;
        returns how many tokens still wait to be evaluated."""
        ...

    def stream(self, pieces: Sequence[str], max_tokens: int = 128, stop: Sequence[str] | None = None,
               temperature: float = 0.0) -> Generator[str, None, None]:
        """Stream a raw completion of an already chat-formatted prompt given as pieces."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Sentence embeddings for retrieval."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """A float32 matrix (len(texts), dim), rows L2-normalised."""
        ...


@runtime_checkable
class Transcriber(Protocol):
    """Speech recognition on 16 kHz mono audio."""

    name: str

    def transcribe(self, pcm16k: np.ndarray) -> list[Segment]:
        """Segments for float32 mono samples at 16 kHz in [-1, 1]."""
        ...


@runtime_checkable
class Labeler(Protocol):
    """What is in a picture: top labels with scores."""

    name: str

    def labels(self, image: np.ndarray, top_k: int = 5) -> list[tuple[str, float]]:
        """Labels for a BGR uint8 image (OpenCV layout), best first."""
        ...


@runtime_checkable
class Reader(Protocol):
    """OCR: text in a picture."""

    name: str

    def read(self, image: np.ndarray) -> list[TextRegion]:
        """Text regions in a BGR uint8 image, top to bottom."""
        ...


@runtime_checkable
class Narrator(Protocol):
    """A vision-language model describing a frame in a sentence."""

    name: str

    def describe(self, image: np.ndarray, prompt: str = "Describe what you see.") -> str:
        """One or two sentences about a BGR uint8 image."""
        ...


@runtime_checkable
class Speaker(Protocol):
    """Text to speech."""

    name: str

    def speak(self, text: str) -> tuple[np.ndarray, int]:
        """(float32 mono samples in [-1, 1], sample rate)."""
        ...


Model = TextModel | Embedder | Transcriber | Labeler | Reader | Narrator | Speaker
"""Any role's model, for code that picks the role at run time (`models check`, a server warming up)."""
