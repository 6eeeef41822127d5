"""Token ids of a prompt given as text pieces, each tokenized on its own and remembered.

A prompt that grows by appending pieces keeps exactly the tokens of its shorter self (tokenizing the joined
text could merge across the seam), which is what lets a KV cache, in process or in a server's slot, be
reused. Both text backends (llamacpp, openai_http) keep one of these."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

LIMIT = 4096
"""Pieces remembered at most (least recently used first out)."""


class PieceTokens:
    """A piece -> token ids memo over a tokenizer of one piece."""

    def __init__(self, tokenize: Callable[[str], list[int]], limit: int = LIMIT) -> None:
        self._tokenize, self._limit = tokenize, limit
        self._ids: OrderedDict[str, list[int]] = OrderedDict()

    def ids(self, pieces: Sequence[str], first: Sequence[int] = ()) -> list[int]:
        """`first` (a BOS token) then every piece's ids, in order."""
        out = list(first)
        for piece in pieces:
            ids = self._ids.get(piece)
            if ids is None:
                ids = self._ids[piece] = self._tokenize(piece)
                if len(self._ids) > self._limit:
                    self._ids.popitem(last=False)
            else:
                self._ids.move_to_end(piece)
            out.extend(ids)
        return out
