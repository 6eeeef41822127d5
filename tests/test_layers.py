"""The architecture holds: no import cycles, and imports only run down the layers.

The graph is built from the source with ast, so imports inside functions and TYPE_CHECKING
blocks count too: a lazy import is still a dependency. docs/architecture.md ("Architecture") shows the map."""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "egocli"

LAYERS: list[tuple[str, set[str]]] = [
    ("interface", {"__main__", "cli", "commands"}),
    ("assistant", {"assistant"}),
    ("ingest", {"ingest"}),
    ("log use cases", {"usecases"}),
    ("tools", {"tools"}),
    ("pointing", {"pointing"}),
    ("reasoning", {"reasoning"}),
    ("chess", {"chess"}),
    ("transport", {"stream"}),
    ("privacy", {"privacy"}),
    ("perception", {"perception"}),
    ("formats", {"formats"}),
    ("store | models", {"store", "models"}),
    ("core", {"", "core"}),
]
"""Top to bottom: a unit (a package of egocli, or the egocli package itself, "") imports only its own layer or
lower ones. The interface (the root app and one module per command group) calls the live assistant, ingest and
the log's use cases (import, logbook, timeline, doctor, evaluation); below them the tools, pointing, reasoning
and chess; then the transport, privacy, perception and file formats; the store and the models; and the core
(settings, errors, time, words) that everything uses."""

FORBIDDEN = {
    "store": {"models"},
    "models": {"store"},
    "stream": {"assistant", "reasoning", "chess", "tools", "models", "store", "ingest", "pointing"},
}
"""Pairs the layers alone would allow: the store never imports models (nor the reverse), and the
transport carries media and messages without knowing what the application does with them."""

KNOWN_MODULE_CYCLES: list[set[str]] = [
]
"""Module cycles allowed for now, each with the reason beside it (none today)."""


def modules(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of a package folder."""
    out = {}
    for path in root.rglob("*.py"):
        name = ".".join(path.relative_to(root.parent).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def _targets(name: str, path: Path, tree: ast.AST) -> Iterator[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> modules of the same package it imports, anywhere in its source (a package's
    __init__ may import its own modules: that is its face, not a cycle)."""
    known = modules(root)
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for target in _targets(name, path, ast.parse(path.read_text(encoding="utf-8"))):
            while target and target not in known:
                target = target.rpartition(".")[0]
            own = path.name == "__init__.py" and target.startswith(name + ".")  # a package's face
            if target and target != name and not own:
                graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def collapse(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph between the top-level units of the package (egocli.x)."""
    def key(name: str) -> str:
        return ".".join(name.split(".")[:2])

    out: dict[str, set[str]] = defaultdict(set)
    for src, targets in graph.items():
        out[key(src)].update(key(t) for t in targets if key(t) != key(src))
    return dict(out)


def unit(name: str) -> str:
    """egocli.x.y -> x; egocli -> ''."""
    return name.split(".")[1] if "." in name else ""


def violations(graph: dict[str, set[str]], layers: list[tuple[str, set[str]]] = LAYERS,
               forbidden: dict[str, set[str]] = FORBIDDEN) -> list[str]:
    """Every import that runs up the layers or across a forbidden pair, and every unit with no layer."""
    rank = {u: i for i, (_, units) in enumerate(layers) for u in units}
    problems = sorted({f"{unit(m)}: not in any layer" for m in graph if unit(m) not in rank})
    for src, targets in sorted(graph.items()):
        for dst in sorted(targets):
            a, b = unit(src), unit(dst)
            if a in rank and b in rank and rank[b] < rank[a]:
                problems.append(f"{src} -> {dst}: {layers[rank[a]][0]} imports {layers[rank[b]][0]}")
            elif b in forbidden.get(a, set()):
                problems.append(f"{src} -> {dst}: {a} must not import {b}")
    return problems


def _module_cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    return [c for c in cycles(graph) if c not in KNOWN_MODULE_CYCLES]


def test_no_module_or_package_cycles():
    graph = import_graph(ROOT)
    assert _module_cycles(graph) == []
    assert cycles(collapse(graph)) == [], "cycle between packages"


def test_imports_only_run_down_the_layers():
    assert violations(import_graph(ROOT)) == []


def test_the_checks_catch_a_cycle_and_an_import_running_up(tmp_path):
    pkg = tmp_path / "egocli"
    for folder in ("store", "stream", "assistant"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "store" / "db.py").write_text("def f():\n    from egocli.assistant import host\n")
    (pkg / "assistant" / "host.py").write_text("from egocli.store import db\nfrom ..stream import ws\n")
    (pkg / "stream" / "ws.py").write_text("from egocli.stream import rtc\n")
    (pkg / "stream" / "rtc.py").write_text("from . import ws\nimport egocli.assistant.host\n")
    graph = import_graph(pkg)
    assert cycles(graph) == [{"egocli.store.db", "egocli.assistant.host", "egocli.stream.ws", "egocli.stream.rtc"}]
    assert cycles(collapse(graph)) == [{"egocli.store", "egocli.assistant", "egocli.stream"}]
    found = violations(graph)
    assert "egocli.store.db -> egocli.assistant.host: store | models imports assistant" in found
    assert "egocli.stream.rtc -> egocli.assistant.host: transport imports assistant" in found
    assert not any(p.startswith("egocli.assistant.host") for p in found)


SHARED_NAMES = {"__init__", "fake", "registry", "service"}
"""File names that mean the same thing in every package that has one: the package's face, its deterministic
fakes, its registry, its one use-case owner."""


def test_one_file_name_one_meaning():
    """Outside commands/ (whose modules are named by their command: commands/timeline.py is `egocli
    timeline`), no two modules share a file name, so a name says which module it is."""
    seen: dict[str, list[str]] = defaultdict(list)
    for path in ROOT.rglob("*.py"):
        if path.parent.name != "commands" and path.stem not in SHARED_NAMES:
            seen[path.stem].append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}
