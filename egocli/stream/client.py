"""A Python client for `egocli serve` over either transport: the reference for glasses firmware,
and what the tests and bench/serve.py drive. Microphone and camera are fed from arrays."""

from __future__ import annotations

import asyncio
import fractions
import json
import ssl
import time
from abc import ABC, abstractmethod
from collections import deque
from typing import Any

import numpy as np

from egocli.perception.audio import RATE, level_db, resample
from egocli.stream.pcm import float_to_s16, s16_to_float
from egocli.stream.protocol import KIND_AUDIO, KIND_JPEG, pack

CHUNK = int(RATE * 0.02)
"""20 ms at 16 kHz: the client's audio pacing."""


class Feed:
    """What the client 'hears' and 'sees': queued 16 kHz speech (silence in between) and a frame loop."""

    def __init__(self) -> None:
        self._audio: deque[np.ndarray] = deque()
        self.frames: list[np.ndarray] = []
        self.fps = 10.0
        self.drained = asyncio.Event()
        self.drained_at = 0.0

    def say(self, samples: np.ndarray) -> None:
        """Queue speech (16 kHz mono float32), cut into 20 ms chunks."""
        samples = np.asarray(samples, np.float32)
        pad = (-samples.size) % CHUNK
        samples = np.concatenate([samples, np.zeros(pad, np.float32)])
        self._audio.extend(samples.reshape(-1, CHUNK))
        self.drained.clear()

    def next_chunk(self) -> np.ndarray:
        """The next 20 ms of microphone audio."""
        if self._audio:
            chunk = self._audio.popleft()
            if not self._audio:
                self.drained_at = time.monotonic()
                self.drained.set()
            return chunk
        return np.zeros(CHUNK, np.float32)

    def frame(self, index: int) -> np.ndarray | None:
        """Frame number `index` of the looping camera feed."""
        return self.frames[index % len(self.frames)] if self.frames else None


class _Base(ABC):
    """Shared by both transports: control messages in, answer audio levels in; each transport says how it
    sends a message and hangs up."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.tls = tls
        """ssl.SSLContext trusting the server's certificate for https:// URLs (None: system default)."""
        self.feed = Feed()
        self.inbox: list[dict[str, Any]] = []
        self._new = asyncio.Event()
        self.audio_levels: list[tuple[float, float]] = []
        """(monotonic time, dBFS) of each received answer-audio chunk."""
        self.tasks: list[asyncio.Task[Any]] = []

    @abstractmethod
    async def _hang_up(self) -> None:
        """Close the transport (each its own way)."""

    @abstractmethod
    async def send(self, msg: dict[str, Any]) -> None:
        """Send one control message (each transport its own way)."""

    async def close(self, bye: bool = True) -> None:
        """Say bye (unless vanishing), stop the media tasks and hang up."""
        if bye:
            await self.send({"type": "bye"})
            await asyncio.sleep(0.2)
        for task in self.tasks:
            task.cancel()
        await self._hang_up()

    def _got(self, raw: str) -> None:
        msg = json.loads(raw)
        msg["_at"] = time.monotonic()
        self.inbox.append(msg)
        self._new.set()
        if msg.get("type") == "ping":
            self.tasks.append(asyncio.ensure_future(self.send({"type": "pong", "t": msg.get("t")})))

    async def wait_for(self, kind: str, timeout: float = 30.0, **match: Any) -> dict[str, Any]:
        """The first message of a type (and matching fields) received so far or within timeout."""
        deadline = time.monotonic() + timeout
        while True:
            for msg in self.inbox:
                if msg.get("type") == kind and all(msg.get(k) == v for k, v in match.items()):
                    return msg
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind!r} message in {timeout} s; got {[m.get('type') for m in self.inbox]}")
            self._new.clear()
            try:
                await asyncio.wait_for(self._new.wait(), left)
            except asyncio.TimeoutError:
                pass

    def first_audio_after(self, t: float, min_db: float = -50.0) -> float | None:
        """When the first audible answer chunk arrived after monotonic time t."""
        return next((at for at, db in self.audio_levels if at >= t and db > min_db), None)


class _ChannelClient(_Base):
    """A WebRTC client: control messages on its data channel (`self.channel`), answer audio levels recorded."""

    channel: Any

    async def _listen(self, track: Any) -> None:
        from aiortc.mediastreams import MediaStreamError

        while True:
            try:
                frame = await track.recv()
            except MediaStreamError:
                return
            pcm = s16_to_float(frame.to_ndarray().reshape(-1), len(frame.layout.channels))
            self.audio_levels.append((time.monotonic(), level_db(pcm)))

    async def send(self, msg: dict[str, Any]) -> None:
        """Send a control message on the data channel."""
        if self.channel.readyState == "open":
            self.channel.send(json.dumps(msg))


