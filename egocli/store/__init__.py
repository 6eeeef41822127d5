"""The event log: the only package with SQL and table names.

Names are loaded on first use (PEP 562), so importing a value type such as
`egocli.store.records` does not import sqlite-utils (and numpy) on `egocli --help`."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from egocli.store.db import EventFilter, Store
    from egocli.store.ftsquery import fts_query
    from egocli.store.records import Event, NewEvent, Source

_WHERE = {"EventFilter": "db", "Store": "db", "fts_query": "ftsquery",
          "Event": "records", "NewEvent": "records", "Source": "records"}
__all__ = ["Event", "EventFilter", "NewEvent", "Source", "Store", "fts_query"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"egocli.store.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'egocli.store' has no attribute {name!r}")
