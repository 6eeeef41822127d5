"""egocli.chess has no import cycles (lazy imports inside functions included): value types live in types.py."""

from __future__ import annotations

import ast
from pathlib import Path

import egocli.chess

PACKAGE = Path(egocli.chess.__file__).parent


def chess_imports() -> dict[str, set[str]]:
    """Module name -> egocli.chess modules it imports anywhere in its body (TYPE_CHECKING blocks too)."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.glob("*.py"):
        name = f"egocli.chess.{path.stem}"
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == "egocli.chess":
                    found |= {f"egocli.chess.{a.name}" for a in node.names}
                elif node.module.startswith("egocli.chess."):
                    found.add(node.module)
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith("egocli.chess.")}
        graph[name] = found - {name}
    return graph


def cycle_from(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """A path start -> ... -> start, if any."""
    stack, seen = [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for nxt in graph.get(node, ()):
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


def test_the_guard_finds_a_cycle() -> None:
    assert cycle_from({"a": {"b"}, "b": {"a"}}, "a") == ["a", "b", "a"]


def test_chess_modules_import_each_other_without_cycles() -> None:
    graph = chess_imports()
    assert "egocli.chess.types" in graph and graph["egocli.chess.types"] == set()
    cycles = [cycle for module in graph if (cycle := cycle_from(graph, module))]
    assert cycles == []
