"""The llama.cpp TextModel on real GGUF models (SmolLM2 for plumbing, Qwen2.5-1.5B for answers)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from egocli.models import registry

pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
pytestmark = pytest.mark.slow

MCQ = [{"role": "system", "content": "You answer multiple-choice questions with the letter of the correct option only."},
       {"role": "user", "content": "Which planet is known as the Red Planet?\nA) Venus\nB) Mars\nC) Jupiter\n"
                                   "D) Saturn\nAnswer with one letter."}]
LETTER = 'root ::= [ABCD]'
SCHEMA = {"type": "object",
          "properties": {"item": {"type": "string"}, "room": {"type": "string", "enum": ["kitchen", "hall", "office"]},
                         "count": {"type": "integer"}},
          "required": ["item", "room", "count"]}


@pytest.fixture(scope="module")
def qwen(real_settings):
    return registry.load("llm", real_settings())


@pytest.fixture(scope="module")
def smol(real_settings):
    return registry.load("llm", real_settings(llm="smollm2"))


def test_default_model_answers_mcq_with_one_letter(qwen) -> None:
    answer = "".join(qwen.generate(MCQ, max_tokens=4, temperature=0.0, grammar=LETTER))
    assert answer == "B"


def test_default_model_returns_valid_json_for_schema(qwen) -> None:
    messages = [{"role": "user", "content": "I left three mugs in the kitchen. Extract item, room and count as JSON."}]
    data = json.loads("".join(qwen.generate(messages, max_tokens=80, temperature=0.0, json_schema=SCHEMA)))
    assert set(data) == {"item", "room", "count"}
    assert data["room"] == "kitchen" and data["count"] == 3 and "mug" in data["item"].lower()


def test_streaming_is_deterministic_at_temperature_zero(smol) -> None:
    messages = [{"role": "user", "content": "Name three fruits."}]
    first = list(smol.generate(messages, max_tokens=24))
    second = list(smol.generate(messages, max_tokens=24))
    assert len(first) > 1 and first == second


def test_stop_sequences_and_token_counts(smol) -> None:
    messages = [{"role": "user", "content": "Count from 1 to 10 separated by commas."}]
    text = "".join(smol.generate(messages, max_tokens=40, stop=["5"]))
    assert "5" not in text and "6" not in text
    assert smol.count_tokens("hello world") == 2
    assert smol.count_chat_tokens(messages) > smol.count_tokens(messages[0]["content"])
    assert smol.context_size == 4096


def test_grammar_and_schema_together_are_rejected(smol) -> None:
    with pytest.raises(ValueError):
        list(smol.generate(MCQ, grammar=LETTER, json_schema=SCHEMA))


def test_llm_and_summarizer_share_one_loaded_model(real_settings) -> None:
    settings = real_settings(llm="smollm2")
    assert registry.load("summarizer", settings) is registry.load("llm", settings)


def test_llama_cpp_is_built_for_this_cpu() -> None:
    """scripts/llama-wheel.sh builds llama.cpp natively: prompt evaluation, most of `ask`'s latency,
    runs ~1.35x faster with AVX-512 on the 2-core test machine than with the portable AVX2 build."""
    import llama_cpp

    with open("/proc/cpuinfo") as fh:
        cpu = next((line.split() for line in fh if line.startswith("flags")), [])
    if "avx512f" not in cpu:
        pytest.skip("this CPU has no AVX-512")
    assert "AVX512 = 1" in llama_cpp.llama_print_system_info().decode()


def test_llama_cpp_leaves_amx_out_where_the_cpu_reports_it() -> None:
    """On this workplace's Xeon machines ggml's AMX kernels died on their first tile load (SIGSEGV in every
    generate): the build scripts name the CPU's features one by one there, AMX off, and the script, the wheel and
    llamaserver's cache key read the same flags."""
    import subprocess

    import llama_cpp
    from egocli.models import cmakeargs

    script = Path(__file__).resolve().parents[2] / "egocli" / "models" / "cmakeargs.py"
    env = {k: v for k, v in os.environ.items() if k != "CMAKE_ARGS"}
    printed = subprocess.run(["python3", str(script)], env=env, capture_output=True, text=True, check=True).stdout
    assert printed.strip() == cmakeargs.default_cmake_args(env)
    if "amx_tile" not in cmakeargs.cpu_flags().split():
        pytest.skip("this CPU has no AMX")
    info = llama_cpp.llama_print_system_info().decode()
    assert "AMX_INT8 = 1" not in info and "AVX512 = 1" in info


def test_cmake_args_keep_native_builds_and_name_features_beside_amx() -> None:
    from egocli.models.cmakeargs import default_cmake_args

    assert default_cmake_args({"CMAKE_ARGS": "-DGGML_NATIVE=OFF"}, "flags : avx amx_tile") == "-DGGML_NATIVE=OFF"
    assert default_cmake_args({}, "flags : fpu avx avx2 avx512f") == "-DGGML_NATIVE=ON"
    amx = default_cmake_args({}, "flags : fpu avx avx2 fma avx512f avx512_vnni amx_tile amx_int8").split()
    assert {"-DGGML_NATIVE=OFF", "-DGGML_AVX512=ON", "-DGGML_AVX512_VNNI=ON", "-DGGML_AVX512_BF16=OFF",
            "-DGGML_AMX_INT8=OFF", "-DGGML_AMX_TILE=OFF"} <= set(amx)


def test_a_primed_system_turn_is_restored_from_disk_by_the_next_process(smol, tmp_path) -> None:
    from egocli.models.llamacpp import LlamaCppModel

    system = "You answer questions about the user's own life log. Use only the log given."
    chat = [{"role": "system", "content": system},
            {"role": "user", "content": "LOG\n[14:50] visual: taking the blood pressure pill\n\nWhen did I take the pill?"}]
    plain = LlamaCppModel(smol.path, context_size=1024).complete(chat, max_tokens=16)

    first = LlamaCppModel(smol.path, context_size=1024, kv_dir=tmp_path)
    assert first.prime_system(system) is False  # evaluated, then kept
    assert len(list(tmp_path.glob("*.kv"))) == 1
    assert first.complete(chat, max_tokens=16) == plain

    second = LlamaCppModel(smol.path, context_size=1024, kv_dir=tmp_path)
    assert second.prime_system(system) is True
    assert second.prime_system(system) is False  # already in the cache: nothing to do
    # the restored cache holds the system turn: the chat's own prompt starts with it, the system text included
    assert second.cached_tokens([second.format_chat(chat)]) >= second.count_tokens(system)
    assert second.complete(chat, max_tokens=16) == plain

    for file in tmp_path.glob("*.kv"):  # a damaged file is evaluated afresh, not trusted
        file.write_bytes(b"\0" * 64)
    third = LlamaCppModel(smol.path, context_size=1024, kv_dir=tmp_path)
    assert third.prime_system(system) is False
    assert third.complete(chat, max_tokens=16) == plain
