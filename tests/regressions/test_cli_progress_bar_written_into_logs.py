"""Session 5, running ``matchkit fetch`` as a newcomer with its output piped into a file: the
progress bar wrote dozens of carriage-return redraws (``matchkit global ...: 11page [...]``)
into the log. The bar is now drawn only on a terminal (``--no-progress`` still turns it off
there)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from matchkit.cli import main
from matchkit.service import RunningService, running


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    with running(store_dir=tmp_path_factory.mktemp("store")) as handle:
        yield handle


def test_no_progress_bar_when_standard_error_is_not_a_terminal(
    service, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("MATCHKIT_API_KEY", service.api_key)
    code = main(
        [
            "fetch",
            "--base-url",
            service.base_url,
            "--start",
            "2026-10-20",
            "--end",
            "2026-10-22",
            "--now",
            "2026-10-31T00:00:00Z",
            "--rate-limit",
            "off",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--out",
            str(tmp_path / "frames"),
        ]
    )
    assert code == 0
    captured = capsys.readouterr()
    assert "matches" in captured.out  # the summary is printed
    assert "page/s" not in captured.err
    assert "\r" not in captured.err
