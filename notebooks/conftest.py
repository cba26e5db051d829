"""nbval settings for the report's notebooks (`pytest --nbval notebooks/`)."""

from __future__ import annotations

# Widget views name their model by a random id on every run: compare everything else.
NONDETERMINISTIC_MIMETYPES = ("application/vnd.jupyter.widget-view+json",)


def pytest_collectstart(collector):
    if collector.fspath and collector.fspath.ext == ".ipynb":
        collector.skip_compare += NONDETERMINISTIC_MIMETYPES
