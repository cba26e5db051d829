"""The ``matchkit fetch`` command line the command-line regressions run, written once."""

from __future__ import annotations

from pathlib import Path

from matchkit.service import RunningService


def fetch_argv(
    service: RunningService,
    out: Path,
    *extra: str,
    start: str = "2026-10-01T00:00:00Z",
    end: str = "2026-10-30T00:00:00Z",
) -> list[str]:
    """``fetch`` from ``service`` into ``out`` (its cache beside it), the sample set's now, no
    rate limit; ``extra`` options last."""
    return [
        "fetch",
        "--base-url",
        service.base_url,
        "--start",
        start,
        "--end",
        end,
        "--now",
        "2026-10-31T00:00:00Z",
        "--rate-limit",
        "off",
        "--cache-dir",
        str(out.parent / "cache"),
        "--out",
        str(out),
        *extra,
    ]
