"""The report's notebooks: which, in what order, and their committed outputs kept reproducible.

:func:`refresh_notebooks` re-executes them in place (what ``make notebooks`` runs);
:func:`stable_widget_ids` makes an executed notebook the same bytes on every run.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

from matchkit.report._execute import execute_all

__all__ = [
    "NOTEBOOKS",
    "notebook_title",
    "notebooks_path",
    "refresh_notebooks",
    "stable_widget_ids",
]


def notebooks_path() -> Path:
    """The folder of the report's notebooks (the repository's ``notebooks/``)."""
    return Path(__file__).resolve().parents[2] / "notebooks"


#: The notebooks of the report, in order.
NOTEBOOKS = (
    "01-quickstart.ipynb",
    "02-durations.ipynb",
    "03-side-win-rates.ipynb",
    "04-cosmetics.ipynb",
    "05-explorer.ipynb",
    "06-telemetry.ipynb",
    "07-one-player.ipynb",
    "08-a-year-of-matches.ipynb",
    "09-pubg-a-day-of-samples.ipynb",
    "10-pubg-a-match-and-all-of-them.ipynb",
)


def refresh_notebooks(paths: Sequence[str | os.PathLike[str]] | None = None) -> list[Path]:
    """Re-execute notebooks in place, so that their committed outputs are what nbval expects.

    Each is run as the report runs it (two at a time), its widget ids made stable and the
    timestamps a kernel adds to each cell dropped, so that refreshing twice writes the same
    bytes.

    Args:
        paths: the notebooks (default: every notebook of the report).

    Returns:
        The notebooks written.
    """
    import nbformat

    targets = [Path(p) for p in paths] if paths else [notebooks_path() / n for n in NOTEBOOKS]
    for executed in execute_all(targets, dict(os.environ)):
        notebook = stable_widget_ids(executed.notebook)
        for cell in notebook.cells:
            cell.metadata.pop("execution", None)
        nbformat.write(notebook, executed.path)
    return targets


def stable_widget_ids(notebook):
    """The notebook with its widget model ids renumbered in a canonical order.

    ipywidgets names models with random UUIDs, and the kernel reports their state in no fixed
    order; renumbering them (views in the outputs first, then the models each one refers to,
    depth first) and sorting the state makes an executed notebook, and the report made of it,
    the same on every run. Views and state keep pointing at each other.
    """
    import nbformat

    widgets = notebook.metadata.get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}
    )
    state = widgets.get("state", {})
    order: dict[str, None] = {}

    def visit(model_id: str) -> None:
        if model_id in order:
            return
        order[model_id] = None
        if model_id in state:
            for reference in _MODEL_REFERENCE.findall(json.dumps(state[model_id], sort_keys=True)):
                visit(reference)

    for model_id in _VIEW_MODEL_ID.findall(json.dumps(notebook.cells)):
        visit(model_id)
    for model_id in sorted(state, key=lambda key: json.dumps(state[key], sort_keys=True)):
        visit(model_id)
    if not order:
        return notebook
    renumbered = {model_id: f"{number:032x}" for number, model_id in enumerate(order, 1)}
    pattern = re.compile("|".join(re.escape(model_id) for model_id in renumbered))
    text = pattern.sub(lambda match: renumbered[match.group(0)], nbformat.writes(notebook))
    stable = nbformat.reads(text, as_version=4)
    if state:
        stable_widgets = stable.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]
        stable_widgets["state"] = dict(sorted(stable_widgets["state"].items()))
    return stable


_VIEW_MODEL_ID = re.compile(r'"model_id": "([0-9a-f]{32})"')
_MODEL_REFERENCE = re.compile(r"IPY_MODEL_([0-9a-f]{32})")

_VIEW_MODEL_ID = re.compile(r'"model_id": "([0-9a-f]{32})"')
_MODEL_REFERENCE = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def notebook_title(notebook, path: Path) -> str:
    """The notebook's first heading (``# ...`` in a Markdown cell), else its file's name."""
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return path.stem
