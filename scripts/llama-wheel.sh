#!/usr/bin/env bash
# Install llama-cpp-python built for this CPU into the venv whose pip is $1.
#
# llama.cpp is compiled from the sdist. A native build (AVX-512 where the CPU has it) evaluates prompts
# ~1.35x faster than the portable one on this project's 2-core test machine, and prompt evaluation is
# most of `ask`'s latency. pip's own wheel cache would hand back whichever build it made first, whatever
# CMAKE_ARGS say, so the wheel is kept in a folder keyed by version, CMAKE_ARGS and the CPU's flags.
set -euo pipefail
pip=$1
version=$(sed -n 's/.*"llama-cpp-python==\([^"]*\)".*/\1/p' pyproject.toml)
args=$(python3 "$(dirname "$0")/../egocli/models/cmakeargs.py")
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || uname -m)
key=$(printf '%s\n%s\n%s\n' "$version" "$args" "$flags" | sha256sum | cut -c1-16)
dir=${XDG_CACHE_HOME:-$HOME/.cache}/egocli/wheels/llama-$key
if ! ls "$dir"/llama_cpp_python-"$version"-*.whl >/dev/null 2>&1; then
  echo "building llama-cpp-python $version for this CPU ($args; ~7 min on 2 cores, once)" >&2
  mkdir -p "$dir.tmp"
  CMAKE_ARGS=$args "$pip" wheel -q --no-deps --no-cache-dir -w "$dir.tmp" "llama-cpp-python==$version"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
fi
"$pip" install -q --force-reinstall --no-deps "$dir"/llama_cpp_python-"$version"-*.whl
