"""Issue 12: the progress bar counted windows, not pages.

At 10 requests a minute a two-window fetch sat at "0/2 window" for 45 s: no pages, no matches,
no rate. The bar now counts pages and matches as they come (the number of pages is unknown
until a window is fetched), names the window, and ends with the final counts.
"""

from __future__ import annotations

from tests.client.proxy import LIST, clients, proxied_service


def test_the_bar_counts_pages_and_matches(reference, httpserver, tmp_path, capsys) -> None:
    proxy = proxied_service(httpserver, reference)
    with clients(proxy, tmp_path / "cache") as connect:
        frames = connect(progress=True).matches("2026-09-01", "2026-10-20")  # 2 windows
    pages = sum(path == LIST for path, _params in proxy.seen)
    lines = capsys.readouterr().err.replace("\r", "\n").strip().splitlines()
    assert pages > 2
    assert "window]" not in "".join(lines)  # the old unit: windows
    assert lines[-1].startswith(f"matchkit global 2026-09-01..2026-10-20: {pages}page ")
    assert lines[-1].endswith(f"{len(frames)} matches in 2 windows]")
