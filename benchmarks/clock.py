"""Wall and CPU time together, for the benchmarks that print both side by side."""

from __future__ import annotations

import time

__all__ = ["Timing", "clock", "since"]

Timing = tuple[float, float]
"""(wall seconds, CPU seconds of this process)."""


def clock() -> Timing:
    """The wall clock and this process's CPU time, now."""
    return time.perf_counter(), time.process_time()


def since(start: Timing) -> Timing:
    """The wall and CPU time elapsed since ``start`` (a :func:`clock` reading)."""
    wall, cpu = clock()
    return wall - start[0], cpu - start[1]
