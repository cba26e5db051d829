"""The archive's chaos: the catalogue of what may happen to an archive between two syncs, and how
a seed draws its plan from it.

A plan is a list of stages, each drawn from :data:`STAGES` by weight, with its own parameters
(how far the clock moves, a window, how long before a kill, a scope, a damage), all from a
generator seeded with the seed: a seed replays the same plan. The harness
(:mod:`tests.chaos.archive_harness`) runs it against the reference service and checks the
invariant after a last clean sync.

Besides its plan, a seed draws its world's conditions (:func:`draw_conditions`), which hold
for every stage: the client machine's clock skew from the service's (zero, under a minute, or
up to 12 hours either way; the client is given no ``now=`` and must take the service's), and the
service's ingestion delay (decision 20: off, the default long tail, or a fixed delay). They are
drawn from a generator of their own, so that a seed's plan is the same with or without them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta

__all__ = [
    "DAMAGES",
    "INGESTION_DELAYS",
    "SCOPES",
    "STAGES",
    "Conditions",
    "Stage",
    "StageKind",
    "draw_conditions",
    "draw_plan",
]


@dataclass(frozen=True)
class StageKind:
    """One entry of the catalogue: how often a plan draws it, and whether it is switched on."""

    weight: int
    description: str
    enabled: bool = True


STAGES: dict[str, StageKind] = {
    "sync": StageKind(6, "the clock moves on (hours to days), a clean sync"),
    "killed_sync": StageKind(5, "the clock moves on, a sync killed (SIGKILL) at a random moment"),
    "compact": StageKind(2, "a compaction (keeping a week of versions, or only the latest)"),
    "killed_compact": StageKind(2, "a compaction killed (SIGKILL) at a random moment"),
    "pause": StageKind(1, "the clock moves on past the retention (125 to 140 days), then a sync"),
    "scope_change": StageKind(2, "a sync with another scope (--change-scope)"),
    "damage": StageKind(
        2,
        "a file damaged: open, info, compact and sync each raise an "
        "ArchiveError naming it; then the backup is restored",
    ),
}
"""What may happen to an archive, by name."""

SCOPES: tuple[dict[str, object], ...] = (
    {},
    {"server_types": ["QUICK2V2", "QUICK3V3"]},
    {"ranking_type": "RANKED"},
)
"""The scopes a plan syncs with (the filters; shard global, no telemetry)."""

DAMAGES = (
    "garbage_commit",
    "emptied_commit",
    "missing_commit",
    "missing_data_file",
    "truncated_data_file",
    "manifest_not_json",
)
"""The damages a ``damage`` stage draws from (tests/chaos/archive_harness.py does them)."""


INGESTION_DELAYS = ("off", "default", "2h")
"""The service's ingestion delays a seed draws from (``running(ingestion_delay=...)``)."""

SKEW_LIMIT = timedelta(hours=12)
"""How far a seed's client clock may be from the service's, either way."""


@dataclass(frozen=True)
class Conditions:
    """What holds for every stage of a seed.

    Attributes:
        skew: the client machine's clock minus the service's.
        ingestion_delay: the service's ``ingestion_delay`` setting (:data:`INGESTION_DELAYS`).
    """

    skew: timedelta = timedelta(0)
    ingestion_delay: str = "off"

    @property
    def skew_kind(self) -> str:
        """``none``, ``under a minute``, ``ahead`` or ``behind`` (for the figures)."""
        if not self.skew:
            return "none"
        if abs(self.skew) <= timedelta(minutes=1):
            return "under a minute"
        return "ahead" if self.skew > timedelta(0) else "behind"

    def __str__(self) -> str:
        seconds = self.skew.total_seconds()
        return (
            f"clock skew {seconds:+.0f} s ({self.skew_kind}), "
            f"ingestion delay {self.ingestion_delay}"
        )


def draw_conditions(seed: int) -> Conditions:
    """The conditions of ``seed``: a clock skew of none (a quarter of the seeds), under a minute
    (an eighth), else up to :data:`SKEW_LIMIT` either way, to the second; and an ingestion delay
    from :data:`INGESTION_DELAYS`, each as likely."""
    rng = random.Random(f"archive-chaos-conditions-{seed}")
    kind = rng.choices(["none", "small", "large"], [2, 1, 5])[0]
    limit = 60 if kind == "small" else int(SKEW_LIMIT.total_seconds())
    skew = timedelta(0) if kind == "none" else timedelta(seconds=rng.randint(-limit, limit))
    return Conditions(skew=skew, ingestion_delay=rng.choice(INGESTION_DELAYS))


@dataclass(frozen=True)
class Stage:
    """One stage of a plan: its kind and its drawn parameters."""

    kind: str
    advance: timedelta = timedelta(0)
    window_hours: int = 24
    kill_after: float = 0.0
    retention_hours: int = 168
    scope: int = 0
    damage: str = ""
    extra: dict[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        shown = {
            "sync": f"+{_span(self.advance)}, window {self.window_hours} h",
            "killed_sync": f"+{_span(self.advance)}, killed after {self.kill_after:.2f} s",
            "compact": f"keeping {self.retention_hours} h",
            "killed_compact": f"killed after {self.kill_after:.2f} s",
            "pause": f"+{_span(self.advance)}, window {self.window_hours} h",
            "scope_change": f"+{_span(self.advance)}, scope {SCOPES[self.scope] or 'all'}",
            "damage": self.damage,
        }.get(self.kind, "")
        return f"{self.kind}({shown})"


def _span(span: timedelta) -> str:
    hours = span / timedelta(hours=1)
    return f"{hours / 24:g} d" if hours >= 24 else f"{hours:g} h"


def draw_plan(seed: int, *, stages: tuple[int, int] = (3, 6)) -> list[Stage]:
    """The plan of ``seed``: 3 to 6 stages drawn by weight from the enabled entries."""
    rng = random.Random(f"archive-chaos-{seed}")
    kinds = [name for name, kind in STAGES.items() if kind.enabled]
    weights = [STAGES[name].weight for name in kinds]
    plan = []
    scope = 0
    for _ in range(rng.randint(*stages)):
        kind = rng.choices(kinds, weights)[0]
        stage = Stage(kind)
        if kind in ("sync", "killed_sync", "scope_change"):
            stage = Stage(
                kind,
                advance=timedelta(hours=rng.choice([6, 12, 24, 24, 48, 72])),
                window_hours=rng.choice([12, 24, 72]),
                kill_after=rng.uniform(0.0, 1.2),
            )
        if kind == "scope_change":
            scope = rng.choice([other for other in range(len(SCOPES)) if other != scope])
            stage = Stage(kind, advance=stage.advance, window_hours=stage.window_hours, scope=scope)
        elif kind in ("compact", "killed_compact"):
            stage = Stage(
                kind, retention_hours=rng.choice([168, 0]), kill_after=rng.uniform(0.0, 0.8)
            )
        elif kind == "pause":
            # the service's 120 days are synced in windows of 4 weeks
            stage = Stage(kind, advance=timedelta(days=rng.randint(125, 140)), window_hours=672)
        elif kind == "damage":
            stage = Stage(kind, damage=rng.choice(DAMAGES))
        plan.append(stage)
    return plan
