"""Regression: the API reference showed ``ClientSettings.profile``'s default as the Profile's
dataclass repr, whose frozensets (``rate_limited``, ``keyless``) list their strings in the order
of the run's string hashing: two builds of the report differed
(tests/report/test_report.py::test_report_is_the_same_on_every_run). A profile's repr is its
name, the same in every process."""

from __future__ import annotations

import os
import subprocess
import sys

from matchkit.rules.profiles import PROFILES

SCRIPT = "from matchkit.rules.profiles import PROFILES; print([repr(p) for p in PROFILES.values()])"


def test_a_profiles_repr_is_the_same_whatever_the_hash_seed() -> None:
    printed = {
        subprocess.run(
            [sys.executable, "-c", SCRIPT],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(printed) == 1
    assert printed.pop().strip() == str([f"Profile({name!r})" for name in PROFILES])
