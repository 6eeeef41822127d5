"""Tests of the evaluation sets in bench/sets and their runner."""
