"""Deterministic fakes for every model Protocol, for unit tests and `--model fake` demos."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from egocli.models.base import Message, Segment, TextRegion

_WORD = re.compile(r"\w+", re.UNICODE)


def _stable_seed(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")


def _schema_example(schema: dict[str, Any]) -> Any:
    """A minimal value that satisfies a simple JSON schema (types, enums, required keys)."""
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = kind[0]
    if kind == "object":
        props = schema.get("properties", {})
        return {key: _schema_example(sub) for key, sub in props.items()}
    if kind == "array":
        return [_schema_example(schema["items"])] * int(schema.get("minItems", 0)) if "items" in schema else []
    return {"string": "", "integer": 0, "number": 0.0, "boolean": False, "null": None}.get(kind, None)


def _grammar_choice(grammar: str) -> str | None:
    """The first literal a simple GBNF root rule allows: `root ::= "A" | "B"` or `root ::= [ABCD]`."""
    match = re.search(r'root\s*::=\s*"((?:[^"\\]|\\.)*)"', grammar)
    if match:
        return match.group(1)
    match = re.search(r"root\s*::=\s*\[([^\]^])", grammar)
    return match.group(1) if match else None


class EchoModel:
    """A TextModel that echoes the last user message; honours json_schema and simple grammars."""

    name = "fake-echo"
    context_size = 4096

    def generate(self, messages: Sequence[Message], max_tokens: int = 256, temperature: float = 0.0,
                 grammar: str | None = None, json_schema: dict[str, Any] | None = None,
                 stop: Sequence[str] | None = None) -> Iterator[str]:
        """Yield the last user message word by word (or a schema-valid JSON / grammar literal)."""
        if json_schema is not None:
            yield json.dumps(_schema_example(json_schema))
            return
        if grammar is not None:
            literal = _grammar_choice(grammar)
            if literal is not None:
                yield literal
                return
        last = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
        text = f"echo: {last}"
        for cut in stop or ():
            if cut and cut in text:
                text = text.split(cut, 1)[0]
        words = text.split(" ")[:max_tokens]
        for i, word in enumerate(words):
            yield word if i == 0 else " " + word

    def count_tokens(self, text: str) -> int:
        """Whitespace-separated words plus punctuation runs, roughly like a BPE count."""
        return len(re.findall(r"\w+|[^\w\s]", text))

    def count_chat_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens of every message plus 4 per message for the chat template's markers."""
        return sum(self.count_tokens(m["content"]) + 4 for m in messages) + 3


class ScriptedModel(EchoModel):
    """A TextModel that replies with the given texts in turn (the last one repeats), word by word:
    for testing what callers make of a particular reply (a misquoted line, a refusal, a malformed letter)."""

    name = "fake-scripted"

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies) or [""]
        self.calls = 0

    def generate(self, messages: Sequence[Message], max_tokens: int = 256, temperature: float = 0.0,
                 grammar: str | None = None, json_schema: dict[str, Any] | None = None,
                 stop: Sequence[str] | None = None) -> Iterator[str]:
        """Yield the next scripted reply (cut at the first stop string), word by word."""
        text = self.replies[min(self.calls, len(self.replies) - 1)]
        self.calls += 1
        for cut in stop or ():
            if cut and cut in text:
                text = text.split(cut, 1)[0]
        for i, word in enumerate(text.split(" ")[:max_tokens]):
            yield word if i == 0 else " " + word


