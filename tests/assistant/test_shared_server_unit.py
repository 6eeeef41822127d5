"""docs/DEPLOY.md's shared model server as written: its unit and the agents' drop-in pass systemd-analyze
verify, the unit's command line is one `egocli models serve` accepts (a slot per prompt, continuous
batching), and the agents' config.toml points their text model at it with one perception thread each."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tomllib

import pytest

from egocli.core.config import load_settings
from egocli.models import registry
from tests import console
from tests.conftest import REPO

DEPLOY = REPO / "docs" / "DEPLOY.md"


def _block(kind: str, first_line: str) -> str:
    """The body of the one code block of a kind whose first line is `first_line`."""
    blocks = [b for b in re.findall(rf"```{kind}\n(.*?)```", DEPLOY.read_text(), re.DOTALL)
              if b.startswith(first_line)]
    assert len(blocks) == 1, f"{first_line}: {len(blocks)} blocks"
    return blocks[0].split("\n", 1)[1]


def test_the_server_unit_and_the_agents_drop_in_pass_systemd_analyze_verify(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    server = _block("ini", "# /etc/systemd/system/egocli-llm.service")
    agent = _block("ini", "# /etc/systemd/system/egocli-agent@.service\n")
    drop_in = _block("ini", "# drop-in for every agent: /etc/systemd/system/egocli-agent@.service.d/llm.conf")
    for unit in (server, drop_in):
        assert not re.search(r"^[^#;\n][^\n]*[ \t]#", unit, re.MULTILINE), "a comment after a value becomes part of it"
    exe = console.egocli()
    (tmp_path / "egocli-llm.service").write_text(server.replace("/opt/egocli/.venv/bin/egocli", exe))
    (tmp_path / "egocli-agent@.service").write_text(agent.replace("/opt/egocli/.venv/bin/egocli", exe))
    (tmp_path / "egocli-agent@.service.d").mkdir()
    (tmp_path / "egocli-agent@.service.d" / "llm.conf").write_text(drop_in)
    for name in ("egocli-llm.service", "egocli-agent@1001.service"):
        done = subprocess.run(["systemd-analyze", "verify", str(tmp_path / name)], capture_output=True, text=True,
                              timeout=60, check=False)
        assert done.returncode == 0 and not done.stderr.strip(), (name, done.stderr)
    assert "Restart=always" in server and "User=egocli" in server


def test_the_units_command_line_is_what_models_serve_runs(tmp_path):
    server = _block("ini", "# /etc/systemd/system/egocli-llm.service")
    (start,) = [line for line in server.splitlines() if line.startswith("ExecStart=")]
    argv = shlex.split(start.removeprefix("ExecStart="))
    assert argv[:3] == ["/opt/egocli/.venv/bin/egocli", "models", "serve"]
    from tests.llamaserver import MODEL_CACHE

    env = {**os.environ, "PYTHONPATH": str(REPO), "EGOCLI_HOME": str(tmp_path / "home"),
           "EGOCLI_MODEL_CACHE": str(MODEL_CACHE), "EGOCLI_LLAMA_SERVER": "/bin/true"}
    done = subprocess.run([console.egocli(), *argv[1:], "--print-command"], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    command = done.stdout.split()
    assert command[0] == "/bin/true" and command[command.index("--host") + 1] == "127.0.0.1"
    assert command[command.index("--parallel") + 1] == "8" and "--cont-batching" in command
    assert command[command.index("--ctx-size") + 1] == str(8 * 4096) and "--cache-prompt" in command


def test_the_agents_config_points_the_text_model_at_the_server(tmp_path):
    text = _block("toml", "# /var/lib/egocli/config.toml")
    config = tomllib.loads(text)
    assert config["asr"]["threads"] == 1 and config["ocr"]["threads"] == 1
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(text)
    settings = load_settings(home=home)
    assert registry.resolve("llm", settings).backend == "openai-http"
    assert registry.resolve("summarizer", settings).extra == "http://127.0.0.1:8080/v1"
