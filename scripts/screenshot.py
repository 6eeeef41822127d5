"""Remake docs/timeline.png: the timeline page over the bundled example, in headless Chromium.

    .venv/bin/python scripts/screenshot.py [--out docs/timeline.png] [--event SEARCH] [--summarize]

It does what a newcomer does after `make demo`: imports examples/afternoon.srt, ingests
examples/glasses.mp4 (frames kept) into a fresh log in a temporary home, with --summarize builds the
hour and day summaries with the model as demo.sh does (about two minutes on two cores), starts the
installed `egocli timeline` on a free loopback port, opens the page in Debian's chromium (through
chromium-driver and selenium, as the browser tests do), clicks the first event that a search finds
so its detail shows, and saves the page (WxH) as a PNG. Needs the models `make demo` installs.
docs/timeline.png is made with --summarize.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
DAY = "2026-11-28"


def egocli() -> str:
    beside = Path(sys.executable).parent / "egocli"
    found = str(beside) if beside.exists() else shutil.which("egocli")
    if not found:
        sys.exit("Error: the egocli console script is not installed (run `make demo` first)")
    return found


def build_log(exe: str, env: dict[str, str], summarize: bool) -> None:
    """The bundled example into the log named by env's EGOCLI_DB, as examples/demo.sh does."""
    steps = [[exe, "-q", "import", str(ROOT / "examples/afternoon.srt"), "--start", f"{DAY}T13:00:00"],
             [exe, "-q", "ingest", str(ROOT / "examples/glasses.mp4"), "--keep-frames"]]
    if summarize:
        steps.append([exe, "-q", "summarize", "--no-embed"])
    for step in steps:
        done = subprocess.run(step, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"Error: {' '.join(step[2:4])} failed: {done.stderr.strip()}")


def driver(profile: Path, width: int, height: int):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--hide-scrollbars", f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    browser = webdriver.Chrome(options=opts, service=Service(executable_path=str(CHROMEDRIVER)))
    # the page itself is WxH (the window's frame would take its share of --window-size)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return browser


def wait_for(browser, script: str, timeout: float) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = browser.execute_script(script)
        if value:
            return value
        time.sleep(0.2)
    sys.exit(f"Error: the timeline page never got to: {script}")


def shoot(url: str, out: Path, profile: Path, search: str, width: int, height: int) -> None:
    browser = driver(profile, width, height)
    try:
        browser.get(url)
        wait_for(browser, "return window.timeline && timeline.ready", 60)
        wait_for(browser, "return [...document.querySelectorAll('.moment img')].every(i => i.src && i.complete)", 20)
        if search:
            browser.find_element("id", "search").send_keys(search)
            wait_for(browser, "return document.querySelectorAll('#hits a').length > 0", 20)
            browser.find_element("css selector", "#hits a").click()
            wait_for(browser, "return document.getElementById('detailtext') && "
                              "document.getElementById('detailtext').textContent", 20)
            time.sleep(1.0)  # let a kept frame in the detail finish decoding
        out.parent.mkdir(parents=True, exist_ok=True)
        if not browser.save_screenshot(str(out)):
            sys.exit(f"Error: chromium could not write {out}")
    finally:
        browser.quit()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs/timeline.png")
    ap.add_argument("--event", default="pharmacy", help="search for this and open the first hit ('' for none)")
    ap.add_argument("--size", default="1280x900", help="page size WxH (CSS pixels)")
    ap.add_argument("--summarize", action="store_true", help="build the summaries with the model first (slow)")
    args = ap.parse_args()
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        sys.exit("Error: Debian chromium and chromium-driver are needed (make system-deps installs them)")
    width, height = (int(v) for v in args.size.lower().split("x"))
    exe = egocli()
    with tempfile.TemporaryDirectory(prefix="egocli-shot-") as tmp:
        home = Path(tmp) / "home"
        env = {**os.environ, "EGOCLI_HOME": str(home), "EGOCLI_DB": str(home / "demo.db"),
               "EGOCLI_MODEL_CACHE": os.environ.get("EGOCLI_MODEL_CACHE", str(ROOT / ".cache/models")),
               "HF_HUB_OFFLINE": "1"}
        build_log(exe, env, args.summarize)
        server = subprocess.Popen([exe, "timeline", "--port", "0", "--token", "screenshot", "--day", DAY],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        try:
            url = (server.stdout.readline() if server.stdout else "").strip()
            if not url.startswith("http://127.0.0.1:"):
                sys.exit(f"Error: egocli timeline did not start: {server.stderr.read() if server.stderr else ''}")
            shoot(url, args.out, Path(tmp) / "chrome-profile", args.event, width, height)
        finally:
            server.terminate()
            server.wait(timeout=20)
    print(args.out)


if __name__ == "__main__":
    main()
