"""Regression: notebooks 08 and 10 left their archive in the machine's temporary folder.

With ``ARCHIVE = None`` they synced into ``tempfile.mkdtemp()`` and never removed it: every run of
the report or of the test suite left 7-9 MB behind (93 folders on the development machine). A
notebook that needs a scratch folder now makes a ``TemporaryDirectory`` and removes it in a later
cell, which runs under nbval too (it kills the kernel after the last cell, so a finalizer alone
would not).
"""

from __future__ import annotations

import re

import nbformat

from matchkit.report import NOTEBOOKS, notebooks_path

_SCRATCH = re.compile(r"^(\w+) = .*tempfile\.TemporaryDirectory\(", re.MULTILINE)


def _code(name: str) -> list[str]:
    notebook = nbformat.read(notebooks_path() / name, as_version=4)
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def test_every_temporary_folder_a_notebook_makes_is_removed_by_a_later_cell() -> None:
    made = 0
    for name in NOTEBOOKS:
        cells = _code(name)
        for index, source in enumerate(cells):
            assert "mkdtemp(" not in source, f"{name}: mkdtemp leaves its folder behind"
            for scratch in _SCRATCH.findall(source):
                made += 1
                later = "\n".join(cells[index + 1 :])
                assert f"{scratch}.cleanup()" in later, f"{name}: {scratch} is never removed"
    assert made >= 2  # notebooks 08 and 10 archive into a scratch folder
