"""Execute the notebooks into a reproducible HTML report that reads offline.

Each notebook (:mod:`matchkit.report.notebooks`) runs in a fresh kernel, two at a time
(:mod:`matchkit.report._execute`), and becomes one page; the web files the pages load are copied
beside them (:mod:`matchkit.report.assets`), pdoc writes the API reference to ``api/``
(:mod:`matchkit.report.api_reference`), an index links them all (:mod:`matchkit.report.index`),
and the folder is written and swapped in as :mod:`matchkit.report.folder` says (never over what
matchkit did not write). With ``execute=False`` no kernel runs: the pages show the outputs
committed in the notebooks.

The notebooks take their service from the environment (``MATCHKIT_BASE_URL``,
``MATCHKIT_API_KEY``), never from an injected cell, so that a key cannot end up in a notebook or
in the report's HTML. With no base URL, each notebook's Client starts the embedded sample
service itself.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from matchkit.errors import InvalidArgumentError, StorageError
from matchkit.report._execute import QUIET_LOG, as_committed, execute_all
from matchkit.report.api_reference import API_FOLDER, ApiReference, api_modules
from matchkit.report.folder import ReportFolder
from matchkit.report.index import index_page
from matchkit.report.notebooks import NOTEBOOKS, notebook_title, notebooks_path, stable_widget_ids

__all__ = ["ReportPage", "build_report"]


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
    execute: bool = True,
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
        execute: run the notebooks (the default). False renders them as committed, with the
            outputs saved in them and no kernel (``matchkit report --no-execute``): a preview
            of the pages, or the pages of notebooks whose outputs are checked otherwise (the
            test suite's nbval re-runs each and compares its outputs with the committed ones).

    Returns:
        The path of ``index.html``.

    Raises:
        InvalidArgumentError: ``out`` may not receive a report (see :mod:`matchkit.report.folder`),
            or ``base_url`` or ``jobs`` is given with ``execute=False`` (no notebook runs).
        StorageError: a notebook is missing.
        ReportError: a cell failed (the message names the notebook), the web files are not
            installed or the API reference failed.
    """
    import jinja2
    from nbconvert import HTMLExporter

    from matchkit.report.assets import PAGE_URLS, copy_assets, require_assets

    paths = (
        [Path(p) for p in notebooks]
        if notebooks
        else [notebooks_path() / name for name in NOTEBOOKS]
    )
    if not execute and (base_url is not None or jobs is not None):
        given = "base_url" if base_url is not None else "jobs"
        raise InvalidArgumentError(
            f"{given} was given with execute=False, which runs no notebook (it renders their "
            f"committed outputs): drop {given}, or execute the notebooks",
            parameter=given,
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
    # pdoc takes the first kernel slot free once every notebook has started (see
    # matchkit.report._execute.execute_all): not a process of its own beside every kernel.
    then = partial(ApiReference.write, folder.staging / API_FOLDER) if api_reference else None
    try:
        copy_assets(folder.staging, folder=assets)
        if execute and not env.get("MATCHKIT_BASE_URL"):
            _build_sample_store()  # once, before the kernels that would each build it
        notebooks_done = (
            execute_all(paths, env, jobs=jobs, then=then)
            if execute
            else as_committed(paths, then=then)
        )
        for executed in notebooks_done:
            started = time.perf_counter()
            notebook = stable_widget_ids(executed.notebook)
            title = notebook_title(notebook, executed.path)
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
        index = index_page(
            [(page.title, page.html) for page in pages], api_modules=api_modules(folder.staging)
        )
        (folder.staging / "index.html").write_text(index, encoding="utf-8")
        written = folder.commit()
    except BaseException:
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
