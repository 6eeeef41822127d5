"""Live and streaming pieces: voice activity detection, servers, the voice pipeline."""
