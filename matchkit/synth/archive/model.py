"""The sample set's parameters as numpy arrays, for drawing a synthetic archive's matches."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from matchkit.model.schema import COSMETIC_KINDS
from matchkit.sampledata import parameters as p
from matchkit.synth.archive.arrays import hex_ids

__all__ = ["MICROS", "PlayerActivity", "SyntheticModel", "patch_starts", "player_pool"]

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
        # Each slot's items by character (a row per actor, the default first) and the share of
        # each item's place, the sample set's (the same for every character of a slot).
        self.cosmetic_items = {
            slot: np.array([c.cosmetics[slot].items for c in catalogue.characters])
            for slot in COSMETIC_KINDS
        }
        self.cosmetic_share = {
            slot: _shares(catalogue.characters[0].cosmetics[slot].table.shares)
            for slot in COSMETIC_KINDS
        }
        self.maps = np.array(catalogue.arena_maps)
        self.royale_map = catalogue.royale_map
        self.game_modes = np.array([catalogue.game_mode_ids[m.server_type] for m in p.MODES])
        self.game_mode_numbers = self.game_modes.astype(np.int64)
        self.actor_numbers = self.actors.astype(np.int64)
        kits = kit_catalogue()
        self.battlerites = np.array([kits[actor].battlerites for actor in self.actors])
        self.players = PlayerActivity(pool, p.PLAYER_SKEW)
        # Eighteen digits each, so that their text order is their order by number (the
        # participants table is put in the archive's order by player id by their numbers).
        numbers = 770_000_000_000_000_000 + np.arange(pool, dtype=np.int64) * 7_919_113
        self.player_ids = pa.array(numbers.astype(str), pa.string())
        self.player_names = pa.array([f"Player{i}" for i in range(pool)], pa.string())
        teams = sum(count for _, count in p.TEAM_POOL)
        self.team_ids = hex_ids(np.random.default_rng(0), teams, lower=True)
        self.team_names = pa.array([f"Team {i}" for i in range(teams)], pa.string())


class PlayerActivity:
    """Players by activity: the player of rank ``r`` (1-based) is drawn with a weight of
    ``1 / (r + skew)``.

    :meth:`draw` gives, for uniform draws ``u``, the players ``np.searchsorted(cdf, u)`` gives
    (the first whose cumulative share reaches ``u``), without a binary search over the whole
    pool: at 10M matches the pool has 7M players, and each of the search's 23 steps missed the
    processor's caches (a third of the drawing of a chunk). The cumulative weight of the first
    ``k + 1`` players is ``H(k + 1 + skew) - H(skew)`` (``H``: the harmonic numbers), close to
    ``ln(k + 1.5 + skew) + γ - H(skew)``; inverted, that names each player to within one, and a
    step or two through the exact ``cdf`` settles it.

    Attributes:
        cdf: the cumulative shares of the players, in rank order (the last is 1).
    """

    #: Correction steps before the draws still unsettled are searched for (never needed: the
    #: estimate is within one player).
    STEPS = 8

    def __init__(self, pool: int, skew: int) -> None:
        weights = 1.0 / (np.arange(1, pool + 1) + skew)
        self.total = float(weights.sum())
        self.cdf = np.cumsum(weights / self.total)
        self.cdf[-1] = 1.0
        self.offset = float(np.sum(1.0 / np.arange(1, skew + 1))) - np.euler_gamma
        self.skew = skew

    def draw(self, u: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
        """The player (0-based rank) of each uniform draw in ``[0, 1)``."""
        estimate = np.exp(u * self.total + self.offset) - 1.5 - self.skew
        player = np.clip(np.ceil(estimate), 0, len(self.cdf) - 1).astype(np.int64)
        unsettled = np.arange(len(u))
        for _ in range(self.STEPS):
            mine, draws = player[unsettled], u[unsettled]
            low = self.cdf[mine] < draws
            high = (mine > 0) & (self.cdf[np.maximum(mine - 1, 0)] >= draws)
            if not (low.any() or high.any()):
                return player
            player[unsettled] = mine + low - high
            unsettled = unsettled[low | high]
        player[unsettled] = np.searchsorted(self.cdf, u[unsettled])
        return player


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
