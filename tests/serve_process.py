"""`matchkit serve` as a subprocess, for the tests of the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


def _command(arguments: tuple[str, ...]) -> list[str]:
    return [sys.executable, "-m", "matchkit", "serve", *arguments]


def _environment(cache_dir: Path, extra: Mapping[str, str]) -> dict[str, str]:
    # A key in the caller's environment would be served instead of a generated one.
    environment = {k: v for k, v in os.environ.items() if k != "MATCHKIT_API_KEY"}
    return {**environment, "MATCHKIT_CACHE_DIR": str(cache_dir), **extra}


def run_serve(
    *arguments: str, cache_dir: Path, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `matchkit serve` to its end (for arguments it must refuse)."""
    return subprocess.run(
        _command(arguments),
        capture_output=True,
        text=True,
        env=_environment(cache_dir, env or {}),
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
    key_output: str = field(default="")
    stdout: str = field(default="")
    stderr: str = field(default="")
    output: str = field(default="")


_MAX_LINES_BEFORE_KEY = 50


@contextmanager
def started_serve(
    *arguments: str, cache_dir: Path, env: Mapping[str, str] | None = None
) -> Iterator[ServeProcess]:
    """Start `matchkit serve --port 0 ...`, read its banner, stop it on exit.

    The banner is the URL line (stdout), the key line (stderr: apart from the access log) and
    the now line (stdout). After the block, ``stdout`` and ``stderr`` hold everything else it
    wrote there (uvicorn's access log on stdout), ``output`` both, and ``key_output`` what
    stderr held up to and with the key line.
    """
    process = subprocess.Popen(
        _command(("--port", "0", *arguments)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(cache_dir, env or {}),
    )
    served = None
    try:
        url_line = process.stdout.readline()
        key_output = []
        for _ in range(_MAX_LINES_BEFORE_KEY):
            line = process.stderr.readline()
            key_output.append(line)
            if not line or line.startswith(("API key: ", "accepting ")):
                break
        key_line = key_output[-1]
        now_line = process.stdout.readline()
        served = ServeProcess(
            process,
            base_url=url_line.split()[-1] if url_line.strip() else "",
            # Only a generated key is printed; otherwise the line says how many are accepted.
            api_key=key_line.removeprefix("API key: ").strip()
            if key_line.startswith("API key: ")
            else "",
            banner=[url_line, key_line, now_line],
            key_output="".join(key_output),
        )
        yield served
    finally:
        process.terminate()
        rest, errors = process.communicate(timeout=30)
        if served is not None:
            served.stdout, served.stderr, served.output = rest, errors, rest + errors
