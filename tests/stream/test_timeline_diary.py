"""The timeline tells the day (issue #31 item 1): over the bundled example (examples/afternoon.srt imported
and examples/glasses.mp4 ingested with its frames kept, as a newcomer does), the installed `egocli timeline`
in real headless Chromium shows the day's digest and each hour's salient events with their text, time and
kept frame without a click, fills the page, shows events' text and frames on the overview at closer zooms,
picks up summaries built after it opened, is reachable and named from the keyboard, and keeps large text.
The digest route itself is checked over aiohttp's test client: the token, the Host guard and 400s."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import numpy as np
import pytest

from egocli.store import Store
from egocli.usecases.day import day_digest
from tests import console
from tests.waiting import page_until

REPO = Path(__file__).resolve().parents[2]
DAY = date(2026, 11, 28)
CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
VIEWPORT = (1280, 900)
OPENED_PHARMACIST = "const d = document.getElementById('detailtext'); return d && d.textContent.startsWith('Pharmacist')"
needs_browser = pytest.mark.skipif(not CHROMIUM.exists() or not CHROMEDRIVER.exists() or not shutil.which("chromium"),
                                   reason="Debian chromium and chromium-driver are not installed")


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "EGOCLI_HOME": str(home), "EGOCLI_DB": str(home / "demo.db"), "PYTHONPATH": str(REPO),
            "EGOCLI_MODEL_CACHE": os.environ.get("EGOCLI_MODEL_CACHE", str(REPO / ".cache/models")),
            "HF_HUB_OFFLINE": "1"}


def _run(home: Path, *args: str) -> str:
    done = subprocess.run([console.egocli(), "-q", *args], env=_env(home), capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home holding the bundled example's log (demo.db, frames in demo-media), built as examples/demo.sh does."""
    home = tmp_path_factory.mktemp("example") / "home"
    _run(home, "import", str(REPO / "examples/afternoon.srt"), "--start", f"{DAY}T13:00:00")
    _run(home, "ingest", str(REPO / "examples/glasses.mp4"), "--keep-frames")
    return home


def _digest(home: Path) -> dict:
    store = Store.open(home / "demo.db", create=False)
    try:
        return day_digest(store, DAY).to_json()
    finally:
        store.close()


@pytest.fixture
def served(example: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`egocli timeline --port 0` over a copy of the example (a test may change it); yields (url, home)."""
    home = tmp_path / "home"
    shutil.copytree(example, home)
    proc = subprocess.Popen([console.egocli(), "timeline", "--port", "0", "--token", "tok", "--day", DAY.isoformat()],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(home))
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), proc.stderr.read()
        yield url, home
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture
def page(served, tmp_path: Path):
    """Headless Chromium with a 1280x900 page on the served timeline, loaded and ready (nothing clicked)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--hide-scrollbars", f"--window-size={VIEWPORT[0]},{VIEWPORT[1] + 200}",
                 f"--user-data-dir={tmp_path / 'chrome-profile'}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(options=opts, service=Service(executable_path=str(CHROMEDRIVER)))
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1, "mobile": False})
        driver.get(served[0])
        page_until(driver, "return window.timeline && timeline.ready && timeline.digest !== null", 60)
        page_until(driver, "return [...document.querySelectorAll('.moment img')].every(i => i.src && i.complete)", 20)
        yield driver
    finally:
        driver.quit()


def _text(driver) -> str:
    """What a reader sees on the whole page (innerText: rendered text only, hidden parts left out)."""
    return " ".join(driver.execute_script("return document.body.innerText").split())


