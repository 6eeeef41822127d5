"""The WebRTC transport (aiortc): POST /offer -> answer; camera and microphone in, a JSON data
channel both ways, and an audio track back carrying the spoken answers."""

from __future__ import annotations

import asyncio
import fractions
import logging
from collections.abc import Sequence
from typing import Any

import numpy as np

from egocli.perception.audio import RATE, resample
from egocli.stream.pcm import FrameResampler, float_to_s16
from egocli.stream.host import ServerOptions, Session
from egocli.stream.pacer import Pacer
from egocli.stream.protocol import MAX_CONTROL_BYTES, encode, error

log = logging.getLogger(__name__)

OUT_RATE = 48000
PTIME = 0.02
LOOPBACK = "127.0.0.1"


def allow_loopback_ice() -> None:
    """Make aioice gather 127.0.0.1 as the only host candidate (it never offers loopback itself).

    For clients on the same machine with no other network (a sandbox, CI); process-wide."""
    import aioice.ice

    aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: [LOOPBACK] if use_ipv4 else []


def loopback_candidates_only(sdp: str) -> str:
    """Drop remote ICE candidates that are not on 127.0.0.1 (loopback mode never reaches further)."""
    lines = sdp.splitlines()
    kept = [ln for ln in lines if not ln.startswith("a=candidate:") or f" {LOOPBACK} " in ln]
    return "\r\n".join(kept) + "\r\n"


def prefer_quality(sdp: str) -> str:
    """Ask Chrome to start at a usable video bitrate (it starts near 370 kbps against aiortc)."""
    out, video = [], False
    for line in sdp.splitlines():
        if line.startswith("m="):
            video = line.startswith("m=video")
        if video and line.startswith("a=fmtp:") and "apt=" not in line and "x-google" not in line:
            line += ";x-google-start-bitrate=1000;x-google-min-bitrate=600"
        out.append(line)
    return "\r\n".join(out) + "\r\n"


def _speech_track_class() -> type:
    from aiortc.mediastreams import MediaStreamError, MediaStreamTrack

    class SpeechTrack(MediaStreamTrack):
        """Outgoing audio: the session's playback buffer, 20 ms frames at 48 kHz, silence when idle."""

        kind = "audio"

        def __init__(self, session: Session) -> None:
            super().__init__()
            self.session = session
            self._pacer = Pacer(PTIME)

        async def recv(self) -> Any:
            import av

            if self.readyState != "live":
                raise MediaStreamError
            step = int(OUT_RATE * PTIME)
            if not self._pacer.started:
                self._pacer.start()
            elif (wait := self._pacer.next_in()) > 0:
                await asyncio.sleep(wait)
            chunk = self.session.playback.pull(int(RATE * PTIME))
            samples = np.zeros(step, np.float32) if chunk is None else resample(chunk, RATE, OUT_RATE)[:step]
            pcm = np.frombuffer(float_to_s16(samples), dtype="<i2").reshape(1, -1)
            frame = av.AudioFrame.from_ndarray(pcm, format="s16", layout="mono")
            pts = self._pacer.sent * step
            frame.sample_rate, frame.pts, frame.time_base = OUT_RATE, pts, fractions.Fraction(1, OUT_RATE)
            return frame

    return SpeechTrack


async def drain_audio(track: Any, session: Session) -> None:
    """Receive microphone frames until the track ends, resampled to 16 kHz mono for the session."""
    from aiortc.mediastreams import MediaStreamError

    resampler = FrameResampler()
    while True:
        try:
            frame = await track.recv()
        except MediaStreamError:
            break
        session.feed_audio(resampler.convert(frame))
    await session.close("microphone track ended")


async def drain_video(track: Any, session: Session) -> None:
    """Receive every camera frame as it arrives (aiortc's queue is unbounded) and keep the newest."""
    from aiortc.mediastreams import MediaStreamError

    while True:
        try:
            session.offer_frame(await track.recv())
        except MediaStreamError:
            return


class SessionPeer:
    """A peer connection bound to one live session: its tracks drained into the session, its data channel's
    messages received by it (oversized binary refused), the session closed when the connection fails.
    serve's RtcPeer and the Janus agent's wearer link are both one."""

    def __init__(self, session: Session, ice_servers: Sequence[str]) -> None:
        from aiortc import RTCConfiguration, RTCIceServer, RTCPeerConnection

        self.session = session
        self.pc = RTCPeerConnection(configuration=RTCConfiguration(
            iceServers=[RTCIceServer(urls=u) for u in ice_servers]))
        self._tasks: set[asyncio.Task[Any]] = set()
        self.pc.on("datachannel", self._on_channel)
        self.pc.on("track", self._on_track)
        self.pc.on("connectionstatechange", self._on_state)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_channel(self, channel: Any) -> None:
        @channel.on("message")
        def on_message(message: Any) -> None:
            if isinstance(message, bytes) and len(message) > MAX_CONTROL_BYTES:
                self._spawn(self.session.send(error("too_large", "binary data channel messages are not accepted")))
                return
            self._spawn(self.session.receive(message))

    def _on_track(self, track: Any) -> None:
        self._spawn(drain_audio(track, self.session) if track.kind == "audio" else drain_video(track, self.session))

    async def _on_state(self) -> None:
        if self.pc.connectionState in ("failed", "closed"):
            await self.session.close(f"connection {self.pc.connectionState}")
            await self.pc.close()


class RtcPeer(SessionPeer):
    """One WebRTC connection to serve, bound to its live session; answers go back on its data channel."""

    def __init__(self, session: Session, options: ServerOptions) -> None:
        super().__init__(session, options.ice_servers)
        self.options = options

    def _on_channel(self, channel: Any) -> None:
        def send(msg: dict[str, Any]) -> None:
            if channel.readyState == "open":
                channel.send(encode(msg))

        self.session.attach(send)
        super()._on_channel(channel)

    async def accept(self, sdp: str) -> str:
        """Apply the client's offer and return the answer SDP (ValueError on a bad offer)."""
        from aiortc import RTCSessionDescription

        if self.options.ice_loopback:
            sdp = loopback_candidates_only(sdp)
        await self.pc.setRemoteDescription(RTCSessionDescription(sdp=sdp, type="offer"))
        if not self.pc.getTransceivers() and self.pc.sctp is None:
            raise ValueError("the offer has no audio, video or data channel")
        if any(t.kind == "audio" for t in self.pc.getTransceivers()):
            self.pc.addTrack(_speech_track_class()(self.session))
        answer = await self.pc.createAnswer()
        await self.pc.setLocalDescription(answer)
        return prefer_quality(self.pc.localDescription.sdp)

    async def close(self) -> None:
        """Tear the connection down."""
        await self.pc.close()
        await self.session.close("connection closed")
