"""The HTML report: the notebooks executed against a service, one offline page each.

- :mod:`matchkit.report.pages`: runs the notebooks and writes the pages (:func:`build_report`).
- :mod:`matchkit.report.notebooks`: which notebooks, in what order, and their committed outputs
  refreshed reproducibly (:func:`refresh_notebooks`).
- :mod:`matchkit.report.api_reference`: the API reference pdoc writes beside the pages.
- :mod:`matchkit.report.index`: the index page.
- :mod:`matchkit.report.assets`: the web files the pages load, at pinned versions.
- :mod:`matchkit.report.folder`: a report folder that only ever replaces what matchkit wrote.
"""

from __future__ import annotations

from matchkit.report.api_reference import API_FOLDER
from matchkit.report.notebooks import (
    NOTEBOOKS,
    notebooks_path,
    refresh_notebooks,
    stable_widget_ids,
)
from matchkit.report.pages import ReportPage, build_report

__all__ = [
    "API_FOLDER",
    "NOTEBOOKS",
    "ReportPage",
    "build_report",
    "notebooks_path",
    "refresh_notebooks",
    "stable_widget_ids",
]
