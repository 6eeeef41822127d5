"""The systemd units in docs/DEPLOY.md and docs/agent.md are what systemd accepts as written
(a trailing '# comment' silently becomes part of a value there: an EnvironmentFile that never
loads, a TimeoutStopSec that is ignored)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests import console

ROOT = Path(__file__).resolve().parents[1]
UNIT = "# /etc/systemd/system/egocli-agent@.service"


def _units(doc: Path) -> list[str]:
    """The agent unit files shown in a document (the code block after the unit's path)."""
    blocks = re.findall(r"```ini\n(.*?)```", doc.read_text(), re.DOTALL)
    return [b.split("\n", 1)[1] for b in blocks if b.startswith(UNIT)]


@pytest.mark.parametrize("doc", ["docs/DEPLOY.md", "docs/agent.md"])
def test_the_documented_agent_unit_passes_systemd_analyze_verify(doc, tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    (unit,) = _units(ROOT / doc)
    assert "Restart=always" in unit and "--rooms /etc/egocli/rooms.toml --room %i" in unit
    assert not re.search(r"^[^#;\n][^\n]*[ \t]#", unit, re.MULTILINE), "a comment after a value becomes part of it"
    (tmp_path / "egocli-agent@.service").write_text(unit.replace("/opt/egocli/.venv/bin/egocli", console.egocli()))
    done = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "egocli-agent@1001.service")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
