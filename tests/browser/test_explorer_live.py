"""The explorer in a live JupyterLab, clicked through in Chromium as an analyst would.

JupyterLab runs on loopback with a token given on its command line, on a copy of the explorer
notebook (the repository's is never opened, so never autosaved). The page may reach that server
only. The notebook is run top to bottom, then a filter is changed, the filters are reset and a
tab is switched; each step must show in the panel. The time from a filter change to the
redrawn plot is printed (run with ``-s``); screenshots go to ``MATCHKIT_SCREENSHOT_DIR`` when
it is set.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from matchkit.report import notebooks_path
from tests.browser.conftest import Screenshots

NOTEBOOK = "05-explorer.ipynb"
START_TIMEOUT = 60.0
STATUS = ".jp-Notebook .widget-html"


@dataclass(frozen=True)
class Lab:
    """A JupyterLab server started for one test module."""

    base_url: str
    token: str
    folder: Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    root = tmp_path_factory.mktemp("lab")
    folder = root / "notebooks"
    folder.mkdir()
    shutil.copy(notebooks_path() / NOTEBOOK, folder / NOTEBOOK)
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(
        os.environ,
        JUPYTER_RUNTIME_DIR=str(root / "runtime"),
        JUPYTERLAB_WORKSPACES_DIR=str(root / "workspaces"),
        JUPYTERLAB_SETTINGS_DIR=str(root / "settings"),
    )
    env.pop("MATCHKIT_BASE_URL", None)  # the notebook's embedded sample service
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--allow-root",
        "--ip",
        "127.0.0.1",
        "--port",
        str(port),
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={folder}",
        "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: run all, kernel status
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    with (root / "lab.log").open("wb") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(f"{base_url}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                log_text = (root / "lab.log").read_text(errors="replace")[-2000:]
                assert process.poll() is None, f"JupyterLab exited: {log_text}"
                assert time.monotonic() < deadline, f"JupyterLab did not start: {log_text}"
                time.sleep(0.2)
        yield Lab(base_url, token, folder)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _status(page: Any) -> str:
    texts = page.locator(STATUS).all_inner_texts()
    found = [text for text in texts if "matches selected" in text]
    return found[0] if found else ""


def _visible_images(page: Any) -> str:
    """The sources (length and tail) of the images in the panel's visible tab."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.jp-Notebook .widget-tab img')]
            .filter(image => image.offsetParent !== null)
            .map(image => image.src.length + ':' + image.src.slice(-48)).join('|')"""
    )


def _stale_note_shown(page: Any) -> bool:
    """Whether the visible tab still says it is out of date (drawn when opened)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.jp-Notebook .widget-tab .widget-html')]
            .some(note => note.offsetParent !== null && note.innerText.includes('Out of date'))"""
    )


def _beside(left: dict[str, float], right: dict[str, float]) -> bool:
    """Whether box ``left`` is on the line of box ``right``, to its left."""
    middle = left["y"] + left["height"] / 2
    return right["y"] <= middle <= right["y"] + right["height"] and (
        left["x"] + left["width"] <= right["x"]
    )


def _wait(condition: Any, *, timeout: float, what: str) -> float:
    """Poll ``condition`` until true; the seconds it took (fails after ``timeout``)."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, f"{what}: not within {timeout} s"
        time.sleep(0.01)
    return time.monotonic() - started


def test_the_explorer_runs_and_answers_in_a_live_jupyterlab(
    lab: Lab, browser: Any, screenshots: Screenshots
) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    blocked: list[str] = []
    errors: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if url.startswith((lab.base_url + "/", "data:", "blob:")):
            request_route.continue_()
        else:
            blocked.append(url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{lab.base_url}/lab/tree/{NOTEBOOK}?token={lab.token}")
        page.wait_for_function(
            "() => window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel",
            timeout=90_000,
        )
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_selector(".jp-Notebook .widget-tab", state="visible", timeout=120_000)
        page.wait_for_function(
            "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status"
            " === 'idle' && document.querySelectorAll('.jp-Notebook .jp-OutputArea-output img')"
            ".length > 0",
            timeout=120_000,
        )
        dismiss = page.locator(".jp-toast-button:has-text('No')")  # the news question
        if dismiss.count():
            dismiss.first.click()
        # Run: the cell "a selection from code" chose ranked Quick 3v3 matches.
        page.locator(".jp-Notebook .widget-tab").first.scroll_into_view_if_needed()
        assert _status(page) == "716 of 4,200 matches selected"
        assert _visible_images(page) != ""
        screenshots.take(page, "lab-1-run.png")

        # A filter change: Quick 2v2 instead of Quick 3v3 (still ranked).
        before_status, before_images = _status(page), _visible_images(page)
        select = page.locator(".jp-Notebook .widget-select-multiple select").first
        started = time.monotonic()
        select.select_option(["Quick 2v2"])
        _wait(lambda: _status(page) != before_status, timeout=10, what="the selection count")
        counted = time.monotonic() - started
        _wait(
            lambda: _visible_images(page) not in ("", before_images),
            timeout=10,
            what="the redrawn plots",
        )
        drawn = time.monotonic() - started
        print(f"\nexplorer filter change: count {counted:.2f} s, plots redrawn {drawn:.2f} s")
        assert _status(page) == "675 of 4,200 matches selected"
        screenshots.take(page, "lab-2-filtered.png")

        # Reset: every match again.
        page.locator(".jp-Notebook button:has-text('Reset filters')").first.click()
        _wait(
            lambda: _status(page) == "4,200 of 4,200 matches selected",
            timeout=10,
            what="reset",
        )
        assert (
            page.locator(".jp-Notebook .widget-select-multiple select").first.evaluate(
                "select => select.selectedOptions.length"
            )
            == 0
        )
        screenshots.take(page, "lab-3-reset.png")

        # Another tab: drawn when opened, for the current selection.
        page.locator(".jp-Notebook .widget-tab .lm-TabBar-tab:has-text('Side win rates')").click()
        _wait(
            lambda: (
                page.locator(".jp-Notebook .widget-tab .lm-TabBar-tab.lm-mod-current")
                .inner_text()
                .strip()
                == "Side win rates"
                and _visible_images(page) != ""
                and not _stale_note_shown(page)
            ),
            timeout=15,
            what="the side win rates tab",
        )
        screenshots.take(page, "lab-4-tab.png")
        # Its options on one line, each labelled beside its control (not above it).
        label = page.locator(".jp-Notebook .widget-tab .widget-label:text-is('Level')").first
        buttons = page.locator(".jp-Notebook .widget-tab .widget-toggle-buttons").first
        assert _beside(label.bounding_box(), buttons.bounding_box())
        # The round level instead of the match level: the plot is drawn again.
        before_images = _visible_images(page)
        page.locator(".jp-Notebook .widget-tab button:has-text('round')").first.click()
        _wait(
            lambda: _visible_images(page) not in ("", before_images),
            timeout=15,
            what="the side win rates by round",
        )
        screenshots.take(page, "lab-5-round.png")
        assert blocked == []  # nothing outside the local JupyterLab was asked for
        assert errors == []
    finally:
        context.close()
