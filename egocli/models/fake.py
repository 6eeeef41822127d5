"""Deterministic fakes for every model Protocol, for unit tests and `--llm fake` demos."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Generator, Sequence
from typing import Any

import numpy as np

from egocli.models.base import Message, Model, PrefixCachedModel, Segment, TextRegion

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


def _cut(text: str, stop: Sequence[str] | None) -> str:
    for cut in stop or ():
        if cut and cut in text:
            text = text.split(cut, 1)[0]
    return text


def _words(text: str, max_tokens: int) -> Generator[str, None, None]:
    for i, word in enumerate(text.split(" ")[:max_tokens]):
        yield word if i == 0 else " " + word


_TOKEN = re.compile(r"\w+|[^\w\s]")
_USER_TURN = "<|im_start|>user\n"


class EchoModel(PrefixCachedModel):
    """A TextModel that echoes the last user message; honours json_schema and simple grammars.

    It takes the pre-fill calls but keeps nothing (`kv_cache` False): `stream` echoes the last user
    turn of the formatted prompt, so both answer paths say the same."""

    name = "fake-echo"
    context_size = 4096
    kv_cache = False

    def generate(self, messages: Sequence[Message], max_tokens: int = 256, temperature: float = 0.0,
                 grammar: str | None = None, json_schema: dict[str, Any] | None = None,
                 stop: Sequence[str] | None = None) -> Generator[str, None, None]:
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
        yield from _words(_cut(f"echo: {last}", stop), max_tokens)

    def count_tokens(self, text: str) -> int:
        """Whitespace-separated words plus punctuation runs, roughly like a BPE count."""
        return len(_TOKEN.findall(text))

    def count_chat_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens of every message plus 4 per message for the chat template's markers."""
        return sum(self.count_tokens(m["content"]) + 4 for m in messages) + 3

    def format_chat(self, messages: Sequence[Message]) -> str:
        """The chat in ChatML, ending with the assistant's header."""
        return "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages) \
            + "<|im_start|>assistant\n"

    def prime_system(self, system: str) -> bool:
        """Nothing to keep: never restored from disk."""
        return False

    def warm(self, pieces: Sequence[str], limit: int | None = None) -> int:
        """Nothing to keep: nothing left to evaluate."""
        return 0

    def stream(self, pieces: Sequence[str], max_tokens: int = 128, stop: Sequence[str] | None = None,
               temperature: float = 0.0) -> Generator[str, None, None]:
        """Echo the last user turn of a ChatML prompt (the whole prompt if it has none), word by word."""
        text = "".join(pieces)
        if _USER_TURN in text:
            text = text.rsplit(_USER_TURN, 1)[1].split("<|im_end|>", 1)[0]
        yield from _words(_cut(f"echo: {text}", stop), max_tokens)


class ScriptedModel(EchoModel):
    """A recording PrefixCachedModel that replies with prepared texts in turn (the last one repeats), word by
    word: for testing what callers make of a particular reply (a misquoted line, a refusal, a malformed plan)
    and what they send. Replies that are not strings are sent as JSON.

    With `kv_cache` (the default) it keeps a simulated KV cache of prompt tokens, so tests can check the
    pre-fill path without llama.cpp: `fresh` holds, per answer, the prompt tokens not already cached."""

    name = "fake-scripted"

    def __init__(self, *replies: Any, kv_cache: bool = True) -> None:
        self.replies = [r if isinstance(r, str) else json.dumps(r) for r in replies] or [""]
        self.kv_cache = kv_cache
        self.calls = 0
        """Replies given so far (generate and stream)."""
        self.prompts: list[list[Message]] = []
        """Every chat given to generate, in order."""
        self.streamed: list[list[str]] = []
        """Every prompt given to stream, as its pieces."""
        self.primed: list[str] = []
        """Every system text given to prime_system."""
        self.fresh: list[int] = []
        """Per generate/stream call: prompt tokens evaluated before the reply (the rest was cached)."""
        self._cache: list[str] = []

    def _reply(self, max_tokens: int, stop: Sequence[str] | None) -> Generator[str, None, None]:
        text = self.replies[min(self.calls, len(self.replies) - 1)]
        self.calls += 1
        yield from _words(_cut(text, stop), max_tokens)

    def generate(self, messages: Sequence[Message], max_tokens: int = 256, temperature: float = 0.0,
                 grammar: str | None = None, json_schema: dict[str, Any] | None = None,
                 stop: Sequence[str] | None = None) -> Generator[str, None, None]:
        """Yield the next scripted reply (cut at the first stop string), word by word."""
        self.prompts.append([dict(m) for m in messages])
        self.fresh.append(self._evaluate([self.format_chat(messages)]))
        yield from self._reply(max_tokens, stop)

    def stream(self, pieces: Sequence[str], max_tokens: int = 128, stop: Sequence[str] | None = None,
               temperature: float = 0.0) -> Generator[str, None, None]:
        """Yield the next scripted reply for a raw prompt, after 'evaluating' what the cache lacks."""
        self.streamed.append(list(pieces))
        self.fresh.append(self._evaluate(pieces))
        yield from self._reply(max_tokens, stop)

    def prime_system(self, system: str) -> bool:
        """Put the system turn in the simulated cache (never from disk: returns False)."""
        self.primed.append(system)
        self.warm([self.format_chat([{"role": "system", "content": system}]).rsplit("<|im_start|>", 1)[0]])
        return False

    def warm(self, pieces: Sequence[str], limit: int | None = None) -> int:
        """'Evaluate' up to `limit` uncached tokens of a prompt prefix; returns how many remain."""
        if not self.kv_cache:
            return 0
        tokens = self.prompt_tokens(pieces)
        done = self.cached_tokens(pieces)
        todo = len(tokens) - done if limit is None else min(limit, len(tokens) - done)
        self._cache = tokens[:done + todo]
        return len(tokens) - done - todo

    def prompt_tokens(self, pieces: Sequence[str]) -> list[str]:
        """The prompt's tokens, each piece tokenized on its own (as LlamaCppModel does)."""
        return [tok for piece in pieces for tok in _TOKEN.findall(piece)]

    def cached_tokens(self, pieces: Sequence[str]) -> int:
        """How many leading tokens of the prompt the simulated cache holds."""
        tokens, n = self.prompt_tokens(pieces), 0
        while n < min(len(tokens), len(self._cache)) and tokens[n] == self._cache[n]:
            n += 1
        return n

    def _evaluate(self, pieces: Sequence[str]) -> int:
        tokens = self.prompt_tokens(pieces)
        if not self.kv_cache:
            return len(tokens)
        done = self.cached_tokens(pieces)
        self._cache = tokens
        return len(tokens) - done


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


def fake_for(role: str) -> Model:
    """The deterministic fake implementing the Protocol of a role."""
    makers: dict[str, type[Model]] = {
        "llm": EchoModel, "summarizer": EchoModel, "embedder": HashEmbedder, "asr": FixedTranscriber,
        "labeler": ColourLabeler, "ocr": FixedReader, "tts": ToneSpeaker, "narrator": CaptionNarrator,
    }
    return makers[role]()
