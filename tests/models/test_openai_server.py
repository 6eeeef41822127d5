"""The OpenAI-compatible backend against a real llama.cpp llama-server (built from the llama.cpp the wheel
vendors, tests/llamaserver.py): the same replies as the in-process model, streaming, grammar and schema
constrained output, a pre-filled slot, `egocli ask --llm URL`, `models check`, and `egocli models serve`."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request

import pytest

from egocli.core.config import load_settings
from egocli.models import registry
from egocli.models.llamacpp import LlamaCppModel
from egocli.models.openai_http import OpenAIHttpModel
from egocli.models.openai_wire import Endpoint
from egocli.reasoning import understand
from egocli.reasoning.answer import grammar
from tests import console
from tests.conftest import REPO
from tests.llamaserver import free_port, llama_server_binary, model_file, own_server, smol_server  # noqa: F401

pytestmark = pytest.mark.slow

CHAT = [{"role": "system", "content": "You answer in one short sentence."},
        {"role": "user", "content": "Name a fruit that is yellow and long."}]


@pytest.fixture(scope="module")
def smol_local():
    """SmolLM2 in process, as `--llm smollm2` loads it."""
    return LlamaCppModel(model_file("smollm2"), context_size=2048)


def test_the_server_streams_what_the_in_process_model_says(smol_server, smol_local):
    model = OpenAIHttpModel(Endpoint(smol_server.url))
    assert model.llama_server and model.kv_cache and model.context_size == 4096 and model.slots == 2
    pieces = list(model.generate(CHAT, max_tokens=24))
    assert len(pieces) > 3  # streamed piece by piece, not one block at the end
    assert "".join(pieces) == "".join(smol_local.generate(CHAT, max_tokens=24))
    assert model.format_chat(CHAT) == smol_local.format_chat(CHAT)  # the GGUF's own template, both sides
    assert model.count_tokens("Hello there, world") == smol_local.count_tokens("Hello there, world")
    assert model.count_chat_tokens(CHAT) == smol_local.count_chat_tokens(CHAT)


def test_grammar_and_schema_constrain_the_servers_output(smol_server):
    model = OpenAIHttpModel(Endpoint(smol_server.url))
    msgs = [{"role": "user", "content": "Which is a colour? A) seven B) blue C) run. Answer with a letter."}]
    vote = "".join(model.generate(msgs, max_tokens=2, grammar=grammar(3)))
    assert vote in ("A", "B", "C")
    question = "When did I last water the plants?"
    reply = "".join(model.generate([{"role": "system", "content": understand.system_prompt()},
                                    {"role": "user", "content": f"Q: {question}"}],
                                   max_tokens=80, json_schema=understand.schema()))
    plan = json.loads(reply)  # whatever the 135M model thinks, it is the schema's JSON
    assert plan["form"] in understand.schema()["properties"]["form"]["enum"]
    assert set(plan) == set(understand.schema()["required"])
    parsed = understand.model_parser(model)(question)  # the ask core's question parser, unchanged
    assert parsed is None or parsed.form in understand.schema()["properties"]["form"]["enum"]


def test_a_prefilled_prefix_is_not_evaluated_again(smol_server):
    model = OpenAIHttpModel(Endpoint(smol_server.url))
    head = model.format_chat([{"role": "system", "content": "\x00"}]).split("\x00")[0]
    prefix = [head + "Log of the day:\n", *(f"[10:{i:02d}:00] saw: a red bicycle number {i}\n" for i in range(30))]
    total = len(model.prompt_tokens(prefix))
    assert model.warm(prefix, limit=100) == total - 100  # in steps, as the live window does
    assert model.warm(prefix) == 0
    tail = "<|im_end|>\n<|im_start|>user\nWhat colour was the bicycle?<|im_end|>\n<|im_start|>assistant\n"
    answer = "".join(model.stream([*prefix, tail], max_tokens=12))
    assert answer.strip()
    asked = len(model.prompt_tokens([*prefix, tail]))
    timings = model.last_timings
    assert timings["cache_n"] >= total - 1 and timings["prompt_n"] <= asked - total + 1, timings


@pytest.fixture(scope="module")
def afternoon(tmp_path_factory):
    """The bundled example imported into a log, as demo.sh does (no model)."""
    folder = tmp_path_factory.mktemp("afternoon")
    env = {**os.environ, "PYTHONPATH": str(REPO), "EGOCLI_HOME": str(folder / "home"), "EGOCLI_EMBEDDER": "fake"}
    db = folder / "log.db"
    subprocess.run([console.egocli(), "--db", str(db), "import", str(REPO / "examples" / "afternoon.srt"), "-q"],
                   env=env, check=True, timeout=120, capture_output=True)
    return db, env


@pytest.mark.parametrize("question", [
    ["What did the pharmacist say about my refill?"],
    ["What did Tom ask me?"],
    ["Who gave me a paperback?", "-c", "Tom", "-c", "Maria", "-c", "the pharmacist"],
])
def test_ask_through_the_server_answers_as_the_in_process_model(own_server, afternoon, question):
    db, env = afternoon
    server = own_server("qwen1.5b", slots=2, context=4096)

    def ask(llm: str) -> dict:
        res = subprocess.run([console.egocli(), "--db", str(db), "ask", "--llm", llm, "--json", *question],
                             env=env, capture_output=True, text=True, timeout=600)
        assert res.returncode == 0, res.stderr
        return json.loads(res.stdout)

    local, served = ask("qwen1.5b"), ask(server.url)
    assert served["output_tokens"] > 0 and local["output_tokens"] > 0, served  # the model wrote part of it
    assert served["decided_by"] == local["decided_by"]
    assert served["answer"] == local["answer"] and served["letter"] == local["letter"], (local, served)
    # the five votes (a grammar of letters each; 4 to 1 here): llama.cpp is not bit-identical across batch splits
    # (a prefix reused from a slot, or restored from disk in process), so a near tie may flip one vote, not two
    votes = [(v["letter"], w["letter"]) for v, w in zip(served["votes"], local["votes"], strict=True)]
    assert all(a in "ABC" for a, _ in votes) and sum(a != b for a, b in votes) <= 1, votes
    assert [c["event_id"] for c in served["citations"]] == [c["event_id"] for c in local["citations"]]


def test_models_check_runs_the_servers_model(smol_server, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "EGOCLI_HOME": str(tmp_path / "home")}
    res = subprocess.run([console.egocli(), "models", "check", "llm", "--llm", smol_server.url, "--json"],
                         env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    [row] = json.loads(res.stdout)
    assert row["status"] == "ok" and row["backend"] == "openai-http" and row["output"].strip()


def test_models_serve_runs_llama_server_with_slots_and_batching(llama_server_binary, tmp_path):
    from tests.llamaserver import MODEL_CACHE

    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO), "EGOCLI_HOME": str(tmp_path / "home"),
           "EGOCLI_MODEL_CACHE": str(MODEL_CACHE), "EGOCLI_LLAMA_SERVER": str(llama_server_binary)}
    shown = subprocess.run([console.egocli(), "models", "serve", "--model", "smollm2", "--port", str(port),
                            "--slots", "3", "--threads", "1", "--print-command"],
                           env=env, capture_output=True, text=True, timeout=60, check=True).stdout
    assert "--parallel 3" in shown and "--cont-batching" in shown and "--ctx-size 12288" in shown
    proc = subprocess.Popen([console.egocli(), "models", "serve", "--model", "smollm2", "--port", str(port),
                             "--slots", "3", "--threads", "1"], env=env, stdout=subprocess.DEVNULL,
                            stderr=open(tmp_path / "serve.log", "wb"))
    try:
        deadline = time.monotonic() + 120
        props = None
        while props is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/props", timeout=2) as resp:
                    props = json.load(resp)
            except OSError:
                time.sleep(0.3)
        assert props is not None, (tmp_path / "serve.log").read_text(errors="replace")[-2000:]
        assert props["total_slots"] == 3 and props["default_generation_settings"]["n_ctx"] == 4096
        model = registry.load_llm(load_settings(models={"llm": f"http://127.0.0.1:{port}/v1"}))
        assert "".join(model.generate(CHAT, max_tokens=8)).strip()
    finally:
        proc.terminate()
        proc.wait(30)
    assert "llama-server: SmolLM2" in (tmp_path / "serve.log").read_text(errors="replace")
