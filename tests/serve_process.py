"""`matchkit serve` as a subprocess, for the tests of the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


def _command(arguments: tuple[str, ...]) -> list[str]:
    return [sys.executable, "-m", "matchkit", "serve", *arguments]


def _environment(cache_dir: Path) -> dict[str, str]:
    return {**os.environ, "MATCHKIT_CACHE_DIR": str(cache_dir)}


def run_serve(*arguments: str, cache_dir: Path) -> subprocess.CompletedProcess[str]:
    """Run `matchkit serve` to its end (for arguments it must refuse)."""
    return subprocess.run(
        _command(arguments),
        capture_output=True,
        text=True,
        env=_environment(cache_dir),
        timeout=60,
        check=False,
    )


@dataclass
class ServeProcess:
    """A running `matchkit serve`: what it printed first, and, once stopped, the rest."""

    process: subprocess.Popen[str]
    base_url: str
    api_key: str
    banner: list[str]
    output: str = field(default="")


@contextmanager
def started_serve(*arguments: str, cache_dir: Path) -> Iterator[ServeProcess]:
    """Start `matchkit serve --port 0 ...`, read its banner, stop it on exit.

    After the block, ``output`` holds everything else it wrote to stdout and stderr (uvicorn's
    access log among it).
    """
    process = subprocess.Popen(
        _command(("--port", "0", *arguments)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(cache_dir),
    )
    served = None
    try:
        url_line = process.stdout.readline()
        key_line = process.stdout.readline()
        now_line = process.stdout.readline()
        served = ServeProcess(
            process,
            base_url=url_line.split()[-1] if url_line.strip() else "",
            # Only a generated key is printed; with --api-key the line says how many were given.
            api_key=key_line.removeprefix("API key: ").strip()
            if key_line.startswith("API key: ")
            else "",
            banner=[url_line, key_line, now_line],
        )
        yield served
    finally:
        process.terminate()
        rest, errors = process.communicate(timeout=30)
        if served is not None:
            served.output = rest + errors
