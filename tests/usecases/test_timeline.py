"""The timeline: its API over a real log and a real aiohttp server on loopback, and `egocli timeline`
(the installed console script) driven in real headless Chromium."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import numpy as np
import pytest

from egocli.store import NewEvent, Store
from egocli.usecases.timeline import Timeline, day_bounds
from tests import console
from tests.waiting import page_until

REPO = Path(__file__).resolve().parents[2]
DAY = date(2026, 11, 28)
CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")


def at(hh: int, mm: int, day: date = DAY) -> int:
    """Local clock time on a day, as UTC epoch ms."""
    return int(datetime(day.year, day.month, day.day, hh, mm).astimezone().timestamp() * 1000)


def jpeg() -> bytes:
    import cv2

    frame = np.full((120, 160, 3), (40, 160, 90), np.uint8)
    cv2.putText(frame, "BOWL", (20, 70), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (255, 255, 255), 2)
    return cv2.imencode(".jpg", frame)[1].tobytes()


def fill(db: Path, media: Path) -> None:
    """Two days: a morning and an afternoon with a kept frame, plus the day before."""
    (media / "frames" / "1-x").mkdir(parents=True)
    (media / "frames" / "1-x" / "000010000.jpg").write_bytes(jpeg())
    store = Store.open(db)
    with store.transaction():
        store.add_events([
            NewEvent(at(9, 0), at(9, 5), "speech", "Good morning, time for the [blue] pills."),
            NewEvent(at(9, 6), at(9, 6), "note", "took two pills with water"),
            NewEvent(at(13, 2), at(13, 3), "visual", "Putting the house keys in the blue bowl by the door.",
                     media_path="frames/1-x/000010000.jpg", media_offset_ms=10_000),
            NewEvent(at(13, 30), at(13, 40), "speech", "The pharmacy opens at nine tomorrow."),
            NewEvent(at(18, 0, date(2026, 11, 27)), at(18, 1, date(2026, 11, 27)), "text", "BUS 42 CITY CENTRE"),
        ])
    store.close()


@pytest.fixture
def timeline(tmp_path: Path) -> Timeline:
    db, media = tmp_path / "log.db", tmp_path / "media"
    fill(db, media)
    return Timeline(lambda: Store.open(db, create=False), media, lambda store: None)


def test_day_density_event_search_media_and_forget(timeline: Timeline) -> None:
    day = timeline.day(DAY)
    assert [e["m"] for e in day["events"]] == ["speech", "note", "visual", "speech"]
    assert day["modalities"] == ["visual", "speech", "note"]
    assert (day["start_ms"], day["end_ms"]) == day_bounds(DAY)
    assert timeline.day(None)["day"] == "2026-11-28", "no day: the newest day with events"
    assert timeline.density(date(2026, 11, 26), date(2026, 11, 29))["days"] == {
        "2026-11-26": 0, "2026-11-27": 1, "2026-11-28": 4, "2026-11-29": 0}
    keys = day["events"][2]
    detail = timeline.event(keys["id"], context=1)
    assert detail["event"]["content"].startswith("Putting the house keys")
    assert [n["modality"] for n in detail["neighbours"]] == ["note", "speech"]
    hits = timeline.search("key")["hits"]
    assert [h["id"] for h in hits] == [keys["id"]] and "[keys]" in hits[0]["snippet"]
    frame = timeline.media(keys["id"])
    assert frame.content_type == "image/jpeg" and frame.data[:2] == b"\xff\xd8"
    assert timeline.count(at(9, 0), at(10, 0)) == 2
    assert timeline.forget(at(9, 0), at(10, 0)) == {"forgotten": 2}
    assert [e["m"] for e in timeline.day(DAY)["events"]] == ["visual", "speech"]
    assert timeline.search("pills")["hits"] == [], "forgotten words are not found any more"


def test_forget_removes_the_kept_frame(timeline: Timeline) -> None:
    keys = timeline.day(DAY)["events"][2]
    path = timeline.media_dir / "frames" / "1-x" / "000010000.jpg"
    assert path.is_file()
    timeline.forget(at(13, 0), at(13, 10))
    assert not path.exists()
    from egocli.core.errors import NotFound

    with pytest.raises(NotFound):
        timeline.media(keys["id"])


def test_bad_requests_are_refused(timeline: Timeline) -> None:
    from egocli.core.errors import InputError, NotFound

    with pytest.raises(InputError):
        timeline.forget(at(10, 0), at(9, 0))
    with pytest.raises(InputError):
        timeline.forget(0, at(9, 0))  # more than a week at once
    with pytest.raises(InputError):
        timeline.density(date(2026, 1, 1), date(2026, 12, 31))
    with pytest.raises(NotFound):
        timeline.event(9999)
    with pytest.raises(InputError, match="does not answer"):
        timeline.ask("what?", lambda token: None)


def test_http_api_checks_the_token_and_streams_answers(timeline: Timeline) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from egocli.core.config import load_settings
    from egocli.models.fake import HashEmbedder, ScriptedModel
    from egocli.stream.timeline_routes import browse_app
    from egocli.usecases.timeline import ask_answerer

    reply = "Line: Putting the house keys in the blue bowl by the door.\nAnswer: You put them in the blue bowl."
    timeline.answerer = ask_answerer(load_settings(), ScriptedModel(reply), HashEmbedder())

    async def run() -> None:
        async with TestClient(TestServer(browse_app(timeline, "s3cret"))) as client:
            assert (await client.get("/api/timeline/day")).status == 401
            rebound = await client.get("/api/timeline/day?token=s3cret", headers={"Host": "attacker.example"})
            assert rebound.status == 421, "a DNS-rebinding page cannot read the log"
            other = await client.post("/api/timeline/forget", json={"since_ms": 0, "until_ms": 1},
                                      headers={"Origin": "http://evil.example", "Authorization": "Bearer s3cret"})
            assert other.status == 403, "another site's page cannot forget"
            auth = {"Authorization": "Bearer s3cret"}
            page = await client.get("/timeline")
            assert page.status == 200 and "egocli timeline" in await page.text()
            day = await (await client.get("/api/timeline/day?day=2026-11-28", headers=auth)).json()
            assert len(day["events"]) == 4
            bad = await client.get("/api/timeline/day?day=28/11", headers=auth)
            assert bad.status == 400 and "YYYY-MM-DD" in (await bad.json())["message"]
            missing = await client.get("/api/timeline/event/999", headers=auth)
            assert missing.status == 404
            plain = await client.post("/api/timeline/forget", data='{"since_ms": 0, "until_ms": 1}', headers=auth)
            assert plain.status == 415, "a cross-site form post (text/plain) is refused"
            asked = await client.post("/api/timeline/ask", json={"question": "where are my keys?"}, headers=auth)
            lines = [json.loads(line) for line in (await asked.text()).splitlines()]
            streamed = "".join(line["token"] for line in lines[:-1])
            assert streamed and streamed == lines[-1]["answer"] and "blue bowl" in streamed
            assert lines[-1]["citations"][0]["content"].startswith("Putting the house keys")
            media = await client.get(f"/api/timeline/media/{day['events'][2]['id']}?token=s3cret")
            assert media.status == 200 and media.content_type == "image/jpeg"

    asyncio.run(run())


# --- the installed console script in real headless Chromium -------------------------------------------


@pytest.fixture
def started(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`egocli timeline --port 0 --token T` as a real process over a filled log; yields (url, db)."""
    db, home = tmp_path / "log.db", tmp_path / "home"
    fill(db, tmp_path / "log-media")  # the media folder sits beside the database
    env = {**os.environ, "EGOCLI_HOME": str(home), "EGOCLI_DB": str(db), "PYTHONPATH": str(REPO)}
    exe = console.egocli()
    proc = subprocess.Popen([str(exe), "timeline", "--port", "0", "--token", "tok", "--day", "2026-11-28"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), proc.stderr.read()
        yield url, db
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _driver(tmp_path: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1280,900", f"--user-data-dir={tmp_path / 'chrome-profile'}"):
        opts.add_argument(flag)
    return webdriver.Chrome(options=opts, service=Service(executable_path=str(CHROMEDRIVER)))


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists() or not CHROMEDRIVER.exists() or not shutil.which("chromium"),
                    reason="Debian chromium and chromium-driver are not installed")
def test_timeline_page_browse_search_ask_and_forget(started, tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    url, db = started
    driver = _driver(tmp_path)
    try:
        driver.get(url)
        page_until(driver, "return timeline.ready", 30)
        assert driver.execute_script("return timeline.day") == "2026-11-28"
        assert len(driver.find_elements("css selector", "#axis rect.ev")) == 4
        lanes = [el.text for el in driver.find_elements("css selector", "#axis .lanelabel")]
        assert lanes == ["visual", "speech", "note"]
        month = driver.find_element("css selector", ".month a.today")
        assert month.get_attribute("data-count") == "4"
        # click an event: its detail, text shown as text (brackets kept), neighbours
        driver.find_element("css selector", "#axis rect.ev.speech").click()
        page_until(driver, "return document.getElementById('detailtext') && "
                      "document.getElementById('detailtext').textContent", 10)
        assert driver.find_element("id", "detailtext").text == "Good morning, time for the [blue] pills."
        assert driver.execute_script("return location.hash") == "#event-1"
        assert len(driver.find_elements("css selector", "#detail .neighbour")) == 5  # the day before too
        # search as you type: hits listed and highlighted on the axis
        driver.find_element("id", "search").send_keys("keys")
        page_until(driver, "return document.querySelectorAll('#hits li').length === 1", 10)
        assert driver.find_element("css selector", "#hits mark").text == "keys"
        assert len(driver.find_elements("css selector", "#axis rect.ev.hit")) == 1
        # the frame of the keys event in its detail
        driver.find_element("css selector", "#hits a").click()
        page_until(driver, "const i = document.querySelector('#detail img'); return i && i.naturalWidth > 0", 10)
        # zoomed in on it, the kept frame is a thumbnail on the visual lane
        page_until(driver, "const t = document.querySelector('#axis image.thumb'); return t && t.getAttribute('href')", 10)
        # ask: the answer streams from the real ask core, its citation jumps to the event
        driver.find_element("id", "question").send_keys("Where did I put my house keys?")
        driver.find_element("id", "askbtn").click()
        page_until(driver, "return !timeline.asking && (timeline.citations.length || timeline.error)", 240)
        assert driver.execute_script("return timeline.error") is None
        assert "bowl" in driver.execute_script("return timeline.answer").lower()
        driver.execute_script("location.hash = ''")
        driver.find_element("css selector", "a.citation").click()
        page_until(driver, "return timeline.selected === 3", 10)
        # forget the morning: shift-drag a span on the axis, confirm in the dialog
        driver.find_element("id", "zoomall").click()
        svg = driver.find_element("id", "axis")
        x9 = driver.execute_script("const s = timeline.view, w = document.getElementById('axis').clientWidth;"
                                   f" return 64 + ({at(8, 50)} - s[0]) * (w - 72) / (s[1] - s[0]);")
        x10 = driver.execute_script("const s = timeline.view, w = document.getElementById('axis').clientWidth;"
                                    f" return 64 + ({at(10, 0)} - s[0]) * (w - 72) / (s[1] - s[0]);")
        left = -svg.size["width"] / 2
        (ActionChains(driver).key_down(Keys.SHIFT).move_to_element_with_offset(svg, int(left + x9), 0)
         .click_and_hold().move_by_offset(int(x10 - x9), 0).release().key_up(Keys.SHIFT).perform())
        assert driver.find_element("id", "forgetbtn").is_enabled()
        driver.find_element("id", "forgetbtn").click()
        page_until(driver, "return document.getElementById('confirm').open", 10)
        assert "Forget 2 events" in driver.find_element("id", "confirmtext").text
        driver.find_element("id", "confirmyes").click()
        page_until(driver, "return document.getElementById('status').textContent.startsWith('forgot 2')", 15)
        assert len(driver.find_elements("css selector", "#axis rect.ev")) == 2
    finally:
        driver.quit()
    store = Store.open(db, create=False)
    assert [ev.content[:8] for ev in store.events()] == ["BUS 42 C", "Putting ", "The phar"]


def test_an_encrypted_log_and_its_encrypted_frames_are_shown_with_the_key(tmp_path: Path) -> None:
    from egocli.privacy import crypto

    key, db, media = "correct horse battery staple", tmp_path / "secret.db", tmp_path / "secret-media"
    store = Store.open(db, key=key)
    rel = crypto.write_media(media / "frames" / "1-x" / "000010000.jpg", jpeg(), crypto.media_key(store))
    assert rel.name.endswith(".jpg.enc") and rel.read_bytes()[:2] != b"\xff\xd8"
    with store.transaction():
        store.add_events([NewEvent(at(13, 2), at(13, 3), "visual", "keys in the blue bowl",
                                   media_path=str(rel.relative_to(media)))])
    store.close()
    timeline = Timeline(lambda: Store.open(db, create=False, key=key), media, crypto.media_key)
    event = timeline.day(DAY)["events"][0]
    assert event["t"] == "keys in the blue bowl" and event["f"] == 1
    frame = timeline.media(event["id"])
    assert frame.content_type == "image/jpeg" and frame.data[:2] == b"\xff\xd8"
