"""The telemetry vocabulary of each character (matchkit.sampledata.telemetry.catalogue)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from matchkit.sampledata.telemetry import parameters as t
from matchkit.sampledata.telemetry.catalogue import character_kit, kit_catalogue

UNKNOWN_ACTORS = ["1", "987654321", "not-a-number"]


def test_a_kits_archetype_is_its_roles() -> None:
    kits = [*kit_catalogue().values(), *map(character_kit, UNKNOWN_ACTORS)]
    assert {kit.role for kit in kits} == {"melee", "ranged", "support"}
    for kit in kits:
        assert kit.archetype == dict(t.ARCHETYPES)[kit.role]


@pytest.mark.parametrize("actor", [*list(kit_catalogue())[:3], *UNKNOWN_ACTORS])
def test_a_kits_weights_are_one_over_rank_plus_skew(actor: str) -> None:
    kit = character_kit(actor)
    skew = t.BATTLERITE_SKEW
    assert kit.weights == tuple(
        Fraction(1, rank + skew) for rank in range(1, len(kit.battlerites) + 1)
    )
    assert len(kit.battlerites) == t.BATTLERITES_PER_CHARACTER
