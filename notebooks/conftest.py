"""nbval settings for the report's notebooks (`pytest --nbval notebooks/`)."""

from __future__ import annotations

import pytest

# Widget views name their model by a random id on every run: compare everything else.
NONDETERMINISTIC_MIMETYPES = ("application/vnd.jupyter.widget-view+json",)


def pytest_collectstart(collector):
    if collector.fspath and collector.fspath.ext == ".ipynb":
        collector.skip_compare += NONDETERMINISTIC_MIMETYPES


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failed cell, show what it wrote to stderr: nbval names the output field only
    ("Unexpected output fields from running code: {'stderr'}"), not its text."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    outputs = getattr(item, "test_outputs", None) or []
    text = "".join(
        str(output.get("text", ""))
        for output in outputs
        if output.get("output_type") == "stream" and output.get("name") == "stderr"
    )
    if text:
        report.sections.append(("what the cell wrote to stderr", text))
