"""TextModel over an OpenAI-compatible model server: llama.cpp's llama-server (one per machine, shared by
every agent there) or any other that speaks /v1/chat/completions (vLLM, ollama, a hosted API).

What it can do is declared, not probed by the callers: it asks the server once, at load. A llama-server
(its GET /props answers) gives everything the in-process backend does: streaming, GBNF grammars and JSON
schemas, the model's own chat template (/apply-template) and tokenizer (/tokenize), and a KV cache kept
per slot (`cache_prompt`): `kv_cache` is True and `warm` evaluates a prefix there ahead of time (a
/completion of 0 tokens), so the live window and the ask core's fixed system turns cost only their new
tokens, as in process. Any other server: streaming and JSON schemas (`response_format` json_schema); a
grammar of literal choices (the answer votes') is sent as a schema of those choices; no KV cache to fill
(`kv_cache` False: callers send whole chats), ChatML as the assumed template and token counts estimated.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import threading
import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from egocli.core.errors import ConfigError, ModelError
from egocli.models.pieces import PieceTokens
from egocli.models.base import Message, PrefixCachedModel
from egocli.models.openai_wire import DONE, AlienReply, Endpoint, HttpStatusError, Wire, parse_url

if TYPE_CHECKING:
    from egocli.core.config import Settings
    from egocli.models.registry import Choice

log = logging.getLogger(__name__)

_CHOICES = re.compile(r'^\s*root\s*::=\s*("(?:[^"\\]|\\.)*"(?:\s*\|\s*"(?:[^"\\]|\\.)*")*)\s*$')
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
_TOKEN = re.compile(r"\w+|[^\w\s]")
SAMPLING = {"top_k": 40, "top_p": 0.95, "min_p": 0.05, "repeat_penalty": 1.0}
"""llama-cpp-python's chat defaults, sent to llama-server so a reply is the one the in-process model gives."""


def literal_choices(grammar: str) -> list[str] | None:
    """The alternatives of a GBNF grammar that is only `root ::= "A" | "B" | ...`, else None."""
    match = _CHOICES.match(grammar)
    return [m.encode().decode("unicode_escape") for m in _LITERAL.findall(match.group(1))] if match else None


