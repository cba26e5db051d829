"""A faster seeded source for telemetry, as platform independent as :class:`Draw`.

Telemetry is generated on request, a few hundred draws per event log, so the draws avoid
``randrange``'s rejection loop: an integer is ``low + int(random() * span)`` and a choice
``items[int(random() * len(items))]``. ``random()`` is the same 53-bit Mersenne Twister value
everywhere and the product is exactly rounded, so the values do not depend on the platform.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

from matchkit.synth.sampling import Draw

__all__ = ["QuickDraw"]

T = TypeVar("T")


@lru_cache(maxsize=256)
def _probability(value: Fraction | str) -> float:
    return float(Fraction(value))


class QuickDraw(Draw):
    """A :class:`Draw` whose ``integer``, ``pick``, ``chance`` and ``shuffled`` use ``random()``."""

    def __init__(self, seed: int | str) -> None:
        super().__init__(seed)
        self.random = self.rng.random

    def integer(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``."""
        return low + int(self.random() * (high - low + 1))

    def pick(self, items: Sequence[T]) -> T:
        return items[int(self.random() * len(items))]

    def chance(self, probability: Fraction | str | float) -> bool:
        value = probability if isinstance(probability, float) else _probability(probability)
        return self.random() < value

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffle of a copy of ``items``."""
        copy = list(items)
        random = self.random
        for index in range(len(copy) - 1, 0, -1):
            other = int(random() * (index + 1))
            copy[index], copy[other] = copy[other], copy[index]
        return copy
