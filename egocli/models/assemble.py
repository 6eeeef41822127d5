"""Joining model files shipped in several PyPI packages into one cached file, once and safely."""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from egocli.core.errors import ModelError

CHUNK = 8 * 1024 * 1024


def part_paths(role: str, module_prefix: str, count: int, package_prefix: str) -> list[Path]:
    """The data file of each part package, in order (module `<prefix>N` with `get_part_path()`)."""
    paths: list[Path] = []
    for n in range(1, count + 1):
        try:
            module = importlib.import_module(f"{module_prefix}{n}")
        except ImportError as ex:
            raise ModelError(f"{role}: model package {package_prefix}{n} is not installed") from ex
        path = Path(module.get_part_path())
        if not path.is_file():
            raise ModelError(f"{role}: model part missing: {path}")
        paths.append(path)
    return paths


def assemble(role: str, parts: Sequence[Path], dest: Path, size: int | None = None,
             sha256: str | None = None) -> Iterator[int]:
    """Concatenate parts into dest, yielding bytes written so far; checks size and sha256.

    Writes to a temporary file beside dest and renames it only when complete and verified, so an
    interrupted run leaves no half-written model behind.
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    digest = hashlib.sha256()
    written = 0
    try:
        with tmp.open("wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while chunk := src.read(CHUNK):
                        out.write(chunk)
                        digest.update(chunk)
                        written += len(chunk)
                        yield written
        _verify(role, dest, written, digest.hexdigest(), size, sha256)
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)


def _verify(role: str, dest: Path, written: int, actual: str, size: int | None, sha256: str | None) -> None:
    if size is not None and written != size:
        raise ModelError(f"{role}: assembled {dest.name} has {written} bytes, expected {size}")
    if sha256 is not None and actual != sha256:
        raise ModelError(f"{role}: assembled {dest.name} has sha256 {actual[:12]}..., expected {sha256[:12]}...")


def file_sha256(path: Path) -> str:
    """The hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as src:
        while chunk := src.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def total_size(parts: Sequence[Path]) -> int:
    """The summed size of the parts in bytes."""
    return sum(p.stat().st_size for p in parts)
