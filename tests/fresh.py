"""Code run in a fresh Python interpreter, for what an import loads or says there: the test
process has imported far more than any user's would."""

from __future__ import annotations

import subprocess
import sys

__all__ = ["printed_by"]


def printed_by(code: str) -> str:
    """What ``python -c code`` prints to standard output (it must exit 0)."""
    return subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
