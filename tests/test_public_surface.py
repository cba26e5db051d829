"""The package's public surface: explicit, complete, documented, and light to import; the
subsystems' private modules and names used only inside their subsystem."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import itertools
from pathlib import Path

import pytest

import matchkit
from matchkit import errors
from tests.fresh import printed_by

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
        if inspect.isclass(value)
        and issubclass(value, matchkit.MatchkitError | matchkit.MatchkitWarning)
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
    assert printed_by(code).strip() == ""


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


# -- warnings: one root, and exported where users meet them ------------------------------------


def _warning_classes() -> list[tuple[str, str]]:
    """(module, class) of every class in matchkit/ that derives from a ``...Warning`` class."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                ast.unparse(base).split(".")[-1].endswith("Warning") for base in node.bases
            ):
                found.append((module.removesuffix(".__init__"), node.name))
    return found


def _warn_calls() -> list[tuple[str, str, ast.Call]]:
    """(module, where, call) of every ``warnings.warn(...)`` (or a bare ``warn(...)``)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func) in {"warnings.warn", "warn"}:
                where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                found.append((module.removesuffix(".__init__"), where, node))
    return found


def test_every_warning_class_of_matchkit_derives_from_the_root() -> None:
    classes = _warning_classes()
    assert ("matchkit.errors", "MatchkitWarning") in classes  # the reader sees them
    assert len(classes) >= 4
    strays = [
        f"{module}.{name}"
        for module, name in classes
        if not issubclass(getattr(importlib.import_module(module), name), matchkit.MatchkitWarning)
    ]
    assert strays == [], "derive these from matchkit.errors.MatchkitWarning"


def test_every_warning_matchkit_issues_names_a_class_under_the_root() -> None:
    # A warnings.warn without a category is a bare UserWarning: no filter on the root catches it.
    calls = _warn_calls()
    assert len(calls) >= 3  # the client's three warnings are issued
    strays = []
    for module, where, call in calls:
        category = call.args[1] if len(call.args) > 1 else None
        category = next((k.value for k in call.keywords if k.arg == "category"), category)
        value = (
            getattr(importlib.import_module(module), category.id, None)
            if isinstance(category, ast.Name)
            else None
        )
        if not (inspect.isclass(value) and issubclass(value, matchkit.MatchkitWarning)):
            strays.append(where)
    assert strays == [], "warn with a category derived from MatchkitWarning"


def test_the_root_of_warnings_is_a_user_warning_at_the_top_of_the_package() -> None:
    assert matchkit.MatchkitWarning is errors.MatchkitWarning
    assert issubclass(matchkit.MatchkitWarning, UserWarning)
    assert not issubclass(matchkit.MatchkitWarning, matchkit.MatchkitError)


def test_every_warning_is_exported_by_its_subsystem_package() -> None:
    # Where users meet them: matchkit.MatchkitWarning, matchkit.client.RangeClampedWarning, ...
    missing = []
    for module, name in _warning_classes():
        package = ".".join(module.split(".")[:2]) if module.count(".") > 1 else "matchkit"
        if name not in importlib.import_module(package).__all__:
            missing.append(f"{package}.{name}")
    assert missing == []


def test_the_client_exports_its_retry_policy() -> None:
    import matchkit.client
    from matchkit.client import retrying

    assert "RetryPolicy" in matchkit.client.__all__
    assert matchkit.client.RetryPolicy is retrying.RetryPolicy


# -- the analysis input: one name, one type --------------------------------------------------

#: Public functions of matchkit.analysis and matchkit.plots that take no analysed data: a value
#: (a version, a group, a share, a colour, a Series of ids) or a finished table to show.
NOT_ON_DATA = frozenset(
    {
        "battlerite_labels",
        "character_labels",
        "version_key",
        "wilson_columns",
        "with_group_columns",
        "for_display",
        "group_label",
        "percent",
        "server_type_color",
    }
)
#: The annotation every analysis and plot starts its ``data`` with.
SOURCES = {"TableSource", "TelemetryTableSource"}


def _on_data() -> list[tuple[str, object]]:
    import matchkit.analysis
    import matchkit.analysis.telemetry
    import matchkit.plots

    functions = []
    for package in (matchkit.analysis, matchkit.analysis.telemetry, matchkit.plots):
        for name in package.__all__:
            value = getattr(package, name)
            if inspect.isfunction(value) and name not in NOT_ON_DATA:
                functions.append((f"{package.__name__}.{name}", value))
    return functions


def test_every_analysis_and_plot_takes_data_first_typed_by_its_source() -> None:
    functions = _on_data()
    assert len(functions) >= 25  # analyses and plots of matches and of telemetry
    wrong = {}
    for name, function in functions:
        first = next(iter(inspect.signature(function).parameters.values()))
        annotation = str(first.annotation).split(" | ")[0]
        if first.name != "data" or annotation not in SOURCES:
            wrong[name] = f"{first.name}: {first.annotation}"
    assert wrong == {}, f"start with data: {' or '.join(sorted(SOURCES))} [| what else it takes]"


def test_telemetry_analyses_and_plots_take_telemetry_sources() -> None:
    telemetry = {
        name: str(next(iter(inspect.signature(function).parameters.values())).annotation)
        for name, function in _on_data()
        if "telemetry" in function.__module__
    }
    assert len(telemetry) >= 8
    assert all(value.startswith("TelemetryTableSource") for value in telemetry.values())


def test_the_explorer_takes_data_first_too() -> None:
    from matchkit.widgets import ExplorerPanel, explore

    for function in (explore, ExplorerPanel.__init__):
        names = [name for name in inspect.signature(function).parameters if name != "self"]
        assert names[0] == "data"


# -- the verbs of checks ---------------------------------------------------------------------

#: Functions named ``check_*`` in other subsystems, to be renamed by their owners to
#: ``checked_*`` (returns the checked value) or ``require_*`` (returns nothing, raises); the list
#: only shrinks: a name that is gone must leave it.
CHECK_VERBS_TO_RENAME = frozenset(
    {
        "matchkit.cli.commands._check_fetch_out",
        "matchkit.cli.options.check_offline",
        "matchkit.client.request.Fetched.require_body",
        "matchkit.client.responses._check_resource",
        "matchkit.client.responses.check_body",
        "matchkit.model.manifest.check_digest",
        "matchkit.model.manifest.check_target_folder",
        "matchkit.model.parquet._check_files",
        "matchkit.rules.query._check_count",
        "matchkit.service.server._check_port",
        "matchkit.synth._check_replaceable",
        "matchkit.telemetry.download.check_max_workers",
        "matchkit.telemetry.download.check_on_error",
        "matchkit.telemetry.parse.check_against_match",
        "matchkit.telemetry.parse.check_events",
    }
)


def _check_verb_offences() -> dict[str, str]:
    """Function name -> what is wrong with its verb: ``check_*`` says neither whether it returns
    nor what; ``checked_*`` must return the checked value, ``require_*`` nothing."""
    offences = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for owner in [tree, *(node for node in ast.walk(tree) if isinstance(node, ast.ClassDef))]:
            prefix = f"{module}." if owner is tree else f"{module}.{owner.name}."
            for node in owner.body:
                if not isinstance(node, ast.FunctionDef):
                    continue
                verb = node.name.lstrip("_")
                returns = ast.unparse(node.returns) if node.returns else "None"
                if verb.startswith("check_"):
                    offences[prefix + node.name] = "check_*: say checked_* or require_*"
                elif verb.startswith("checked_") and returns == "None":
                    offences[prefix + node.name] = "checked_* returns nothing"
                elif verb.startswith("require_") and returns != "None":
                    offences[prefix + node.name] = f"require_* returns {returns}"
    return offences


def test_checked_returns_and_require_raises() -> None:
    offences = _check_verb_offences()
    fixed = CHECK_VERBS_TO_RENAME - set(offences)
    assert fixed == set(), f"renamed: take {sorted(fixed)} off CHECK_VERBS_TO_RENAME"
    new = {name: why for name, why in offences.items() if name not in CHECK_VERBS_TO_RENAME}
    assert new == {}
