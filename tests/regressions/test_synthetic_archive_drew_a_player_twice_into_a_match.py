"""Found by the telemetry consistency check while building ``synth --archive --telemetry``: the
synthetic archive drew each participant's player independently by activity, so the most active
players sat twice in one match (about 1 match in 40), which no real match has and which made
their telemetry disagree with the match (two reservations, ten picks)."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from matchkit.synth.archive.chunk import draw_chunk
from matchkit.synth.archive.model import SyntheticModel, patch_starts


def test_no_player_twice_in_a_match() -> None:
    model = SyntheticModel(3_000)
    low, high = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 1, 11, tzinfo=UTC)
    tables = draw_chunk(model, np.random.default_rng(1), 5_000, low, high, patch_starts(low, high))
    participants = tables["participants"].to_pandas()
    named = participants.dropna(subset=["player_id"])
    assert len(named) > 10_000
    assert not named.duplicated(["match_id", "player_id"]).any()
