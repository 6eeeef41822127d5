"""mypy over egocli/ with the pyproject configuration ([tool.mypy]: strict on the packages listed there)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api", reason="mypy is in the `test` extra")

ROOT = Path(__file__).resolve().parents[1]
ERROR = re.compile(r"^(?P<path>[^:\n]+):\d+: error: ", re.MULTILINE)


def _errors(report: str) -> list[str]:
    """The error lines of a mypy report (notes left out)."""
    return [line for line in report.splitlines() if ERROR.match(line)]


def test_a_type_error_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("count: int = 'three'\n", encoding="utf-8")
    stdout, _, status = api.run(["--no-error-summary", "--no-pretty", "--cache-dir", str(tmp_path / "cache"),
                                 str(bad)])
    assert status == 1
    assert [line.split(": error: ")[1] for line in _errors(stdout)] == [
        'Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]']


def test_mypy_reports_no_errors_in_egocli(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # `files` and the overrides in pyproject.toml are relative to the project
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--no-error-summary",
                                      "--hide-error-context", "--no-pretty"])
    assert status in (0, 1), f"mypy did not run (exit {status}):\n{stderr}{stdout}"
    errors = list(_errors(stdout))
    assert not errors, f"{len(errors)} mypy error(s):\n" + "\n".join(errors)
