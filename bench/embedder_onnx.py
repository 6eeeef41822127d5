"""The numpy MiniLM embedder against an ONNX Runtime path for the same all-MiniLM-L6-v2 weights.

The ONNX graph is exported once from the package's weights (torch + transformers, the test extras)
into the model cache. Prints how close the two sets of vectors are (cosine per sentence) and, unless
--accuracy-only, the start-up (load) time and the throughput of each path in fresh processes.

    python bench/embedder_onnx.py [--accuracy-only] [--graph=PATH]
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np

SENTENCES = [f"event {i}: I put the {thing} {place}" for i, (thing, place) in enumerate(
    [("keys", "in the blue bowl"), ("phone", "on the charger"), ("pills", "next to the kettle"),
     ("glasses", "on the bedside table"), ("wallet", "in the coat pocket"), ("receipt", "in the drawer")] * 40)]
SENTENCES += ["a much longer line " * 60]  # truncated at 256 tokens by both paths


def _folder() -> Path:
    from egocli.core.config import load_settings
    from egocli.models import registry

    return registry.prepare("embedder", load_settings()).path


def export(folder: Path, out: Path) -> Path:
    """The transformer as an ONNX graph with dynamic batch and length (made once)."""
    if out.is_file():
        return out
    import torch
    from transformers import AutoModel

    bert = AutoModel.from_pretrained(str(folder)).eval().requires_grad_(False)

    class Wrapped(torch.nn.Module):
        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            return bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    model = Wrapped().eval()
    ids = torch.ones((2, 8), dtype=torch.long)
    out.parent.mkdir(parents=True, exist_ok=True)
    dynamic = {"input_ids": {0: "batch", 1: "length"}, "attention_mask": {0: "batch", 1: "length"},
               "last_hidden_state": {0: "batch", 1: "length"}}
    with torch.no_grad():
        torch.onnx.export(model, (ids, torch.ones_like(ids)), str(out), input_names=["input_ids", "attention_mask"],
                          output_names=["last_hidden_state"], dynamic_axes=dynamic, opset_version=17, dynamo=False)
    return out


class OnnxMiniLM:
    """Mean-pooled, L2-normalised MiniLM vectors from ONNX Runtime (one thread, as the numpy path)."""

    def __init__(self, folder: Path, graph: Path) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        self.session = ort.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=256)
        self.tokenizer.enable_padding()

    def embed(self, texts: list[str], batch: int = 32) -> np.ndarray:
        """One unit vector per text."""
        out = []
        for i in range(0, len(texts), batch):
            enc = self.tokenizer.encode_batch(texts[i:i + batch])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            pooled = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
            out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
        return np.concatenate(out)


def _timed(which: str, graph: Path) -> str:
    """Load and embed in a fresh process; returns 'load_s throughput_per_s'."""
    code = (f"import sys, time; sys.argv = ['x', '--child', '{which}', '{graph}']; t = time.perf_counter();"
            f"import runpy; runpy.run_path('{__file__}', run_name='__main__')")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def child(which: str, graph: Path) -> None:
    """(In a fresh process) load one path, embed the sentences, print the two timings."""
    started = time.perf_counter()
    folder = _folder()
    if which == "numpy":
        from egocli.core.config import load_settings
        from egocli.models import registry

        model = registry.load("embedder", load_settings())
    else:
        model = OnnxMiniLM(folder, graph)
    loaded = time.perf_counter()
    model.embed(SENTENCES)
    print(f"{loaded - started:.2f} {len(SENTENCES) / (time.perf_counter() - loaded):.0f}")


def main() -> None:
    """Compare the vectors, then (unless --accuracy-only) the start-up and throughput."""
    from egocli.core.config import load_settings
    from egocli.models import registry

    folder = _folder()
    where = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--graph=")), None)
    graph = export(folder, Path(where) if where else load_settings().model_cache / "onnx" / "all-MiniLM-L6-v2.onnx")
    ours = registry.load("embedder", load_settings()).embed(SENTENCES)
    onnx = OnnxMiniLM(folder, graph).embed(SENTENCES)
    cosine = np.sum(ours * onnx, axis=1)
    print(f"cosine numpy vs onnxruntime over {len(SENTENCES)} texts: min {cosine.min():.6f} mean {cosine.mean():.6f}")
    if "--accuracy-only" in sys.argv:
        return
    for which in ("numpy", "onnx"):
        load_s, rate = _timed(which, graph).split()
        print(f"{which:6} load {load_s} s (fresh process, incl. imports)  {rate} texts/s (1 thread)")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], Path(sys.argv[3]))
    else:
        main()