class OpenAIHttpModel(PrefixCachedModel):
    """A text model served over HTTP; the same calls as LlamaCppModel, so ask, votes, the question parser,
    summaries, the coach and the live window run on it unchanged."""

    def __init__(self, endpoint: Endpoint, context_size: int = 4096, model: str | None = None) -> None:
        self.wire, self.role = Wire(endpoint), endpoint.role
        self._quick = Wire(replace(endpoint, timeout_s=min(2.0, endpoint.timeout_s), connect_s=1.0))
        self.endpoint = endpoint
        props = self._props()
        self.llama_server = props is not None
        """True for llama.cpp's llama-server: grammars, its template and tokenizer, a KV cache per slot."""
        self.kv_cache = self.llama_server
        self.model = model
        """The `model` field of requests (a generic server needs it; llama-server serves its one model)."""
        if props is not None:
            settings = props.get("default_generation_settings") or {}
            self.context_size = int(settings.get("n_ctx") or context_size)
            self.slots = int(props.get("total_slots") or 1)
            path = str(props.get("model_path") or props.get("model_alias") or "llama-server")
            self.name = os.path.splitext(os.path.basename(path))[0] or "llama-server"
            self._bos = self._tokenize("", special=True)[:1]
        else:
            self.context_size, self.slots = context_size, 1
            self.model = model or self._first_model()
            self.name = self.model
            self._bos = []
        self.last_timings: dict[str, Any] = {}
        """llama-server's timings of the last completion (cache_n: prompt tokens reused, prompt_n: evaluated)."""
        self._lock = threading.Lock()
        self._pieces = PieceTokens(self._tokenize)
        self._warmed: list[int] = []
        self._turns: dict[str, str] = {}

    # ---- what the server is ------------------------------------------
    def _props(self) -> dict[str, Any] | None:
        """llama-server's /props, or None for a server that has none (a 404 or a reply of another shape).
        A server still loading its model (HTTP 503) is waited for, up to the endpoint's timeout."""
        deadline = time.monotonic() + self.endpoint.timeout_s
        while True:
            try:
                props = self.wire.get(self.endpoint.root + "/props")
            except HttpStatusError as ex:
                if ex.status == 503 and time.monotonic() < deadline:
                    time.sleep(0.5)
                    continue
                if ex.status in (401, 403, 503):
                    raise
                return None
            except AlienReply:
                return None
            return props if isinstance(props, dict) and "default_generation_settings" in props else None

    def _first_model(self) -> str:
        listing = self.wire.get(self.endpoint.api + "/models")
        data = listing.get("data") if isinstance(listing, dict) else None
        if not isinstance(data, list):
            raise self.wire.alien(self.endpoint.api + "/models", "no model list (its 'data')")
        ids = [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id")]
        if not ids:
            raise ModelError(f"{self.role}: the model server at {self.endpoint.url} serves no model")
        return ids[0]

    # ---- chat ---------------------------------------------------------
    def generate(self, messages: Sequence[Message] | str, max_tokens: int = 256, temperature: float = 0.0,
                 grammar: str | None = None, json_schema: dict[str, Any] | None = None,
                 stop: Sequence[str] | None = None) -> Generator[str, None, None]:
        """Stream the reply's text pieces for a chat (optionally grammar/schema constrained)."""
        if grammar is not None and json_schema is not None:
            raise ValueError("give either grammar or json_schema, not both")
        chat = [{"role": "user", "content": messages}] if isinstance(messages, str) else list(messages)
        body: dict[str, Any] = {"messages": chat, "max_tokens": max_tokens, "temperature": temperature,
                                "stream": True}
        if stop:
            body["stop"] = list(stop)[:4]  # OpenAI takes at most four
        choices = None
        if json_schema is not None:
            body["response_format"] = _schema_format(json_schema)
        elif grammar is not None and self.llama_server:
            body["grammar"] = grammar
        elif grammar is not None:
            choices = literal_choices(grammar)
            if choices is None:
                raise ModelError(f"{self.role}: the model server at {self.endpoint.url} takes no GBNF grammar "
                                 "(only llama-server does); a JSON schema works")
            body["response_format"] = _schema_format({"type": "object", "properties": {
                "choice": {"type": "string", "enum": choices}}, "required": ["choice"], "additionalProperties": False})
            body["max_tokens"] = max(max_tokens, 32)
        body.update(self._extras())
        pieces = self._chat_pieces(self.wire.events(self.endpoint.api + "/chat/completions", body))
        if choices is None:
            yield from pieces
            return
        yield _choice("".join(pieces), choices, self.role)

    def _extras(self) -> dict[str, Any]:
        if self.llama_server:
            return {"cache_prompt": True, **SAMPLING}
        return {"model": self.model} if self.model else {}

    def _chat_pieces(self, events: Iterator[dict[str, Any]]) -> Iterator[str]:
        try:
            for event in events:
                if event is DONE:
                    return
                self._keep_timings(event)
                for choice in event.get("choices") or ():
                    piece = (choice.get("delta") or choice.get("message") or {}).get("content")
                    if isinstance(piece, str) and piece:
                        yield piece
        finally:
            events.close()  # type: ignore[attr-defined]

    def _keep_timings(self, event: dict[str, Any]) -> None:
        timings = event.get("timings")
        if isinstance(timings, dict):
            self.last_timings = timings

    # ---- templates and tokens ----------------------------------------
    def format_chat(self, messages: Sequence[Message]) -> str:
        """The prompt text the model sees for a chat: llama-server's own template, else ChatML."""
        if not self.llama_server:
            return "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages) \
                + "<|im_start|>assistant\n"
        reply = self.wire.post(self.endpoint.root + "/apply-template", {"messages": list(messages)})
        prompt = reply.get("prompt") if isinstance(reply, dict) else None
        if not isinstance(prompt, str):
            raise self.wire.alien(self.endpoint.root + "/apply-template", "no prompt")
        return prompt

    def _tokenize(self, text: str, special: bool = False, wire: Wire | None = None) -> list[int]:
        reply = (wire or self.wire).post(self.endpoint.root + "/tokenize",
                                         {"content": text, "add_special": special, "parse_special": True})
        tokens = reply.get("tokens") if isinstance(reply, dict) else None
        if not isinstance(tokens, list):
            raise self.wire.alien(self.endpoint.root + "/tokenize", "no tokens")
        return [int(t) for t in tokens]

    def count_tokens(self, text: str) -> int:
        """Tokens text takes: the server's tokenizer (llama-server), else an estimate. Never raises: it is
        asked on the log writer's thread (the live window sizes each new line), which must go on storing
        events while the server is down or busy; then it waits at most 2 s and estimates."""
        if self.llama_server:
            try:
                return len(self._tokenize(text, wire=self._quick))
            except ModelError as ex:
                log.debug("token count estimated: %s", ex)
        return max(len(_TOKEN.findall(text)), len(text.encode("utf-8")) // 4)

    def count_chat_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens the chat takes once formatted with the model's chat template."""
        return self.count_tokens(self.format_chat(messages))

    def prompt_tokens(self, pieces: Sequence[str]) -> list[int]:
        """Token ids of a prompt given as pieces, each tokenized on its own (as LlamaCppModel does: a prompt
        that grows by pieces keeps the tokens of its shorter self, so the server's cache stays valid)."""
        return self._pieces.ids(pieces, self._bos)

    # ---- the server's KV cache ----------------------------------------
    def warm(self, pieces: Sequence[str], limit: int | None = None) -> int:
        """Have the server evaluate a prompt prefix into a slot's cache (at most `limit` new tokens this
        call); returns how many tokens still wait. A server without a cache: nothing to do."""
        if not self.kv_cache:
            return 0
        tokens = self.prompt_tokens(pieces)
        with self._lock:
            done = _common(tokens, self._warmed)
        todo = tokens[done:] if limit is None else tokens[done:done + limit]
        if todo:
            reply = self.wire.post(self.endpoint.root + "/completion",
                                   {"prompt": tokens[:done + len(todo)], "n_predict": 0, "cache_prompt": True,
                                    "temperature": 0.0})
            if isinstance(reply, dict):
                self._keep_timings(reply)
            with self._lock:
                self._warmed = tokens[:done + len(todo)]
        return len(tokens) - done - len(todo)

    def prime_system(self, system: str) -> bool:
        """Have a chat's fixed system turn in the server's cache before the chat runs (llama-server keeps
        it between calls and processes; never from disk here, so always False)."""
        if not self.kv_cache:
            return False
        if system not in self._turns:
            mark = "\x01"
            text = self.format_chat([{"role": "system", "content": system}, {"role": "user", "content": mark}])
            cut = text.find(mark)
            self._turns[system] = text[:text.rfind("\n", 0, cut) + 1] if system in text[:max(cut, 0)] else ""
        if self._turns[system]:
            self.warm([self._turns[system]])
        return False

    def stream(self, pieces: Sequence[str], max_tokens: int = 128, stop: Sequence[str] | None = None,
               temperature: float = 0.0) -> Generator[str, None, None]:
        """Stream a raw completion of a chat-formatted prompt given as pieces; on llama-server only the
        tokens past what its slot holds are evaluated before the first piece."""
        if not self.llama_server:
            body = {"prompt": "".join(pieces), "max_tokens": max_tokens, "temperature": temperature,
                    "stream": True, **({"stop": list(stop)[:4]} if stop else {}), **self._extras()}
            yield from self._text_pieces(self.wire.events(self.endpoint.api + "/completions", body))
            return
        tokens = self.prompt_tokens(pieces)
        if len(tokens) + max_tokens > self.context_size:
            raise ModelError(f"{self.role}: prompt of {len(tokens)} tokens does not fit the server's "
                             f"{self.context_size}-token slot")
        body = {"prompt": tokens, "n_predict": max_tokens, "temperature": temperature, "stop": list(stop or []),
                "stream": True, "cache_prompt": True, **SAMPLING}
        with self._lock:
            self._warmed = tokens
        yield from self._text_pieces(self.wire.events(self.endpoint.root + "/completion", body))

    def _text_pieces(self, events: Iterator[dict[str, Any]]) -> Iterator[str]:
        try:
            for event in events:
                if event is DONE:
                    return
                self._keep_timings(event)
                piece = event.get("content")
                if piece is None:
                    piece = next((c.get("text") for c in event.get("choices") or () if isinstance(c, dict)), None)
                if isinstance(piece, str) and piece:
                    yield piece
        finally:
            events.close()  # type: ignore[attr-defined]

    def complete(self, messages: Sequence[Message] | str, **kwargs: Any) -> str:
        """The whole reply as one string (generate() joined)."""
        return "".join(self.generate(messages, **kwargs))


def _common(a: list[int], b: list[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def _schema_format(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}


def _choice(reply: str, choices: list[str], role: str) -> str:
    """The choice a schema-constrained reply {"choice": ...} names (what the grammar would have produced)."""
    import json

    try:
        value = json.loads(reply).get("choice")
    except (ValueError, AttributeError):
        value = None
    if value in choices:
        return str(value)
    raise ModelError(f"{role}: the model server ignored the constrained output ({reply[:60]!r}); "
                     "it may not support response_format json_schema")


def _remote(url: str) -> bool:
    """Whether a URL's host is beyond this machine and its private network (by address; names other than
    localhost count as remote)."""
    host = parse_url(url)[1]
    if host == "localhost":
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return True
    return not (address.is_loopback or address.is_private)


def load_text_model(choice: Choice, settings: Settings) -> OpenAIHttpModel:
    """Build the OpenAIHttpModel for an llm/summarizer role set to a URL (its key from EGOCLI_<ROLE>_KEY)."""
    section = settings.section(choice.role) or settings.section("llm")
    role_key = f"EGOCLI_{choice.role.upper()}_KEY"
    key = os.environ.get(role_key) or os.environ.get("EGOCLI_LLM_KEY")
    if "key" in section:
        raise ConfigError(f"config.toml: [{choice.role}] key: keep the key out of the file; set {role_key}")
    try:
        timeout = float(section.get("timeout", 60))
    except (TypeError, ValueError):
        raise ConfigError(f"config.toml: [{choice.role}] timeout must be seconds, not {section['timeout']!r}") from None
    if _remote(choice.extra):
        log.warning("%s: questions and log excerpts go to %s (not this machine)", choice.role, choice.extra)
    endpoint = Endpoint(choice.extra, choice.role, key, timeout_s=timeout)
    model = section.get("model")
    return OpenAIHttpModel(endpoint, context_size=int(section.get("context_size", 4096)),
                           model=str(model) if model else None)
