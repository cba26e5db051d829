"""Helpers for the analysis, plot and widget tests: normalized frames and a hand Wilson formula."""

from __future__ import annotations

import functools
import json
import math
from typing import Any

from matchkit import to_frames
from matchkit.sampledata.dataset import open_dataset, sample_data_path

__all__ = ["frames_of", "sample_frames", "sample_parameters", "wilson"]

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
