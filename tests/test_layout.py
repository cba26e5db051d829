"""The house's layout (issues 10 and 29): small modules, grouped by subsystem, and dependencies
that point the one way ``DESIGN.md`` draws.

The import graph is read from the source with :mod:`ast`, not from ``sys.modules``: every
``import`` and ``from ... import``, at the top of a module, inside a function (a lazy import), or
under ``if TYPE_CHECKING:`` (counted too: a type-only dependency is still a dependency), and
every module named by its dotted path in a string (the lazy attributes of a package's
``__getattr__``, :mod:`matchkit.lazy`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import matchkit
import matchkit.normalize

PACKAGE = Path(matchkit.__file__).parent
MAX_LINES = 450
TOP_LEVEL = {"__init__.py", "__main__.py", "errors.py", "lazy.py", "names.py"}
"""What every subsystem shares: the public surface, the CLI entry, errors, lazy attributes and
the names of ids."""

ROOT = "matchkit"
"""The node of ``matchkit/__init__.py`` (the public surface) in the package graph."""

ALLOWED: Mapping[str, frozenset[str]] = {
    # The bottom: what everything may use.
    "errors": frozenset(),
    "lazy": frozenset(),
    # The interface's rules, pure, shared by client and service.
    "rules": frozenset({"errors"}),
    # The normalized model: tables, MatchFrames, Parquet. Never names, never the service.
    "model": frozenset({"errors"}),
    # documents -> MatchFrames.
    "normalize": frozenset({"errors", "rules", "model"}),
    # telemetry files -> TelemetryFrames, with normalize's column machinery (its public names).
    "telemetry": frozenset({"errors", "rules", "model", "normalize"}),
    # The sample data set's format, which the generator writes and the service reads (the synth
    # branch of issue 29 brings it; until then the format is in synth/).
    "sampledata": frozenset({"errors", "rules"}),
    # The sample generator.
    "synth": frozenset({"errors", "rules", "model", "sampledata"}),
    # The reference service: shares the rules with the client, never imports the client, and
    # never the generator (it reads the data set through its format).
    "service": frozenset({"errors", "lazy", "rules", "sampledata"}),
    # The client: fetches through rules, normalizes, downloads telemetry; starts the embedded
    # reference service on the sample data set when no base URL is given (lazily).
    "client": frozenset(
        {"errors", "rules", "model", "normalize", "telemetry", "service", "synth", "sampledata"}
        | {"names"}
    ),
    # Names for ids (the vocabulary of kinds from the model), read from a mapping, a file or a
    # catalogue (the sample set's from its folder); never HTTP: the client fetches a service's.
    "names": frozenset({"errors", "model", "sampledata"}),
    # Tables of findings: MatchFrames, TelemetryFrames and DataFrames only; no HTTP.
    "analysis": frozenset({"errors", "rules", "model", "names", "telemetry"}),
    "plots": frozenset({"errors", "model", "names", "telemetry", "analysis"}),
    "widgets": frozenset({"errors", "model", "names", "analysis", "plots"}),
    # Kept past the retention: syncs through a client, synthetic archives from the generator's
    # parameters, tables of MatchFrames and TelemetryFrames.
    "archive": frozenset(
        {"errors", "lazy", "rules", "model", "telemetry", "client", "synth", "sampledata"}
    ),
    # Notebooks -> HTML, against the embedded service.
    "report": frozenset({"errors", "rules", "model", "service"}),
    # The command line: the top, over the subsystems it drives.
    "cli": frozenset({"errors", "rules", "model", "client", "service", "synth", "sampledata"})
    | {"report", "archive", "names"},
    # The public surface (lazy: the client, the service and telemetry load on first use).
    ROOT: frozenset({"errors", "lazy", "model", "normalize", "client", "service", "telemetry"}),
    "__main__": frozenset({"cli"}),
}
"""Which package (a subsystem folder, or a top-level module) may import which: the dependency
direction of ``docs/design.md``, as a table. A package not listed here fails the test: declare a
new one with what it may import."""

OPEN = frozenset({"errors", "lazy"})
"""What every package may import besides its row: the exceptions, and the helper of a package's
lazy attributes (neither imports anything of matchkit)."""

_DOTTED = re.compile(r"matchkit(\.[A-Za-z_]\w*)+")


@dataclass(frozen=True)
class Import:
    """One import of a matchkit module by a matchkit module."""

    source: str  # the importing module, dotted
    target: str  # the imported module, dotted (a module or package that exists)
    names: tuple[str, ...]  # what a ``from`` import takes from it (empty for ``import x``)
    where: str  # path:line
    kind: str  # "top", "lazy" (inside a function), "type" (TYPE_CHECKING) or "by name"

    @property
    def edge(self) -> tuple[str, str]:
        return package_of(self.source), package_of(self.target)


def package_of(module: str) -> str:
    """The node of a dotted module in the package graph: its subsystem folder or top module."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ROOT


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _exists(module: str) -> bool:
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _resolved(module: str, name: str | None) -> str:
    """``from module import name``: the submodule when ``name`` is one, else the module."""
    if name is not None and _exists(f"{module}.{name}"):
        return f"{module}.{name}"
    return module


