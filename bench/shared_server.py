"""bench/wearers.py's shared-server layout: one llama-server on the machine (`egocli models serve`, parallel
slots and continuous batching), every agent's text model pointed at it (`[llm] url`), and the agents'
perception threads sized to the cores the server leaves.

Also the summary both layouts share: per N, each wearer's p50/p95 and memory (the agent's, plus its share of
the server's), and the largest N whose every wearer keeps p50 under 2 s and under 4 s."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

LIMITS_S = (2.0, 4.0)
"""The p50 limits the summary reports the largest N for."""


def agent_config(base: str, url: str | None, server_threads: int, agents: int) -> str:
    """config.toml for the agents: own models (`base` as is) or the shared server's URL and their speech
    recognition and OCR threads sized to the cores the server leaves (llamaserver.perception_threads)."""
    from egocli.models.llamaserver import perception_threads

    if url is None:
        return base
    left = perception_threads(server_threads, agents)
    return (f'{base}url = "{url}"\n\n[asr]\nthreads = {left}\n\n[ocr]\nthreads = {left}\n\n'
            f'[labeler]\nthreads = 1\n')


def serve_args(port: int, n: int, threads: int, model: str | None, context: int = 4096) -> list[str]:
    """`egocli models serve ...` for N wearers: two slots a wearer (each agent's ask core and its live window
    are two prompts kept apart; the server's RAM prompt cache keeps what an evicted slot held)."""
    return ["models", "serve", "--port", str(port), "--slots", str(2 * n), "--context", str(context),
            "--threads", str(threads), *(["--model", model] if model else [])]


def wait_ready(port: int, proc: Any, timeout: float = 300.0) -> None:
    """Wait until the server on a loopback port has loaded its model (GET /health says ok)."""
    import json
    import time
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama-server exited ({proc.returncode})")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as resp:
                if json.load(resp).get("status") == "ok":
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"llama-server not ready within {timeout:.0f} s")


def _p50(delays: list[float]) -> float:
    return float(np.percentile(delays, 50)) if delays else math.nan


def summary(by_setup: dict[str, list[Any]], server_memory: dict[str, tuple[float, float]], questions: int) -> list[str]:
    """Lines: per layout and N, p50/p95 per wearer and memory per wearer; then the largest N per limit."""
    lines = ["layout  N  p50 s per wearer            p95 s (worst)  MiB per wearer (agent PSS + server PSS / N)"]
    best: dict[tuple[str, float], int] = {}
    for name, results in by_setup.items():
        if not name.startswith("janus"):
            continue
        layout = "shared" if name.endswith("shared") else "own"
        n = int(name.split("=")[1].split()[0])
        p50s = [_p50(r.delays) for r in results]
        p95 = max((float(np.percentile(r.delays, 95)) for r in results if r.delays), default=math.nan)
        server_pss = server_memory.get(name, (0.0, 0.0))[0]
        per = [r.pss + server_pss / n for r in results]
        lines.append(f"{layout:<7} {n:>2}  {' '.join(f'{p:5.2f}' for p in p50s):<26} {p95:>6.2f}        "
                     f"{np.nanmean(per) if per else math.nan:7.0f}"
                     + (f"  (server PSS {server_pss:.0f})" if server_pss else ""))
        complete = all(len(r.delays) == questions for r in results) and bool(results)
        for limit in LIMITS_S:
            if complete and all(p < limit for p in p50s):
                best[(layout, limit)] = max(best.get((layout, limit), 0), n)
    for layout in ("own", "shared"):
        tried = [n for n in by_setup if n.startswith("janus") and n.endswith("shared") == (layout == "shared")]
        if tried:
            lines.append(f"{layout}: largest N with every answer heard and p50 < "
                         + ", < ".join(f"{limit:.0f} s: {best.get((layout, limit), 'none')}" for limit in LIMITS_S))
    return lines
