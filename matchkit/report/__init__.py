"""The HTML report: the notebooks executed against a service, one offline page each.

- :mod:`matchkit.report.pages`: runs the notebooks and writes the pages and the index
  (:func:`build_report`), and refreshes the notebooks' committed outputs.
- :mod:`matchkit.report.assets`: the web files the pages load, at pinned versions.
- :mod:`matchkit.report.folder`: a report folder that only ever replaces what matchkit wrote.
"""

from __future__ import annotations

from matchkit.report import pages
from matchkit.report.pages import *  # noqa: F403 (re-exported: the names of pages.__all__)

__all__ = pages.__all__
