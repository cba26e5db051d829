"""Execute the notebooks into a reproducible HTML report.

The notebooks take their service from the environment (``MATCHKIT_BASE_URL``,
``MATCHKIT_API_KEY``), never from an injected cell, so that a key cannot end up in a notebook or
in the report's HTML. With no base URL, each notebook's Client starts the embedded sample
service itself.
"""

from __future__ import annotations

import html
import json
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from matchkit.errors import MatchkitError

__all__ = ["NOTEBOOKS", "ReportPage", "build_report", "notebooks_path", "stable_widget_ids"]

log = logging.getLogger("matchkit")

#: Seconds one notebook may take before the report gives up on it.
CELL_TIMEOUT = 600


def notebooks_path() -> Path:
    """The folder of the report's notebooks (the repository's ``notebooks/``)."""
    return Path(__file__).resolve().parents[1] / "notebooks"


#: The notebooks of the report, in order.
NOTEBOOKS = (
    "01-quickstart.ipynb",
    "02-durations.ipynb",
    "03-side-win-rates.ipynb",
    "04-cosmetics.ipynb",
    "05-explorer.ipynb",
    "06-telemetry.ipynb",
)


@dataclass(frozen=True)
class ReportPage:
    """One notebook of the report: its title and the HTML file written for it."""

    title: str
    html: Path


def build_report(
    *,
    out: str | os.PathLike[str] = "reports",
    base_url: str | None = None,
    notebooks: Sequence[str | os.PathLike[str]] | None = None,
) -> Path:
    """Execute the notebooks and write one HTML page each plus an ``index.html``.

    Args:
        out: the report folder; replaced as a whole when the report is complete.
        base_url: a remote service (its key from ``MATCHKIT_API_KEY``); default
            ``MATCHKIT_BASE_URL``, else the embedded sample service.
        notebooks: notebook files to run (default: :data:`NOTEBOOKS` in :func:`notebooks_path`).

    Returns:
        The path of ``index.html``.

    Raises:
        MatchkitError: a notebook is missing or a cell failed (the message names the notebook).
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    from nbconvert import HTMLExporter

    paths = (
        [Path(p) for p in notebooks]
        if notebooks
        else [notebooks_path() / name for name in NOTEBOOKS]
    )
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise MatchkitError(f"notebooks not found: {', '.join(missing)}")
    env = dict(os.environ)
    if base_url is not None:
        env["MATCHKIT_BASE_URL"] = base_url
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent.resolve()))
    staging.chmod(0o755)  # mkdtemp makes it owner-only; a report is for reading
    # nbclient and nbconvert narrate every step on the traitlets logger; keep their errors only.
    logging.getLogger("traitlets").setLevel(logging.ERROR)
    exporter = HTMLExporter()
    pages = []
    try:
        for path in paths:
            log.info("report: running %s", path.name)
            notebook = nbformat.read(path, as_version=4)
            client = NotebookClient(
                notebook,
                timeout=CELL_TIMEOUT,
                kernel_name="python3",
                resources={"metadata": {"path": str(path.parent)}},
            )
            try:
                client.execute(env=env)
            except CellExecutionError as error:
                message = _ANSI_ESCAPE.sub("", str(error))
                raise MatchkitError(f"{path.name} failed: {message}") from None
            notebook = stable_widget_ids(notebook)
            body, _ = exporter.from_notebook_node(notebook)
            body = _stable_element_ids(body)
            target = staging / f"{path.stem}.html"
            target.write_text(body, encoding="utf-8")
            pages.append(ReportPage(_title(notebook, path), target))
        (staging / "index.html").write_text(_index(pages), encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out / "index.html"


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


_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
_VIEW_MODEL_ID = re.compile(r'"model_id": "([0-9a-f]{32})"')
_MODEL_REFERENCE = re.compile(r"IPY_MODEL_([0-9a-f]{32})")

# nbconvert gives each widget view's element a random id (uuid4) in its template.
_WIDGET_ELEMENT_ID = re.compile(r'class="jupyter-widgets[^"]*" id="([0-9a-f-]{36})"')


def _stable_element_ids(body: str) -> str:
    for number, element_id in enumerate(dict.fromkeys(_WIDGET_ELEMENT_ID.findall(body)), 1):
        body = body.replace(element_id, f"widget-view-{number}")
    return body


def _title(notebook, path: Path) -> str:
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return path.stem


def _index(pages: Sequence[ReportPage]) -> str:
    items = "\n".join(
        f'    <li><a href="{html.escape(page.html.name)}">{html.escape(page.title)}</a></li>'
        for page in pages
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>matchkit report</title>
  <style>body {{ font-family: sans-serif; max-width: 48rem; margin: 2rem auto; }}</style>
</head>
<body>
  <h1>matchkit report</h1>
  <p>Each page is a notebook executed top to bottom by <code>matchkit report</code>.</p>
  <ol>
{items}
  </ol>
</body>
</html>
"""
