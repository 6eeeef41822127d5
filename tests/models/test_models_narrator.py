"""The vision narrator needs a user-supplied vision GGUF + mmproj: none ships in any reachable package."""

from __future__ import annotations

import os

import numpy as np
import pytest

from egocli.models import registry

pytestmark = pytest.mark.slow


def test_narrator_describes_a_frame(real_settings) -> None:
    configured = os.environ.get("EGOCLI_TEST_NARRATOR")
    if not configured:
        pytest.skip("no vision GGUF + mmproj is available offline; set EGOCLI_TEST_NARRATOR=model.gguf,mmproj.gguf "
                    "to run this test against a real vision-language model")
    narrator = registry.load("narrator", real_settings(narrator=configured))
    frame = np.zeros((224, 224, 3), np.uint8)
    frame[:, :, 2] = 255  # a plain red frame
    assert "red" in narrator.describe(frame, "What colour is this image? One word.").lower()
