"""Memory of N agents' language models on one machine: N processes each loading the GGUF
(llama.cpp mmaps it, so the page cache holds one copy) vs one process with one model and N
contexts. Figures from /proc/PID/smaps_rollup (RSS, PSS, private). Memory only, no timings.

    python bench/agent_memory.py [--model PATH] [--ctx 2048] [--n 1 2 4]

"no repack" turns off llama.cpp's weight repacking (use_extra_bufts), which otherwise copies the
quantised weights into private memory of every process.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

CHILD = r"""
import sys, time
import llama_cpp.llama_cpp as low
from llama_cpp import Llama
from llama_cpp._internals import LlamaContext
path, n_ctx, contexts, repack = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
if not repack:  # keep the weights in the mmapped file instead of repacked private copies
    default = low.llama_model_default_params
    def params():
        p = default()
        p.use_extra_bufts = False
        return p
    low.llama_model_default_params = params
llm = Llama(model_path=path, n_ctx=n_ctx, n_threads=1, verbose=False)
extra = [LlamaContext(model=llm._model, params=llm.context_params, verbose=False) for _ in range(contexts - 1)]
llm.eval(llm.tokenize(b"The quick brown fox jumps over the lazy dog."))  # touch the weights
print("ready", flush=True)
time.sleep(600)
"""


def rollup(pid: int) -> dict[str, int]:
    """kB figures of one process from /proc/PID/smaps_rollup."""
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, value = line.split(":", 1)
        out[key] = int(value.split()[0])
    return out


def measure(model: str, n_ctx: int, processes: int, contexts: int, repack: bool = True) -> dict[str, float]:
    """Start `processes` children with `contexts` contexts each; total and per-process MiB."""
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, model, str(n_ctx), str(contexts), str(int(repack))],
                              stdout=subprocess.PIPE, text=True) for _ in range(processes)]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(1)
        figures = [rollup(p.pid) for p in procs]
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    mib = 1024.0
    return {"rss_total": sum(f["Rss"] for f in figures) / mib, "pss_total": sum(f["Pss"] for f in figures) / mib,
            "private_total": sum(f["Private_Clean"] + f["Private_Dirty"] for f in figures) / mib,
            "rss_each": figures[0]["Rss"] / mib}


def main() -> None:
    """Print a table: agents, layout, RSS/PSS/private totals."""
    cache = Path(os.environ.get("EGOCLI_MODEL_CACHE", ".cache/models"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(cache / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"))
    parser.add_argument("--ctx", type=int, default=2048)
    parser.add_argument("--n", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    print(f"model {Path(args.model).name}, n_ctx {args.ctx}; MiB from /proc/PID/smaps_rollup")
    print("agents  layout                  RSS total  PSS total  private total  RSS per process")
    for n in args.n:
        layouts = (("N processes", n, 1, True), ("N processes, no repack", n, 1, False),
                   ("1 process, N contexts", 1, n, True))
        for layout, processes, contexts, repack in layouts:
            if n == 1 and layout.startswith("1 process"):
                continue
            f = measure(args.model, args.ctx, processes, contexts, repack)
            print(f"{n:>6}  {layout:<22} {f['rss_total']:>10.0f} {f['pss_total']:>10.0f} "
                  f"{f['private_total']:>14.0f} {f['rss_each']:>16.0f}")


if __name__ == "__main__":
    main()
