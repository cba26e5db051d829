"""The HTML report: execution, determinism, failures, and no key in anything it writes."""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from matchkit.cli import main
from matchkit.errors import InvalidArgumentError, MatchkitError
from matchkit.report import NOTEBOOKS, ReportPage, build_report, notebooks_path
from matchkit.report.assets import PAGE_URLS
from matchkit.report.folder import MARKER
from matchkit.service import running

PLANTED_KEY = "planted-report-key-7f3c9b1e"


def write_notebook(path: Path, title: str, *sources: str) -> Path:
    notebook = new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    notebook.cells = [new_markdown_cell(f"# {title}")] + [new_code_cell(s) for s in sources]
    nbformat.write(notebook, path)
    return path


@pytest.fixture(scope="module")
def small_notebooks(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("notebooks")
    return [
        write_notebook(folder / "a.ipynb", "Alpha", "print(6 * 7)"),
        write_notebook(
            folder / "b.ipynb",
            "Beta & widgets",
            "import ipywidgets\nipywidgets.IntSlider(value=3)",
        ),
    ]


@pytest.fixture(scope="module")
def small_report(small_notebooks, tmp_path_factory) -> tuple[Path, list[ReportPage], str]:
    """The small notebooks' report (API reference included), the pages announced, stderr."""
    out = tmp_path_factory.mktemp("small") / "report"
    pages: list[ReportPage] = []
    with tempfile.TemporaryFile() as stderr:
        with redirect_fd(2, stderr.fileno()):  # the kernels write to the file descriptor
            build_report(out=out, notebooks=small_notebooks, on_page=pages.append)
        stderr.seek(0)
        printed = stderr.read().decode(errors="replace")
    return out, pages, printed


@contextlib.contextmanager
def redirect_fd(fd: int, target: int) -> Iterator[None]:
    saved = os.dup(fd)
    os.dup2(target, fd)
    try:
        yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)


def test_report_pages_and_index(small_report) -> None:
    out, pages, _ = small_report
    index = out / "index.html"
    html = index.read_text()
    assert '<a href="a.html">Alpha</a>' in html
    assert '<a href="b.html">Beta &amp; widgets</a>' in html
    assert '<a href="api/matchkit.html">API reference</a>' in html
    assert "42" in (out / "a.html").read_text()
    # Each page's <title> is its heading (nbconvert's default was "Notebook" for every page).
    assert "<title>Alpha</title>" in (out / "a.html").read_text()
    assert "<title>Beta &amp; widgets</title>" in (out / "b.html").read_text()
    assert sorted(p.name for p in out.iterdir()) == [
        MARKER,
        "_static",
        "a.html",
        "api",
        "b.html",
        "index.html",
    ]
    assert [(page.title, page.html) for page in pages] == [
        ("Alpha", out / "a.html"),
        ("Beta & widgets", out / "b.html"),
    ]
    assert all(page.seconds > 0 for page in pages)


def test_the_api_reference_documents_the_public_surface(small_report) -> None:
    out, _, _ = small_report
    api = out / "api" / "matchkit.html"
    text = api.read_text()
    for name in ("Client", "to_frames", "MatchFrames"):
        assert f'id="{name}"' in text, name
    # Their docstrings, not only their names.
    assert "Fetch" in text
    assert (out / "api" / "matchkit" / "client.html").exists()
    # Cross-references read as names: Sphinx's "~" shortening is not pdoc's, and showed as text.
    for page in (out / "api").rglob("*.html"):
        assert "~matchkit" not in page.read_text(), page.name


def test_pages_load_their_web_files_from_the_report_folder(small_report) -> None:
    out, _, _ = small_report
    page = (out / "b.html").read_text()
    for url in PAGE_URLS.values():
        assert url in page
        assert (out / url.split("?")[0]).is_file(), url
    for written in out.glob("*.html"):
        sources = re.findall(r'src="([^"]*)"', written.read_text())
        assert not [s for s in sources if "//" in s], written.name
    assert "unpkg.com" not in page
    assert "cdnjs" not in page


