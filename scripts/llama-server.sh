#!/usr/bin/env bash
# Build llama.cpp's own `llama-server` for this CPU, once, and print its path on stdout.
#
#   bash scripts/llama-server.sh [PIP]      # PIP: the pip that fetches the sdist (default: .venv/bin/pip)
#
# The source is the llama.cpp that llama-cpp-python's sdist vendors (vendor/llama.cpp), at the version
# pyproject.toml pins, so the server and the in-process backend run the same llama.cpp. llama.cpp is MIT
# (its LICENSE is kept beside the binary); no PyPI wrapper that builds the server is used (the one there
# is AGPL). Native flags as in scripts/llama-wheel.sh (CMAKE_ARGS overrides them), a static binary
# without the web UI (fetching it would reach the Hugging Face hub), without HTTPS (it serves loopback or
# a private network) and without curl (it never downloads a model). The binary is kept in a folder keyed
# by version, CMAKE_ARGS and the CPU's flags (~10 CPU-minutes to build on 2 cores, once).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pip=${1:-$root/.venv/bin/pip}
version=$(sed -n 's/.*"llama-cpp-python==\([^"]*\)".*/\1/p' "$root/pyproject.toml")
args=$(python3 "$(dirname "$0")/../egocli/models/cmakeargs.py")
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || uname -m)
key=$(printf 'llama-server\n%s\n%s\n%s\n' "$version" "$args" "$flags" | sha256sum | cut -c1-16)
dir=${XDG_CACHE_HOME:-$HOME/.cache}/egocli/llama-server-$version-$key
if [ ! -x "$dir/llama-server" ]; then
  echo "building llama-server from llama-cpp-python $version's llama.cpp for this CPU ($args; ~10 min on 2 cores, once)" >&2
  work=$(mktemp -d "${TMPDIR:-/tmp}/egocli-llama-server.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  "$pip" download -q --no-binary :all: --no-deps -d "$work" "llama-cpp-python==$version" >&2
  tar -xzf "$work"/llama_cpp_python-"$version".tar.gz -C "$work"
  src=$work/llama_cpp_python-$version/vendor/llama.cpp
  # shellcheck disable=SC2086  # CMAKE_ARGS is a list of flags
  cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_TOOLS=ON \
    -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_CURL=OFF $args >"$work/cmake.log" 2>&1 || { tail -40 "$work/cmake.log" >&2; exit 1; }
  cmake --build "$work/build" --target llama-server -j "$(nproc)" >"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log" >&2; exit 1; }
  mkdir -p "$dir.tmp"
  cp "$work/build/bin/llama-server" "$src/LICENSE" "$dir.tmp/"
  printf 'llama-cpp-python %s (vendor/llama.cpp)\nCMAKE_ARGS %s\n' "$version" "$args" >"$dir.tmp/BUILD"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
fi
echo "$dir/llama-server"
