"""Issue 17.6: `ask` never swallows an error, and says clearly what is wrong with a question.

On main, llama-cpp-python's verbose=False pointed file descriptors 1 and 2 at /dev/null for the
whole process while the model loaded on a second thread, so what other threads printed then
(an error, with `ask -v` its traceback) vanished: `ask "... 99999999999 hours ago?"` exited 1
with no message. "9999999999999 days ago" gave "unexpected OverflowError" and a 20,000-character
question llama's raw "Requested tokens exceed context window"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

LOADER = """
import sys, threading, time
from pathlib import Path
from egocli.models.llamacpp import LlamaCppModel
done = threading.Event()
def load():
    LlamaCppModel(Path(sys.argv[1]), context_size=512)
    done.set()
threading.Thread(target=load).start()
n = 0
while not done.is_set() or n < 3:
    print(f"other thread line {n}", file=sys.stderr, flush=True)
    n += 1
    time.sleep(0.02)
print(f"printed {n}", file=sys.stderr)
"""


@pytest.mark.slow
def test_loading_a_model_silences_only_its_own_thread():
    cache = Path(os.environ.get("EGOCLI_MODEL_CACHE", "")) if os.environ.get("EGOCLI_MODEL_CACHE") else None
    models = sorted(cache.glob("*.gguf")) if cache and cache.is_dir() else []
    if not models:
        pytest.skip("no GGUF model in EGOCLI_MODEL_CACHE")
    done = subprocess.run([sys.executable, "-c", LOADER, str(models[0])], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stderr.splitlines()
    printed = int(lines[-1].split()[1])
    assert lines[:-1] == [f"other thread line {i}" for i in range(printed)]  # all there, no llama chatter


def test_questions_reaching_before_1970_or_too_long_get_clear_errors(run):
    assert run("log", "add", "watered the basil").returncode == 0
    for question, needle in (("what did I do 99999999999 hours ago?", "further back"),
                             ("what did I do 9999999999999 days ago?", "further back"),
                             ("what did I do in the last 99999999999 weeks?", "further back"),
                             ("what " * 4000 + "?", "characters long")):
        res = run("ask", question)
        assert res.returncode == 2, (question[:40], res.stderr)
        assert res.stderr.startswith("Error: ") and needle in res.stderr, res.stderr
        assert "unexpected" not in res.stderr
