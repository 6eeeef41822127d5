"""The labeler's ONNX copy: made once in the model cache, same labels as torch, no torch import after."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow


def test_onnx_copy_gives_the_torch_labels_without_importing_torch(tmp_path):
    import cv2

    from egocli.core.config import load_settings
    from egocli.ingest.decode import video_frames
    from egocli.models import registry
    from egocli.models.efficientnet import EfficientNetLabeler

    weights = registry.prepare("labeler", load_settings()).path
    reference = EfficientNetLabeler(weights)  # no cache: torch
    exported = EfficientNetLabeler(weights, cache=tmp_path)
    assert (reference.backend, exported.backend) == ("torch", "onnxruntime")
    assert len(list(tmp_path.glob("*.onnx"))) == 1
    frames = [f for _, f in video_frames(REPO / "examples" / "glasses.mp4", 0.25)]
    for frame in frames:
        want, got = reference.labels(frame, 5), exported.labels(frame, 5)
        assert [n for n, _ in got] == [n for n, _ in want]
        assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-4)
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), frames[0])
    code = (f"import sys, json, cv2; from pathlib import Path; from egocli.models.efficientnet import "
            f"EfficientNetLabeler as L; m = L(Path({str(weights)!r}), cache=Path({str(tmp_path)!r})); "
            f"print(json.dumps([m.backend, 'torch' in sys.modules, m.labels(cv2.imread({str(image)!r}), 1)]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    backend, torch_loaded, labels = json.loads(out.stdout)
    assert backend == "onnxruntime" and not torch_loaded
    assert labels[0][0] == reference.labels(frames[0], 1)[0][0]


def test_damaged_onnx_copy_is_rebuilt(tmp_path):
    from egocli.core.config import load_settings
    from egocli.models import registry
    from egocli.models.efficientnet import EfficientNetLabeler

    weights = registry.prepare("labeler", load_settings()).path
    EfficientNetLabeler(weights, cache=tmp_path)
    copy = next(tmp_path.glob("*.onnx"))
    copy.write_bytes(b"not an onnx file")
    again = EfficientNetLabeler(weights, cache=tmp_path)
    assert again.backend == "onnxruntime" and copy.stat().st_size > 1_000_000
