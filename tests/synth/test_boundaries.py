"""Who may import the generator, and what the wheel ships of the sample set (issue 29).

The reference service, the names lookup and the sample-set package read the data set and render
its telemetry without the generator: they never import ``matchkit.synth``. The import statements
are read from the source (function-level ones included), so a lazy import cannot hide one.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import orjson

import matchkit
from matchkit.sampledata import MANIFEST, sample_data_path

PACKAGE = Path(matchkit.__file__).parent
REPO = PACKAGE.parent


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _modules(*parts: str) -> list[Path]:
    paths = []
    for part in parts:
        target = PACKAGE / part
        paths += sorted(target.rglob("*.py")) if target.is_dir() else [target]
    assert paths
    return paths


def _importing(paths: list[Path], prefixes: tuple[str, ...]) -> dict[str, list[str]]:
    offending = {}
    for path in paths:
        names = sorted(
            name
            for name in _imports(path)
            if any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)
        )
        if names:
            offending[str(path.relative_to(PACKAGE))] = names
    return offending


def test_the_service_and_names_never_import_the_generator() -> None:
    paths = _modules("service", "names.py", "sampledata")
    assert _importing(paths, ("matchkit.synth",)) == {}


def test_the_sample_set_package_depends_on_no_reader_or_writer() -> None:
    forbidden = ("matchkit.synth", "matchkit.service", "matchkit.client", "matchkit.names")
    assert _importing(_modules("sampledata"), forbidden) == {}


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    module = tmp_path / "lazy.py"
    module.write_text("def f():\n    from matchkit.synth import write_dataset\n")
    assert "matchkit.synth" in _imports(module)


def test_the_wheel_ships_every_data_file_of_the_sample_set_and_not_its_readme() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    manifest = orjson.loads((sample_data_path() / MANIFEST).read_bytes())
    files = {MANIFEST, manifest["catalogue"]["path"]}
    files |= {shard["path"] for shard in manifest["shards"].values()}
    assert shipped == {f"data/{name}": f"matchkit/sample_data/{name}" for name in files}
    assert {path.name for path in (REPO / "data").iterdir()} == files | {"README.md"}
