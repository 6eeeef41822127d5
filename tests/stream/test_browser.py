"""A real browser: headless Debian Chromium streams a real WAV and video through the playground page."""

from __future__ import annotations

import shutil
import time
import wave
from pathlib import Path

import numpy as np
import pytest

from tests.serving import heard_phrase
ASR = "base"  # Whisper base: exact on jfk.wav (tiny.en sometimes hears "asked not")

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists() or not CHROMEDRIVER.exists() or not shutil.which("chromium"),
                                 reason="Debian chromium and chromium-driver are not installed")]


def write_wav(path: Path, samples: np.ndarray) -> Path:
    """16 kHz mono 16-bit WAV."""
    with wave.open(str(path), "wb") as fh:
        fh.setnchannels(1)
        fh.setsampwidth(2)
        fh.setframerate(16000)
        fh.writeframes((np.clip(samples, -1, 1) * 32767).astype("<i2").tobytes())
    return path


def write_y4m(path: Path, frames: list[np.ndarray], fps: int) -> Path:
    """An uncompressed YUV4MPEG2 clip (what Chromium's fake camera reads)."""
    import cv2

    h, w = frames[0].shape[:2]
    with path.open("wb") as fh:
        fh.write(f"YUV4MPEG2 W{w} H{h} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for frame in frames:
            fh.write(b"FRAME\n" + cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes())
    return path


def _driver(tmp_path: Path, wav: Path, y4m: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                 "--allow-loopback-in-peer-connection", "--autoplay-policy=no-user-gesture-required",
                 f"--use-file-for-fake-video-capture={y4m}", f"--use-file-for-fake-audio-capture={wav}%noloop",
                 f"--user-data-dir={tmp_path / 'chrome-profile'}"):
        opts.add_argument(flag)
    return webdriver.Chrome(options=opts, service=Service(executable_path=str(CHROMEDRIVER)))


def _poll(driver, script: str, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for: {script}; status: {driver.execute_script('return egocli.status')}")


def test_playground_page_in_headless_chromium(live_server, jfk, video_frames, tmp_path):
    server = live_server(models={"asr": ASR}, token="page-token")
    wav = write_wav(tmp_path / "mic.wav", jfk)
    y4m = write_y4m(tmp_path / "camera.y4m", video_frames, 5)
    driver = _driver(tmp_path, wav, y4m)
    try:
        driver.get(f"{server.url}/?autostart=1&raw=1&token=page-token")
        transcript = _poll(driver, "return egocli.transcripts.map(t => t.text).join(' ')"
                                   " .toLowerCase().includes('country can do for you') &&"
                                   " egocli.transcripts.map(t => t.text).join(' ')", 40)
        box = driver.find_element("id", "question")
        box.send_keys("What did the president ask?")
        driver.find_element("id", "askbtn").click()
        answer = _poll(driver, "return egocli.answers.length && egocli.answers[0].text", 60)
        shown = _poll(driver, "return document.getElementById('answers').textContent", 5)
        energy = _poll(driver, "return egocli.receivedAudioEnergy()", 15)
        events = driver.execute_script("return egocli.events.map(e => e.modality)")
    finally:
        driver.quit()
    assert "country" in transcript.lower()
    assert answer and answer[:20] in shown
    assert energy > 0, "no answer audio reached the browser"
    assert "visual" in events and "speech" in events
    server.stop()
    speech = " ".join(e.content for e in server.events("speech"))
    assert heard_phrase(speech), speech
    assert server.events("visual")
    assert server.sources()[0].status == "done"
