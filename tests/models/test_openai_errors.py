"""The OpenAI-compatible backend when the model server misbehaves: down, slow, gone mid-answer, speaking
something else, refusing the key. A fake server (aiohttp on loopback) plays each part; what works is tested
against a real llama-server (test_openai_server.py)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from egocli.core.config import load_settings
from egocli.core.errors import ConfigError, ModelError
from egocli.models import registry
from egocli.models.openai_http import OpenAIHttpModel, literal_choices
from egocli.models.openai_wire import Endpoint
from tests import console
from tests.conftest import REPO

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class FakeServer:
    """An aiohttp app on a loopback port in its own thread; records every request's path, headers, body."""

    def __init__(self, routes: dict[str, Handler]) -> None:
        self.routes, self.seen = routes, []
        self.port = 0
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._main, daemon=True)

    def _main(self) -> None:
        async def any_route(request: web.Request) -> web.StreamResponse:
            body = await request.text()
            self.seen.append((request.path, dict(request.headers), json.loads(body) if body else None))
            handler = self.routes.get(request.path)
            if handler is None:
                return web.json_response({"error": {"message": "Not Found"}}, status=404)
            return await handler(request)

        async def go() -> None:
            app = web.Application()
            app.router.add_route("*", "/{tail:.*}", any_route)
            runner = web.AppRunner(app)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            self.stop = asyncio.Event()
            self.loop = asyncio.get_running_loop()
            self._ready.set()
            await self.stop.wait()
            await runner.cleanup()

        asyncio.run(go())

    @property
    def url(self) -> str:
        """Its OpenAI base URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeServer:
        self._thread.start()
        assert self._ready.wait(10)
        return self

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self._thread.join(10)


@pytest.fixture
def fake_server() -> Iterator[Callable[[dict[str, Handler]], FakeServer]]:
    """Factory: fake_server({path: handler}) -> a started FakeServer (closed after the test)."""
    started: list[FakeServer] = []

    def make(routes: dict[str, Handler]) -> FakeServer:
        started.append(FakeServer(routes).start())
        return started[-1]

    yield make
    for server in started:
        server.close()


async def _models(request: web.Request) -> web.Response:
    return web.json_response({"object": "list", "data": [{"id": "fake-7b", "object": "model"}]})


def _chunk(text: str) -> bytes:
    return b"data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": text}}]}).encode() + b"\n\n"


async def _stream(request: web.Request, chunks: list[bytes], then: str = "done") -> web.StreamResponse:
    resp = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await resp.prepare(request)
    for chunk in chunks:
        await resp.write(chunk)
        await asyncio.sleep(0.01)
    if then == "done":
        await resp.write(b"data: [DONE]\n\n")
        await resp.write_eof()
    elif then == "drop":  # the process dies: the connection ends without the stream's end
        request.transport.close()  # type: ignore[union-attr]
    return resp


def _model(server: FakeServer, **endpoint: Any) -> OpenAIHttpModel:
    return OpenAIHttpModel(Endpoint(server.url, **endpoint))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_server_that_is_down_is_named_with_what_to_do():
    port = _free_port()  # nothing listens there any more
    with pytest.raises(ModelError, match=rf"llm: the model server at http://127.0.0.1:{port}/v1 refused the "
                                         r"connection: nothing listens there \(start it with `egocli models serve`"):
        OpenAIHttpModel(Endpoint(f"http://127.0.0.1:{port}/v1"))


def test_a_server_that_falls_silent_times_out_with_the_wait_named(fake_server):
    async def props(request: web.Request) -> web.Response:
        return web.json_response({"default_generation_settings": {"n_ctx": 2048}, "total_slots": 2,
                                  "model_path": "/m/tiny.gguf"})

    async def tokenize(request: web.Request) -> web.Response:
        return web.json_response({"tokens": []})

    async def stuck(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await resp.prepare(request)
        await resp.write(_chunk("It"))
        await asyncio.sleep(5)  # busy: nothing more for longer than the client waits
        return resp

    server = fake_server({"/props": props, "/tokenize": tokenize, "/v1/chat/completions": stuck})
    model = _model(server, timeout_s=0.5)
    assert model.llama_server and model.context_size == 2048 and model.name == "tiny"
    pieces = model.generate([{"role": "user", "content": "hi"}])
    assert next(pieces) == "It"  # the first piece arrived in time
    with pytest.raises(ModelError, match=r"sent nothing for 0.5 s mid-answer \(overloaded or stuck; "
                                         r"\[llm\] timeout sets the wait\)"):
        next(pieces)


def test_a_server_killed_mid_answer_is_said_and_the_pieces_before_were_delivered(fake_server):
    async def chat(request: web.Request) -> web.StreamResponse:
        return await _stream(request, [_chunk("The"), _chunk(" keys")], then="drop")

    server = fake_server({"/v1/models": _models, "/v1/chat/completions": chat})
    got: list[str] = []
    with pytest.raises(ModelError, match=r"closed the connection mid-answer \(stopped or restarted\?\)"):
        for piece in _model(server).generate([{"role": "user", "content": "where are my keys?"}]):
            got.append(piece)
    assert got == ["The", " keys"]


def test_an_error_sent_inside_the_stream_is_the_servers_message(fake_server):
    async def chat(request: web.Request) -> web.StreamResponse:
        error = {"error": {"code": 500, "message": "context shift is disabled", "type": "server_error"}}
        return await _stream(request, [_chunk("A"), b"data: " + json.dumps(error).encode() + b"\n\n"])

    server = fake_server({"/v1/models": _models, "/v1/chat/completions": chat})
    with pytest.raises(ModelError, match="failed mid-answer: context shift is disabled"):
        list(_model(server).generate([{"role": "user", "content": "hi"}]))


@pytest.mark.parametrize("reply, said", [
    (web.Response(text="<html><body>Welcome to nginx!</body></html>", content_type="text/html"),
     r"does not speak the OpenAI API \(/v1/models gave b'<html><body>Welcome to nginx!"),
    (web.json_response({"models": ["a", "b"]}), r"does not speak the OpenAI API \(/v1/models gave no model list"),
    (web.json_response({"object": "list", "data": []}), "serves no model"),
])
def test_a_server_speaking_something_else_is_told_apart(fake_server, reply, said):
    async def models(request: web.Request) -> web.Response:
        return reply

    server = fake_server({"/v1/models": models})
    with pytest.raises(ModelError, match=said):
        _model(server)


def test_a_server_without_the_routes_is_not_openai_compatible(fake_server):
    server = fake_server({})
    with pytest.raises(ModelError, match=r"has no /v1/models \(HTTP 404\): not an OpenAI-compatible server, "
                                         r"or the URL lacks its /v1"):
        _model(server)


def test_a_stream_that_is_not_an_event_stream_is_refused(fake_server):
    async def chat(request: web.Request) -> web.Response:
        return web.Response(text="hello there", content_type="text/plain")

    server = fake_server({"/v1/models": _models, "/v1/chat/completions": chat})
    with pytest.raises(ModelError, match=r"does not speak the OpenAI API \(/v1/chat/completions gave a "
                                         r"text/plain; charset=utf-8 reply instead of an event stream\)"):
        list(_model(server).generate([{"role": "user", "content": "hi"}]))


def test_a_refused_key_names_the_variable_to_set_and_the_key_is_sent_as_a_bearer_token(fake_server, monkeypatch):
    async def models(request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != "Bearer s3cret":
            return web.json_response({"error": {"message": "Invalid API Key", "type": "authentication_error"}},
                                     status=401)
        return await _models(request)

    server = fake_server({"/v1/models": models})
    settings = load_settings(models={"llm": server.url})
    with pytest.raises(ModelError, match=r"refused the request \(HTTP 401: Invalid API Key\); give its key in "
                                         r"EGOCLI_LLM_KEY"):
        registry.load_llm(settings)
    monkeypatch.setenv("EGOCLI_LLM_KEY", "s3cret")
    model = registry.load_llm(settings)
    assert model.name == "fake-7b" and not model.kv_cache


def test_a_generic_server_gets_standard_fields_only_and_a_choice_grammar_as_a_schema(fake_server):
    async def chat(request: web.Request) -> web.StreamResponse:
        return await _stream(request, [_chunk('{"choice": '), _chunk('"C"}')])

    server = fake_server({"/v1/models": _models, "/v1/chat/completions": chat})
    model = _model(server)
    vote = "".join(model.generate([{"role": "user", "content": "A, B or C?"}], max_tokens=2,
                                  grammar='root ::= "A" | "B" | "C"'))
    assert vote == "C"
    path, _headers, body = server.seen[-1]
    assert path == "/v1/chat/completions" and body["model"] == "fake-7b" and body["stream"] is True
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["properties"]["choice"]["enum"] == ["A", "B", "C"]
    assert not {"grammar", "cache_prompt", "repeat_penalty", "n_predict"} & set(body)  # OpenAI refuses unknown fields
    with pytest.raises(ModelError, match="takes no GBNF grammar"):
        list(model.generate([{"role": "user", "content": "x"}], grammar="root ::= [a-z]+"))


def test_a_server_that_ignores_the_constrained_output_is_said(fake_server):
    async def chat(request: web.Request) -> web.StreamResponse:
        return await _stream(request, [_chunk("I think the answer is B.")])

    server = fake_server({"/v1/models": _models, "/v1/chat/completions": chat})
    with pytest.raises(ModelError, match="ignored the constrained output"):
        list(_model(server).generate([{"role": "user", "content": "A or B?"}], grammar='root ::= "A" | "B"'))


def test_literal_choices_read_only_plain_alternatives():
    assert literal_choices('root ::= "A" | "B" | "C"') == ["A", "B", "C"]
    assert literal_choices('root ::= "yes"') == ["yes"]
    assert literal_choices("root ::= [ABCD]") is None and literal_choices('root ::= "A" x') is None


def test_the_url_setting_and_its_conflicts(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('[llm]\nurl = "http://127.0.0.1:9/v1"\n')
    assert load_settings(home=home).models["llm"] == "http://127.0.0.1:9/v1"
    assert registry.resolve("llm", load_settings(home=home)).backend == "openai-http"
    assert registry.resolve("summarizer", load_settings(home=home)).backend == "openai-http"  # follows the llm
    monkeypatch.setenv("EGOCLI_LLM", "smollm2")  # the environment beats config.toml
    assert registry.resolve("llm", load_settings(home=home)).backend == "llama.cpp"
    assert load_settings(home=home, models={"llm": "fake"}).models["llm"] == "fake"  # and a flag beats both
    monkeypatch.delenv("EGOCLI_LLM")
    (home / "config.toml").write_text('[models]\nllm = "qwen0.5b"\n[llm]\nurl = "http://127.0.0.1:9/v1"\n')
    with pytest.raises(ConfigError, match=r"\[models\] llm and \[llm\] url are both set; keep one"):
        load_settings(home=home)
    (home / "config.toml").write_text('[llm]\nurl = "http://127.0.0.1:9/v1"\nkey = "sk-1"\n')
    with pytest.raises(ConfigError, match=r"keep the key out of the file; set EGOCLI_LLM_KEY"):
        registry.load_llm(load_settings(home=home))
    with pytest.raises(ModelError, match="serves the llm and summarizer roles only"):
        registry.resolve("asr", load_settings(models={"asr": "http://127.0.0.1:9/v1"}))


def test_ask_with_the_server_down_prints_one_error_line_and_exits_1(tmp_path):
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO), "EGOCLI_HOME": str(tmp_path / "home"),
           "EGOCLI_EMBEDDER": "fake"}
    db = tmp_path / "log.db"
    subprocess.run([console.egocli(), "--db", str(db), "log", "add", "keys in the blue bowl", "-q"],
                   env=env, check=True, timeout=60)
    res = subprocess.run([console.egocli(), "--db", str(db), "ask", "--llm", f"http://127.0.0.1:{port}/v1",
                          "what did I say about the blue bowl?"], env=env, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 1 and res.stdout == "", res
    assert res.stderr.strip().splitlines()[-1] == (
        f"Error: llm: the model server at http://127.0.0.1:{port}/v1 refused the connection: nothing listens "
        "there (start it with `egocli models serve`, or fix --llm / [llm] url)")
    assert Path(db).exists()


def test_a_server_still_loading_its_model_is_waited_for_then_a_dead_one_named(fake_server):
    started = time.monotonic()

    async def props(request: web.Request) -> web.Response:
        if time.monotonic() - started < 1.0:
            return web.json_response({"error": {"code": 503, "message": "Loading model",
                                                "type": "unavailable_error"}}, status=503)
        return web.json_response({"default_generation_settings": {"n_ctx": 1024}, "total_slots": 1,
                                  "model_path": "/m/small.gguf"})

    async def tokenize(request: web.Request) -> web.Response:
        return web.json_response({"tokens": []})

    server = fake_server({"/props": props, "/tokenize": tokenize})
    model = _model(server, timeout_s=10)
    assert model.llama_server and model.name == "small" and time.monotonic() - started >= 1.0
    with pytest.raises(ModelError, match=r"is not ready \(HTTP 503: Loading model\); is it still loading"):
        started = time.monotonic() + 3600  # loading for ever: given up after the timeout
        _model(server, timeout_s=0.6)
