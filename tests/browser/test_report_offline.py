"""The report in Chromium with the network cut: every page loads from its folder alone, the
explorer shows its live widget panel, and no page shows a traceback or a raw repr."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from matchkit.report import API_FOLDER, NOTEBOOKS, build_report
from tests.browser.conftest import Screenshots

# Text that must never reach an analyst's page.
RAW = (
    "Traceback (most recent call last)",
    re.compile(r"<matchkit[.\w]* object at 0x"),
    re.compile(r"object at 0x[0-9a-f]+>"),
    "datetime.datetime(",
)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole report (every page, the API reference, the web files) from the notebooks as
    committed: nbval runs each notebook in the same ``make test`` and fails when a fresh run's
    outputs differ from the committed ones, and tests/report runs notebooks through
    :func:`build_report`, so executing all ten again here would test nothing more."""
    out = tmp_path_factory.mktemp("browser") / "report"
    build_report(out=out, execute=False)
    return out


PAGES = ["index.html", *(name.replace(".ipynb", ".html") for name in NOTEBOOKS)]


@pytest.mark.parametrize("name", [*PAGES, f"{API_FOLDER}/matchkit.html"])
def test_the_page_loads_offline_with_no_raw_output(
    name: str, report: Path, offline_page, screenshots: Screenshots
) -> None:
    opened = offline_page(report)
    opened.open(report / name)
    if name.startswith("05"):
        opened.page.wait_for_selector(".widget-tab", state="visible", timeout=60_000)
    screenshots.take(opened.page, name.replace("/", "-") + ".png", full_page=True)
    assert opened.blocked == []  # no request left the report folder (a CDN, say)
    assert opened.missing == []  # and every file asked for inside it was there
    assert opened.errors == []  # no script failed
    text = opened.page.inner_text("body")
    assert len(text) > 200, name
    for pattern in RAW:
        found = pattern.search(text) if isinstance(pattern, re.Pattern) else pattern in text
        assert not found, (name, pattern)


def test_the_explorer_shows_its_live_panel(report: Path, offline_page) -> None:
    opened = offline_page(report)
    opened.open(report / "05-explorer.html")
    tabs = opened.page.wait_for_selector(".widget-tab", state="visible", timeout=60_000)
    box = tabs.bounding_box()
    assert box is not None
    assert box["width"] > 300
    assert box["height"] > 100
    # The filters are real controls, rendered from the saved widget state.
    assert opened.page.locator(".widget-select-multiple, .widget-dropdown").count() >= 2
    assert opened.page.locator(".widget-tab .lm-TabBar-tab").count() >= 3
    assert opened.page.locator(".widget-vbox").first.is_visible()
    # The state's values, not only the controls: the selection count the panel showed.
    assert opened.page.get_by_text("matches selected").first.is_visible()
    assert opened.blocked == []


def test_the_index_links_every_page_and_the_api_reference(report: Path, offline_page) -> None:
    opened = offline_page(report)
    opened.open(report / "index.html")
    links = opened.page.eval_on_selector_all("a", "elements => elements.map(e => e.href)")
    targets = [Path(link.removeprefix("file://")) for link in links]
    assert [t.name for t in targets[: len(NOTEBOOKS)]] == PAGES[1:]
    assert report / API_FOLDER / "matchkit.html" in targets
    assert all(target.is_file() for target in targets)


def test_a_request_outside_the_folder_is_recorded(tmp_path: Path, offline_page) -> None:
    """The confinement itself: a page that asks the internet is caught, not served."""
    page = tmp_path / "page.html"
    page.write_text(
        '<!DOCTYPE html><html><head><script src="https://cdn.example.org/lib.js"></script>'
        '</head><body><img src="http://203.0.113.1/pixel.png"><p>hello</p></body></html>'
    )
    opened = offline_page(tmp_path)
    opened.open(page)
    assert sorted(opened.blocked) == [
        "http://203.0.113.1/pixel.png",
        "https://cdn.example.org/lib.js",
    ]
