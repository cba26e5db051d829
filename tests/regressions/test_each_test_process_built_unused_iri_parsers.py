"""Regression: every process of the suite spent 3.3 CPU-seconds importing nbformat (nbval's
plugin imports it as pytest starts), most of it ``rfc3987_syntax`` building Lark parsers for
jsonschema's ``iri`` format, which no notebook schema uses. ``tests/early.py``, loaded before the
other plugins, marks it absent. Found with ``python -X importtime -m pytest --collect-only``."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

from tests.fresh import printed_by

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"


def test_this_process_never_built_the_iri_parsers() -> None:
    assert "nbformat" in sys.modules
    assert "jsonschema" in sys.modules
    assert sys.modules.get("rfc3987_syntax") is None


def test_notebooks_are_still_validated_against_their_schema() -> None:
    notebook = nbformat.read(next(iter(sorted(NOTEBOOKS.glob("*.ipynb")))), as_version=4)
    nbformat.validate(notebook)
    notebook.cells[0]["cell_type"] = "not a cell type"
    try:
        nbformat.validate(notebook)
    except nbformat.ValidationError:
        return
    raise AssertionError("a broken notebook passed nbformat's validation")


def test_the_report_command_reads_notebooks_without_them() -> None:
    """``matchkit report`` imports nbformat with them marked absent (3.3 CPU-s of each report),
    and leaves ``sys.modules`` as it found it."""
    code = (
        "import sys\n"
        "from matchkit.cli.commands import _without_iri_parsers\n"
        "with _without_iri_parsers():\n"
        "    import nbformat\n"
        "print(sys.modules.get('rfc3987_syntax', 'not imported'))\n"
    )
    printed = printed_by(code)
    assert printed.strip() == "not imported"
