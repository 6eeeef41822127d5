"""TextModel backed by llama-cpp-python (GGUF files): chat, grammars, JSON schemas, streaming."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from egocli.errors import ModelError
from egocli.models.base import Message

if TYPE_CHECKING:
    from egocli.config import Settings
    from egocli.models.registry import Choice


class LlamaCppModel:
    """A local GGUF chat model; keeps llama.cpp's KV cache so prompts sharing a prefix are cheap.

    llama-cpp-python reuses the longest common token prefix with the previous call, so callers
    should put the stable part of a prompt (system text, context) first and the varying part last.
    """

    def __init__(self, path: Path, role: str = "llm", context_size: int = 4096, n_threads: int = 2,
                 seed: int = 0) -> None:
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
            self._llm = Llama(model_path=str(path), n_ctx=context_size, n_threads=n_threads,
                              n_threads_batch=n_threads, seed=seed, verbose=False)
        except (ValueError, RuntimeError, OSError) as ex:
            raise ModelError(f"{role}: cannot load model {path}: corrupt or not a GGUF file") from ex
        self.context_size = int(self._llm.n_ctx())
        self._lock = threading.RLock()

    def generate(self, messages: Sequence[Message] | str, max_tokens: int = 256, temperature: float = 0.0,
                 grammar: str | None = None, json_schema: dict[str, Any] | None = None,
                 stop: Sequence[str] | None = None) -> Iterator[str]:
        """Stream the reply's text pieces for a chat (optionally grammar/schema constrained)."""
        if grammar is not None and json_schema is not None:
            raise ValueError("give either grammar or json_schema, not both")
        chat = [{"role": "user", "content": messages}] if isinstance(messages, str) else list(messages)
        kwargs: dict[str, Any] = {"max_tokens": max_tokens, "temperature": temperature,
                                  "stop": list(stop or []), "stream": True}
        if grammar is not None:
            kwargs["grammar"] = self._grammar(grammar)
        if json_schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": json_schema}
        with self._lock:  # one llama.cpp context: generations from several threads take turns
            try:
                for chunk in self._llm.create_chat_completion(messages=chat, **kwargs):
                    piece = chunk["choices"][0].get("delta", {}).get("content")
                    if piece:
                        yield piece
            except ValueError as ex:  # e.g. prompt longer than the context window
                raise ModelError(f"{self.role}: {ex}") from ex

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
        return formatter(messages=list(messages)).prompt


def load_text_model(choice: Choice, settings: Settings) -> LlamaCppModel:
    """Build the LlamaCppModel for a resolved llm/summarizer choice."""
    section = settings.section(choice.role) or settings.section("llm")
    if choice.path is None:
        raise ModelError(f"{choice.role}: no model file resolved")
    return LlamaCppModel(choice.path, role=choice.role, context_size=int(section.get("context_size", 4096)),
                         n_threads=int(section.get("threads", 2)))
