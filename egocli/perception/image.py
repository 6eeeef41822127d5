"""Camera images as BGR arrays: the one place that decodes them (JPEG/PNG bytes, files, video frames)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Protocol, Union

import numpy as np

from egocli.core.errors import EgoError, InputError

MAX_PIXELS = 40_000_000
"""The most pixels an image may have to be decoded (40 MP: a 12 MP phone photo fits three times over, while a
30000x30000 PNG of 875 KB, which would take 2.7 GB as BGR, is refused from its header before decoding)."""


class ImageTooLarge(EgoError):
    """An image whose header says it has more pixels than MAX_PIXELS (exit 2); nothing was decoded. Not a
    ValueError, so callers that turn an undecodable image into their own message pass this one on."""

    exit_code = 2


class VideoFrame(Protocol):
    """A decoded video frame (av.VideoFrame from aiortc or PyAV)."""

    width: int
    """Pixels across."""
    height: int
    """Pixels down."""

    def to_ndarray(self, format: str) -> np.ndarray:  # noqa: A002 (PyAV's parameter name)
        """The pixels in a given pixel format."""
        ...


Frame = Union[bytes, bytearray, memoryview, np.ndarray, VideoFrame]
"""A camera frame as it arrives: encoded bytes, a BGR array, or a decoded video frame."""


def check_pixels(width: int, height: int, limit: int = MAX_PIXELS) -> None:
    """ImageTooLarge when width x height is over the pixel budget."""
    if width * height > limit:
        megapixels = f"{math.ceil(width * height / 1e5) / 10:.1f}".removesuffix(".0")  # never shown as the limit
        raise ImageTooLarge(f"image is {width}x{height} ({megapixels} MP); the limit is {limit / 1e6:g} MP")


def image_size(data: bytes | bytearray | memoryview) -> tuple[int, int] | None:
    """(width, height) from an encoded image's header (PNG, JPEG, WebP, BMP, GIF, PNM), None when the bytes
    are none of those or the header is cut short. Only the header is read, never the pixels."""
    head = bytes(data[:32])
    try:
        if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
            return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        if head.startswith(b"\xff\xd8"):
            return _jpeg_size(memoryview(data))
        if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
            return _webp_size(bytes(data[:30]))
        if head.startswith(b"BM") and len(head) >= 26:
            return int.from_bytes(head[18:22], "little", signed=True), abs(int.from_bytes(head[22:26], "little",
                                                                                           signed=True))
        if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
            return int.from_bytes(head[6:8], "little"), int.from_bytes(head[8:10], "little")
        if head[:1] == b"P" and head[1:2] in b"1234567fF" and head[1:2]:
            return _pnm_size(bytes(data[:4096]))
    except (IndexError, ValueError):
        return None
    return None


def _jpeg_size(data: memoryview) -> tuple[int, int] | None:
    """The first frame header's (SOF0-15 but DHT/JPG/DAC) size, walking the segments from SOI."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # no length
            at += 2
            continue
        length = int.from_bytes(data[at + 2:at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if at + 9 > len(data):
                return None
            return int.from_bytes(data[at + 7:at + 9], "big"), int.from_bytes(data[at + 5:at + 7], "big")
        if length < 2:
            return None
        at += 2 + length
    return None


def _webp_size(head: bytes) -> tuple[int, int] | None:
    """The canvas size of a lossy (VP8), lossless (VP8L) or extended (VP8X) WebP."""
    chunk = head[12:16]
    if chunk == b"VP8X":
        return 1 + int.from_bytes(head[24:27], "little"), 1 + int.from_bytes(head[27:30], "little")
    if chunk == b"VP8L":
        bits = int.from_bytes(head[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 ":
        return int.from_bytes(head[26:28], "little") & 0x3FFF, int.from_bytes(head[28:30], "little") & 0x3FFF
    return None


def _pnm_size(head: bytes) -> tuple[int, int] | None:
    """Width and height of a PBM/PGM/PPM/PFM (the first two numbers after the magic) or a PAM (its tags)."""
    text = b"\n".join(line.split(b"#")[0] for line in head[2:].splitlines()).split()
    if head[1:2] == b"7":
        tags = dict(zip(text[0::2], text[1::2]))
        return int(tags[b"WIDTH"]), int(tags[b"HEIGHT"])
    return int(text[0]), int(text[1])


def to_bgr(frame: Frame) -> np.ndarray:
    """A frame as a BGR uint8 array; ValueError when encoded bytes cannot be decoded, ImageTooLarge (before
    decoding) when the header says it is over MAX_PIXELS or an image of a format whose header is not read."""
    import cv2

    if isinstance(frame, (bytes, bytearray, memoryview)):
        size = image_size(frame)
        if size is None:
            raise ValueError("not a decodable JPEG (nor PNG, WebP, BMP, GIF or PNM)")
        check_pixels(*size)
        data = np.frombuffer(frame, np.uint8)
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
        if image is None:
            raise ValueError("not a decodable JPEG")
        return image
    if isinstance(frame, np.ndarray):
        return frame
    check_pixels(frame.width, frame.height)  # a decoded WebRTC frame: refused before its conversion
    return frame.to_ndarray(format="bgr24")


def read_image(path: str | Path) -> np.ndarray:
    """A BGR uint8 image from a file; InputError when it is missing or not an image."""
    file = Path(path)
    if not file.is_file():
        raise InputError(f"{path}: no such file")
    try:
        with file.open("rb") as fh:
            head = fh.read(1 << 16)
        size = image_size(head)
        if size is not None:  # refused before the whole file is even read
            check_pixels(*size)
        return to_bgr(file.read_bytes())
    except ImageTooLarge as ex:
        raise ImageTooLarge(f"{path}: {ex}") from None
    except ValueError as ex:
        raise InputError(f"{path}: not an image OpenCV can read") from ex
