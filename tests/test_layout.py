"""The house's layout (issue 10): small modules, grouped by subsystem."""

from __future__ import annotations

from pathlib import Path

import matchkit

PACKAGE = Path(matchkit.__file__).parent
MAX_LINES = 450
TOP_LEVEL = {"__init__.py", "__main__.py", "errors.py", "lazy.py", "names.py"}
"""What every subsystem shares: the public surface, the CLI entry, errors, lazy attributes and
the names of ids."""


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
