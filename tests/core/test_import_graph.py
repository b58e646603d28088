"""The package's import graph, read from the source with `ast` (imports inside
functions too): it has no circle, and no module takes another module's
underscore name."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "mindwidget"


def _modules() -> dict[str, ast.Module]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = ast.parse(path.read_text("utf-8"), str(path))
    return found


def _imports(name: str, tree: ast.Module, modules: set[str]) -> list[tuple[str, str]]:
    """(module, imported name or "") for every import of a module of the package."""
    package = name if name in modules and _is_package(name) else name.rpartition(".")[0]
    out: list[tuple[str, str]] = []
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, "") for a in node.names if a.name.split(".")[0] == "mindwidget"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != "mindwidget":
                continue
            for a in node.names:
                sub = f"{source}.{a.name}"
                out.append((sub, "") if sub in modules else (source, a.name))
    return out


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node that may run: all but the bodies of ``if TYPE_CHECKING:``."""
    out: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            todo += node.orelse
            continue
        todo += ast.iter_child_nodes(node)
    return out


def _is_package(name: str) -> bool:
    return (PACKAGE.parent / name.replace(".", "/") / "__init__.py").exists()


def test_the_package_has_no_import_circle() -> None:
    trees = _modules()
    names = set(trees)
    graph = {
        n: {m for m, _ in _imports(n, t, names) if m in names and m != n} for n, t in trees.items()
    }
    state: dict[str, int] = {}
    circles: list[list[str]] = []

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            circles.append([*path[path.index(name) :], name])
            return
        state[name] = 1
        for dep in sorted(graph[name]):
            visit(dep, [*path, name])
        state[name] = 2

    for name in sorted(graph):
        visit(name, [])
    assert [" -> ".join(c) for c in circles] == []


def test_no_module_imports_another_modules_underscore_name() -> None:
    trees = _modules()
    names = set(trees)
    private = set(
        f"{n} takes {m}.{what}"
        for n, t in trees.items()
        for m, what in _imports(n, t, names)
        if what.startswith("_") and not what.startswith("__") and m != n
    )
    assert sorted(private) == []
