"""Syncs in processes of their own, for the tests that kill them: a fork server.

It imports everything once, says ``ready``, then reads commands on stdin, one a line:

- ``run JSON``: fork a child that syncs (JSON: folder, base_url, now, start, window_hours,
  cache_dir, wait, and optionally settle_hours, filters, profile and shard (a day a batch:
  window_hours null), and api_key, else the key in MATCHKIT_API_KEY; ``now`` null and
  ``machine_clock`` seconds since the epoch: no pinned now, the machine's clock stopped there,
  so that the client takes the service's)
  and exits 0 (1 on an error); print its pid.
- ``compact JSON``: fork a child that compacts (JSON: folder, retention_hours, wait); its pid.
- ``wait PID``: wait for that child; print its exit code (``-9`` when killed by SIGKILL) and
  the CPU seconds it used.

Forking a process that has imported everything starts a sync at once, so that 20 syncs killed
at random points cost 20 syncs, not 20 interpreter start-ups.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from datetime import timedelta

import matchkit.archive as archive
from matchkit.client.client import Client


def _sync(spec: dict) -> None:
    machine_clock = spec.get("machine_clock")
    clock = time.time if machine_clock is None else lambda: float(machine_clock)
    spans = {}
    if spec["window_hours"] is not None:  # None: the profile's day batches
        spans["window"] = timedelta(hours=spec["window_hours"])
        spans["settle"] = timedelta(hours=spec.get("settle_hours", 6))
    with Client(
        spec["base_url"],
        api_key=spec.get("api_key"),
        now=spec["now"],
        cache_dir=spec["cache_dir"],
        rate_limit="off",
        progress=False,
        clock=clock,
        profile=spec.get("profile"),
        shard=spec.get("shard"),
    ) as client:
        archive.sync(
            client,
            spec["folder"],
            start=spec["start"],
            wait=spec["wait"],
            progress=False,
            **spans,
            **spec.get("filters", {}),
        )


def _compact(spec: dict) -> None:
    archive.compact(spec["folder"], retention_hours=spec["retention_hours"], wait=spec["wait"])


def main() -> int:
    archive.sync  # noqa: B018 (import everything before saying ready)
    import deltalake  # noqa: F401

    from matchkit.normalize import pipeline  # noqa: F401

    print("ready", flush=True)
    for line in sys.stdin:
        command, _, argument = line.strip().partition(" ")
        if command in ("run", "compact"):
            pid = os.fork()
            if pid == 0:
                try:
                    (_sync if command == "run" else _compact)(json.loads(argument))
                except BaseException:
                    traceback.print_exc()
                    os._exit(1)
                os._exit(0)
            print(pid, flush=True)
        elif command == "wait":
            _, status, usage = os.wait4(int(argument), 0)
            cpu = usage.ru_utime + usage.ru_stime
            print(os.waitstatus_to_exitcode(status), f"{cpu:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
