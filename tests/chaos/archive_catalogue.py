"""The archive's chaos: the catalogue of what may happen to an archive between two syncs, and how
a seed draws its plan from it.

A plan is a list of stages, each drawn from :data:`STAGES` by weight, with its own parameters
(how far the clock moves, a window, how long before a kill, a scope, a damage), all from a
generator seeded with the seed: a seed replays the same plan. The harness
(:mod:`tests.chaos.archive_harness`) runs it against the reference service and checks the
invariant after a last clean sync.

Two slots wait for work on other branches and are off (``enabled=False``) until it lands:
the client's clock skewed from the service's (the client will take its now from the service's
``Date``), and the service's ingestion delay (decision 20). Switch them on at the merge.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta

__all__ = ["DAMAGES", "SCOPES", "STAGES", "Stage", "StageKind", "draw_plan"]


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
    "clock_skew": StageKind(
        1, "the client's clock 12 h ahead of or behind the service's, then a sync", enabled=False
    ),
    "ingestion_delay": StageKind(
        1, "the service lists matches late (decision 20), then syncs a day apart", enabled=False
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
