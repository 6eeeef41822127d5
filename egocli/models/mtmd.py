"""Narrator backed by a vision-language GGUF plus its mmproj file, through llama-cpp-python's MTMD handlers.

No vision GGUF ships in any package reachable here, so this backend only runs when the user
configures one (EGOCLI_NARRATOR=model.gguf,mmproj.gguf); its test skips otherwise.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from egocli.core.errors import ModelError
from egocli.models.quiet import load_quietly, quiet_this_thread

if TYPE_CHECKING:
    from egocli.core.config import Settings
    from egocli.models.registry import Choice

HANDLERS = {
    "mtmd": "MTMDChatHandler", "gemma4": "Gemma4ChatHandler", "llava15": "Llava15ChatHandler",
    "llava16": "Llava16ChatHandler", "moondream": "MoondreamChatHandler", "nanollava": "NanoLlavaChatHandler",
    "minicpmv26": "MiniCPMv26ChatHandler", "qwen25vl": "Qwen25VLChatHandler",
}
"""Config name -> llama_cpp.llama_chat_format handler class ('mtmd' uses the model's own template)."""


class LlamaVisionNarrator:
    """Describes a frame in a sentence or two with a local vision-language model."""

    def __init__(self, model: Path, mmproj: Path, handler: str = "mtmd", context_size: int = 4096,
                 n_threads: int = 2, max_tokens: int = 96) -> None:
        if handler not in HANDLERS:
            raise ModelError(f"narrator: unknown chat handler '{handler}' (one of {', '.join(HANDLERS)})")
        try:
            from llama_cpp import Llama, llama_chat_format
        except ImportError as ex:
            raise ModelError("narrator: llama-cpp-python is not installed (pip install llama-cpp-python==0.3.36)") from ex
        try:
            # verbose=False would point fds 1 and 2 at /dev/null for the whole process at load and at every
            # image (egocli.models.quiet says why that loses other threads' errors): quiet this thread instead.
            chat_handler = load_quietly(getattr(llama_chat_format, HANDLERS[handler]), clip_model_path=str(mmproj))
            chat_handler.verbose = True  # no process-wide redirection per image; describe() quiets its thread
            self._llm: Any = load_quietly(Llama, model_path=str(model), chat_handler=chat_handler,
                                          n_ctx=context_size, n_threads=n_threads, n_threads_batch=n_threads)
        except (ValueError, RuntimeError, OSError) as ex:
            raise ModelError(f"narrator: cannot load {model} with {mmproj}: {ex}") from ex
        self.name = model.stem
        self.max_tokens = max_tokens

    def describe(self, image: np.ndarray, prompt: str = "Describe what you see.") -> str:
        """One or two sentences about a BGR uint8 image."""
        content = [{"type": "image_url", "image_url": {"url": _data_uri(image)}}, {"type": "text", "text": prompt}]
        try:
            with quiet_this_thread():
                reply = self._llm.create_chat_completion(messages=[{"role": "user", "content": content}],
                                                         max_tokens=self.max_tokens, temperature=0.0)
        except (ValueError, RuntimeError) as ex:
            raise ModelError(f"narrator: {ex}") from ex
        return str(reply["choices"][0]["message"]["content"] or "").strip()


def _data_uri(image: np.ndarray) -> str:
    """A PNG data URI for a BGR uint8 image."""
    import cv2

    ok, encoded = cv2.imencode(".png", np.asarray(image))
    if not ok:
        raise ValueError("could not encode the frame as PNG")
    return "data:image/png;base64," + base64.b64encode(encoded.tobytes()).decode("ascii")


def load_narrator(choice: Choice, settings: Settings) -> LlamaVisionNarrator:
    """Build the vision Narrator for a resolved narrator choice (model GGUF + mmproj)."""
    section = settings.section("narrator")
    if choice.path is None or not choice.extra:
        raise ModelError("narrator: needs a vision GGUF and its mmproj file")
    return LlamaVisionNarrator(choice.path, Path(choice.extra), handler=str(section.get("handler", "mtmd")),
                               context_size=int(section.get("context_size", 4096)),
                               n_threads=int(section.get("threads", 2)))
