"""The two number rules every argument check uses: a whole number in a range, a positive number.

A ``bool`` is never a number here (``True`` is an ``int`` to Python, never a count or a timeout to
a caller). The caller writes the message, which names the argument and what to pass instead.
"""

from __future__ import annotations

import math

from matchkit.errors import InvalidArgumentError

__all__ = ["checked_positive_number", "checked_whole_number"]


def checked_whole_number(
    value: object,
    *,
    parameter: str,
    message: str,
    low: int | None = None,
    high: int | None = None,
) -> int:
    """``value`` when it is an ``int`` (not a ``bool``) from ``low`` to ``high`` (``None``: open).

    Raises:
        InvalidArgumentError: with ``message``, naming ``parameter``.
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or (low is not None and value < low)
        or (high is not None and value > high)
    ):
        raise InvalidArgumentError(message, parameter=parameter)
    return value


def checked_positive_number(
    value: object, *, parameter: str, message: str, whole: bool = False
) -> float:
    """``value`` when it is a finite number > 0 (an ``int`` when ``whole``; never a ``bool``).

    Raises:
        InvalidArgumentError: with ``message``, naming ``parameter``.
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, int if whole else int | float)
        or (isinstance(value, float) and not math.isfinite(value))
        or value <= 0
    ):
        raise InvalidArgumentError(message, parameter=parameter)
    return value
