"""Another commit's code measured beside this checkout's: its files extracted with ``git archive``,
and a child process run with that code first on ``PYTHONPATH``, whose answer names the code it
ran, so that a side-by-side figure can never silently measure one code twice.

A child script ends by printing one JSON line holding ``"code": matchkit.__file__`` beside its
figures; :func:`run_code` runs it and checks that line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["REPOSITORY", "export", "run_code"]

REPOSITORY = Path(__file__).resolve().parents[1]


def export(commit: str, target: Path, *paths: str) -> Path:
    """The ``paths`` of ``commit`` (default: the package) extracted into ``target``.

    Raises:
        RuntimeError: git cannot give that commit (no history, an unknown commit).
    """
    archive = subprocess.run(
        ["git", "-C", str(REPOSITORY), "archive", commit, *(paths or ("matchkit",))],
        check=False,
        capture_output=True,
    )
    if archive.returncode != 0:
        raise RuntimeError(f"git archive {commit}: {archive.stderr.decode(errors='replace')}")
    target.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def run_code(
    code: Path,
    script: str,
    *args: str,
    cwd: Path,
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Run ``script`` (``python -c``) with ``code`` first on ``PYTHONPATH``, in ``cwd`` (not the
    checkout: ``python -c`` puts its folder before ``PYTHONPATH``); its last line, as JSON.

    Raises:
        RuntimeError: the script failed (with the end of what it wrote to stderr), or it ran
            another code than ``code``.
    """
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        env={**(os.environ if env is None else env), "PYTHONPATH": str(code)},
        cwd=cwd,
        check=False,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the run of {code} failed:\n{done.stderr[-3000:]}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if not str(answer["code"]).startswith(str(code)):
        raise RuntimeError(f"ran {answer['code']}, not the code under {code}")
    return answer
