"""Recover torch weights (egocli/chess/squares.pt) from the exported classifier (squares.onnx), for
`egocli chess calibrate` to start from. The ONNX export folded each batch norm into its convolution, so
each block gets the folded kernel, an identity batch norm and the folded bias as the norm's shift.

Reads the ONNX protobuf wire format directly (the `onnx` package is not a dependency).
    python scripts/squares_pt_from_onnx.py [--onnx egocli/chess/squares.onnx] [--out egocli/chess/squares.pt]
"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ONNX_FLOAT = 1


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def fields(buf: bytes) -> list[tuple[int, int, object]]:
    """(field number, wire type, value) of one protobuf message; length-delimited values stay bytes."""
    out, pos = [], 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            size, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + size], pos + size
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        out.append((number, wire, value))
    return out


def _packed_ints(value: object, wire: int) -> list[int]:
    if wire == 0:
        return [int(value)]  # type: ignore[arg-type]
    ints, pos = [], 0
    while pos < len(value):  # type: ignore[arg-type]
        n, pos = _varint(value, pos)  # type: ignore[arg-type]
        ints.append(n)
    return ints


def initializers(path: Path) -> dict[str, np.ndarray]:
    """Name -> float32 array of every initializer in an ONNX model (ModelProto.graph.initializer)."""
    graph = next(v for n, _, v in fields(path.read_bytes()) if n == 7)
    out = {}
    for number, _, tensor in fields(graph):  # type: ignore[arg-type]
        if number != 5:
            continue
        dims, dtype, name, raw, floats = [], 0, "", b"", []
        for n, wire, value in fields(tensor):  # type: ignore[arg-type]
            if n == 1:
                dims += _packed_ints(value, wire)
            elif n == 2:
                dtype = int(value)  # type: ignore[arg-type]
            elif n == 8:
                name = value.decode()  # type: ignore[union-attr]
            elif n == 9:
                raw = value  # type: ignore[assignment]
            elif n == 4:
                floats += list(struct.unpack(f"<{len(value) // 4}f", value)) if wire == 2 else [  # type: ignore
                    struct.unpack("<f", value)[0]]  # type: ignore[arg-type]
        if dtype == ONNX_FLOAT:
            data = np.frombuffer(raw, "<f4") if raw else np.array(floats, np.float32)
            out[name] = data.reshape(dims).astype(np.float32)
    return out


def state_dict(arrays: dict[str, np.ndarray]):  # noqa: ANN201
    """A build_net() state dict from the folded ONNX arrays, in the order the layers appear."""
    import torch

    from egocli.chess.training import build_net

    net = build_net()
    linear_name = next(k for k, a in arrays.items() if a.ndim == 2)
    linear, linear_bias = arrays[linear_name], arrays[linear_name.replace("weight", "bias")]
    kernels = [a for a in arrays.values() if a.ndim == 4]
    biases = [a for k, a in arrays.items() if a.ndim == 1 and k != linear_name.replace("weight", "bias")]
    convs = [m for m in net if isinstance(m, torch.nn.Conv2d)]
    norms = [m for m in net if isinstance(m, torch.nn.BatchNorm2d)]
    if len(kernels) != len(convs) or len(biases) != len(convs):
        raise SystemExit(f"unexpected ONNX layout: {len(kernels)} kernels, {len(biases)} biases")
    with torch.no_grad():
        for conv, norm, kernel, bias in zip(convs, norms, kernels, biases):
            conv.weight.copy_(torch.from_numpy(kernel))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(bias))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        net[-1].weight.copy_(torch.from_numpy(linear))
        net[-1].bias.copy_(torch.from_numpy(linear_bias))
    return net.state_dict()


def main() -> None:
    """Convert and check that torch and onnxruntime agree on random crops."""
    import torch

    from egocli.chess import squares as sq
    from egocli.chess.training import build_net

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--onnx", default=str(ROOT / "egocli" / "chess" / "squares.onnx"))
    parser.add_argument("--out", default=str(ROOT / "egocli" / "chess" / "squares.pt"))
    args = parser.parse_args()
    weights = state_dict(initializers(Path(args.onnx)))
    net = build_net()
    net.load_state_dict(weights)
    net.eval()
    crops = np.random.default_rng(0).integers(0, 255, (16, sq.CROP_H, sq.CROP_W, 3), dtype=np.uint8)
    with torch.no_grad():
        ours = net(torch.from_numpy(sq.to_tensor(crops))).numpy()
    session = sq._session(str(args.onnx), Path(args.onnx).stat().st_mtime_ns)
    theirs = session.run(None, {session.get_inputs()[0].name: sq.to_tensor(crops)})[0]
    print(f"max |torch - onnx| logit difference: {np.abs(ours - theirs).max():.2e}")
    torch.save(weights, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
