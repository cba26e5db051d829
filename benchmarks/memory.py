"""Peak memory of one call, sampled from the process's RSS (the benchmarks' memory figures)."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable


def peak_rss_beyond(run: Callable[[], object]) -> int:
    """Bytes of RSS above the level before ``run()``, at its peak (sampled every millisecond).

    What ``run`` returns is kept until the peak is read, then dropped.
    """
    import psutil

    gc.collect()
    process = psutil.Process()
    baseline = process.memory_info().rss
    peak = baseline
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, process.memory_info().rss)
            time.sleep(0.001)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        result = run()
    finally:
        done.set()
        sampler.join()
    peak = max(peak, process.memory_info().rss)
    del result
    return peak - baseline
