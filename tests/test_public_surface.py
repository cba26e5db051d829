"""The package's public surface: explicit, complete, documented, and light to import; the
subsystems' private modules and names used only inside their subsystem."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import itertools
import subprocess
import sys
from pathlib import Path

import pytest

import matchkit
from matchkit import errors

# What each public name must be: where it is defined and what kind of object it is.
EXPECTED = {
    "Client": ("matchkit.client.client", inspect.isclass),
    "MatchFrames": ("matchkit.model.frames", inspect.isclass),
    "to_frames": ("matchkit.normalize.pipeline", inspect.isfunction),
    "TelemetryFrames": ("matchkit.telemetry.frames", inspect.isclass),
    "to_telemetry_frames": ("matchkit.telemetry", inspect.isfunction),
    "create_app": ("matchkit.service.doubles", inspect.isfunction),
    "running": ("matchkit.service.server", inspect.isfunction),
    "serve": ("matchkit.service.server", inspect.isfunction),
}


def test_all_is_exactly_the_documented_surface() -> None:
    error_names = {
        name
        for name, value in vars(errors).items()
        if inspect.isclass(value) and issubclass(value, matchkit.MatchkitError)
    }
    assert set(matchkit.__all__) == set(EXPECTED) | error_names
    assert len(matchkit.__all__) == len(set(matchkit.__all__))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_public_name_resolves_to_its_implementation(name: str) -> None:
    value = getattr(matchkit, name)
    module, kind = EXPECTED[name]
    assert kind(value), f"matchkit.{name} is {value!r}"
    assert value.__module__ == module
    assert inspect.getdoc(value), f"matchkit.{name} has no docstring"


@pytest.mark.parametrize(
    "name", sorted(name for name in matchkit.__all__ if name.endswith("Error"))
)
def test_every_public_error_is_a_matchkit_error(name: str) -> None:
    error = getattr(matchkit, name)
    assert issubclass(error, matchkit.MatchkitError)
    assert error.__module__ == "matchkit.errors"


def test_argument_errors_are_value_errors() -> None:
    assert issubclass(matchkit.InvalidArgumentError, ValueError)


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Clinet'"):
        matchkit.Clinet  # noqa: B018


def test_importing_matchkit_loads_neither_the_client_nor_the_service() -> None:
    code = (
        "import sys, matchkit\n"
        "heavy = [m for m in ('requests_cache', 'requests', 'starlette', 'uvicorn', "
        "'ipywidgets', 'matplotlib', 'matchkit.client', 'matchkit.service.app', "
        "'matchkit.telemetry') "
        "if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


# The rule of the subsystems' surfaces (matchkit/__init__.py's docstring says it to a reader):
# each subsystem package declares its public names in its __init__'s __all__, each documented;
# a module or name starting with "_" is private to its subsystem.

PACKAGE = Path(matchkit.__file__).parent
SUBSYSTEMS = sorted(path.parent.name for path in PACKAGE.glob("*/__init__.py"))


@functools.cache
def _attribute_docstrings() -> frozenset[str]:
    """The module-level names of matchkit documented where they are assigned: by a ``#:``
    comment right above, or a string right after (the two forms Sphinx reads)."""
    documented = set()
    for path in PACKAGE.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        body = ast.parse(source).body
        for node, following in itertools.pairwise([*body, None]):
            if isinstance(node, ast.Assign):
                names = {target.id for target in node.targets if isinstance(target, ast.Name)}
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names = {node.target.id}
            else:
                continue
            commented = node.lineno > 1 and lines[node.lineno - 2].lstrip().startswith("#:")
            string_after = isinstance(following, ast.Expr) and isinstance(
                following.value, ast.Constant
            )
            if commented or string_after:
                documented |= names
    return frozenset(documented)


def _documented(value: object, name: str) -> bool:
    """A class, function or module: its own docstring; a value: its attribute docstring."""
    if inspect.isclass(value):
        return bool((value.__dict__.get("__doc__") or "").strip())  # its own, not a base's
    if inspect.isroutine(value) or inspect.ismodule(value):
        return bool((value.__doc__ or "").strip())
    return name in _attribute_docstrings()


@pytest.mark.parametrize("subsystem", SUBSYSTEMS)
def test_each_subsystem_declares_its_documented_public_names(subsystem: str) -> None:
    package = importlib.import_module(f"matchkit.{subsystem}")
    names = vars(package).get("__all__")
    assert isinstance(names, list), f"matchkit.{subsystem} declares no __all__"
    assert len(names) == len(set(names))
    assert not [name for name in names if name.startswith("_")]
    undocumented = [name for name in names if not _documented(getattr(package, name), name)]
    assert undocumented == [], f"matchkit.{subsystem}: undocumented public names"


def private_imports(path: Path, source: str) -> list[str]:
    """The imports in ``source`` (the module at ``path`` in matchkit/) of another subsystem's
    private module or name (``_``)."""
    parts = path.relative_to(PACKAGE).parts
    own = parts[0] if len(parts) > 1 else None  # a top-level module belongs to no subsystem
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [(node.module, [alias.name for alias in node.names])]
        elif isinstance(node, ast.Import):
            modules = [(alias.name, []) for alias in node.names]
        else:
            continue
        for module, names in modules:
            dotted = module.split(".")
            if dotted[0] != "matchkit" or (len(dotted) > 1 and dotted[1] == own):
                continue
            if any(part.startswith("_") for part in dotted[1:]) or any(
                name.startswith("_") for name in names
            ):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {module} {names}")
    return found


def test_no_subsystem_imports_another_subsystems_private_module_or_name() -> None:
    found = [
        problem
        for path in sorted(PACKAGE.rglob("*.py"))
        for problem in private_imports(path, path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_private_imports_are_found() -> None:
    # The check of the rule above, on sources that break it and sources that keep it.
    widgets = PACKAGE / "widgets" / "_views.py"
    assert private_imports(widgets, "from matchkit.plots._style import group_label\n")
    assert private_imports(widgets, "from matchkit.analysis import _check_top\n")
    assert private_imports(widgets, "import matchkit.analysis._engine\n")
    assert private_imports(PACKAGE / "names.py", "from matchkit.plots._style import x\n")
    assert not private_imports(widgets, "from matchkit.widgets._views import html_output\n")
    assert not private_imports(widgets, "from matchkit.analysis import group_label\n")


def test_the_package_ships_its_type_information() -> None:
    assert (PACKAGE / "py.typed").is_file()
