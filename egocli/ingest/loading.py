"""Start-up for ingest: load only the models a file needs, all at once on threads.

A file without an audio track loads no speech recogniser; a `--no-video` run loads no labeler or
OCR. The loads overlap (the registry loads each model once under a per-model lock), and with them
the face detector used for redaction, so a short clip waits for the slowest model, not for the sum."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from egocli.ingest.profile import StageClock


def roles_needed(models: Any, video: bool, audio: bool) -> list[str]:
    """The model roles an ingest of this file uses."""
    roles = ["labeler", "ocr"] if video else []
    if video and models.configured("narrator"):
        roles.append("narrator")
    return roles + (["asr"] if audio else [])


def load_models(models: Any, video: bool, audio: bool, redactor: Any, clock: StageClock) -> dict[str, Any]:
    """{role: model} for the roles needed, loaded in parallel; the redactor's face detector warmed too."""
    roles = roles_needed(models, video, audio)

    def load(role: str) -> Any:
        with clock.stage(f"load {role}"):
            return models.load(role)

    def warm_faces() -> None:
        with clock.stage("load face detector"):
            redactor.frame(np.zeros((64, 64, 3), np.uint8))

    with ThreadPoolExecutor(max_workers=max(1, len(roles) + 1), thread_name_prefix="load") as pool:
        faces = pool.submit(warm_faces) if redactor is not None and redactor.policy.faces else None
        futures = {role: pool.submit(load, role) for role in roles}
        loaded = {role: f.result() for role, f in futures.items()}
        if faces is not None:
            faces.result()
    return loaded