def _absolute(source: str, node: ast.ImportFrom, *, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = source.split(".") if is_package else source.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports_of(path: Path) -> Iterator[Import]:
    """Every import of a matchkit module in one file, wherever it stands."""
    source = _module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    kinds: dict[int, str] = {}
    for node in ast.walk(tree):
        inner: str | None = None
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inner = "type"
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = "lazy"
        if inner is not None:
            for child in ast.walk(node):
                if child is not node:
                    kinds.setdefault(id(child), inner)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    rel = path.relative_to(PACKAGE.parent)
    for node in ast.walk(tree):
        where = f"{rel}:{getattr(node, 'lineno', 0)}"
        kind = kinds.get(id(node), "top")
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == ROOT:
                    yield Import(source, alias.name, (), where, kind)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(source, node, is_package=path.name == "__init__.py")
            if module.split(".")[0] != ROOT:
                continue
            for alias in node.names:
                target = _resolved(module, alias.name)
                names = () if target != module else (alias.name,)
                yield Import(source, target, names, where, kind)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and _DOTTED.fullmatch(node.value)
            and _exists(node.value)
        ):
            yield Import(source, node.value, (), where, "by name")


@cache
def package_imports() -> tuple[Import, ...]:
    """Every import of one matchkit package by another (a package's own modules left out)."""
    found = [item for path in sorted(PACKAGE.rglob("*.py")) for item in imports_of(path)]
    return tuple(item for item in found if item.edge[0] != item.edge[1])


def package_graph(imports: tuple[Import, ...]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for item in imports:
        graph.setdefault(item.edge[0], set()).add(item.edge[1])
        graph.setdefault(item.edge[1], set())
    return graph


def cycles(graph: Mapping[str, set[str]] | Mapping[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _forbidden(imports: tuple[Import, ...]) -> list[str]:
    return sorted(
        {
            f"{item.edge[0]} -> {item.edge[1]}: {item.where} ({item.kind}) imports {item.target}"
            for item in imports
            if item.edge[1] not in ALLOWED.get(item.edge[0], frozenset()) | OPEN
        }
    )


def test_no_module_is_longer_than_450_lines() -> None:
    lengths = {
        str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert len(lengths) > 100  # the whole package was read
    assert {name: lines for name, lines in lengths.items() if lines > MAX_LINES} == {}


def test_every_other_module_lives_in_a_subsystem_folder() -> None:
    assert {path.name for path in PACKAGE.glob("*.py")} == TOP_LEVEL
    folders = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    assert {"client", "model", "normalize", "rules", "service", "telemetry"} <= folders


def test_the_graph_reader_sees_every_kind_of_import() -> None:
    # Known imports of each kind, so that an empty or blind reading cannot pass the tests below.
    kinds = {(item.edge, item.kind) for item in package_imports()}
    assert (("client", "service"), "lazy") in kinds  # client/embedded.py starts the service
    assert ((ROOT, "client"), "type") in kinds  # matchkit/__init__.py, under TYPE_CHECKING
    assert ((ROOT, "client"), "by name") in kinds  # its lazy attributes
    assert (("normalize", "model"), "top") in kinds
    assert len(package_imports()) > 200


def test_every_package_is_declared_in_the_allowed_graph() -> None:
    packages = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    packages |= {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    undeclared = packages - set(ALLOWED)
    assert not undeclared, f"declare {sorted(undeclared)} in ALLOWED, with what each may import"


def test_the_allowed_graph_has_no_circle() -> None:
    # So that the table itself can never permit a circle between packages.
    assert cycles(ALLOWED) == []
    assert all(not ALLOWED[package] for package in OPEN)  # so OPEN can close no circle
    assert all(ROOT not in targets for targets in ALLOWED.values())


def test_every_import_between_packages_is_allowed() -> None:
    forbidden = _forbidden(package_imports())
    assert not forbidden, "imports against the allowed graph:\n" + "\n".join(forbidden)


def test_no_circle_between_packages() -> None:
    circles = cycles(package_graph(package_imports()))
    assert not circles, f"packages that import each other, round a circle: {circles}"


def test_the_service_never_imports_the_generator() -> None:
    edges = sorted({item.where for item in package_imports() if item.edge == ("service", "synth")})
    assert not edges, f"the service reads the data set through its format, not synth: {edges}"


def test_the_model_never_imports_names_or_the_service() -> None:
    edges = sorted(
        {
            f"{item.where} imports {item.target}"
            for item in package_imports()
            if item.edge[0] == "model" and item.edge[1] in {"names", "service"}
        }
    )
    assert not edges, f"names are a layer above the model: {edges}"


def test_telemetry_uses_only_the_public_names_of_normalize() -> None:
    public = set(matchkit.normalize.__all__)
    into_normalize = [item for item in package_imports() if item.edge == ("telemetry", "normalize")]
    assert into_normalize  # telemetry does build on normalize's column machinery
    private = sorted(
        {
            f"{item.where} imports {item.target} {list(item.names)}"
            for item in into_normalize
            if item.target != "matchkit.normalize" or not set(item.names) <= public
        }
    )
    assert private == [], f"import these from matchkit.normalize (its __all__: {sorted(public)})"
