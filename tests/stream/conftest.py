"""The live server fixtures (tests/serving.py)."""

from tests.serving import jfk, live_server, video_frames  # noqa: F401
