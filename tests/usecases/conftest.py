"""Fixtures the use-case tests share with the reasoning tests: a store and the shared HD-EPIC folder."""

from tests.reasoning.conftest import HDEPIC, store  # noqa: F401
