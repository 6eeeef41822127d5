import subprocess
import sys


def test_help_imports_no_heavy_library():
    """`egocli --help` must start fast: no model, database or numeric library is imported."""
    code = ("import sys, runpy; sys.argv = ['egocli', '--help']\n"
            "try:\n    runpy.run_module('egocli', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('sqlite_utils', 'numpy', 'cv2', 'torch', 'llama_cpp', 'onnxruntime',"
            " 'faster_whisper', 'aiortc', 'aiohttp', 'mediapipe', 'chess') if m in sys.modules]\n"
            "print('HEAVY:' + ','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "Usage" in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "HEAVY:"
