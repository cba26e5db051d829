"""Fault injection for the reference service: errors, dropped connections, slow and cut bodies.

A :class:`Faults` value gives the probability of each fault and a seed; the service draws one
number per request to a match endpoint (``/shards/...``) from a generator seeded with it, so a
client that sends its requests one after another meets the same faults in the same places on
every run. ``/status`` and unknown paths are never faulted.

The spec string of ``matchkit serve --faults`` and ``running(faults=...)``::

    "500=0.05,503=0.05,502=0.02,504=0.02,drop=0.03,slow=0.02,truncate=0.02,429=0.05,seed=7"

========== ==================================================================================
key        fault
========== ==================================================================================
500, 503   the status with a JSON:API error document
502, 504   the status with a gateway's HTML page (``text/html``), as a proxy would send
429        a rate-limit refusal with ``Retry-After`` and the ``X-RateLimit-*`` headers
drop       the connection closed without any response
slow       the response held back ``slow_seconds`` (longer than the client's timeout)
truncate   the full ``Content-Length`` announced, about half the body sent, then the
           connection closed
seed       the seed of the fault sequence (default 0)
slow_seconds  how long ``slow`` holds a response back (default 35: above the client's 30)
retry_after   the seconds a fault 429 asks to wait (default 1)
========== ==================================================================================

Probabilities are in [0, 1] and sum to at most 1. What each fault does on the wire is the
layer's (:mod:`matchkit.service.faultlayer`): it wraps the whole app (it needs the server's own
``send`` to drop a connection), so faulted requests that never reach the app are recorded into
the request log there; one that got no response at all (dropped, or slow and given up on by the
client) with status 0.

Example:
    >>> Faults.parse("500=0.1,drop=0.05,seed=3").rates()["drop"]
    0.05
"""

from __future__ import annotations

import math
import random
import threading
from collections import Counter
from dataclasses import dataclass, fields
from typing import Any

from matchkit.errors import InvalidArgumentError
from matchkit.rules.checks import checked_positive_number, checked_whole_number

__all__ = ["FAULT_KINDS", "NO_RESPONSE_STATUS", "FaultInjector", "Faults"]

FAULT_KINDS = ("500", "502", "503", "504", "429", "drop", "slow", "truncate")
"""The faults, in the order their probabilities are stacked on the unit interval."""

_FIELD_OF_KIND = {
    "500": "internal_error",
    "502": "bad_gateway",
    "503": "unavailable",
    "504": "gateway_timeout",
    "429": "rate_limited",
    "drop": "drop",
    "slow": "slow",
    "truncate": "truncate",
}
_SETTINGS: dict[str, type[int] | type[float]] = {
    "seed": int,
    "slow_seconds": float,
    "retry_after": int,
}
NO_RESPONSE_STATUS = 0
"""The status the request log records when no response was sent: a dropped connection, or a
slow response the client stopped waiting for."""


