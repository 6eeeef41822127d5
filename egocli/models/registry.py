"""Finds the model for each role, assembles part packages once, and loads backends (cached per process).

One typed loader per role is the entry point the rest of egocli uses (`load_llm(settings)` ->
PrefixCachedModel, `load_embedder(settings)` -> Embedder, ...); `load(role, settings)` is for code
that picks the role at run time. A role's setting (`settings.models[role]`, from flag >
EGOCLI_<ROLE> > config.toml) may be 'fake', a known model name (see catalog.SPECS), a path to a
model file or folder, or (llm, summarizer) an OpenAI-compatible server's URL (http://host:port/v1).
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from egocli.core.config import ROLES, Settings
from egocli.core.errors import ModelError, UsageError
from egocli.models import catalog
from egocli.models.base import (Embedder, Labeler, Model, Narrator, PrefixCachedModel, Reader, Speaker, TextModel,
                                Transcriber)
from egocli.models.catalog import ModelSpec

Progress = Callable[[int, int], None]
"""Called with (bytes done, bytes total) while a model is assembled."""

_MODEL_SUFFIXES = (".gguf", ".bin", ".pth", ".pt", ".onnx", ".safetensors", ".ggml")
_LOADED: dict[tuple[str, str, str, str], Model] = {}
_LOADING: dict[tuple[str, str, str, str], threading.Lock] = {}
_GUARD = threading.Lock()
"""One lock per model key: threads loading different models overlap, the same model loads once."""


@dataclass(frozen=True)
class Choice:
    """What a role resolves to: a backend and the model file or folder it will run."""

    role: str
    """The role asked for."""
    backend: str
    """Backend name ('llama.cpp', 'faster-whisper', 'fake', ...)."""
    model: str
    """Human-readable model name."""
    path: Path | None
    """Model file or folder (None for fakes; for assembled models, the cache path)."""
    spec: ModelSpec | None = None
    """The catalog entry, for packaged models."""
    extra: str = ""
    """Backend-specific extra: the mmproj path for the narrator."""
    licence: str = ""
    """Licence of the weights, where known."""


def _configured(role: str, settings: Settings) -> str | None:
    value = settings.models.get(role)
    if not value and role == "summarizer":
        value = settings.models.get("llm")
    return value.strip() if value else None


def resolve(role: str, settings: Settings) -> Choice:
    """The backend and model a role will use; does not load or assemble anything."""
    if role not in ROLES:
        raise UsageError(f"unknown model role '{role}' (roles: {', '.join(ROLES)})")
    value = _configured(role, settings)
    if value == "fake":
        return Choice(role, "fake", "deterministic fake", None)
    if value and value.startswith(("http://", "https://")):
        if role not in ("llm", "summarizer"):
            raise ModelError(f"{role}: a model server URL serves the llm and summarizer roles only ({value})")
        return Choice(role, "openai-http", value, None, extra=value)
    if role == "narrator":
        return _narrator_choice(value, settings)
    spec = catalog.spec_for(value or _default_key(role), role)
    if spec is not None:
        return Choice(role, spec.backend, spec.model, _spec_path(role, spec, settings), spec, licence=spec.licence)
    return _path_choice(role, value or "")


def _default_key(role: str) -> str:
    """The default model of a role; TTS falls back to espeak-ng when hibari-tts is not installed."""
    if role == "tts" and catalog.package_dir("hibari") is None:
        return "espeak"
    return catalog.DEFAULTS[role]


def _spec_path(role: str, spec: ModelSpec, settings: Settings) -> Path | None:
    if spec.source in ("parts", "whisper-parts"):
        return catalog.cache_path(spec, settings.model_cache)
    try:
        return catalog.packaged_path(role, spec)
    except ModelError:
        return None


def _path_choice(role: str, value: str) -> Choice:
    path = Path(value).expanduser()
    looks_like_path = os.sep in value or value.startswith("~") or value.lower().endswith(_MODEL_SUFFIXES)
    if not path.exists():
        if looks_like_path:
            raise ModelError(f"{role}: model file not found: {path}")
        raise ModelError(f"{role}: unknown model '{value}' (not a known model name, and no such file)")
    backend = {"llm": "llama.cpp", "summarizer": "llama.cpp", "embedder": "minilm-numpy",
               "labeler": "efficientnet-lite", "tts": "hibari"}.get(role)
    if role == "asr":
        backend = "faster-whisper" if path.is_dir() else "whisper.cpp"
    if backend is None:
        raise ModelError(f"{role}: cannot use a custom model file here ({path}); use one of the named models")
    return Choice(role, backend, path.name, path.resolve())


def _narrator_choice(value: str | None, settings: Settings) -> Choice:
    section = settings.section("narrator")
    if not value:
        raise ModelError("narrator: no vision model configured (set EGOCLI_NARRATOR=model.gguf,mmproj.gguf "
                         "or [models] narrator and [narrator] mmproj in config.toml)")
    model, _, mmproj = value.partition(",")
    mmproj = mmproj or str(section.get("mmproj", ""))
    path = Path(model.strip()).expanduser()
    if not path.is_file():
        raise ModelError(f"narrator: model file not found: {path}")
    if not mmproj:
        raise ModelError(f"narrator: no mmproj file given for {path} (use model.gguf,mmproj.gguf)")
    projector = Path(mmproj.strip()).expanduser()
    if not projector.is_file():
        raise ModelError(f"narrator: mmproj file not found: {projector}")
    return Choice("narrator", "llama.cpp-mtmd", path.name, path.resolve(), extra=str(projector.resolve()))


def status(choice: Choice) -> tuple[bool, str]:
    """(present, note): whether the model files are ready, and what happens otherwise."""
    spec = choice.spec
    if choice.backend == "fake":
        return True, "built in"
    if choice.backend == "openai-http":
        return True, "model server (asked on first use)"
    if spec is not None and spec.source in ("parts", "whisper-parts"):
        if _assembled_ok(spec, choice.path):
            return True, "assembled"
        if all(catalog.package_dir(f"{spec.module}{n}") for n in range(1, spec.parts + 1)):
            return True, "parts installed; assembled on first use"
        return False, f"install {spec.packages[0].split('==')[0]}..."
    if choice.path is None or not choice.path.exists():
        return False, f"install {spec.packages[0]}" if spec else "missing"
    return True, ""


def _assembled_ok(spec: ModelSpec, path: Path | None) -> bool:
    if path is None:
        return False
    target = path / "model.bin" if spec.source == "whisper-parts" else path
    return target.is_file() and (spec.size is None or target.stat().st_size == spec.size)


def describe(settings: Settings) -> list[dict[str, Any]]:
    """One row per role: role, backend, model, file, size, licence, present, note."""
    rows: list[dict[str, Any]] = []
    for role in ROLES:
        try:
            choice = resolve(role, settings)
        except ModelError as ex:
            rows.append({"role": role, "backend": "", "model": "", "file": "", "size": None,
                         "licence": "", "present": False, "note": str(ex).removeprefix(f"{role}: ")})
            continue
        present, note = status(choice)
        rows.append({"role": role, "backend": choice.backend, "model": choice.model,
                     "file": str(choice.path) if choice.path else "", "size": _size(choice),
                     "licence": choice.licence, "present": present, "note": note})
    return rows


def _size(choice: Choice) -> int | None:
    if choice.spec is not None and choice.spec.size is not None:
        return choice.spec.size
    path = choice.path
    if path is None or not path.exists():
        return None
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size


def prepare(role: str, settings: Settings, progress: Progress | None = None) -> Choice:
    """Resolve a role and make sure its files exist, assembling part packages if needed."""
    choice = resolve(role, settings)
    spec = choice.spec
    if spec is None or choice.backend == "fake":
        return choice
    if spec.source in ("parts", "whisper-parts"):
        if not _assembled_ok(spec, choice.path):
            _assemble(role, spec, settings.model_cache, progress)
        return choice
    return Choice(role, choice.backend, choice.model, catalog.packaged_path(role, spec), spec,
                  licence=choice.licence)


def _assemble(role: str, spec: ModelSpec, cache: Path, progress: Progress | None) -> None:
    from egocli.models import assemble

    if spec.source == "parts":
        package_prefix = spec.packages[0].split("==")[0].rstrip("0123456789")
        parts = assemble.part_paths(role, spec.module, spec.parts, package_prefix)
        dest = catalog.cache_path(spec, cache)
    else:
        parts = _whisper_parts(role, spec, catalog.cache_path(spec, cache))
        dest = catalog.cache_path(spec, cache) / "model.bin"
    total = assemble.total_size(parts)
    try:
        for done in assemble.assemble(role, parts, dest, spec.size, spec.sha256):
            if progress is not None:
                progress(done, total)
    except OSError as ex:
        raise ModelError(f"{role}: cannot write {dest}: {ex.strerror or ex}") from ex


def _whisper_parts(role: str, spec: ModelSpec, folder: Path) -> list[Path]:
    """The model.bin parts of a split CTranslate2 folder; copies its small files into folder."""
    import shutil

    dirs = [catalog.package_dir(f"{spec.module}{n}") for n in range(1, spec.parts + 1)]
    if any(d is None for d in dirs):
        raise ModelError(f"{role}: model packages {', '.join(spec.packages[1:])} are not all installed")
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        source = dirs[0] / "data" / name  # type: ignore[operator]
        if source.is_file():
            shutil.copyfile(source, folder / name)
    return [d / "data" / f"model.bin.part{n}" for n, d in enumerate(dirs, start=1)]  # type: ignore[operator]


BACKENDS = {
    "llama.cpp": "egocli.models.llamacpp:load_text_model",
    "minilm-numpy": "egocli.models.minilm:load_embedder",
    "faster-whisper": "egocli.models.whisper:load_faster_whisper",
    "whisper.cpp": "egocli.models.whispercpp:load_whisper_cpp",
    "efficientnet-lite": "egocli.models.efficientnet:load_labeler",
    "rapidocr": "egocli.models.ocr:load_reader",
    "hibari": "egocli.models.tts:load_hibari",
    "espeak-ng": "egocli.models.tts:load_espeak",
    "llama.cpp-mtmd": "egocli.models.mtmd:load_narrator",
    "openai-http": "egocli.models.openai_http:load_text_model",
}
"""Backend name -> 'module:function(choice, settings)' building the Protocol object."""


def load(role: str, settings: Settings, progress: Progress | None = None) -> Model:
    """The Protocol object for a role (loaded once per process and model file); prefer the typed loaders."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    choice = resolve(role, settings)
    if choice.backend == "fake":
        from egocli.models.fake import fake_for

        return fake_for(role)
    key = (choice.backend, str(choice.path), choice.extra, repr(sorted(settings.section(role).items())))
    with _GUARD:
        lock = _LOADING.setdefault(key, threading.Lock())
    with lock:
        if key not in _LOADED:
            choice = prepare(role, settings, progress)
            module_name, func = BACKENDS[choice.backend].split(":")
            _LOADED[key] = getattr(importlib.import_module(module_name), func)(choice, settings)
        return _LOADED[key]


