"""The rules every argument check uses: a whole number in a range, a positive number, a choice.

A ``bool`` is never a number here (``True`` is an ``int`` to Python, never a count or a timeout to
a caller). The caller writes the message, which names the argument and what to pass instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

from matchkit.errors import InvalidArgumentError

__all__ = ["checked_choice", "checked_positive_number", "checked_whole_number"]

T = TypeVar("T")


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


def checked_choice(value: object, choices: Sequence[T], *, parameter: str, message: str) -> T:
    """The one of ``choices`` that ``value`` equals, with the same type (``1`` is not ``True``).

    Raises:
        InvalidArgumentError: with ``message``, naming ``parameter``.
    """
    for choice in choices:
        if type(value) is type(choice) and value == choice:
            return choice
    raise InvalidArgumentError(message, parameter=parameter)
