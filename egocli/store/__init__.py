"""The event log: the only package with SQL and table names."""

from egocli.store.db import EventFilter, Store, fts_query
from egocli.store.records import Event, NewEvent, Source

__all__ = ["Event", "EventFilter", "NewEvent", "Source", "Store", "fts_query"]