def test_the_kernels_print_no_transport_warning(small_report) -> None:
    _, _, printed = small_report
    assert "without encryption" not in printed


def test_report_is_the_same_on_every_run(small_report, small_notebooks, tmp_path) -> None:
    first, _, _ = small_report
    # One kernel at a time gives the same bytes as two at a time.
    second = build_report(out=tmp_path / "two", notebooks=small_notebooks, jobs=1).parent
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    for name in files:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    # The widget's model id is renumbered, not random.
    assert "00000000000000000000000000000001" in (first / "b.html").read_text()


def test_a_previous_report_is_replaced_only_with_overwrite(small_notebooks, tmp_path) -> None:
    # The folder's rules do not depend on running the notebooks: rendered as committed, no kernel.
    out = tmp_path / "report"
    build_report(out=out, notebooks=small_notebooks[:1], api_reference=False, execute=False)
    with pytest.raises(InvalidArgumentError, match=r"previous matchkit report; pass --overwrite"):
        build_report(out=out, notebooks=small_notebooks[1:], api_reference=False, execute=False)
    assert (out / "a.html").exists()
    build_report(
        out=out, notebooks=small_notebooks[1:], api_reference=False, overwrite=True, execute=False
    )
    assert (out / "b.html").exists()
    assert not (out / "a.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]  # no staging left behind


def test_a_file_matchkit_did_not_write_stays_when_the_report_is_replaced(
    small_notebooks, tmp_path
) -> None:
    out = tmp_path / "report"
    build_report(out=out, notebooks=small_notebooks[:1], api_reference=False, execute=False)
    (out / "notes.txt").write_text("mine")
    build_report(
        out=out, notebooks=small_notebooks[1:], api_reference=False, overwrite=True, execute=False
    )
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "b.html").exists()
    assert not (out / "a.html").exists()


def test_an_empty_folder_receives_the_report(small_notebooks, tmp_path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    build_report(out=out, notebooks=small_notebooks[:1], api_reference=False, execute=False)
    assert (out / "a.html").exists()
    assert (out / MARKER).exists()


def test_missing_web_files_are_named_before_any_notebook_runs(small_notebooks, tmp_path) -> None:
    with pytest.raises(MatchkitError, match=r"not installed in .*make assets"):
        build_report(out=tmp_path / "report", notebooks=small_notebooks, assets=tmp_path / "none")
    assert list(tmp_path.iterdir()) == []  # no report, no staging folder


def test_a_failing_notebook_is_named_and_leaves_no_report(tmp_path) -> None:
    broken = write_notebook(tmp_path / "broken.ipynb", "Broken", "raise RuntimeError('boom')")
    with pytest.raises(MatchkitError, match=r"broken\.ipynb failed"):
        build_report(out=tmp_path / "report", notebooks=[broken], api_reference=False)
    assert not (tmp_path / "report").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["broken.ipynb"]


def test_without_execution_the_pages_show_the_committed_outputs_and_no_kernel_runs(
    tmp_path,
) -> None:
    """``execute=False`` renders what the notebook holds: a cell that would fail if it ran shows
    its saved output instead, so no kernel ran it."""
    path = write_notebook(tmp_path / "saved.ipynb", "Saved", "raise RuntimeError('it ran')")
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[1].outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="the committed output\n")
    ]
    nbformat.write(notebook, path)
    pages: list[ReportPage] = []
    index = build_report(
        out=tmp_path / "report",
        notebooks=[path],
        api_reference=False,
        execute=False,
        on_page=pages.append,
    )
    page = (index.parent / "saved.html").read_text()
    assert "the committed output" in page
    assert "it ran" in page  # the source is shown
    assert "RuntimeError: it ran" not in page  # but it never ran
    assert "<title>Saved</title>" in page
    assert [page.title for page in pages] == ["Saved"]
    assert (index.parent / MARKER).exists()


