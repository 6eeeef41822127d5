"""The JSON control protocol shared by the WebRTC data channel and the WebSocket, and the
WebSocket's binary framing. docs/protocol.md is the reference; this module enforces it.

Control messages are JSON objects with a string `type`. Binary WebSocket messages carry one
kind byte followed by the payload:

    0x01  PCM audio, signed 16-bit little-endian, interleaved, at the rate/channels given in hello
          (client -> server); 16 kHz mono (server -> client, the spoken answer)
    0x02  one JPEG-encoded camera frame (client -> server)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from egocli.core.bounds import MAX_JSON_DEPTH, json_depth_ok

PROTOCOL_VERSION = 1

KIND_AUDIO = 0x01
KIND_JPEG = 0x02

MAX_CONTROL_BYTES = 16 * 1024
"""Largest JSON control message accepted."""
MAX_AUDIO_BYTES = 64 * 1024
"""Largest PCM chunk accepted in one WebSocket message (about 0.3 s of 48 kHz stereo)."""
MAX_JPEG_BYTES = 2 * 1024 * 1024
"""Largest JPEG frame accepted."""
MAX_HELLO_BYTES = 4 * 1024
"""Largest first message (the hello, which may carry the token): nothing bigger is parsed before
the token is checked."""
MAX_OFFER_BYTES = 64 * 1024
"""Largest POST /offer body."""
MAX_QUESTION_CHARS = 1000
"""Longest typed question."""

CLIENT_TYPES = frozenset({"hello", "ask", "ptt", "chess", "stop", "ping", "pong", "bye", "confirm", "reply"})
"""Message types a client may send."""
SERVER_TYPES = frozenset({"welcome", "transcript", "event", "answer", "chess_result", "stop", "ping",
                          "pong", "bye", "error", "confirm", "clarify", "reminder"})
"""Message types the server sends."""

AUDIO_RATES = (8000, 16000, 24000, 32000, 44100, 48000)
"""Sample rates a WebSocket client may declare in hello."""


class ProtocolError(ValueError):
    """A message that breaks the protocol; `code` is the error code sent back."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def parse_control(raw: str | bytes) -> dict[str, Any]:
    """Decode and validate one control message from a client."""
    size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
    if size > MAX_CONTROL_BYTES:
        raise ProtocolError("too_large", f"control message of {size} bytes (limit {MAX_CONTROL_BYTES})")
    if not json_depth_ok(raw):  # a linear scan: '[' * 15000 never reaches json.loads' recursion
        raise ProtocolError("too_deep", f"control message nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        msg = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError) as ex:  # JSONDecodeError is a ValueError
        raise ProtocolError("bad_json", f"not JSON: {ex}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError("bad_message", "a control message is a JSON object with a string 'type'")
    if msg["type"] not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {msg['type']!r}")
    if msg["type"] == "ask":
        text = msg.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ProtocolError("bad_message", "ask needs a non-empty 'text'")
        if len(text) > MAX_QUESTION_CHARS:
            raise ProtocolError("too_large", f"question longer than {MAX_QUESTION_CHARS} characters")
    if isinstance(msg.get("text"), str):  # a lone surrogate ("\ud800") could not be sent back or stored
        msg["text"] = msg["text"].encode("utf-8", "replace").decode("utf-8")
    if msg["type"] == "ptt" and not isinstance(msg.get("on"), bool):
        raise ProtocolError("bad_message", "ptt needs a boolean 'on'")
    if msg["type"] in ("confirm", "reply") and not isinstance(msg.get("id"), str):
        raise ProtocolError("bad_message", f"{msg['type']} needs the string 'id' of the question it answers")
    if msg["type"] == "confirm" and not isinstance(msg.get("yes"), bool):
        raise ProtocolError("bad_message", "confirm needs a boolean 'yes'")
    if msg["type"] == "reply":
        _check_text(msg.get("text"), "reply")
    return msg


def _no_constant(token: str) -> Any:
    raise ValueError(f"{token} is not a JSON number")


def _check_text(text: Any, kind: str) -> None:
    if not isinstance(text, str) or not text.strip():
        raise ProtocolError("bad_message", f"{kind} needs a non-empty 'text'")
    if len(text) > MAX_QUESTION_CHARS:
        raise ProtocolError("too_large", f"{kind} text longer than {MAX_QUESTION_CHARS} characters")


def encode(msg: dict[str, Any]) -> str:
    """A server message as compact JSON text."""
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def error(code: str, message: str, ref: Any = None) -> dict[str, Any]:
    """An error message (ref: the id of the client message it answers, if any)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["ref"] = ref
    return out


@dataclass(frozen=True)
class AudioFormat:
    """What a WebSocket client's PCM chunks are."""

    rate: int = 16000
    """Samples per second."""
    channels: int = 1
    """1 (mono) or 2 (interleaved stereo)."""


def audio_format(hello: dict[str, Any]) -> AudioFormat:
    """The audio format a WebSocket hello declares (default 16 kHz mono)."""
    spec = hello.get("audio") or {}
    if not isinstance(spec, dict):
        raise ProtocolError("bad_message", "hello 'audio' must be an object")
    rate, channels = spec.get("rate", 16000), spec.get("channels", 1)
    if rate not in AUDIO_RATES or channels not in (1, 2):
        raise ProtocolError("bad_message", f"unsupported audio: rate {rate} (one of {AUDIO_RATES}), "
                                           f"channels {channels} (1 or 2)")
    return AudioFormat(int(rate), int(channels))


def split_binary(data: bytes) -> tuple[int, bytes]:
    """(kind, payload) of a binary WebSocket message, checking kind and size."""
    if not data:
        raise ProtocolError("bad_frame", "empty binary message")
    kind, payload = data[0], data[1:]
    limit = {KIND_AUDIO: MAX_AUDIO_BYTES, KIND_JPEG: MAX_JPEG_BYTES}.get(kind)
    if limit is None:
        raise ProtocolError("bad_frame", f"unknown binary kind 0x{kind:02x}")
    if len(payload) > limit:
        raise ProtocolError("too_large", f"binary payload of {len(payload)} bytes (limit {limit})")
    return kind, payload


def pack(kind: int, payload: bytes) -> bytes:
    """One binary WebSocket message."""
    return bytes([kind]) + payload
