"""llama.cpp's weight repacking as a setting (`[llm] repack`): off, the weights stay in the
mmapped GGUF shared through the page cache instead of a private copy per process."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from egocli.core.errors import ConfigError
from egocli.models import registry

pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
pytestmark = pytest.mark.slow

CHILD = """
from pathlib import Path
from egocli.core.config import load_settings
from egocli.models import registry
model = registry.load("llm", load_settings())
assert model.complete("Which planet is red? One word.", max_tokens=4).strip()
rollup = Path("/proc/self/smaps_rollup").read_text().splitlines()
print(next(int(line.split()[1]) for line in rollup if line.startswith("Anonymous:")))
"""


def _anonymous_kib(tmp_path: Path, cache: Path, repack: bool) -> int:
    """Anonymous (private, not file-backed) memory of a process that loaded the default LLM."""
    home = tmp_path / f"home-{repack}"
    home.mkdir()
    (home / "config.toml").write_text(f"[llm]\ncontext_size = 512\nrepack = {str(repack).lower()}\n")
    env = {**os.environ, "EGOCLI_HOME": str(home), "EGOCLI_MODEL_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.split()[-1])


def test_repacking_off_keeps_the_weights_out_of_private_memory(real_settings, persistent_model_cache, tmp_path):
    choice = registry.resolve("llm", real_settings())
    if choice.path is None or not choice.path.is_file():
        pytest.skip("the default LLM is not in the model cache")
    weights_kib = choice.path.stat().st_size // 1024
    on = _anonymous_kib(tmp_path, persistent_model_cache, True)
    off = _anonymous_kib(tmp_path, persistent_model_cache, False)
    assert on - off > weights_kib // 4, f"repacking on {on} KiB vs off {off} KiB anonymous memory"
    assert off < weights_kib // 2, f"{off} KiB anonymous memory with repacking off ({weights_kib} KiB of weights)"


def test_repack_must_be_true_or_false(real_settings):
    settings = real_settings()
    settings = replace(settings, options={**settings.options, "llm": {"repack": "no"}})
    with pytest.raises(ConfigError, match="repack must be true or false"):
        registry.load("llm", settings)