@pytest.mark.parametrize("given", [{"base_url": "http://127.0.0.1:9"}, {"jobs": 2}])
def test_without_execution_a_service_or_jobs_is_refused(
    given: dict[str, object], small_notebooks, tmp_path
) -> None:
    name = next(iter(given))
    with pytest.raises(InvalidArgumentError, match=rf"{name} was given with execute=False") as info:
        build_report(out=tmp_path / "report", notebooks=small_notebooks, execute=False, **given)
    assert info.value.parameter == name
    assert list(tmp_path.iterdir()) == []  # refused before any work


def test_the_command_renders_the_committed_notebooks_without_running_them(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "preview"
    assert main(["report", "--no-execute", "--no-api-reference", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    for name in NOTEBOOKS:
        page = out / name.replace(".ipynb", ".html")
        assert page.is_file(), name
        assert page.name in printed
    assert f"report written: {out.resolve() / 'index.html'}" in printed
    assert main(["report", "--no-execute", "--jobs", "2", "--out", str(tmp_path / "x")]) == 2
    assert "jobs was given with execute=False" in capsys.readouterr().err


def test_missing_notebooks_are_named(tmp_path) -> None:
    with pytest.raises(MatchkitError, match=r"nope\.ipynb"):
        build_report(out=tmp_path / "report", notebooks=[tmp_path / "nope.ipynb"])


def test_the_key_never_reaches_the_report(tmp_path, monkeypatch) -> None:
    """A notebook that uses the key every way it can; its page must not hold the key."""
    notebook = write_notebook(
        tmp_path / "secret.ipynb",
        "Secret",
        "import logging, sys\n"
        "logging.basicConfig(stream=sys.stdout, level=logging.DEBUG, force=True)\n"
        "from matchkit import Client, AuthError",
        "client = Client(rate_limit='off', progress=False, cache_dir='cache',"
        " now='2026-10-31T00:00:00Z')\nclient",
        "frames = client.matches('2026-10-29T00:00:00Z', '2026-10-31T00:00:00Z')\n"
        "print(frames.summary())",
        "bad = Client(api_key='not-the-key', rate_limit='off', progress=False, cache_dir='c2')\n"
        "try:\n    bad.get_match('0' * 32)\nexcept AuthError as error:\n    print(repr(error))",
    )
    with running(api_keys=[PLANTED_KEY]) as service:
        monkeypatch.setenv("MATCHKIT_API_KEY", PLANTED_KEY)
        index = build_report(
            out=tmp_path / "report",
            base_url=service.base_url,
            notebooks=[notebook],
            api_reference=False,
        )
        assert service.requests.count() > 0
    page = (index.parent / "secret.html").read_text()
    assert "AuthError" in page
    assert (
        "DEBUG:matchkit.client.transport:GET" in page
    )  # the requests were logged, without the key
    for written in index.parent.rglob("*"):
        if written.is_file():
            assert PLANTED_KEY.encode() not in written.read_bytes(), written.name
    assert PLANTED_KEY.encode() not in b"".join(
        p.read_bytes() for p in (tmp_path / "cache").rglob("*") if p.is_file()
    )


def test_the_report_notebooks_are_committed_with_outputs_and_no_machine_paths() -> None:
    for name in NOTEBOOKS:
        notebook = nbformat.read(notebooks_path() / name, as_version=4)
        code = [cell for cell in notebook.cells if cell.cell_type == "code"]
        assert code, name
        assert any(cell.outputs for cell in code), f"{name} has no committed outputs"
        tagged = [cell for cell in code if "parameters" in cell.metadata.get("tags", [])]
        assert len(tagged) == 1, f"{name} needs exactly one cell tagged 'parameters'"
        text = (notebooks_path() / name).read_text()
        for fragment in ("/work/", "/root/", "/home/", "/tmp/", "Bearer ", "127.0.0.1"):
            assert fragment not in text, f"{name} holds {fragment!r}"
