"""The ipywidgets explorer for JupyterLab: :func:`explore` shows filters above tabs of plots.

- :mod:`matchkit.widgets.explorer`: the panel (tabs, what a change redraws).
- :mod:`matchkit.widgets.filters`: the filters and the matches they select.
- :mod:`matchkit.widgets._views`: what each tab draws for a selection.
"""

from __future__ import annotations

try:
    import ipywidgets  # noqa: F401 (every module here builds widgets)
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "matchkit.widgets needs ipywidgets: pip install 'matchkit[notebook]'"
    ) from error

from matchkit.widgets.explorer import ExplorerPanel, explore

__all__ = ["ExplorerPanel", "explore"]