class HashEmbedder:
    """An Embedder whose vectors are bag-of-words hashes: shared words give similar vectors."""

    name = "fake-hash"
    dim = 64

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """A (len(texts), 64) float32 matrix, rows L2-normalised (zero rows for empty text)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                rng = np.random.default_rng(_stable_seed(word))
                out[row] += rng.standard_normal(self.dim).astype(np.float32)
            norm = float(np.linalg.norm(out[row]))
            if norm > 0:
                out[row] /= norm
        return out


class FixedTranscriber:
    """A Transcriber that returns one fixed sentence covering the audio (nothing for silence)."""

    name = "fake-asr"

    def __init__(self, text: str = "this is a fake transcript") -> None:
        self.text = text

    def transcribe(self, pcm16k: np.ndarray) -> list[Segment]:
        """One segment spanning the audio, or none if it is silent."""
        samples = np.asarray(pcm16k, dtype=np.float32)
        if samples.size == 0 or float(np.max(np.abs(samples))) < 1e-3:
            return []
        duration = samples.size / 16000.0
        words = self.text.split()
        step = duration / max(len(words), 1)
        timed = [(i * step, (i + 1) * step, w) for i, w in enumerate(words)]
        return [Segment(start=0.0, end=duration, text=self.text, words=timed)]


class ColourLabeler:
    """A Labeler naming the dominant colour of the image (deterministic, no model)."""

    name = "fake-labeler"
    _COLOURS = {"red": (0, 0, 255), "green": (0, 255, 0), "blue": (255, 0, 0),
                "white": (255, 255, 255), "black": (0, 0, 0), "yellow": (0, 255, 255)}

    def labels(self, image: np.ndarray, top_k: int = 5) -> list[tuple[str, float]]:
        """Colour names ranked by closeness to the image's mean BGR colour."""
        mean = np.asarray(image, dtype=np.float32).reshape(-1, 3).mean(axis=0)
        dists = {name: float(np.linalg.norm(mean - np.array(bgr, np.float32)))
                 for name, bgr in self._COLOURS.items()}
        scores = {name: 1.0 / (1.0 + d / 64.0) for name, d in dists.items()}
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        return ranked[:top_k]


class FixedReader:
    """A Reader that 'reads' a fixed text in the middle of any non-blank image."""

    name = "fake-ocr"

    def __init__(self, text: str = "FAKE TEXT") -> None:
        self.text = text

    def read(self, image: np.ndarray) -> list[TextRegion]:
        """One region with the fixed text, or none for a uniform image."""
        pixels = np.asarray(image)
        if pixels.size == 0 or int(pixels.max()) == int(pixels.min()):
            return []
        h, w = pixels.shape[:2]
        return [TextRegion(text=self.text, box=(w // 4, h // 3, 3 * w // 4, 2 * h // 3), score=1.0)]


class CaptionNarrator:
    """A Narrator that describes only the image size and brightness."""

    name = "fake-narrator"

    def describe(self, image: np.ndarray, prompt: str = "Describe what you see.") -> str:
        """A sentence stating the frame size and whether it is dark or bright."""
        pixels = np.asarray(image)
        h, w = pixels.shape[:2]
        tone = "dark" if float(pixels.mean()) < 96 else "bright"
        return f"A {tone} {w}x{h} frame."


class ToneSpeaker:
    """A Speaker that renders each word as a short tone (length grows with the text)."""

    name = "fake-tts"
    sample_rate = 16000

    def speak(self, text: str) -> tuple[np.ndarray, int]:
        """A float32 signal: 0.2 s of tone per word with 0.05 s gaps."""
        rate = self.sample_rate
        pieces: list[np.ndarray] = []
        t = np.arange(int(0.2 * rate), dtype=np.float32) / rate
        for word in text.split():
            freq = 200.0 + (_stable_seed(word) % 600)
            pieces.append((0.3 * np.sin(2 * np.pi * freq * t)).astype(np.float32))
            pieces.append(np.zeros(int(0.05 * rate), dtype=np.float32))
        if not pieces:
            return np.zeros(0, dtype=np.float32), rate
        return np.concatenate(pieces), rate


def fake_for(role: str) -> Any:
    """The deterministic fake implementing the Protocol of a role."""
    makers: dict[str, Any] = {
        "llm": EchoModel, "summarizer": EchoModel, "embedder": HashEmbedder, "asr": FixedTranscriber,
        "labeler": ColourLabeler, "ocr": FixedReader, "tts": ToneSpeaker, "narrator": CaptionNarrator,
    }
    return makers[role]()
