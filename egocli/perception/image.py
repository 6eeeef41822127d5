"""Camera images as BGR arrays: the one place that decodes them (JPEG/PNG bytes, files, video frames)."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, Union

import numpy as np

from egocli.core.errors import InputError


class VideoFrame(Protocol):
    """A decoded video frame (av.VideoFrame from aiortc or PyAV)."""

    def to_ndarray(self, format: str) -> np.ndarray:  # noqa: A002 (PyAV's parameter name)
        """The pixels in a given pixel format."""
        ...


Frame = Union[bytes, bytearray, memoryview, np.ndarray, VideoFrame]
"""A camera frame as it arrives: encoded bytes, a BGR array, or a decoded video frame."""


def to_bgr(frame: Frame) -> np.ndarray:
    """A frame as a BGR uint8 array; ValueError when encoded bytes cannot be decoded."""
    import cv2

    if isinstance(frame, (bytes, bytearray, memoryview)):
        data = np.frombuffer(frame, np.uint8)
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
        if image is None:
            raise ValueError("not a decodable JPEG")
        return image
    if isinstance(frame, np.ndarray):
        return frame
    return frame.to_ndarray(format="bgr24")


def read_image(path: str | Path) -> np.ndarray:
    """A BGR uint8 image from a file; InputError when it is missing or not an image."""
    file = Path(path)
    if not file.is_file():
        raise InputError(f"{path}: no such file")
    try:
        return to_bgr(file.read_bytes())
    except ValueError as ex:
        raise InputError(f"{path}: not an image OpenCV can read") from ex
