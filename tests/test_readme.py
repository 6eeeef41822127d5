"""The README is the page a newcomer reads in two minutes: it starts with the two commands (the ones
.ci/run and the Makefile run), it stays short, and every link in it and in docs/ resolves to a file
of the checkout (the depth lives in docs/, one page per topic, and a broken link hides it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _code_blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, re.DOTALL)


def test_the_readme_starts_with_make_demo_and_make_test():
    text = (ROOT / "README.md").read_text()
    first = _code_blocks(text)[0]
    commands = [line.split("#")[0].strip() for line in first.splitlines() if line.strip()]
    assert commands == ["make demo", "make test"]
    assert text.index("make demo") < text.index("##", text.index("## Two commands") + 2)
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^demo:", makefile, re.MULTILINE) and re.search(r"^test:", makefile, re.MULTILINE)
    ci = [line for line in (ROOT / ".ci/run").read_text().splitlines() if line and not line.startswith(("#", "set ", "cd "))]
    assert ci == ["make test"], "CI runs what the README tells a newcomer to run"


def test_the_readme_reads_in_two_minutes():
    text = (ROOT / "README.md").read_text()
    words = len(re.sub(r"\(docs/[^)]*\)|\(SECURITY.md\)|\(examples/[^)]*\)", "", text).split())
    assert len(text.splitlines()) <= 90 and words <= 700, (len(text.splitlines()), words)
    assert "(docs/timeline.png)" in text and (ROOT / "docs/timeline.png").stat().st_size > 10_000


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_link_resolves_to_a_file(page: Path):
    targets = LINK.findall(page.read_text())
    broken = []
    for target in targets:
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        if not (page.parent / target.split("#")[0]).resolve().is_file():
            broken.append(target)
    assert not broken, f"{page.name}: {broken}"


def test_the_readme_links_every_docs_page():
    text = (ROOT / "README.md").read_text()
    linked = {Path(t).name for t in LINK.findall(text) if t.startswith("docs/")}
    assert {p.name for p in (ROOT / "docs").glob("*.md")} <= linked


@pytest.mark.slow
@pytest.mark.skipif(not Path("/usr/bin/chromium").exists() or not Path("/usr/bin/chromedriver").exists(),
                    reason="Debian chromium and chromium-driver are not installed")
def test_the_screenshot_script_remakes_the_timeline_picture(tmp_path: Path):
    import struct
    import subprocess
    import sys

    out = tmp_path / "timeline.png"
    done = subprocess.run([sys.executable, str(ROOT / "scripts/screenshot.py"), "--out", str(out), "--size", "1024x700"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out)
    head = out.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, _ = struct.unpack(">II", head[16:24])
    assert width == 1024 and out.stat().st_size > 10_000
