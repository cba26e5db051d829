"""The hand-built matches the plot tests draw (module-scoped: each test module builds them once)."""

from __future__ import annotations

import pytest

from tests.analysis.helpers import frames_of
from tests.builders.matches import arena_match, player, royale_match


def _people(match: str, side: int, actors: list[str], mounts: list[int]) -> list:
    return [
        player(f"{match}-{side}-{index}", actor=actor, mount=mount)
        for index, (actor, mount) in enumerate(zip(actors, mounts, strict=True))
    ]


@pytest.fixture(scope="module")
def frames():
    documents = []
    durations = [300, 360, 420, 480, 540, 600]
    for index, duration in enumerate(durations):
        week = "2026-10-01" if index < 3 else "2026-10-08"
        documents.append(
            arena_match(
                f"A{index}",
                winner=1 if index % 3 else 2,
                duration=duration,
                created_at=f"{week}T1{index}:00:00Z",
                patch_version="2.9" if index < 3 else "2.10",
                rounds=[(60, 1), (70, 2), (80, 1)],
                participants=[
                    _people(f"A{index}", 1, ["10", "20"], [1, 2 if index % 2 else 1]),
                    _people(f"A{index}", 2, ["10", "30"], [3, 1]),
                ],
            )
        )
    for index, duration in enumerate([700, 760, 820]):
        documents.append(
            arena_match(
                f"B{index}",
                winner=2,
                duration=duration,
                server_type="QUICK3V3",
                created_at=f"2026-10-0{index + 1}T09:00:00Z",
                patch_version="2.9",
            )
        )
    documents.append(
        royale_match("R0", duration=900, created_at="2026-10-02T09:00:00Z", patch_version="2.9")
    )
    return frames_of(*documents)
