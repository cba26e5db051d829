"""The house's layout: small modules, grouped by subsystem, and dependencies that point the one
way ``docs/design.md`` draws.

The allowed graph is the table of ``docs/design.md`` ("Dependency direction"), read from the
page itself, so that the page and the test cannot drift apart. The import graph is read from
the source with :mod:`ast`, not from ``sys.modules``: every ``import`` and ``from ... import``,
at the top of a module, inside a function (a lazy import), or under ``if TYPE_CHECKING:``
(counted too: a type-only dependency is still a dependency), and every module named by its
dotted path in a string (the lazy attributes of a package's ``__getattr__``,
:mod:`matchkit.lazy`).
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
DESIGN = PACKAGE.parent / "docs" / "design.md"
MAX_FUNCTION_LINES = 80
"""The longest function a reader should have to hold in mind: lines of code from ``def`` to its
end, its docstring not counted (a docstring is never a reason to split)."""
MAX_MODULE_LINES = 800
"""A smoke alarm, not a target: a module this long most likely holds more than one concern."""
LONG_FUNCTIONS: Mapping[str, str] = {
    "parameters_record": "the sample set's parameters as one JSON record, field by field",
    "read_match": "sampledata: a match document read back into the renderer's match",
    "_sync_parser": "cli: the options of `archive sync`, one add_argument each",
    "_fetch_parser": "cli: the options of `fetch`, one add_argument each",
}
"""Functions longer than :data:`MAX_FUNCTION_LINES` when the cap came in, by name, and why they
are long: the list only shrinks (a function split must leave it)."""
TOP_LEVEL = {"__init__.py", "__main__.py", "cachedir.py", "errors.py", "lazy.py", "names.py"}
"""What every subsystem shares: the public surface, the CLI entry, errors, lazy attributes, the
cache folder and the names of ids."""

ROOT = "matchkit"
"""The node of ``matchkit/__init__.py`` (the public surface) in the package graph."""

OPEN = frozenset({"errors", "lazy", "cachedir"})
"""What every package may import besides its row: the exceptions, the helper of a package's
lazy attributes, and where the caches live (none imports anything of matchkit)."""

_TABLE_HEAD = "| package | may import | why |"
_NAME = re.compile(r"`([A-Za-z_]\w*)`")
_ENTRY = re.compile(r"`([A-Za-z_]\w*)`( \(lazily\))?")


@dataclass(frozen=True)
class DeclaredGraph:
    """The dependency table of ``docs/design.md``.

    Attributes:
        allowed: package -> the packages it may import (besides :data:`OPEN`).
        lazily: the edges that may only be imported lazily (in a function, for types, by name).
    """

    allowed: Mapping[str, frozenset[str]]
    lazily: frozenset[tuple[str, str]]


def read_declared_graph(text: str) -> DeclaredGraph:
    """The table under "Dependency direction" in ``text`` (docs/design.md's Markdown).

    Column 1 names packages in backticks; column 2 lists what they may import, each a name in
    backticks optionally followed by ``(lazily)``, separated by commas, or ``—`` for nothing;
    column 3 says why, in free text.

    Raises:
        ValueError: the table is missing or a cell of it is not of that form.
    """
    lines = text.splitlines()
    if _TABLE_HEAD not in lines:
        raise ValueError(f"docs/design.md has no table headed {_TABLE_HEAD!r}")
    rows = []
    for line in lines[lines.index(_TABLE_HEAD) + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    allowed: dict[str, frozenset[str]] = {}
    lazily: set[tuple[str, str]] = set()
    for cells in rows:
        if len(cells) != 3:
            raise ValueError(f"a row of three cells expected: {cells}")
        packages = _NAME.findall(cells[0].split("(")[0])
        entries = _ENTRY.findall(cells[1])
        leftover = _ENTRY.sub("", cells[1]).replace(",", "").strip()
        if not packages or leftover not in ("", "—") or (leftover == "—") == bool(entries):
            raise ValueError(f"cannot read the row {cells[:2]}: see the table's notes")
        for package in packages:
            if package in allowed:
                raise ValueError(f"{package} has two rows")
            allowed[package] = frozenset(name for name, _ in entries)
            lazily |= {(package, name) for name, lazy in entries if lazy}
    return DeclaredGraph(allowed, frozenset(lazily))


DECLARED = read_declared_graph(DESIGN.read_text(encoding="utf-8"))
ALLOWED: Mapping[str, frozenset[str]] = DECLARED.allowed
"""Which package (a subsystem folder, or a top-level module) may import which: the dependency
direction of ``docs/design.md``, as a table. A package not listed there fails the test: declare a
new one with what it may import."""

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


def function_lengths(path: Path) -> Iterator[tuple[str, int]]:
    """(qualified name, lines of code) of every function in the module at ``path``, nested ones
    too: from its ``def`` (decorators left out) to its last line, less its docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def visit(node: ast.AST, prefix: str) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (child.end_lineno or child.lineno) - child.lineno + 1
                first = child.body[0]
                if ast.get_docstring(child, clean=False) is not None:
                    lines -= (first.end_lineno or first.lineno) - first.lineno + 1
                yield prefix + child.name, lines
                yield from visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                yield from visit(child, f"{prefix}{child.name}.")
            else:
                yield from visit(child, prefix)

    yield from visit(tree, "")


@cache
def long_functions() -> dict[str, str]:
    """Qualified name -> where and how long, of every function past the cap."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for name, lines in function_lengths(path):
            if lines > MAX_FUNCTION_LINES:
                found[name] = f"{path.relative_to(PACKAGE.parent)} ({lines} lines)"
    return found


def test_the_function_measure_counts_code_not_docstrings(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    body = "\n".join(f"    x{line} = {line}" for line in range(3))
    module.write_text(
        f'def f():\n    """Two\n    lines."""\n{body}\n\n\nclass C:\n    def g(self):\n'
        f"        def h():\n            pass\n        return h\n"
    )
    assert dict(function_lengths(module)) == {"f": 4, "C.g": 4, "C.g.h": 2}


def test_no_function_is_longer_than_a_reader_can_hold() -> None:
    found = long_functions()
    new = {name: where for name, where in found.items() if name not in LONG_FUNCTIONS}
    assert new == {}, f"split these into steps of at most {MAX_FUNCTION_LINES} lines"


def test_the_list_of_long_functions_only_shrinks() -> None:
    split = sorted(set(LONG_FUNCTIONS) - set(long_functions()))
    assert split == [], f"no longer long (or gone): take {split} off LONG_FUNCTIONS"


def test_no_module_is_too_long_to_be_one_concern() -> None:
    lengths = {
        str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert len(lengths) > 100  # the whole package was read
    assert {name: lines for name, lines in lengths.items() if lines > MAX_MODULE_LINES} == {}


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


def test_the_allowed_graph_is_read_from_the_design_page() -> None:
    # Known rows and edges, so that a table read wrong (or not at all) cannot pass the tests.
    assert len(ALLOWED) >= 18
    assert ALLOWED["normalize"] == {"rules", "model"}
    assert ALLOWED["__main__"] == {"cli"}
    assert ALLOWED["errors"] == ALLOWED["lazy"] == ALLOWED["cachedir"] == frozenset()
    assert ("client", "service") in DECLARED.lazily
    assert (ROOT, "normalize") not in DECLARED.lazily
    assert not [targets & OPEN for targets in ALLOWED.values() if targets & OPEN]  # open anyway


def test_a_misread_table_is_an_error() -> None:
    head = f"{_TABLE_HEAD}\n|---|---|---|\n"
    read = read_declared_graph(head + "| `a`, `b` | `c` (lazily), `d` | why `e` |\n| `c` | — | x |")
    assert read.allowed == {"a": {"c", "d"}, "b": {"c", "d"}, "c": frozenset()}
    assert read.lazily == {("a", "c"), ("b", "c")}
    for row in ("| `a` | c | x |", "| `a` | `c`; `d` | x |", "| `a` | | x |", "| a | `c` | x |"):
        try:
            read_declared_graph(head + row)
        except ValueError:
            continue
        raise AssertionError(f"read without complaint: {row}")


def test_the_allowed_graph_has_no_circle() -> None:
    # So that the table itself can never permit a circle between packages.
    assert cycles(ALLOWED) == []
    assert all(not ALLOWED[package] for package in OPEN)  # so OPEN can close no circle
    assert all(ROOT not in targets for targets in ALLOWED.values())


def test_every_allowed_edge_is_used() -> None:
    # A declared edge that no import uses is a permission nobody needs: take it off the table.
    used = {item.edge for item in package_imports()}
    unused = sorted(
        f"{source} -> {target}"
        for source, targets in ALLOWED.items()
        for target in targets
        if (source, target) not in used
    )
    assert unused == [], "remove these from docs/design.md's table"


def test_lazily_declared_edges_are_never_imported_at_load_time() -> None:
    eager = sorted(
        f"{item.where} imports {item.target}"
        for item in package_imports()
        if item.edge in DECLARED.lazily and item.kind == "top"
    )
    assert eager == [], "import these inside the function that needs them (design.md: lazily)"


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


def test_the_scheduler_names_only_modules_that_exist() -> None:
    # A renamed module would silently lose its place at the front of the run (conftest.py).
    import importlib.util

    spec = importlib.util.spec_from_file_location("root_conftest", PACKAGE.parent / "conftest.py")
    assert spec is not None
    assert spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    for module in (*conftest.FIRST, *conftest.SPREAD):
        assert (PACKAGE.parent / module).is_file(), module
