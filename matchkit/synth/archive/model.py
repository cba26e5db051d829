"""The sample set's parameters as numpy arrays, for drawing a synthetic archive's matches."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from matchkit.sampledata import parameters as p
from matchkit.synth.archive.arrays import hex_ids

__all__ = ["MICROS", "SyntheticModel", "patch_starts", "player_pool"]

MICROS = 1_000_000


class SyntheticModel:
    """The sample set's parameters as arrays (modes and their shares, regions, the daily cycle,
    characters and their popularity and battlerites, maps, players by activity, teams).

    Args:
        pool: the players to draw from (the pool grows with the archive's size).
    """

    def __init__(self, pool: int) -> None:
        from matchkit.sampledata.catalogue import build_catalogue
        from matchkit.sampledata.telemetry.catalogue import kit_catalogue

        catalogue = build_catalogue()
        self.modes = p.MODES
        self.mode_share = _shares([m.share for m in p.MODES])
        self.regions = np.array([r for r, _ in p.REGIONS])
        self.region_share = _shares([s for _, s in p.REGIONS])
        self.hours = np.array(p.HOURLY_ACTIVITY, dtype=float) / sum(p.HOURLY_ACTIVITY)
        self.actors = np.array([c.actor for c in catalogue.characters])
        self.actor_share = _shares([c.popularity for c in catalogue.characters])
        self.maps = np.array(catalogue.arena_maps)
        self.royale_map = catalogue.royale_map
        self.game_modes = np.array([catalogue.game_mode_ids[m.server_type] for m in p.MODES])
        self.game_mode_numbers = self.game_modes.astype(np.int64)
        self.actor_numbers = self.actors.astype(np.int64)
        kits = kit_catalogue()
        self.battlerites = np.array([kits[actor].battlerites for actor in self.actors])
        weights = 1.0 / (np.arange(1, pool + 1) + p.PLAYER_SKEW)
        self.player_cdf = np.cumsum(weights / weights.sum())
        self.player_cdf[-1] = 1.0
        numbers = 770_000_000_000_000_000 + np.arange(pool, dtype=np.int64) * 7_919_113
        self.player_ids = pa.array(numbers.astype(str), pa.string())
        self.player_names = pa.array([f"Player{i}" for i in range(pool)], pa.string())
        teams = sum(count for _, count in p.TEAM_POOL)
        self.team_ids = hex_ids(np.random.default_rng(0), teams, lower=True)
        self.team_names = pa.array([f"Team {i}" for i in range(teams)], pa.string())


def player_pool(matches: int) -> int:
    """The players of an archive of this many matches: the sample's players per its matches,
    at least as many as the sample has."""
    return max(p.GLOBAL_PLAYER_POOL, matches * p.GLOBAL_PLAYER_POOL // p.GLOBAL_MATCHES)


def patch_starts(start: datetime, end: datetime) -> list[tuple[int, str]]:
    """(start in microseconds, version) of each patch live between ``start`` and ``end``."""
    from matchkit.sampledata.catalogue import patch_schedule

    return [
        (int(patch.start.timestamp()) * MICROS, patch.version)
        for patch in patch_schedule(start, end, p.FIRST_PATCH_GLOBAL)
    ]


def _shares(values: Sequence[str | float | Fraction]) -> npt.NDArray[np.float64]:
    shares = np.array([float(value) for value in values])
    shared: npt.NDArray[np.float64] = shares / shares.sum()
    return shared
