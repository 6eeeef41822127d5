"""Build examples/glasses.mp4: a short synthetic "glasses recording" with scenes and speech.

Video: scenes drawn with OpenCV (a pharmacy sign, a newspaper page, a dark moment, a bus stop),
with a little camera shake, 640x360 at 10 fps. Audio: silence, then J.F. Kennedy's "ask not"
line (jfk.wav from whisper.cpp, MIT; the speech is a US public-domain work), then a sentence
spoken by egocli's own TTS role (hibari-tts, Apache-2.0). The creation time is fixed so the
events land on a known wall-clock time.

Usage: python scripts/make_example.py [--jfk ../shared/data/audio/jfk.wav] [--out examples/glasses.mp4]
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path

import numpy as np

FPS, W, H, RATE = 10, 640, 360, 16000
SPEECH_AT = 2.0          # jfk starts here (seconds)
NOTE_AT = 15.0           # the TTS sentence starts here
NOTE = "Remember, the house keys are in the blue bowl by the front door."
CREATED = "2026-11-28T10:00:00.000000Z"
SCENES = [(0.0, "pharmacy"), (6.0, "newspaper"), (12.0, "dark"), (13.0, "bus"), (19.0, "kitchen")]
DURATION = 24.0


def _text(img: np.ndarray, text: str, org: tuple[int, int], scale: float, colour: tuple[int, int, int],
          thick: int = 2) -> None:
    import cv2

    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def scene(name: str) -> np.ndarray:
    """A 2x oversized canvas for a scene (the camera moves over it)."""
    import cv2

    img = np.full((H + 40, W + 40, 3), 200, np.uint8)
    if name == "pharmacy":
        img[:] = (60, 120, 60)
        cv2.rectangle(img, (60, 60), (620, 300), (240, 240, 240), -1)
        cv2.drawMarker(img, (140, 180), (40, 160, 40), cv2.MARKER_CROSS, 120, 30)
        _text(img, "PHARMACY", (230, 170), 2.0, (30, 110, 30), 5)
        _text(img, "Open 9-18", (250, 250), 1.3, (40, 40, 40), 3)
    elif name == "newspaper":
        img[:] = (225, 230, 235)
        _text(img, "CITY NEWS", (150, 90), 2.2, (20, 20, 20), 5)
        _text(img, "New tram line opens in March", (70, 170), 1.1, (30, 30, 30), 2)
        for y in range(210, 360, 22):
            cv2.line(img, (70, y), (600, y), (120, 120, 120), 6)
    elif name == "dark":
        img[:] = (6, 6, 8)
    elif name == "bus":
        img[:] = (180, 140, 90)
        cv2.rectangle(img, (80, 80), (600, 300), (30, 30, 200), -1)
        _text(img, "BUS 12", (200, 180), 2.2, (255, 255, 255), 5)
        _text(img, "City Centre", (220, 250), 1.3, (255, 255, 255), 3)
    else:
        img[:] = (90, 150, 200)
        cv2.circle(img, (200, 220), 90, (200, 60, 30), -1)
        cv2.rectangle(img, (380, 120), (560, 320), (30, 30, 30), -1)
        cv2.ellipse(img, (470, 110), (90, 25), 0, 0, 360, (60, 60, 60), -1)
    return img


def frames() -> list[np.ndarray]:
    """All video frames with a slow, small camera drift."""
    rnd = np.random.default_rng(3)
    out = []
    for i in range(int(DURATION * FPS)):
        t = i / FPS
        name = [n for start, n in SCENES if start <= t][-1]
        dx, dy = int(10 + 8 * np.sin(t * 1.3)), int(10 + 6 * np.cos(t * 0.9))
        img = scene(name)[dy:dy + H, dx:dx + W].copy()
        noise = rnd.normal(0, 3, img.shape)
        out.append(np.clip(img + noise, 0, 255).astype(np.uint8))
    return out


def audio(jfk: Path) -> np.ndarray:
    """16 kHz mono float32: room noise, jfk at SPEECH_AT, the TTS note at NOTE_AT."""
    import av

    from egocli.core.config import load_settings
    from egocli.models import registry

    rnd = np.random.default_rng(5)
    track = rnd.normal(0, 0.002, int(DURATION * RATE)).astype(np.float32)
    with av.open(str(jfk)) as c:
        speech = np.concatenate([f.to_ndarray().reshape(-1) for f in c.decode(audio=0)]).astype(np.float32)
    speech /= 32768.0
    at = int(SPEECH_AT * RATE)
    track[at:at + len(speech)] += speech
    pcm, rate = registry.load("tts", load_settings()).speak(NOTE)
    idx = (np.arange(int(len(pcm) * RATE / rate)) * rate / RATE).astype(int)
    note = pcm[idx] * 0.6
    at = int(NOTE_AT * RATE)
    track[at:at + len(note)] += note[: len(track) - at]
    return np.clip(track, -1, 1)


def write(out: Path, video: list[np.ndarray], pcm: np.ndarray) -> None:
    """Mux H.264 video and AAC audio into an MP4 with a fixed creation time."""
    import av

    with av.open(str(out), "w", options={"movflags": "+faststart"}) as c:
        c.metadata["creation_time"] = CREATED
        vs = c.add_stream("libx264", rate=FPS, options={"crf": "30", "preset": "medium"})
        vs.width, vs.height, vs.pix_fmt = W, H, "yuv420p"
        aus = c.add_stream("aac", rate=RATE, layout="mono")
        for i, img in enumerate(video):
            frame = av.VideoFrame.from_ndarray(img, format="bgr24")
            frame.pts, frame.time_base = i, Fraction(1, FPS)
            c.mux(vs.encode(frame))
        c.mux(vs.encode(None))
        s16 = (pcm * 32767).astype(np.int16)
        step = 1024
        for k in range(0, len(s16), step):
            af = av.AudioFrame.from_ndarray(s16[None, k:k + step], format="s16", layout="mono")
            af.sample_rate, af.pts, af.time_base = RATE, k, Fraction(1, RATE)
            c.mux(aus.encode(af))
        c.mux(aus.encode(None))


def main() -> None:
    """Build the example recording."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    repo = Path(__file__).resolve().parents[1]
    ap.add_argument("--jfk", type=Path, default=repo.parent / "shared" / "data" / "audio" / "jfk.wav")
    ap.add_argument("--out", type=Path, default=repo / "examples" / "glasses.mp4")
    args = ap.parse_args()
    write(args.out, frames(), audio(args.jfk))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
