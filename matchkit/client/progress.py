"""The progress bar of a fetch: pages and matches as they come, the window, and rate-limit waits.

How many pages a window holds is only known once they arrive, so the bar has no total: it
counts pages (with tqdm's rate) and shows the matches received so far. Its description names
the window being fetched; its postfix says when, and how long, a page waits for a rate limit
(the client's own, or the service's 429). When the fetch ends the bar keeps the final counts
and the whole range.

Example (what a fetch at 10 requests a minute shows while it waits)::

    matchkit global 2026-09-01..2026-09-29 (window 3/5): 14page [00:42, 0.33page/s,
    1300 matches, waiting 6.0 s for the rate limit]
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, time
from typing import IO

from tqdm.auto import tqdm

from matchkit.rules.shards import ShardName
from matchkit.rules.windows import TimeWindow

__all__ = ["FetchProgress", "describe_range"]


def describe_range(start: datetime, end: datetime) -> str:
    """``start..end`` as days (``2026-09-01..2026-09-29``), with the time when not midnight."""
    return f"{_moment(start)}..{_moment(end)}"


class FetchProgress:
    """A bar over the pages and matches of one fetch; shows nothing when not ``enabled``.

    Args:
        shard: the shard fetched.
        windows: the windows of the plan, in fetch order.
        enabled: whether to show the bar.
        file: where to write it (default: tqdm's, standard error).
    """

    def __init__(
        self,
        *,
        shard: ShardName,
        windows: Sequence[TimeWindow],
        enabled: bool,
        file: IO[str] | None = None,
    ) -> None:
        self.shard = shard
        self.windows = tuple(windows)
        self.matches = 0
        self._bar = tqdm(
            total=None,
            desc=f"matchkit {shard}",
            unit="page",
            disable=not enabled,
            file=file,
        )

    def window(self, index: int) -> None:
        """Fetching the window at ``index`` (of the plan's windows) starts."""
        window = self.windows[index]
        self._bar.set_description_str(
            f"matchkit {self.shard} {describe_range(window.start, window.end)} "
            f"(window {index + 1}/{len(self.windows)})",
            refresh=False,
        )

    def page(self, matches: int) -> None:
        """A page arrived; ``matches`` distinct matches have been received so far."""
        self.matches = matches
        self._bar.set_postfix_str(f"{matches} matches", refresh=False)
        self._bar.update(1)

    def wait(self, seconds: float, reason: str) -> None:
        """The next page waits ``seconds`` for ``reason`` (e.g. "the rate limit"); shown now."""
        shown = f"{seconds:.1f} s" if seconds < 10 else f"{seconds:.0f} s"
        self._bar.set_postfix_str(f"{self.matches} matches, waiting {shown} for {reason}")

    def close(self) -> None:
        """End the bar, keeping the final counts and the whole range in view."""
        if self.windows:
            first = min(window.start for window in self.windows)
            last = max(window.end for window in self.windows)
            self._bar.set_description_str(
                f"matchkit {self.shard} {describe_range(first, last)}", refresh=False
            )
        plural = "" if len(self.windows) == 1 else "s"
        self._bar.set_postfix_str(
            f"{self.matches} matches in {len(self.windows)} window{plural}", refresh=False
        )
        self._bar.close()


def _moment(moment: datetime) -> str:
    if moment.time() == time(0):
        return moment.strftime("%Y-%m-%d")
    return moment.strftime("%Y-%m-%d %H:%M")
