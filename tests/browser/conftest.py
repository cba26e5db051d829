"""A real browser on the report: Debian's Chromium, driven by playwright's Python package.

The browser is never downloaded (no ``playwright install``): ``make test`` installs Debian's
``chromium`` when it can. Without it the tests skip, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: the browser test must run)")
    pytest.skip(reason)


@pytest.fixture(scope="module")  # closed when the browser tests are done
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (it is in the dev extras)")
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing (`apt-get install chromium`, or `make test` as root)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM))
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass(frozen=True)
class Screenshots:
    """Screenshots for a person to look at: taken only when ``MATCHKIT_SCREENSHOT_DIR`` names a
    folder to keep them in (nobody looks at a temporary folder's, and a full page of a report's
    notebook takes about half a second of CPU time to paint and encode)."""

    folder: Path | None

    def take(self, page: Any, name: str, *, full_page: bool = False) -> None:
        if self.folder is not None:
            page.screenshot(path=self.folder / name, full_page=full_page)


@pytest.fixture(scope="module")
def screenshots() -> Screenshots:
    kept = os.environ.get("MATCHKIT_SCREENSHOT_DIR")
    if not kept:
        return Screenshots(None)
    folder = Path(kept)
    folder.mkdir(parents=True, exist_ok=True)
    return Screenshots(folder)


@dataclass
class OfflinePage:
    """A page opened with every request outside ``folder`` blocked, and what it tried."""

    page: Any
    folder: Path
    blocked: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def open(self, path: Path) -> None:
        self.page.goto(path.resolve().as_uri(), wait_until="load")
        self.page.wait_for_load_state("networkidle")


@pytest.fixture
def offline_page(browser) -> Iterator[Any]:
    """A factory: ``offline_page(folder)`` gives an :class:`OfflinePage` confined to ``folder``."""
    contexts = []

    def make(folder: Path) -> OfflinePage:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        page = context.new_page()
        opened = OfflinePage(page, folder.resolve())
        inside = opened.folder.as_uri() + "/"

        def route(request_route) -> None:
            url = request_route.request.url
            if url.startswith(inside) or url.startswith("data:") or url == "about:blank":
                request_route.continue_()
            else:
                opened.blocked.append(url)
                request_route.abort()

        context.route("**/*", route)
        page.on("pageerror", lambda error: opened.errors.append(str(error)))
        page.on(
            "requestfailed",
            lambda request: (
                opened.missing.append(request.url) if request.url.startswith(inside) else None
            ),
        )
        return opened

    yield make
    for context in contexts:
        context.close()
