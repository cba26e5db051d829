"""The package's public surface: explicit, complete, and light to import."""

from __future__ import annotations

import subprocess
import sys

import pytest

import matchkit


@pytest.mark.parametrize("name", matchkit.__all__)
def test_every_public_name_resolves(name: str) -> None:
    assert getattr(matchkit, name) is not None


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Clinet'"):
        matchkit.Clinet  # noqa: B018


def test_importing_matchkit_loads_neither_the_client_nor_the_service() -> None:
    code = (
        "import sys, matchkit\n"
        "heavy = [m for m in ('requests_cache', 'starlette', 'uvicorn', 'ipywidgets') "
        "if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
