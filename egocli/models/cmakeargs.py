"""The CMake flags llama.cpp is built with on this machine: $CMAKE_ARGS when set, else a native build.

scripts/llama-wheel.sh and scripts/llama-server.sh run this file on its own (`python3 egocli/models/cmakeargs.py`,
before egocli is installed: it imports nothing of egocli), and llamaserver.py keys its cache with the same words.

On a CPU that reports AMX the build names the CPU's x86 features one by one instead of -march=native, AMX left
out: on this workplace's Xeon machines ggml's AMX matrix kernels died on their first tile load (SIGSEGV at
`ldtilecfg` in ggml_backend_amx_mul_mat, in every generate), the kernel not handing the tile state to the process.
AVX-512, VNNI and BF16 stay, so prompts keep the native build's speed."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

NATIVE = "-DGGML_NATIVE=ON"
FEATURES = (("avx", "GGML_AVX"), ("avx2", "GGML_AVX2"), ("fma", "GGML_FMA"), ("f16c", "GGML_F16C"),
            ("bmi2", "GGML_BMI2"), ("avx_vnni", "GGML_AVX_VNNI"), ("avx512f", "GGML_AVX512"),
            ("avx512vbmi", "GGML_AVX512_VBMI"), ("avx512_vnni", "GGML_AVX512_VNNI"), ("avx512_bf16", "GGML_AVX512_BF16"))
"""/proc/cpuinfo flag -> the ggml option that compiles for it (GGML_AVX512 is avx512f/cd/vl/dq/bw together)."""


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU's `flags` line (the machine's name where there is none): also the build caches' key."""
    try:
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("flags"):
                return line
    except OSError:
        pass
    return os.uname().machine


def default_cmake_args(environ: Mapping[str, str] | None = None, flags: str | None = None) -> str:
    """$CMAKE_ARGS, else -DGGML_NATIVE=ON, else (a CPU with AMX) its features named one by one, AMX off."""
    env: Mapping[str, str] = os.environ if environ is None else environ
    if env.get("CMAKE_ARGS"):
        return env["CMAKE_ARGS"]
    have = set((cpu_flags() if flags is None else flags).split())
    if "amx_tile" not in have:
        return NATIVE
    named = " ".join(f"-D{option}={'ON' if flag in have else 'OFF'}" for flag, option in FEATURES)
    return f"-DGGML_NATIVE=OFF {named} -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"


if __name__ == "__main__":
    print(default_cmake_args())
