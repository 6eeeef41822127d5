"""egocli: a local-first lifelog assistant for smart glasses."""

__version__ = "0.1.0"
