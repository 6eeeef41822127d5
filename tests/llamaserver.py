"""A real llama.cpp `llama-server` for tests: the binary built once per machine by scripts/llama-server.sh
(from the llama.cpp the llama-cpp-python sdist vendors; ~10 min on 2 cores, then cached in ~/.cache/egocli),
and servers started on loopback with a packaged GGUF model. Test modules import the fixtures from here.

A machine that cannot build it (no compiler, no cmake) skips those tests, saying why; CI builds it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from egocli.core.config import default_home
from egocli.models import llamaserver, registry
from tests.conftest import REPO

SCRIPT = REPO / "scripts" / "llama-server.sh"
MODEL_CACHE = Path(os.environ.get("EGOCLI_MODEL_CACHE") or default_home() / "models")
"""Resolved at import, before each test's isolated EGOCLI_HOME (as tests/models/conftest.py does)."""


def build() -> Path:
    """The llama-server binary for this CPU, built now if it is not cached (pytest.skip if it cannot be)."""
    found = llamaserver.find_binary()
    if found is not None:
        return found
    sys.__stderr__.write("\nbuilding llama-server for this CPU with scripts/llama-server.sh "
                         "(~10 min on 2 cores, once; cached in ~/.cache/egocli)\n")
    sys.__stderr__.flush()
    pip = Path(sys.executable).with_name("pip")
    res = subprocess.run(["bash", str(SCRIPT), str(pip)], capture_output=True, text=True, cwd=REPO)
    if res.returncode != 0:
        pytest.skip("llama-server cannot be built on this machine: " + " ".join(res.stderr.split()[-60:]))
    return Path(res.stdout.strip().splitlines()[-1])


def free_port() -> int:
    """A free loopback TCP port."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LlamaServer:
    """One llama-server process on loopback."""

    def __init__(self, binary: Path, model: Path, log: Path, slots: int = 2, context: int = 2048,
                 threads: int = 2, port: int | None = None) -> None:
        self.plan = llamaserver.ServerPlan(model, port=port or free_port(), slots=slots, context=context,
                                           threads=threads)
        self.binary, self.log = binary, log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its OpenAI base URL."""
        return self.plan.url

    def start(self, timeout: float = 180.0) -> LlamaServer:
        """Start it and wait until /health says the model is loaded."""
        with self.log.open("ab") as err:
            self.proc = subprocess.Popen(self.plan.argv(self.binary), stdout=err, stderr=err)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama-server exited ({self.proc.returncode}): "
                                   + self.log.read_text(errors="replace")[-2000:])
            try:
                with urllib.request.urlopen(self.url.removesuffix("/v1") + "/health", timeout=2) as resp:
                    if json.load(resp).get("status") == "ok":
                        return self
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"llama-server not ready within {timeout:.0f} s")

    def kill(self) -> None:
        """SIGKILL, as a crash or an OOM kill would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)

    def stop(self) -> None:
        """SIGTERM and wait."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()

    def slots(self) -> list[dict]:
        """GET /slots: what each slot holds."""
        with urllib.request.urlopen(self.url.removesuffix("/v1") + "/slots", timeout=5) as resp:
            return json.load(resp)


def model_file(name: str) -> Path:
    """The GGUF file of a packaged model name (smollm2, qwen1.5b), assembled if needed."""
    from dataclasses import replace

    from egocli.core.config import load_settings

    choice = registry.prepare("llm", replace(load_settings(models={"llm": name}), cache=MODEL_CACHE))
    assert choice.path is not None
    return choice.path


@pytest.fixture(scope="session")
def llama_server_binary() -> Path:
    """The llama-server binary (built on first use)."""
    return build()


@pytest.fixture(scope="session")
def smol_server(llama_server_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """One llama-server with SmolLM2-135M, two slots of egocli's default context (4096: the plan parser's prompt
    with every form's few-shot examples is about 2000 tokens), for the whole session."""
    server = LlamaServer(llama_server_binary, model_file("smollm2"),
                         tmp_path_factory.mktemp("llama-server") / "server.log", context=4096).start()
    yield server
    server.stop()


@pytest.fixture
def own_server(llama_server_binary: Path, tmp_path: Path) -> Iterator[Callable[..., LlamaServer]]:
    """Factory: own_server(model='smollm2', **LlamaServer options) -> a started server of the test's own
    (to kill); stopped after the test."""
    started: list[LlamaServer] = []

    def make(model: str = "smollm2", **options: object) -> LlamaServer:
        server = LlamaServer(llama_server_binary, model_file(model), tmp_path / f"server-{len(started)}.log",
                             **options)  # type: ignore[arg-type]
        started.append(server.start())
        return server

    yield make
    for server in started:
        server.stop()