class RtcClient(_ChannelClient):
    """A WebRTC client (aiortc): microphone as 48 kHz stereo like a browser, camera, data channel."""

    async def connect(self, url: str, token: str | None = None, video: bool = True) -> dict[str, Any]:
        """Offer to url + '/offer'; returns the server's JSON answer."""
        import aiohttp
        from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription

        self.pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
        self.channel = self.pc.createDataChannel("control")
        self.channel.on("message", self._got)
        self.opened = asyncio.Event()
        self.channel.on("open", self.opened.set)
        self.pc.addTrack(_mic_track(self.feed))
        if video:
            self.pc.addTrack(_camera_track(self.feed))
        self.pc.on("track", lambda track: self.tasks.append(asyncio.ensure_future(self._listen(track))))
        await self.pc.setLocalDescription(await self.pc.createOffer())
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with aiohttp.ClientSession() as http:
            async with http.post(url.rstrip("/") + "/offer", headers=headers, ssl=self.tls or True,
                                 json={"sdp": self.pc.localDescription.sdp, "type": "offer"}) as resp:
                body = await resp.json()
                if resp.status != 200:
                    await self.pc.close()
                    raise ConnectionError(f"{resp.status}: {body}")
        await self.pc.setRemoteDescription(RTCSessionDescription(body["sdp"], body["type"]))
        await asyncio.wait_for(self.opened.wait(), 20)
        await self.send({"type": "hello"})
        return body

    async def _hang_up(self) -> None:
        await self.pc.close()


class _Pacer:
    """Real-time pacing for a synthetic media track: tick() returns 0, 1, 2, ... no faster than `rate` per second."""

    def __init__(self, rate: float) -> None:
        self.rate, self.start, self.index = rate, 0.0, -1

    async def tick(self) -> int:
        """Wait until the next item is due; return its index."""
        self.index += 1
        if self.index == 0:
            self.start = time.monotonic()
        else:
            await asyncio.sleep(max(0.0, self.start + self.index / self.rate - time.monotonic()))
        return self.index


def _mic_track(feed: Feed) -> Any:
    import av
    from aiortc.mediastreams import MediaStreamTrack

    class MicTrack(MediaStreamTrack):
        kind = "audio"

        def __init__(self) -> None:
            super().__init__()
            self.clock = _Pacer(48000 / 960)

        async def recv(self) -> Any:
            self.pts = await self.clock.tick() * 960
            mono = resample(feed.next_chunk(), RATE, 48000)[:960]
            stereo = np.frombuffer(float_to_s16(np.repeat(mono, 2)), "<i2").reshape(1, -1)
            frame = av.AudioFrame.from_ndarray(stereo, format="s16", layout="stereo")
            frame.sample_rate, frame.pts, frame.time_base = 48000, self.pts, fractions.Fraction(1, 48000)
            return frame

    return MicTrack()


def _camera_track(feed: Feed) -> Any:
    import av
    from aiortc.mediastreams import MediaStreamTrack

    class CameraTrack(MediaStreamTrack):
        kind = "video"

        def __init__(self) -> None:
            super().__init__()
            self.clock = _Pacer(feed.fps)

        async def recv(self) -> Any:
            self.index = await self.clock.tick()
            image = feed.frame(self.index)
            if image is None:
                image = np.full((240, 320, 3), 16, np.uint8)
            frame = av.VideoFrame.from_ndarray(image, format="bgr24")
            frame.pts, frame.time_base = int(self.index * 90000 / feed.fps), fractions.Fraction(1, 90000)
            return frame

    return CameraTrack()


class WsClient(_Base):
    """A WebSocket-baseline client: 16 kHz mono PCM chunks, JPEG frames, JSON control."""

    async def connect(self, url: str, token: str | None = None, video: bool = True) -> dict[str, Any]:
        """Connect to url + '/ws', send hello and wait for welcome."""
        import aiohttp

        self.http = aiohttp.ClientSession()
        ws_url = url.replace("http", "ws", 1).rstrip("/") + "/ws"
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            self.ws = await self.http.ws_connect(ws_url, max_msg_size=4 * 1024 * 1024, ssl=self.tls or True,
                                                 headers=headers)
        except aiohttp.WSServerHandshakeError as ex:
            await self.http.close()
            raise ConnectionError(f"{ex.status}: {ex.message}") from ex
        await self.ws.send_str(json.dumps({"type": "hello", "audio": {"rate": RATE, "channels": 1}}))
        self.tasks = [asyncio.ensure_future(self._read()), asyncio.ensure_future(self._mic())]
        if video:
            self.tasks.append(asyncio.ensure_future(self._camera()))
        welcome = await self.wait_for("welcome", timeout=20)
        return welcome

    async def _read(self) -> None:
        import aiohttp

        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self._got(msg.data)
            elif msg.type == aiohttp.WSMsgType.BINARY and msg.data[:1] == bytes([KIND_AUDIO]):
                self.audio_levels.append((time.monotonic(), level_db(s16_to_float(msg.data[1:]))))

    async def _mic(self) -> None:
        clock = _Pacer(50)  # 20 ms chunks
        while not self.ws.closed:
            await clock.tick()
            await self.ws.send_bytes(pack(KIND_AUDIO, float_to_s16(self.feed.next_chunk())))

    async def _camera(self) -> None:
        import cv2

        clock = _Pacer(self.feed.fps)
        while not self.ws.closed:
            image = self.feed.frame(await clock.tick())
            if image is not None:
                await self.ws.send_bytes(pack(KIND_JPEG, cv2.imencode(".jpg", image)[1].tobytes()))

    async def send(self, msg: dict[str, Any]) -> None:
        """Send a control message."""
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(msg))

    async def _hang_up(self) -> None:
        await self.ws.close()
        await self.http.close()
