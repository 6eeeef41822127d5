"""Recordings into events: decode, pick frames worth describing, VAD + ASR on the audio."""
