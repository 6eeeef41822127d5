"""Sentence embeddings from a BERT-style sentence-transformers folder, run in plain numpy.

Importing sentence-transformers costs 12-14 s on the target machine (it pulls in transformers
and torch), which would make every question wait. all-MiniLM-L6-v2 is small (6 layers, 384 wide),
so this module runs its forward pass directly: `tokenizers` for the word pieces, numpy for the
math, weights read straight from `model.safetensors`. It loads in a fraction of a second and
gives the same vectors as sentence-transformers (checked in tests/models/test_embedder.py).
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from egocli.core.errors import ModelError

if TYPE_CHECKING:
    from egocli.core.config import Settings
    from egocli.models.registry import Choice

_DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": None, "I64": np.int64}


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """All tensors of a .safetensors file as float32/int64 numpy arrays (no torch needed)."""
    data = path.read_bytes()
    (header_len,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + header_len])
    base = 8 + header_len
    tensors: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        raw = data[base + start:base + end]
        if info["dtype"] == "BF16":
            as_u32 = np.frombuffer(raw, dtype=np.uint16).astype(np.uint32) << 16
            array = as_u32.view(np.float32)
        elif info["dtype"] in _DTYPES:
            array = np.frombuffer(raw, dtype=_DTYPES[info["dtype"]])
        else:
            raise ValueError(f"unsupported tensor dtype {info['dtype']} for {name}")
        array = array.reshape(info["shape"])
        tensors[name] = array.astype(np.float32) if array.dtype == np.float16 else array
    return tensors


def _erf(x: np.ndarray) -> np.ndarray:
    """Error function (Abramowitz & Stegun 7.1.26, max error 1.5e-7), vectorised."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _erf_function() -> Callable[[np.ndarray], np.ndarray]:
    """scipy's erf ufunc when scipy is installed (3x faster), else the numpy approximation."""
    try:
        from scipy.special import erf
    except ImportError:
        return _erf
    scipy_erf: Callable[[np.ndarray], np.ndarray] = erf
    return scipy_erf


def _gelu(x: np.ndarray, erf: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    inner = erf(x * np.float32(1.0 / np.sqrt(2.0)))
    inner += 1.0
    inner *= x
    inner *= 0.5
    return inner.astype(np.float32, copy=False)


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class _Bert:
    """The encoder stack of a BertModel, numpy only, inference only."""

    def __init__(self, weights: dict[str, np.ndarray], config: dict) -> None:
        self.w = {k.removeprefix("bert."): v for k, v in weights.items()}
        for key in [k for k in self.w if k.endswith(".weight") and self.w[k].ndim == 2 and "embeddings" not in k]:
            self.w[key] = np.ascontiguousarray(self.w[key].T)  # (in, out): one sgemm per dense layer
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self._erf = _erf_function()
        if config.get("hidden_act", "gelu") != "gelu":
            raise ValueError(f"unsupported activation {config.get('hidden_act')}")

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        weight = self.w[f"{name}.weight"]
        flat = x.reshape(-1, x.shape[-1]) @ weight + self.w[f"{name}.bias"]
        return flat.reshape(*x.shape[:-1], weight.shape[1])

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        return _layer_norm(x, self.w[f"{name}.weight"], self.w[f"{name}.bias"], self.eps)

    def _attention(self, x: np.ndarray, bias: np.ndarray, prefix: str) -> np.ndarray:
        b, n, d = x.shape
        h, hd = self.heads, d // self.heads

        def split(t: np.ndarray) -> np.ndarray:
            return t.reshape(b, n, h, hd).transpose(0, 2, 1, 3)

        q = split(self._dense(x, f"{prefix}.self.query"))
        k = split(self._dense(x, f"{prefix}.self.key"))
        v = split(self._dense(x, f"{prefix}.self.value"))
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(hd)) + bias
        scores -= scores.max(axis=-1, keepdims=True)
        probs = np.exp(scores)
        probs /= probs.sum(axis=-1, keepdims=True)
        context = (probs @ v).transpose(0, 2, 1, 3).reshape(b, n, d)
        return self._norm(self._dense(context, f"{prefix}.output.dense") + x, f"{prefix}.output.LayerNorm")

    def forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Token states (batch, length, hidden) for padded ids and their 0/1 attention mask."""
        n = ids.shape[1]
        x = (self.w["embeddings.word_embeddings.weight"][ids]
             + self.w["embeddings.position_embeddings.weight"][:n][None, :, :]
             + self.w["embeddings.token_type_embeddings.weight"][0][None, None, :])
        x = self._norm(x, "embeddings.LayerNorm").astype(np.float32)
        bias = ((1.0 - mask[:, None, None, :].astype(np.float32)) * np.float32(-1e9)).astype(np.float32)
        for i in range(self.layers):
            p = f"encoder.layer.{i}"
            x = self._attention(x, bias, f"{p}.attention")
            inner = _gelu(self._dense(x, f"{p}.intermediate.dense"), self._erf)
            x = self._norm(self._dense(inner, f"{p}.output.dense") + x, f"{p}.output.LayerNorm")
        return x


@contextmanager
def _blas_threads(threads: int) -> Iterator[None]:
    """Limit BLAS threads while embedding: the small matmuls here run ~3x faster on one thread than
    on two busy-waiting threads when other models share the CPU. No-op without threadpoolctl."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield
        return
    with threadpool_limits(limits=threads, user_api="blas"):
        yield


