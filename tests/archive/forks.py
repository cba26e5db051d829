"""A fork server of syncs and compactions (``tests/archive/sync_child.py``), for the tests that
kill them with SIGKILL at random moments: each starts at once in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


class ForkServer:
    """tests/archive/sync_child.py running: starts syncs at once, each in a process of its own."""

    def __init__(self, service: Any = None) -> None:
        """``service``: the service every sync fetches from by default (else each ``start``
        names its own with ``base_url`` and ``api_key``)."""
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        if service is not None:
            env["MATCHKIT_API_KEY"] = service.api_key
        self.service = service
        self.cpu_seconds = 0.0
        """The CPU seconds of the processes waited for so far."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.archive.sync_child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=env,
        )
        assert self._ask(None) == "ready"

    def _ask(self, command: str | None) -> str:
        if command is not None:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def start(
        self,
        folder: Path,
        cache: Path,
        *,
        now: str | None,
        start: str | None,
        window_hours: float | None,
        wait: float = 0,
        **options: Any,
    ) -> int:
        """Start a sync of ``folder`` (``options``: ``settle_hours``, ``base_url`` with its
        ``api_key`` for another service than the server's, and ``machine_clock`` with ``now``
        ``None`` for a client that takes the service's now); its pid."""
        base_url = self.service.base_url if self.service is not None else None
        spec = {
            "folder": str(folder),
            "base_url": base_url,
            "now": now,
            "start": start,
            "window_hours": window_hours,
            "cache_dir": str(cache),
            "wait": wait,
            **options,
        }
        return int(self._ask("run " + json.dumps(spec)))

    def compact(self, folder: Path, *, retention_hours: float = 168, wait: float = 0) -> int:
        """Start a compaction of ``folder``; its pid."""
        spec = {"folder": str(folder), "retention_hours": retention_hours, "wait": wait}
        return int(self._ask("compact " + json.dumps(spec)))

    def wait(self, pid: int) -> int:
        """The exit code of process ``pid`` once it has ended (-9: killed); its CPU time is
        added to :attr:`cpu_seconds`."""
        code, cpu = self._ask(f"wait {pid}").split()
        self.cpu_seconds += float(cpu)
        return int(code)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)
