"""Seeded draws that give the same values on every platform.

Only ``random.Random``'s integer and ``random()`` streams are used, with IEEE arithmetic that is
exactly rounded everywhere (addition, multiplication, division, square root); no ``math.log`` or
``exp``, whose last bit may differ between C libraries. String seeds are hashed by CPython with
SHA-512, so they are platform independent too.

:class:`QuickDraw` is the source of telemetry, which is rendered on request (a few hundred draws
per event log): its ``integer``, ``pick``, ``chance`` and ``shuffled`` avoid ``randrange``'s
rejection loop (an integer is ``low + int(random() * span)``). ``random()`` is the same 53-bit
Mersenne Twister value everywhere and the product is exactly rounded, so its values do not
depend on the platform either; but they differ from :class:`Draw`'s, so the two stay apart.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from typing import Generic, TypeVar

__all__ = ["Draw", "QuickDraw", "WeightedTable", "harmonic_weights"]

T = TypeVar("T")


def harmonic_weights(count: int, skew: int) -> list[Fraction]:
    """Weights ``1 / (rank + skew)`` for ranks 1..count: a long-tailed popularity."""
    return [Fraction(1, rank + skew) for rank in range(1, count + 1)]


class WeightedTable(Generic[T]):
    """Items with weights, drawn by one ``random()`` and a bisection of cumulative weights."""

    def __init__(self, items: Sequence[T], weights: Sequence[Fraction | int | str]) -> None:
        if len(items) != len(weights) or not items:
            raise ValueError("a weighted table needs as many weights as items, and one item")
        exact = [Fraction(weight) for weight in weights]
        total = sum(exact, Fraction(0))
        self.items = list(items)
        self.shares = [weight / total for weight in exact]
        self._cumulative = [float(value) for value in accumulate(self.shares)]
        self._cumulative[-1] = 1.0

    def draw(self, rng: random.Random) -> T:
        index = bisect_right(self._cumulative, rng.random())
        return self.items[min(index, len(self.items) - 1)]


class Draw:
    """A seeded random source with the draws the generator needs.

    Args:
        seed: any int or str; the same seed gives the same draws everywhere.
    """

    def __init__(self, seed: int | str) -> None:
        self.rng = random.Random(seed)

    def chance(self, probability: Fraction | str) -> bool:
        return self.rng.random() < float(Fraction(probability))

    def integer(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``."""
        return self.rng.randint(low, high)

    def unique_integers(self, count: int, used: set[int], *, low: int) -> tuple[int, ...]:
        """``count`` integers in ``[low, 2**31 - 1]`` not in ``used`` (added to it)."""
        values: list[int] = []
        while len(values) < count:
            value = self.rng.randint(low, 2**31 - 1)
            if value not in used:
                used.add(value)
                values.append(value)
        return tuple(values)

    def triangular(self, low: int, mode: int, high: int) -> int:
        """A triangular draw rounded down to an integer in ``[low, high]``."""
        return min(high, int(self.rng.triangular(low, high, mode)))

    def pick(self, items: Sequence[T]) -> T:
        return items[self.rng.randrange(len(items))]

    def table(self, table: WeightedTable[T]) -> T:
        return table.draw(self.rng)

    def shuffled(self, items: Sequence[T]) -> list[T]:
        copy = list(items)
        self.rng.shuffle(copy)
        return copy

    def uuid(self) -> str:
        """A version-4 UUID made of this source's bits."""
        bits = self.rng.getrandbits(128)
        # The version nibble is bits 76..79 of the 128-bit value, the variant bits 62..63.
        bits &= ~(0xF000 << 64)
        bits |= 0x4000 << 64
        bits &= ~(0xC000 << 48)
        bits |= 0x8000 << 48
        text = f"{bits:032x}"
        return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"

    def hex_id(self) -> str:
        """32 upper-case hex digits, the shape of a global match id."""
        return f"{self.rng.getrandbits(128):032X}"

    def numeric_id(self) -> str:
        """An 18-digit numeric string, the shape of a global player id."""
        return str(self.rng.randrange(770_000_000_000_000_000, 940_000_000_000_000_000))


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