@pytest.mark.slow
@needs_browser
def test_the_whole_day_shows_the_digest_and_every_salient_event_without_a_click(page, served) -> None:
    want = _digest(served[1])
    assert want["digest_from"] == "extractive" and want["digest"], "the example has no summaries yet"
    shown = _text(page)
    assert page.find_element("id", "digestline").text == want["digest"]
    view = page.execute_script("return timeline.view[1] - timeline.view[0]")
    assert view >= 6 * 3600e3, "the overview opens on the whole day's events"
    told = [m for hour in want["hours"] for m in hour["salient"]]
    assert len(told) >= 20 and len(want["hours"]) == 6
    for hour in want["hours"]:
        assert hour["label"].replace("-", "–") in shown
    for m in told:
        assert f"{m['time']} {m['modality']} {' '.join(m['content'].split())}" in shown, m
    # the example's three signs keep their frames: shown beside their text in the diary, decoded
    frames = page.execute_script("return [...document.querySelectorAll('.moment img')]"
                                 ".filter(i => i.naturalWidth > 0).map(i => i.closest('.moment').textContent)")
    signs = ("PHARMACY Open 9-18", "CITYNEWS New tram line opens in March", "BUS 12 City Centre")
    assert sorted(frames) == sorted(f"10:00text{t}" for t in signs)
    # the digest is in the first screen, and a click still opens an event's detail
    top = page.execute_script("return document.getElementById('digestline').getBoundingClientRect().bottom")
    assert top < VIEWPORT[1] / 3
    assert page.execute_script("return document.getElementById('detailtext')") is None
    link = next(a for a in page.find_elements("css selector", ".moment a") if "Pharmacist" in a.text)
    link.click()
    page_until(page, "const d = document.getElementById('detailtext'); return d && d.textContent", 10)
    assert page.find_element("id", "detailtext").text.startswith("Pharmacist: your refill of metformin")


