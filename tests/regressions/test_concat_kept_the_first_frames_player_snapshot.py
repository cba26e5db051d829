"""Found by reading MatchFrames.concat against decision 17 (session 10): combining frames kept
the first frame's row of every key, players included, and said nothing when rows differed.

A player in matches of two fetches (a July page and an August page, say) is a snapshot at each
match's time. ``to_frames`` of both pages keeps the August copy (its latest match), but
``MatchFrames.concat([july, august])`` kept July's and ``concat([august, july])`` August's: the
players table depended on the order the frames were combined, and on whether the pages were
fetched at once or in pieces. A roster that differed between two frames was dropped silently
too. (``Client.telemetry`` builds its MatchFrames with concat, a match at a time.)

Now a player or team keeps the row from the frame that holds its latest match, whatever the
order, and keys whose rows differ are counted in ``problems``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from matchkit import MatchFrames, to_frames
from tests.builders.resources import arena, page


def _page(match_id: str, created_at: str, level: int) -> dict[str, Any]:
    """A match whose first player is ``shared`` at ``level``."""
    return page(
        arena(
            match_id,
            per_side=1,
            created_at=created_at,
            player_ids=["shared"],
            player_stats=[{"level": level}],
        )
    )


def _players(frames: MatchFrames) -> pd.DataFrame:
    return frames.players.sort_values("player_id").reset_index(drop=True)


def test_a_player_keeps_its_latest_snapshot_in_either_order() -> None:
    july = _page("m-july", "2026-07-10T12:00:00Z", level=1)
    august = _page("m-august", "2026-08-10T12:00:00Z", level=2)
    at_once = to_frames([july, august])
    pieces = [to_frames(july), to_frames(august)]
    forward, backward = MatchFrames.concat(pieces), MatchFrames.concat(pieces[::-1])
    for combined in (forward, backward):
        pd.testing.assert_frame_equal(_players(combined), _players(at_once))
        assert combined.players.set_index("player_id").loc["shared", "level"] == 2
        assert (
            "1 player row(s) differ between the frames combined; each keeps the row from its "
            "latest match (by match createdAt, then match id)"
        ) in combined.problems
    assert forward.players["player_id"].iloc[0] == "shared"  # where it was first seen


def test_a_differing_roster_is_reported_and_the_first_kept() -> None:
    first = to_frames(page(arena("m1")))
    changed = page(arena("m1"))
    roster = next(r for r in changed["included"] if r["type"] == "roster")
    roster["attributes"]["stats"]["score"] = 99
    second = to_frames(changed)
    combined = MatchFrames.concat([first, second])
    assert combined.rosters.equals(first.rosters)
    assert (
        "1 roster row(s) differ between the frames combined; the first frame's row was kept"
    ) in combined.problems
    again = MatchFrames.concat([first, first])
    assert again.problems == first.problems  # the same rows twice: nothing to say
    pd.testing.assert_frame_equal(again.players, first.players)
