"""TextModel backed by llama-cpp-python (GGUF files): chat, grammars, JSON schemas, streaming."""

from __future__ import annotations

import ctypes
import hashlib
import os
import threading
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from egocli.core.errors import ConfigError, ModelError
from egocli.models.pieces import PieceTokens
from egocli.models.base import Message, PrefixCachedModel
from egocli.models.quiet import load_quietly

if TYPE_CHECKING:
    from llama_cpp.llama_types import (ChatCompletionRequestMessage, CreateChatCompletionStreamResponse,
                                       CreateCompletionStreamResponse)

    from egocli.core.config import Settings
    from egocli.models.registry import Choice


class LlamaCppModel(PrefixCachedModel):
    """A local GGUF chat model; keeps llama.cpp's KV cache so prompts sharing a prefix are cheap.

    llama-cpp-python reuses the longest common token prefix with the previous call, so callers
    should put the stable part of a prompt (system text, context) first and the varying part last.
    """

    kv_cache = True

    def __init__(self, path: Path, role: str = "llm", context_size: int = 4096, n_threads: int = 2,
                 seed: int = 0, kv_dir: Path | None = None, repack: bool = True) -> None:
        try:
            from llama_cpp import Llama
        except ImportError as ex:
            raise ModelError(f"{role}: llama-cpp-python is not installed (pip install llama-cpp-python==0.3.36)") from ex
        self.role = role
        self.path = path
        self.name = path.stem
        if not path.is_file():
            raise ModelError(f"{role}: model file not found: {path}")
        try:
            with _weight_repacking(repack):
                self._llm = load_quietly(Llama, model_path=str(path), n_ctx=context_size, n_threads=n_threads,
                                         n_threads_batch=n_threads, seed=seed)  # never redirects fds 1 and 2
        except (ValueError, RuntimeError, OSError) as ex:
            raise ModelError(f"{role}: cannot load model {path}: corrupt or not a GGUF file") from ex
        self.context_size = int(self._llm.n_ctx())
        self._lock = threading.RLock()
        self._pieces = PieceTokens(
            lambda piece: self._llm.tokenize(piece.encode("utf-8"), add_bos=False, special=True))
        self.kv_dir = kv_dir
        """Where `prime_system` keeps evaluated system turns between processes (None: not kept)."""
        self._turns: dict[str, str | None] = {}

    def generate(self, messages: Sequence[Message] | str, max_tokens: int = 256, temperature: float = 0.0,
                 grammar: str | None = None, json_schema: dict[str, Any] | None = None,
                 stop: Sequence[str] | None = None) -> Generator[str, None, None]:
        """Stream the reply's text pieces for a chat (optionally grammar/schema constrained)."""
        if grammar is not None and json_schema is not None:
            raise ValueError("give either grammar or json_schema, not both")
        # our messages are plain {role, content} dicts; llama_cpp declares them as per-role TypedDicts
        chat = cast("list[ChatCompletionRequestMessage]",
                    [{"role": "user", "content": messages}] if isinstance(messages, str) else list(messages))
        kwargs: dict[str, Any] = {"max_tokens": max_tokens, "temperature": temperature,
                                  "stop": list(stop or []), "stream": True}
        if grammar is not None:
            kwargs["grammar"] = self._grammar(grammar)
        if json_schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": json_schema}
        with self._lock:  # one llama.cpp context: generations from several threads take turns
            try:
                # stream=True: llama_cpp's declared return is the union of a response and a stream of chunks
                chunks = cast("Iterator[CreateChatCompletionStreamResponse]",
                              self._llm.create_chat_completion(messages=chat, **kwargs))
                for chunk in chunks:
                    piece = chunk["choices"][0].get("delta", {}).get("content")
                    if isinstance(piece, str) and piece:
                        yield piece
            except ValueError as ex:  # e.g. prompt longer than the context window
                raise ModelError(f"{self.role}: {ex}") from ex

    def prompt_tokens(self, pieces: Sequence[str]) -> list[int]:
        """Token ids of a prompt given as text pieces, each tokenized on its own (models/pieces.py: so that
        `warm` and `stream` reuse llama.cpp's KV cache)."""
        bos = self._llm.token_bos()
        return self._pieces.ids(pieces, [bos] if bos >= 0 and self._llm._model.add_bos_token() else [])

    def cached_tokens(self, pieces: Sequence[str]) -> int:
        """How many leading tokens of the prompt are already evaluated in the KV cache."""
        return self._cached(self.prompt_tokens(pieces))

    def _cached(self, tokens: list[int]) -> int:
        with self._lock:
            cached = self._llm.input_ids[:self._llm.n_tokens]
            n = min(len(tokens), len(cached))
            same = cached[:n] == tokens[:n]
            return int(n if same.all() else same.argmin())

    def warm(self, pieces: Sequence[str], limit: int | None = None) -> int:
        """Evaluate a prompt prefix into the KV cache ahead of time, keeping what is cached already.

        At most `limit` new tokens are evaluated per call (so a caller can interleave other work);
        returns how many tokens still wait to be evaluated."""
        tokens = self.prompt_tokens(pieces)
        with self._lock:
            done = self._cached(tokens)  # tokenized once per step
            todo = tokens[done:] if limit is None else tokens[done:done + limit]
            if todo:
                llm = self._llm
                llm.n_tokens = done  # eval() drops whatever the cache holds past this point
                try:
                    llm.eval(todo)
                except RuntimeError as ex:  # decode failure (context full): start over next time
                    llm.n_tokens = 0
                    raise ModelError(f"{self.role}: {ex}") from ex
            return len(tokens) - done - len(todo)

    def prime_system(self, system: str) -> bool:
        """Have a chat's system turn in the KV cache before the chat runs; True if it came from disk.

        A one-shot `egocli ask` starts with an empty cache, and evaluating its fixed ~75-token system
        turn costs ~0.8 s on two cores. The evaluated turn is kept in `kv_dir` (~2 MB, keyed by model
        file, llama.cpp version and tokens) and restored in milliseconds next time. Only for fixed
        prompt text: what is primed is written to disk, so never pass personal data here."""
        if system not in self._turns:  # formatted and checked once per system text, not per question
            self._turns[system] = self._system_turn(system)
        prefix = self._turns[system]
        if prefix is None:
            return False
        tokens = self.prompt_tokens([prefix])
        with self._lock:
            if self._cached(tokens) == len(tokens):
                return False
            file = self._kv_file(tokens)
            if file is not None and file.is_file() and self._restore(file, tokens):
                return True
            self.warm([prefix])
            if file is not None and self._cached(tokens) == len(tokens) and self._llm.n_tokens == len(tokens):
                self._save(file)
            return False

    def _system_turn(self, system: str) -> str | None:
        """The chat-formatted text up to the end of the system turn, if the template puts it first and
        tokenizes it the same way alone as followed by the rest of a chat."""
        mark = "\x01"
        text = self.format_chat([{"role": "system", "content": system}, {"role": "user", "content": mark}])
        cut = text.find(mark)
        if cut <= 0 or system not in text[:cut]:
            return None
        head = text[:text.index(system) + len(system)]
        end = text.find("\n", len(head))  # the rest of the system turn's closing line
        prefix = text[:end + 1] if 0 <= end < cut else head
        alone = self._llm.tokenize(prefix.encode("utf-8"), add_bos=False, special=True)
        joined = self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=True)
        return prefix if joined[:len(alone)] == alone else None

    def _kv_file(self, tokens: list[int]) -> Path | None:
        if self.kv_dir is None:
            return None
        import llama_cpp

        stat = self.path.stat()
        key = hashlib.sha256(repr((self.path.name, stat.st_size, stat.st_mtime_ns, llama_cpp.__version__,
                                   self.context_size, tokens)).encode()).hexdigest()[:24]
        return self.kv_dir / f"{self.name}-{key}.kv"

    def _restore(self, file: Path, tokens: list[int]) -> bool:
        import llama_cpp

        data = file.read_bytes()
        llm = self._llm
        llm.reset()
        llm._ctx.kv_cache_clear()
        buf = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
        if not data or llama_cpp.llama_state_seq_set_data(llm._ctx.ctx, buf, len(data), 0) == 0:
            llm._ctx.kv_cache_clear()  # a stale or damaged file: evaluate afresh
            return False
        llm.input_ids[:len(tokens)] = tokens
        llm.n_tokens = len(tokens)
        return True

    def _save(self, file: Path) -> None:
        import llama_cpp

        ctx = self._llm._ctx.ctx
        size = llama_cpp.llama_state_seq_get_size(ctx, 0)
        buf = (ctypes.c_uint8 * size)()
        n = llama_cpp.llama_state_seq_get_data(ctx, buf, size, 0)
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            tmp = file.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(bytes(buf)[:n])
            tmp.replace(file)
        except OSError:
            pass  # a read-only cache only costs the saving

    def stream(self, pieces: Sequence[str], max_tokens: int = 128, stop: Sequence[str] | None = None,
               temperature: float = 0.0) -> Generator[str, None, None]:
        """Stream a raw completion of a prompt given as pieces (already chat-formatted by the
        caller); only the tokens past the cached prefix are evaluated before the first token."""
        tokens = self.prompt_tokens(pieces)
        if len(tokens) + max_tokens > self.context_size:
            raise ModelError(f"{self.role}: prompt of {len(tokens)} tokens does not fit the "
                             f"{self.context_size}-token context")
        with self._lock:
            chunks = cast("Iterator[CreateCompletionStreamResponse]",  # stream=True (see generate)
                          self._llm.create_completion(prompt=tokens, max_tokens=max_tokens, temperature=temperature,
                                                      stop=list(stop or []), stream=True))
            for chunk in chunks:
                piece = chunk["choices"][0].get("text")
                if piece:
                    yield piece

    def complete(self, messages: Sequence[Message] | str, **kwargs: Any) -> str:
        """The whole reply as one string (generate() joined)."""
        return "".join(self.generate(messages, **kwargs))

    def _grammar(self, grammar: str) -> Any:
        from llama_cpp import LlamaGrammar

        try:
            return LlamaGrammar.from_string(grammar, verbose=False)
        except (ValueError, RuntimeError) as ex:
            raise ValueError(f"invalid GBNF grammar: {ex}") from ex

    def count_tokens(self, text: str) -> int:
        """How many tokens text takes in this model's vocabulary."""
        return len(self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def count_chat_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens the chat takes once formatted with the model's chat template (with the reply header)."""
        return self.count_tokens(self.format_chat(messages))

    def format_chat(self, messages: Sequence[Message]) -> str:
        """The prompt text the model sees for a chat, from the GGUF's own chat template."""
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        meta = self._llm.metadata
        template = meta.get("tokenizer.chat_template")
        if not template:
            return "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages) \
                + "<|im_start|>assistant\n"
        vocab = self._llm
        eos = vocab.detokenize([vocab.token_eos()]).decode("utf-8", "replace")
        bos = vocab.detokenize([vocab.token_bos()]).decode("utf-8", "replace") if vocab.token_bos() >= 0 else ""
        formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
        return formatter(messages=cast("list[ChatCompletionRequestMessage]", list(messages))).prompt


_LOADING = threading.local()
"""Per loading thread: `repack` is False while a model loads with llama.cpp's weight repacking off."""
_SWITCH_LOCK = threading.Lock()


@contextmanager
def _weight_repacking(repack: bool) -> Iterator[None]:
    """Load models on this thread with llama.cpp's weight repacking on (its default) or off.

    Repacking copies the quantised weights into a layout for this CPU in private memory (~600 MiB
    for a 1.5B Q4_K_M model, per process); off, the weights stay in the mmapped GGUF, one copy in
    the page cache shared by every process that loads the file. llama-cpp-python has no argument
    for it, so its default model parameters are wrapped once, reading a thread-local switch."""
    import llama_cpp.llama_cpp as low

    with _SWITCH_LOCK:
        if not getattr(low.llama_model_default_params, "egocli_switch", False):
            default = low.llama_model_default_params

            def params() -> Any:
                p = default()
                if getattr(_LOADING, "repack", True) is False:
                    p.use_extra_bufts = False
                return p

            params.egocli_switch = True  # type: ignore[attr-defined]
            low.llama_model_default_params = params
    _LOADING.repack = repack
    try:
        yield
    finally:
        _LOADING.repack = True


def _flag(section: dict[str, Any], key: str, default: bool) -> bool:
    value = section.get(key, default)
    if not isinstance(value, bool):
        raise ConfigError(f"config.toml: {key} must be true or false, not {value!r}")
    return value


def load_text_model(choice: Choice, settings: Settings) -> LlamaCppModel:
    """Build the LlamaCppModel for a resolved llm/summarizer choice."""
    section = settings.section(choice.role) or settings.section("llm")
    if choice.path is None:
        raise ModelError(f"{choice.role}: no model file resolved")
    return LlamaCppModel(choice.path, role=choice.role, context_size=int(section.get("context_size", 4096)),
                         n_threads=int(section.get("threads", 2)), kv_dir=settings.model_cache / "kv",
                         repack=_flag(section, "repack", True))
