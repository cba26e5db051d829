"""The HTML report: execution, determinism, failures, and no key in anything it writes."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from matchkit.errors import MatchkitError
from matchkit.report import NOTEBOOKS, build_report, notebooks_path
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


def test_report_pages_and_index(small_notebooks, tmp_path) -> None:
    index = build_report(out=tmp_path / "report", notebooks=small_notebooks)
    assert index == tmp_path / "report" / "index.html"
    html = index.read_text()
    assert '<a href="a.html">Alpha</a>' in html
    assert '<a href="b.html">Beta &amp; widgets</a>' in html
    assert "42" in (tmp_path / "report" / "a.html").read_text()
    assert sorted(p.name for p in (tmp_path / "report").iterdir()) == [
        "a.html",
        "b.html",
        "index.html",
    ]


def test_report_is_the_same_on_every_run(small_notebooks, tmp_path) -> None:
    first = build_report(out=tmp_path / "one", notebooks=small_notebooks).parent
    second = build_report(out=tmp_path / "two", notebooks=small_notebooks).parent
    for page in first.iterdir():
        assert page.read_bytes() == (second / page.name).read_bytes(), page.name
    # The widget's model id is renumbered, not random.
    assert "00000000000000000000000000000001" in (first / "b.html").read_text()


def test_a_failing_notebook_is_named_and_leaves_no_report(tmp_path) -> None:
    broken = write_notebook(tmp_path / "broken.ipynb", "Broken", "raise RuntimeError('boom')")
    with pytest.raises(MatchkitError, match=r"broken\.ipynb failed"):
        build_report(out=tmp_path / "report", notebooks=[broken])
    assert not (tmp_path / "report").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["broken.ipynb"]


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
            out=tmp_path / "report", base_url=service.base_url, notebooks=[notebook]
        )
        assert service.requests.count() > 0
    page = (index.parent / "secret.html").read_text()
    assert "AuthError" in page
    assert (
        "DEBUG:matchkit.client.transport:GET" in page
    )  # the requests were logged, without the key
    for written in index.parent.iterdir():
        assert PLANTED_KEY not in written.read_text(), written.name
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
