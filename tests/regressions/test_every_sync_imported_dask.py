"""Regression: ``import matchkit.archive`` and any of its names imported ``dask.dataframe`` (about
2 CPU-s a process) only to check that the archive's packages were installed, so every sync,
the command line's in a daily cron job among them, paid for an engine it never computes with.
Found while measuring a notebook's sync (notebooks/10) with py-spy."""

from __future__ import annotations

from tests.fresh import printed_by


def test_the_archives_names_load_no_dask() -> None:
    code = (
        "import sys\n"
        "import matchkit.archive as archive\n"
        "archive.sync, archive.open, archive.info, archive.compact, archive.SyncResult\n"
        "import matchkit.archive.syncing, matchkit.archive.writer, matchkit.cli\n"
        "print(sorted(m for m in sys.modules if m == 'dask' or m.startswith('dask.')))"
    )
    loaded = printed_by(code)
    assert loaded.strip() == "[]"


def test_an_archive_without_its_packages_says_what_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['deltalake'] = None  # as if not installed\n"
        "import matchkit.archive as archive\n"
        "try:\n"
        "    archive.sync\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    said = printed_by(code)
    assert "needs deltalake and dask (deltalake not found)" in said
    assert "pip install 'matchkit[archive]'" in said
