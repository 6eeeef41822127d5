"""Deterministic recordings for tests, benchmarks and demos: loop a real clip into a long one."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np


def loop_recording(src: Path, dst: Path, times: int, fps: int = 10) -> float:
    """Write `src` played `times` times back to back (H.264 + AAC, 16 kHz mono); returns seconds."""
    import av

    with av.open(str(src)) as inp:
        frames = [f.to_ndarray(format="bgr24") for f in inp.decode(video=0)]
    with av.open(str(src)) as inp:
        res = av.AudioResampler(format="s16", layout="mono", rate=16000)
        pcm = np.concatenate([o.to_ndarray().reshape(-1) for f in inp.decode(audio=0) for o in res.resample(f)])
    with av.open(str(dst), "w") as out:
        vs = out.add_stream("libx264", rate=fps, options={"preset": "ultrafast"})
        vs.width, vs.height, vs.pix_fmt = frames[0].shape[1], frames[0].shape[0], "yuv420p"
        aus = out.add_stream("aac", rate=16000, layout="mono")
        for i in range(len(frames) * times):
            vf = av.VideoFrame.from_ndarray(frames[i % len(frames)], format="bgr24")
            vf.pts, vf.time_base = i, Fraction(1, fps)
            out.mux(vs.encode(vf))
        out.mux(vs.encode(None))
        allpcm = np.tile(pcm, times)
        for k in range(0, len(allpcm), 1024):
            af = av.AudioFrame.from_ndarray(allpcm[None, k:k + 1024], format="s16", layout="mono")
            af.sample_rate, af.pts, af.time_base = 16000, k, Fraction(1, 16000)
            out.mux(aus.encode(af))
        out.mux(aus.encode(None))
    return len(frames) * times / fps
