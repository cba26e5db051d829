"""Execute the notebooks into a reproducible HTML report that reads offline.

Each notebook runs in a fresh kernel, two at a time (:mod:`matchkit.report._execute`), and
becomes one page; the web files the pages load are
copied beside them (:mod:`matchkit.report.assets`), pdoc writes the API reference to ``api/``, and
the folder is written and swapped in as :mod:`matchkit.report.folder` says (never over what
matchkit did not write).

The notebooks take their service from the environment (``MATCHKIT_BASE_URL``,
``MATCHKIT_API_KEY``), never from an injected cell, so that a key cannot end up in a notebook or
in the report's HTML. With no base URL, each notebook's Client starts the embedded sample
service itself.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from matchkit.errors import ReportError, StorageError
from matchkit.report._execute import QUIET_LOG, execute_all
from matchkit.report.folder import ReportFolder

__all__ = [
    "API_FOLDER",
    "NOTEBOOKS",
    "ReportPage",
    "build_report",
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
)


@dataclass(frozen=True)
class ReportPage:
    """One notebook of the report: its title, the HTML file written for it and its run time.

    Attributes:
        title: the notebook's first heading.
        html: the page's path in the report folder (there once the report is complete).
        seconds: how long the notebook took to execute and export.
    """

    title: str
    html: Path
    seconds: float = 0.0


#: The folder of the report that holds the API reference.
API_FOLDER = "api"


def build_report(
    *,
    out: str | os.PathLike[str] = "reports",
    base_url: str | None = None,
    notebooks: Sequence[str | os.PathLike[str]] | None = None,
    overwrite: bool = False,
    api_reference: bool = True,
    assets: str | os.PathLike[str] | None = None,
    on_page: Callable[[ReportPage], None] | None = None,
    jobs: int | None = None,
) -> Path:
    """Execute the notebooks and write one HTML page each plus an ``index.html``.

    The report reads without the internet: the web files the pages load (the widget manager,
    require.js, MathJax) are copied beside them from :mod:`matchkit.report.assets`, and the API
    reference (pdoc) is written to ``api/`` and linked from the index.

    Args:
        out: the report folder: new, empty, or (with ``overwrite``) a previous report. It is
            replaced as a whole when the report is complete; a folder holding anything matchkit
            did not write is refused before any notebook runs.
        base_url: a remote service (its key from ``MATCHKIT_API_KEY``); default
            ``MATCHKIT_BASE_URL``, else the embedded sample service.
        notebooks: notebook files to run (default: :data:`NOTEBOOKS` in :func:`notebooks_path`).
        overwrite: replace a previous report in ``out``.
        api_reference: also write the API reference and link it from the index.
        assets: the installed web files (default :func:`matchkit.report.assets.assets_path`).
        on_page: called with each page when it is written (e.g. to print its time), in the
            order of ``notebooks``.
        jobs: notebooks executed at a time, each in its own kernel (default: two, one on a
            single core; see :mod:`matchkit.report._execute`). The pages are the same bytes
            whatever the number.

    Returns:
        The path of ``index.html``.

    Raises:
        InvalidArgumentError: ``out`` may not receive a report (see :mod:`matchkit.report.folder`).
        MatchkitError: a notebook is missing, a cell failed (the message names the notebook), the
            web files are not installed or the API reference failed.
    """
    import jinja2
    from nbconvert import HTMLExporter

    from matchkit.report.assets import PAGE_URLS, copy_assets, require_assets

    paths = (
        [Path(p) for p in notebooks]
        if notebooks
        else [notebooks_path() / name for name in NOTEBOOKS]
    )
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise StorageError(f"notebooks not found: {', '.join(missing)}", path=missing[0])
    require_assets(assets)  # before any notebook runs
    env = dict(os.environ)
    if base_url is not None:
        env["MATCHKIT_BASE_URL"] = base_url
    folder = ReportFolder.prepare(out, overwrite=overwrite)
    exporter = HTMLExporter(
        **PAGE_URLS,
        extra_loaders=[jinja2.DictLoader({_TEMPLATE: _TEMPLATE_SOURCE})],
        template_file=_TEMPLATE,
    )
    exporter.log = QUIET_LOG  # its notes (e.g. on images without alt text) are not the reader's
    pages = []
    reference = None
    try:
        if api_reference:
            reference = _ApiReference.start(folder.staging / API_FOLDER)
        copy_assets(folder.staging, folder=assets)
        if not env.get("MATCHKIT_BASE_URL"):
            _build_sample_store()  # once, before the kernels that would each build it
        for executed in execute_all(paths, env, jobs=jobs):
            started = time.perf_counter()
            notebook = stable_widget_ids(executed.notebook)
            title = _title(notebook, executed.path)
            # The page's <title> (the browser tab, bookmarks, history): its heading.
            body, _ = exporter.from_notebook_node(notebook, resources={"metadata": {"name": title}})
            body = _stable_element_ids(body)
            target = folder.staging / f"{executed.path.stem}.html"
            target.write_text(body, encoding="utf-8")
            seconds = executed.seconds + time.perf_counter() - started
            page = ReportPage(title, folder.target / target.name, seconds)
            pages.append(page)
            if on_page is not None:
                on_page(page)
        if reference is not None:
            reference.finish()
        (folder.staging / "index.html").write_text(
            _index(pages, api_modules=_api_modules(folder.staging)), encoding="utf-8"
        )
        written = folder.commit()
    except BaseException:
        if reference is not None:
            reference.stop()
        folder.discard()
        raise
    return written / "index.html"


# JupyterLab's page without the loader of mermaid, which would import it from a CDN when a page
# has a diagram; the report ships no mermaid, so a diagram shows as its source text, offline.
_TEMPLATE = "matchkit-report.html.j2"
# The widgets drawn from saved state take the page's sans-serif font (the offline widget
# manager sets none, so their labels fell back to the browser's serif).
_TEMPLATE_SOURCE = """{%- extends "index.html.j2" -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block extra_css -%}
<style>
.jupyter-widgets, .jupyter-widgets input, .jupyter-widgets select, .jupyter-widgets button {
  font-family: var(--jp-ui-font-family, system-ui, sans-serif);
  font-size: 13px;
}
</style>
{%- endblock extra_css -%}
"""


# Run in a child process: pdoc imports every module and configures its renderer globally, neither
# of which should happen in the caller. Names a package loads lazily (module ``__getattr__``) are
# resolved first, so that pdoc documents them where ``__all__`` lists them.
_API_SCRIPT = """
import importlib, pkgutil, sys
import matchkit
from pdoc.__main__ import cli
names = ["matchkit"] + sorted(
    "matchkit." + m.name for m in pkgutil.iter_modules(matchkit.__path__)
    if not m.name.startswith("_")
)
for name in names:
    module = importlib.import_module(name)
    for member in getattr(module, "__all__", ()):
        if member not in vars(module):
            setattr(module, member, getattr(module, member))
