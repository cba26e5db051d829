"""The package type-checks clean: mypy with its settings in pyproject.toml (``make lint`` runs it
too). In ``make test`` it runs here, on a worker beside the other tests, not before them."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def test_the_package_type_checks_clean() -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success: no issues found" in checked.stdout