@pytest.mark.slow
@needs_browser
def test_the_page_has_no_empty_half(page) -> None:
    import cv2

    shot = cv2.imdecode(np.frombuffer(page.get_screenshot_as_png(), np.uint8), cv2.IMREAD_GRAYSCALE)
    assert shot.shape == (VIEWPORT[1], VIEWPORT[0])
    ink = shot < 170  # text, marks and frames; not the page, panels, lanes or borders
    for name, half in (("upper", ink[: VIEWPORT[1] // 2]), ("lower", ink[VIEWPORT[1] // 2:])):
        rows = half.any(axis=1)
        gaps = np.diff(np.flatnonzero(np.r_[True, rows, True])) - 1
        assert half.mean() > 0.01, f"the {name} half is nearly blank: {half.mean():.4f} of its pixels inked"
        assert gaps.max() < VIEWPORT[1] * 0.2, f"the {name} half has {gaps.max()} blank rows in a row"
    # what fills the lower half is the diary's text, not decoration
    below = page.execute_script("""
        const out = [];
        for (let y = innerHeight * 0.55; y < innerHeight; y += innerHeight * 0.1) {
          const hit = document.elementFromPoint(innerWidth * 0.3, y);
          out.push(hit && hit.closest('#diary') ? 1 : 0);
        }
        return out;""")
    assert all(below), below


@pytest.mark.slow
@needs_browser
def test_closer_in_the_overview_shows_the_events_text_and_their_frames(page) -> None:
    assert page.find_elements("css selector", "#axis image.thumb") == [], "no frame strip over the whole day"
    hours = page.find_elements("css selector", ".hour h3 button")
    hours[0].click()  # 10:00-11:00: the recording, its three signs and what was said
    page_until(page, "return [...document.querySelectorAll('#axis image.thumb')]"
                ".filter(i => i.getAttribute('href')).length === 3", 10)
    labels = [el.text for el in page.find_elements("css selector", "#axis .evlabel")]
    assert "BUS 12 City Centre" in labels and any(t.startswith("Remember, the house keys") for t in labels), labels
    hours[1].click()  # 13:00-14:00: one event every few minutes
    page_until(page, "return timeline.view[0] > 0 && document.querySelectorAll('#axis .evlabel').length > 3", 10)
    labels = [el.text for el in page.find_elements("css selector", "#axis .evlabel")]
    assert any(t.startswith("Pharmacist: your refill") for t in labels), labels
    assert any(t.startswith("Okay, lunch is done") for t in labels), labels
    # labels never overlap one another on a lane
    boxes = page.execute_script("return [...document.querySelectorAll('#axis .evlabel')].map(t => {"
                                " const b = t.getBBox(); return [b.x, b.y, b.x + b.width]; })")
    for lane in {round(y) for _, y, _ in boxes}:
        spans = sorted((x0, x1) for x0, y, x1 in boxes if round(y) == lane)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans
    # a click on a label opens the event, as on its mark
    next(el for el in page.find_elements("css selector", "#axis .evlabel") if el.text.startswith("Pharmacist")).click()
    page_until(page, OPENED_PHARMACIST, 10)


@pytest.mark.slow
@needs_browser
def test_summaries_built_after_the_page_opened_appear(page, served) -> None:
    assert page.find_element("id", "digestline").get_attribute("data-from") == "extractive"
    assert page.find_elements("css selector", ".hour .summary") == []
    _run(served[1], "summarize", "--extractive", "--no-embed")
    want = _digest(served[1])
    assert want["digest_from"] == "summary"
    page.execute_script("window.dispatchEvent(new Event('focus'))")  # the reader comes back to the tab
    page_until(page, "return document.getElementById('digestline').dataset.from === 'summary'", 15)
    assert page.find_element("id", "digestline").text == " ".join(want["digest"].split())
    summaries = [el.text for el in page.find_elements("css selector", ".hour .summary")]
    assert summaries == [" ".join(h["summary"]["text"].split()) for h in want["hours"]]


@pytest.mark.slow
@needs_browser
def test_every_control_is_reached_by_tab_and_has_a_name(page) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    page.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    reached, names = [], {}
    for _ in range(300):
        ActionChains(page).send_keys(Keys.TAB).perform()
        focused = page.switch_to.active_element
        if focused.tag_name == "body" or (reached and focused == reached[0]):
            break
        if focused not in reached:
            reached.append(focused)
            names[focused.get_attribute("id") or focused.get_attribute("outerHTML")[:80]] = focused.accessible_name
    assert reached[0].get_attribute("class") == "skip", "the first Tab offers to skip to the day"
    unnamed = [key for key, name in names.items() if not (name or "").strip()]
    assert unnamed == [], f"focusable without an accessible name: {unnamed}"
    ids = set(names)
    for control in ("prev", "daypick", "next", "search", "largetext", "livelink", "zoomall", "panleft", "zoomin",
                    "zoomout", "panright", "axis", "question", "askbtn"):
        assert control in ids, f"Tab never reaches #{control}"
    moments = page.find_elements("css selector", ".moment a")
    assert all(m in reached for m in moments), "every event of the diary is reached by Tab"
    assert names["axis"].startswith("Overview of 2026-11-28")
    # the skip link goes to the diary; Enter on an event opens its detail
    page.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    ActionChains(page).send_keys(Keys.TAB).send_keys(Keys.ENTER).perform()
    assert page.switch_to.active_element.get_attribute("id") == "diary"
    pharmacist = next(m for m in moments if "Pharmacist" in m.text)
    page.execute_script("arguments[0].focus()", pharmacist)
    ActionChains(page).send_keys(Keys.ENTER).perform()
    page_until(page, OPENED_PHARMACIST, 10)
    # on the focused overview, arrows pan and +/- zoom (the day stays)
    page.find_element("id", "zoomall").click()
    page.execute_script("document.getElementById('axis').focus()")
    ActionChains(page).send_keys("+").perform()
    span = page.execute_script("return timeline.view")
    assert span[1] - span[0] == pytest.approx(12 * 3600e3, rel=0.01)
    ActionChains(page).send_keys(Keys.ARROW_RIGHT).perform()
    moved = page.execute_script("return timeline.view")
    assert moved[0] == pytest.approx(span[0] + 3 * 3600e3)
    assert page.execute_script("return timeline.day") == "2026-11-28"


@pytest.mark.slow
@needs_browser
def test_text_has_good_contrast(page) -> None:
    """Every visible text on the page meets WCAG AA (4.5:1) against what is behind it."""
    low = page.execute_script(CONTRAST)
    assert low == [], low


@pytest.mark.slow
@needs_browser
def test_large_text_mode_toggles_and_persists(page) -> None:
    def state() -> tuple[bool, str, float, float]:
        return tuple(page.execute_script(
            "return [document.documentElement.classList.contains('large'),"
            " document.getElementById('largetext').getAttribute('aria-pressed'),"
            " parseFloat(getComputedStyle(document.querySelector('.moment .what')).fontSize),"
            " document.querySelector('#axis rect.lane').getBBox().height]"))

    normal = state()
    assert normal[:2] == (False, "false")
    page.execute_script("document.getElementById('largetext').focus()")
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(page).send_keys(" ").perform()  # the keyboard toggles it
    large = state()
    assert large[:2] == (True, "true") and large[2] >= 1.3 * normal[2] and large[3] >= 1.3 * normal[3]
    page.refresh()
    page_until(page, "return window.timeline && timeline.ready && timeline.digest !== null", 30)
    assert state() == large, "large text is kept across visits"
    assert page.execute_script("return document.documentElement.scrollWidth") <= VIEWPORT[0], "no sideways scroll"
    page.find_element("id", "largetext").click()
    page.refresh()
    page_until(page, "return window.timeline && timeline.ready && timeline.digest !== null", 30)
    assert state() == normal


CONTRAST = """
const rgb = (s) => { const m = s.match(/[\\d.]+/g) || [0, 0, 0, 0]; return m.map(Number).concat(m.length < 4 ? [1] : []).slice(0, 4); };
const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]); };
function behind(el) {  // the colour under an element: its and its ancestors' backgrounds, blended
  const layers = [];
  for (let n = el; n && n.nodeType === 1; n = n.parentElement) layers.push(rgb(getComputedStyle(n).backgroundColor));
  let c = [255, 255, 255, 1];
  for (const layer of layers.reverse()) if (layer[3] > 0) c = over(layer, c);
  return c;
}
const low = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let t = walker.nextNode(); t; t = walker.nextNode()) {
  const el = t.parentElement;
  if (!t.textContent.trim() || el.closest('svg, [hidden], dialog:not([open]), button:disabled')) continue;
  const box = el.getBoundingClientRect();
  if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
  if (el.classList.contains('skip') && box.bottom < 0) continue;  // shown only when focused
  const fg = over(rgb(getComputedStyle(el).color), behind(el)), bg = behind(el);
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x), ratio = (a + 0.05) / (b + 0.05);
  if (ratio < 4.5) low.push(`${el.tagName}.${el.className} "${t.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
}
return low;
"""


# --- the digest route: the timeline server's rules ------------------------------------------------------


def test_the_digest_route_is_the_day_told_behind_the_token(tmp_path: Path) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from egocli.stream.timeline_routes import browse_app
    from egocli.usecases.timeline import Timeline
    from tests.usecases.test_timeline import fill

    db, media = tmp_path / "log.db", tmp_path / "media"
    fill(db, media)
    timeline = Timeline(lambda: Store.open(db, create=False), media, lambda store: None)
    auth = {"Authorization": "Bearer s3cret"}

    async def run() -> None:
        async with TestClient(TestServer(browse_app(timeline, "s3cret"))) as client:
            assert (await client.get("/api/timeline/digest?day=2026-11-28")).status == 401
            rebound = await client.get("/api/timeline/digest?day=2026-11-28", headers={**auth, "Host": "evil.example"})
            assert rebound.status == 421
            told = await client.get("/api/timeline/digest?day=2026-11-28", headers=auth)
            assert told.status == 200 and told.headers["Cache-Control"] == "no-store"
            store = Store.open(db, create=False)
            assert await told.json() == day_digest(store, DAY).to_json()
            store.close()
            newest = await (await client.get("/api/timeline/digest", headers=auth)).json()
            assert newest["day"] == "2026-11-28" and newest["events"] == 4
            for bad in ("28/11", "2026-02-30", "0000-01-01", "9999-12-31", "x" * 600):
                resp = await client.get(f"/api/timeline/digest?day={bad}", headers=auth)
                reply = await resp.json()
                assert resp.status == 400 and reply["message"] and "\n" not in reply["message"], (bad, reply)
            for edge in ("0001-01-02", "9999-12-30"):
                resp = await client.get(f"/api/timeline/digest?day={edge}", headers=auth)
                assert resp.status == 200 and (await resp.json())["hours"] == [], edge

    asyncio.run(run())
    store = Store.open(db, create=False)
    assert store.count() == 5, "reading digests changes nothing"
    store.close()


def test_the_axis_marks_only_frames_it_can_show(tmp_path: Path) -> None:
    """A speech event naming its source recording has no kept frame: no empty tile on the frame strip."""
    from egocli.store import NewEvent
    from egocli.usecases.timeline import Timeline
    from tests.usecases.test_timeline import at, fill

    db, media = tmp_path / "log.db", tmp_path / "media"
    fill(db, media)
    store = Store.open(db)
    with store.transaction():
        store.add_events([NewEvent(at(15, 0), at(15, 1), "speech", "said on the recording",
                                   media_path=str(REPO / "examples/glasses.mp4"), media_offset_ms=1000)])
    store.close()
    timeline = Timeline(lambda: Store.open(db, create=False), media, lambda store: None)
    marks = {e["t"][:12]: e["f"] for e in timeline.day(DAY)["events"]}
    assert marks["Putting the "] == 1 and marks["said on the "] == 0
    said = next(e for e in timeline.day(DAY)["events"] if e["t"].startswith("said"))
    assert timeline.event(said["id"])["event"]["media"] is False