cli(["--docformat", "google", "--no-search", "-o", sys.argv[1], *names])
"""


@dataclass(frozen=True)
class _ApiReference:
    """pdoc writing the API reference in a child process, beside the notebooks.

    Its output goes to a temporary file: a pipe nobody reads until the end could fill and block.
    """

    target: Path
    process: subprocess.Popen[bytes]
    output: IO[bytes]

    @classmethod
    def start(cls, target: Path) -> _ApiReference:
        output = tempfile.TemporaryFile()  # noqa: SIM115 (closed by finish or stop)
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", _API_SCRIPT, str(target)],
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        except BaseException:
            output.close()
            raise
        return cls(target, process, output)

    def finish(self) -> None:
        """Wait for pdoc; raise ReportError with what it printed if it failed."""
        self.process.wait()
        self.output.seek(0)
        printed = self.output.read().decode(errors="replace")
        self.output.close()
        if self.process.returncode != 0 or not (self.target / "matchkit.html").exists():
            raise ReportError(
                f"the API reference (pdoc) failed with exit {self.process.returncode}: "
                f"{printed.strip()[-800:]}"
            )

    def stop(self) -> None:
        """End pdoc if it still runs (the report failed)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.output.close()


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

# nbconvert gives each widget view's element a random id (uuid4) in its template.
_WIDGET_ELEMENT_ID = re.compile(r'class="jupyter-widgets[^"]*" id="([0-9a-f-]{36})"')


def _stable_element_ids(body: str) -> str:
    for number, element_id in enumerate(dict.fromkeys(_WIDGET_ELEMENT_ID.findall(body)), 1):
        body = body.replace(element_id, f"widget-view-{number}")
    return body


def _build_sample_store() -> None:
    """Build the embedded service's store of the sample set now, if not built yet.

    Every notebook's Client starts the embedded service, which builds this store when it is
    missing: built here, the kernels (two at a time) find it instead of each building it.
    """
    from matchkit.service.store import MatchStore

    MatchStore.open().close()


def _title(notebook, path: Path) -> str:
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return path.stem


def _api_modules(report: Path) -> list[str]:
    """The top-level modules the API reference documents (paths relative to the report)."""
    api = report / API_FOLDER
    if not api.exists():
        return []
    return [
        f"{API_FOLDER}/{path.relative_to(api).as_posix()}"
        for path in [api / "matchkit.html", *sorted((api / "matchkit").glob("*.html"))]
        if path.is_file()
    ]


def _module_name(path: str) -> str:
    return path.removeprefix(f"{API_FOLDER}/").removesuffix(".html").replace("/", ".")


def _index(pages: Sequence[ReportPage], *, api_modules: Sequence[str]) -> str:
    items = "\n".join(
        f'    <li><a href="{html.escape(page.html.name)}">{html.escape(page.title)}</a></li>'
        for page in pages
    )
    reference = ""
    if api_modules:
        modules = "\n".join(
            f'    <li><a href="{html.escape(path)}"><code>{html.escape(_module_name(path))}</code>'
            "</a></li>"
            for path in api_modules
        )
        reference = (
            f'  <h2>API reference</h2>\n  <p>The <a href="{html.escape(api_modules[0])}">API '
            "reference</a> documents the package (<code>Client</code>, <code>to_frames</code>, "
            "<code>MatchFrames</code> and the rest), module by module:</p>\n"
            f"  <ul>\n{modules}\n  </ul>\n"
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
{reference}</body>
</html>
"""
