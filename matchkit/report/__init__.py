"""The HTML report: the notebooks executed against a service, one offline page each.

- :mod:`~matchkit.report.pages`: runs the notebooks and writes the pages and the index
  (:func:`build_report`), and refreshes the notebooks' committed outputs.
- :mod:`~matchkit.report.assets`: the web files the pages load, at pinned versions.
- :mod:`~matchkit.report.folder`: a report folder that only ever replaces what matchkit wrote.
"""

from __future__ import annotations

from matchkit.report.pages import (
    API_FOLDER,
    NOTEBOOKS,
    ReportPage,
    build_report,
    notebooks_path,
    refresh_notebooks,
    stable_widget_ids,
)

__all__ = [
    "API_FOLDER",
    "NOTEBOOKS",
    "ReportPage",
    "build_report",
    "notebooks_path",
    "refresh_notebooks",
    "stable_widget_ids",
]
