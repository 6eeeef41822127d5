"""llama.cpp's own `llama-server`, one per machine for every agent there: where the binary is, and the
command line that runs the packaged text model with parallel slots and continuous batching.

The binary is built from the llama.cpp that llama-cpp-python's sdist vendors (scripts/llama-server.sh,
`make llama-server`), kept in ~/.cache/egocli keyed by version, CMAKE_ARGS and the CPU's flags exactly as
that script keys it, so a build for another CPU is never picked up."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from egocli.core.errors import ModelError, UsageError
from egocli.models import cmakeargs

if TYPE_CHECKING:
    from egocli.core.config import Settings

ENV = "EGOCLI_LLAMA_SERVER"
"""An explicit llama-server binary (a build of your own, a distribution's package)."""


def llama_version() -> str | None:
    """The installed llama-cpp-python's version (None without it)."""
    from importlib import metadata

    try:
        return metadata.version("llama-cpp-python")
    except metadata.PackageNotFoundError:
        return None


def cache_dir(version: str, cmake_args: str | None = None, cache: Path | None = None) -> Path:
    """The folder scripts/llama-server.sh builds into for this CPU (same key: version, CMAKE_ARGS, flags)."""
    args = cmake_args if cmake_args is not None else cmakeargs.default_cmake_args()
    flags = cmakeargs.cpu_flags()
    key = hashlib.sha256(f"llama-server\n{version}\n{args}\n{flags}\n".encode()).hexdigest()[:16]
    base = cache or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "egocli"
    return base / f"llama-server-{version}-{key}"


def find_binary() -> Path | None:
    """EGOCLI_LLAMA_SERVER, else this CPU's build in the cache, else `llama-server` on PATH (None: none)."""
    explicit = os.environ.get(ENV)
    if explicit:
        path = Path(explicit).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise ModelError(f"{ENV}={explicit}: not an executable file")
        return path
    version = llama_version()
    if version is not None:
        built = cache_dir(version) / "llama-server"
        if built.is_file() and os.access(built, os.X_OK):
            return built
    found = shutil.which("llama-server")
    return Path(found) if found else None


def require_binary() -> Path:
    """The binary, or a ModelError saying how to build it."""
    path = find_binary()
    if path is None:
        raise ModelError("no llama-server binary for this CPU: build it once with `make llama-server` "
                         f"(scripts/llama-server.sh, ~10 min on 2 cores), or set {ENV}")
    return path


@dataclass(frozen=True)
class ServerPlan:
    """How one llama-server runs for the agents of a machine."""

    model: Path
    """The GGUF file."""
    host: str = "127.0.0.1"
    """Address to listen on (loopback: agents on the same machine)."""
    port: int = 8080
    """TCP port."""
    slots: int = 4
    """Parallel slots: answers being written at once (each a KV cache of `context` tokens)."""
    context: int = 4096
    """Tokens per slot."""
    threads: int = 2
    """Threads generating (the rest of the cores are the agents' perception)."""
    batch_threads: int | None = None
    """Threads evaluating prompts (default: `threads`)."""
    alias: str = ""
    """The model name the server reports (default: the file's stem)."""
    flash_attn: str = "off"
    """llama-server's --flash-attn (on, off, auto; its own default is auto): off is the in-process model's
    arithmetic (llama-cpp-python's default), so a served answer is the one `egocli ask` gives without a server
    (with auto, SmolLM2's greedy answers differed from the in-process ones by a word: tests/assistant/
    test_shared_server.py)."""

    @property
    def url(self) -> str:
        """The OpenAI base URL agents point at ([llm] url)."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}/v1"

    def argv(self, binary: Path) -> list[str]:
        """The command line: parallel slots, continuous batching, prompt caching, no web UI."""
        return [str(binary), "-m", str(self.model), "--host", self.host, "--port", str(self.port),
                "--parallel", str(self.slots), "--ctx-size", str(self.slots * self.context), "--no-kv-unified",
                "--threads", str(self.threads), "--threads-batch", str(self.batch_threads or self.threads),
                "--cont-batching", "--cache-prompt", "--no-ui", "--flash-attn", self.flash_attn,
                "--alias", self.alias or self.model.stem]


def default_threads(cores: int | None = None) -> int:
    """Threads for a machine's server: half the cores, at least two (on two cores, both: an answer is what
    a wearer waits for); the cores left are the agents' perception (see perception_threads)."""
    cores = cores or os.cpu_count() or 2
    return min(cores, max(2, cores // 2))


def perception_threads(server_threads: int, agents: int, cores: int | None = None) -> int:
    """Threads for each agent's speech recognition and OCR beside the server: the cores it leaves, shared
    by the agents (at least one each)."""
    return max(1, ((cores or os.cpu_count() or 2) - server_threads) // max(1, agents))


def plan(settings: Settings, model: str | None = None, progress: Callable[[int, int], None] | None = None,
         **options: Any) -> ServerPlan:
    """The plan for serving a GGUF text model: `model` (a name or a path), else the configured llm when it is
    a local model, else the packaged default; ServerPlan fields as keyword options."""
    from dataclasses import replace

    from egocli.models import catalog, registry

    value = model or settings.models.get("llm") or ""
    if not model and (value.startswith(("http://", "https://")) or value == "fake"):
        value = ""  # the agents' own setting points at this server: serve the packaged model
    conf = replace(settings, models={**settings.models, "llm": value or catalog.DEFAULTS["llm"]})
    choice = registry.prepare("llm", conf, progress)
    if choice.backend != "llama.cpp" or choice.path is None:
        raise UsageError(f"llama-server runs GGUF files; the llm is {choice.model} ({choice.backend})")
    return ServerPlan(choice.path, **{k: v for k, v in options.items() if v is not None})
