"""Helpers for the analysis, plot and widget tests: normalized frames, a hand Wilson formula and
a player summary compared field by field."""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from typing import Any

import pandas as pd

from matchkit import to_frames
from matchkit.sampledata.dataset import open_dataset, sample_data_path

__all__ = [
    "assert_same_summary",
    "frames_of",
    "sample_frames",
    "sample_parameters",
    "wilson",
]

Z_95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution


def frames_of(*documents: dict[str, Any]) -> Any:
    """MatchFrames of single-match documents (as tests/builders/matches.py builds them)."""
    return to_frames(list(documents))


def wilson(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval, written out from its textbook formula."""
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return centre - half, centre + half


@functools.cache
def sample_frames(shard: str = "global") -> Any:
    """MatchFrames of the committed sample set's shard (normalized once per test process)."""
    return to_frames(list(open_dataset().iter_documents(shard)))


@functools.cache
def sample_parameters() -> dict[str, Any]:
    """The generator's parameters, as the sample set's manifest records them."""
    manifest = json.loads((sample_data_path() / "manifest.json").read_text(encoding="utf-8"))
    return manifest["parameters"]


def assert_same_summary(actual: Any, expected: Any, *, every_snapshot: bool = False) -> None:
    """Two ``player_summary`` results equal field by field (tables by value, NaN as NaN).

    ``every_snapshot``: ``actual`` comes from an archive, which keeps every snapshot of a
    player where one MatchFrames keeps the latest (decision 17), so its ``names`` hold at least
    the expected ones.
    """
    for field in dataclasses.fields(expected):
        left, right = getattr(expected, field.name), getattr(actual, field.name)
        if isinstance(left, pd.DataFrame):
            if field.name == "names" and every_snapshot:
                assert set(left["name"]) <= set(right["name"])
                continue
            pd.testing.assert_frame_equal(right.reset_index(drop=True), left.reset_index(drop=True))
        elif isinstance(left, float) and pd.isna(left):
            assert pd.isna(right), field.name
        else:
            assert right == left, field.name