def load_llm(settings: Settings, progress: Progress | None = None) -> PrefixCachedModel:
    """The text model answering questions (llama.cpp, or the echo fake): prefix-cached."""
    return cast(PrefixCachedModel, load("llm", settings, progress))


def load_summarizer(settings: Settings, progress: Progress | None = None) -> TextModel:
    """The text model writing HCC summaries (the llm unless configured apart)."""
    return cast(TextModel, load("summarizer", settings, progress))


def load_embedder(settings: Settings, progress: Progress | None = None) -> Embedder:
    """The sentence embedder for retrieval."""
    return cast(Embedder, load("embedder", settings, progress))


def load_asr(settings: Settings, progress: Progress | None = None) -> Transcriber:
    """The speech recogniser."""
    return cast(Transcriber, load("asr", settings, progress))


def load_labeler(settings: Settings, progress: Progress | None = None) -> Labeler:
    """The image labeler."""
    return cast(Labeler, load("labeler", settings, progress))


def load_ocr(settings: Settings, progress: Progress | None = None) -> Reader:
    """The text reader (OCR)."""
    return cast(Reader, load("ocr", settings, progress))


def load_tts(settings: Settings, progress: Progress | None = None) -> Speaker:
    """The speech synthesiser."""
    return cast(Speaker, load("tts", settings, progress))


def load_narrator(settings: Settings, progress: Progress | None = None) -> Narrator:
    """The vision-language model describing frames."""
    return cast(Narrator, load("narrator", settings, progress))


def forget() -> None:
    """Drop every loaded model from the per-process cache (frees memory; tests use it)."""
    _LOADED.clear()
