"""The ipywidgets explorer for JupyterLab: :func:`explore` shows filters above tabs of plots.

- :mod:`matchkit.widgets.explorer`: the panel (filters, tabs, what a change redraws).
- :mod:`matchkit.widgets._views`: what each tab draws for a selection.
"""

from __future__ import annotations

from matchkit.widgets.explorer import ExplorerPanel, explore

__all__ = ["ExplorerPanel", "explore"]
