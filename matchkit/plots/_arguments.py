"""The checks of the plots' own arguments (the analyses check theirs): counts of things shown."""

from __future__ import annotations

from matchkit.rules.checks import checked_whole_number

__all__ = ["checked_count"]


def checked_count(value: object, parameter: str, *, low: int = 1) -> int:
    """``value`` when it is a whole number of at least ``low`` (never a ``bool``).

    Raises:
        InvalidArgumentError: it is not, naming ``parameter``.
    """
    return checked_whole_number(
        value,
        parameter=parameter,
        message=f"{parameter}={value!r} must be a whole number >= {low}",
        low=low,
    )