@dataclass(frozen=True)
class Faults:
    """What to inject and how often.

    Attributes:
        internal_error: probability of a 500 (JSON:API error).
        bad_gateway: probability of a 502 (HTML body).
        unavailable: probability of a 503 (JSON:API error).
        gateway_timeout: probability of a 504 (HTML body).
        rate_limited: probability of a 429 with ``Retry-After`` and ``X-RateLimit-*``.
        drop: probability of a connection closed without a response.
        slow: probability of a response held back ``slow_seconds``.
        truncate: probability of a body cut short under its full ``Content-Length``.
        seed: seeds the sequence of draws.
        slow_seconds: the delay of a slow response; choose it above the client's timeout.
        retry_after: the ``Retry-After`` seconds of a fault 429.

    Raises:
        InvalidArgumentError: a probability outside [0, 1], a sum above 1, or a setting out of
            range.
    """

    internal_error: float = 0.0
    bad_gateway: float = 0.0
    unavailable: float = 0.0
    gateway_timeout: float = 0.0
    rate_limited: float = 0.0
    drop: float = 0.0
    slow: float = 0.0
    truncate: float = 0.0
    seed: int = 0
    slow_seconds: float = 35.0
    retry_after: int = 1

    def __post_init__(self) -> None:
        for kind, name in _FIELD_OF_KIND.items():
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not 0.0 <= value <= 1.0
            ):
                raise InvalidArgumentError(
                    f"faults: the probability of {kind} must be a number from 0 to 1, "
                    f"not {value!r}",
                    parameter="faults",
                )
        total = sum(self.rates().values())
        if total > 1.0 + 1e-9:
            raise InvalidArgumentError(
                f"faults: the probabilities add up to {total:g}; they must add up to at most 1",
                parameter="faults",
            )
        seed, slow, retry = self.seed, self.slow_seconds, self.retry_after
        message = f"faults: seed must be a whole number, not {seed!r}"
        checked_whole_number(seed, parameter="faults", message=message)
        message = f"faults: slow_seconds must be a positive number, not {slow!r}"
        checked_positive_number(slow, parameter="faults", message=message)
        message = f"faults: retry_after must be a whole number of seconds >= 0, not {retry!r}"
        checked_whole_number(retry, low=0, parameter="faults", message=message)

    def rates(self) -> dict[str, float]:
        """The probability of each fault kind, keyed as in the spec string."""
        return {kind: float(getattr(self, name)) for kind, name in _FIELD_OF_KIND.items()}

    @classmethod
    def parse(cls, spec: str | Faults | None) -> Faults | None:
        """Read a spec string (see the module docs); ``None``, ``""`` and ``"off"`` give None.

        Raises:
            InvalidArgumentError: an unknown key, a value that is not a number, a key given
                twice, or an invalid value.
        """
        if spec is None or isinstance(spec, Faults):
            return spec
        if not isinstance(spec, str):
            raise InvalidArgumentError(
                f"faults must be a spec string such as '500=0.05,drop=0.02,seed=7', a Faults "
                f"value or None, not {type(spec).__name__}",
                parameter="faults",
            )
        if spec.strip().lower() in ("", "off"):
            return None
        options: dict[str, Any] = {}
        known = ", ".join([*FAULT_KINDS, *_SETTINGS])
        for part in spec.split(","):
            key, equals, text = (piece.strip() for piece in part.partition("="))
            if not equals or not key:
                raise InvalidArgumentError(
                    f"faults: {part.strip()!r} is not KEY=VALUE; write e.g. "
                    "'500=0.05,drop=0.02,seed=7'",
                    parameter="faults",
                )
            if key in _FIELD_OF_KIND:
                name, kind_of_value = _FIELD_OF_KIND[key], float
            elif key in _SETTINGS:
                name, kind_of_value = key, _SETTINGS[key]
            else:
                raise InvalidArgumentError(
                    f"faults: unknown key {key!r}; the keys are {known}", parameter="faults"
                )
            if name in options:
                raise InvalidArgumentError(
                    f"faults: {key!r} is given twice; give it once", parameter="faults"
                )
            try:
                value = kind_of_value(text)
            except ValueError:
                raise InvalidArgumentError(
                    f"faults: {key}={text!r} is not a {kind_of_value.__name__}",
                    parameter="faults",
                ) from None
            if kind_of_value is float and not math.isfinite(value):
                raise InvalidArgumentError(
                    f"faults: {key}={text!r} is not a finite number", parameter="faults"
                )
            options[name] = value
        return cls(**options)

    def __str__(self) -> str:
        parts = [f"{kind}={rate:g}" for kind, rate in self.rates().items() if rate]
        defaults = {field.name: field.default for field in fields(self)}
        parts.extend(
            f"{name}={getattr(self, name):g}"
            for name in _SETTINGS
            if name == "seed" or getattr(self, name) != defaults[name]
        )
        return ",".join(parts)


class FaultInjector:
    """The seeded sequence of draws and the count of each fault injected (thread-safe).

    Example:
        >>> injector = FaultInjector(Faults(drop=1.0))
        >>> injector.draw()
        'drop'
    """

    def __init__(self, faults: Faults) -> None:
        self.faults = faults
        self._random = random.Random(faults.seed)
        self._lock = threading.Lock()
        self._thresholds: list[tuple[float, str]] = []
        total = 0.0
        for kind, rate in faults.rates().items():
            if rate > 0:
                total += rate
                self._thresholds.append((total, kind))
        self.counts: Counter[str] = Counter()
        self.draws = 0

    def draw(self) -> str | None:
        """The fault for the next request, or ``None`` for a normal answer."""
        with self._lock:
            self.draws += 1
            value = self._random.random()
            for threshold, kind in self._thresholds:
                if value < threshold:
                    self.counts[kind] += 1
                    return kind
            return None

    def __repr__(self) -> str:
        return f"FaultInjector({self.faults}, draws={self.draws}, injected={dict(self.counts)})"