class MiniLMEmbedder:
    """An Embedder for a sentence-transformers BERT folder (mean pooling, L2-normalised)."""

    def __init__(self, folder: Path, max_length: int | None = None, batch_size: int = 32, threads: int = 1) -> None:
        from tokenizers import Tokenizer

        self.name = folder.name if folder.name != "model" else folder.parent.name
        self.batch_size = batch_size
        self.threads = threads
        try:
            config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
            st_config = folder / "sentence_bert_config.json"
            limit = json.loads(st_config.read_text(encoding="utf-8")).get("max_seq_length", 256) \
                if st_config.exists() else 256
            self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
            self._bert = _Bert(read_safetensors(folder / "model.safetensors"), config)
        except Exception as ex:  # tokenizers raises plain Exception
            raise ModelError(f"embedder: cannot load {folder}: {ex}") from ex
        self.dim = int(config["hidden_size"])
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=min(max_length or limit, int(config["max_position_embeddings"])))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """A float32 matrix (len(texts), dim), rows L2-normalised."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch([str(t) for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        with _blas_threads(self.threads):
            for start in range(0, len(order), self.batch_size):
                rows = order[start:start + self.batch_size]
                out[rows] = self._embed_batch([encodings[i].ids for i in rows])
        return out

    def _embed_batch(self, id_lists: list[list[int]]) -> np.ndarray:
        length = max(len(ids) for ids in id_lists)
        ids = np.zeros((len(id_lists), length), dtype=np.int64)
        mask = np.zeros((len(id_lists), length), dtype=np.float32)
        for row, seq in enumerate(id_lists):
            ids[row, :len(seq)] = seq
            mask[row, :len(seq)] = 1.0
        states = self._bert.forward(ids, mask)
        pooled = (states * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)


def load_embedder(choice: Choice, settings: Settings) -> MiniLMEmbedder:
    """Build the numpy MiniLM Embedder for a resolved embedder choice (a sentence-transformers folder)."""
    if choice.path is None:
        raise ModelError("embedder: no model folder resolved")
    if not (choice.path / "model.safetensors").is_file():
        raise ModelError(f"embedder: model file not found: {choice.path / 'model.safetensors'}")
    section = settings.section("embedder")
    return MiniLMEmbedder(choice.path, batch_size=int(section.get("batch_size", 32)),
                          threads=int(section.get("threads", 1)))
