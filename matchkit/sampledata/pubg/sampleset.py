"""The PUBG sample set as the double serves it: lookups by shard, player and time, and each
match's document and telemetry made once and kept in a small cache.

Example:
    >>> from datetime import UTC, datetime
    >>> sample_set = PubgSampleSet.build()
    >>> now = datetime(2026, 11, 20, tzinfo=UTC)
    >>> len(sample_set.sample("steam", sample_set.latest_sample_start(now), now=now)) > 0
    True
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any, TypeVar

from matchkit.sampledata.pubg import parameters as p
from matchkit.sampledata.pubg.documents import match_document
from matchkit.sampledata.pubg.outcome import Outcome, draw_outcome
from matchkit.sampledata.pubg.plan import MatchPlan, Player, SampleSetPlan, ShardPlan, build_plan
from matchkit.sampledata.pubg.telemetry import telemetry_bytes
from matchkit.sampledata.sampling import QuickDraw

__all__ = ["PubgSampleSet"]

_DAY = timedelta(days=1)
T = TypeVar("T")


class PubgSampleSet:
    """The drawn set (:class:`SampleSetPlan`) and what the endpoints ask of it.

    Args:
        plan: the drawn set.
        retention: how long a match stays available (the profile's).
        cache_size: how many matches' outcomes, documents and files are kept.
    """

    def __init__(
        self,
        plan: SampleSetPlan,
        *,
        retention: timedelta = timedelta(days=14),
        cache_size: int = 48,
    ) -> None:
        self.plan = plan
        self.retention = retention
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[str, str], object] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def build(
        cls,
        *,
        seed: int = p.SEED,
        as_of: str | datetime = p.AS_OF,
        days: int = p.DAYS,
        retention: timedelta = timedelta(days=14),
    ) -> PubgSampleSet:
        """Draw the set (the defaults: the set ``docs/pubg.md`` describes)."""
        return cls(build_plan(seed=seed, as_of=as_of, days=days), retention=retention)

    @property
    def as_of(self) -> datetime:
        return self.plan.as_of

    def shard(self, name: str) -> ShardPlan | None:
        """The shard's plan, or ``None`` for a platform shard without matches."""
        return self.plan.shards.get(name)

    def available(self, match: MatchPlan, *, now: datetime) -> bool:
        """Whether the service has the match at ``now``: played, not custom, within retention."""
        return (
            not match.custom
            and now - self.retention <= match.created_at < now - timedelta(seconds=0)
            and match.ended_at <= now
        )

    def match(self, shard: str, match_id: str, *, now: datetime) -> MatchPlan | None:
        """The match if it is available at ``now``."""
        plan = self.shard(shard)
        match = None if plan is None else plan.by_id.get(match_id)
        return match if match is not None and self.available(match, now=now) else None

    def find_player(
        self, shard: str, *, player_id: str | None = None, name: str | None = None
    ) -> Player | None:
        """A player by id or by name (names match in their own letter case only)."""
        plan = self.shard(shard)
        if plan is None:
            return None
        if player_id is not None:
            return plan.players_by_id.get(player_id)
        return plan.players_by_name.get(name or "")

    def player_matches(self, shard: str, player: Player, *, now: datetime) -> list[MatchPlan]:
        """The player's matches available at ``now``."""
        plan = self.shard(shard)
        found = () if plan is None else plan.matches_of.get(player.id, ())
        return [match for match in found if self.available(match, now=now)]

    def latest_sample_start(self, now: datetime) -> datetime:
        """The start of the newest sample at ``now`` (at least 24 hours old, on the day grid)."""
        moment = now - _DAY
        return moment.replace(hour=0, minute=0, second=0, microsecond=0)

    def sample(self, shard: str, start: datetime, *, now: datetime) -> list[MatchPlan]:
        """The matches of the sample of the day holding ``start``: a share of that day's
        matches (:data:`~matchkit.sampledata.pubg.parameters.SAMPLE_SHARE`), those still
        available at ``now``."""
        plan = self.shard(shard)
        if plan is None:
            return []
        day = start.replace(hour=0, minute=0, second=0, microsecond=0)
        share = float(Fraction(p.SAMPLE_SHARE))
        return [
            match
            for match in plan.matches
            if day <= match.created_at < day + _DAY
            and QuickDraw(f"sampled:{match.seed}").chance(share)
            and self.available(match, now=now)
        ]

    def outcome(self, match: MatchPlan) -> Outcome:
        """How the match went (drawn once)."""
        return self._cached(("outcome", match.id), lambda: draw_outcome(match))

    def document(self, match: MatchPlan, *, telemetry_url: str) -> dict[str, Any]:
        """The match's document (without ``links``; shared: copy before changing it)."""
        return self._cached(
            ("document", f"{match.id}|{telemetry_url}"),
            lambda: match_document(match, telemetry_url=telemetry_url, outcome=self.outcome(match)),
        )

    def telemetry(self, match: MatchPlan) -> bytes:
        """The match's telemetry file (compact JSON)."""
        return self._cached(
            ("telemetry", match.id), lambda: telemetry_bytes(match, self.outcome(match))
        )

    def _cached(self, key: tuple[str, str], make: Callable[[], T]) -> T:
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]  # type: ignore[return-value]
        made = make()
        with self._lock:
            self._cache[key] = made
            while len(self._cache) > self.cache_size * 3:
                self._cache.popitem(last=False)
        return made
