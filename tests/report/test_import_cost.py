"""What every notebook of the report pays in its fresh kernel before its work: the imports."""

from __future__ import annotations

from tests.fresh import printed_by


def test_the_notebooks_imports_load_no_scipy_stats() -> None:
    """scipy.stats took 1 to 6 s to import on the 2-core machine, in each of the eight kernels,
    for the few analyses that compute an interval: it is imported when one does."""
    code = (
        "import sys\n"
        "from matchkit import Client\n"
        "import matchkit.analysis, matchkit.analysis.telemetry, matchkit.plots\n"
        "print(sorted(m for m in sys.modules if m.startswith('scipy.stats')))"
    )
    loaded = printed_by(code)
    assert loaded.strip() == "[]"
