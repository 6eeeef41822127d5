"""Errors egocli raises; the CLI prints their message and exits with their code."""

from __future__ import annotations


class EgoError(Exception):
    """Base error: a one-line message for the user and an exit code."""

    exit_code = 1


class UsageError(EgoError, ValueError):
    """The user asked for something that does not make sense (exit 2)."""

    exit_code = 2


class ConfigError(EgoError):
    """Configuration is invalid (exit 2)."""

    exit_code = 2


class StoreError(EgoError):
    """The event log cannot be opened, read or written."""


class InputError(EgoError, ValueError):
    """An input file or text is malformed; the message names the file and line."""


class ModelError(EgoError):
    """A model could not be found, loaded or run; the message names role and path."""


class NotFound(EgoError, LookupError):
    """A requested item (event, source, file) does not exist."""
