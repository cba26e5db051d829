"""The package's public surface: explicit, complete, and light to import."""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest

import matchkit
from matchkit import errors

# What each public name must be: where it is defined and what kind of object it is.
EXPECTED = {
    "Client": ("matchkit.client.client", inspect.isclass),
    "MatchFrames": ("matchkit.model.frames", inspect.isclass),
    "to_frames": ("matchkit.normalize.pipeline", inspect.isfunction),
    "TelemetryFrames": ("matchkit.telemetry.frames", inspect.isclass),
    "to_telemetry_frames": ("matchkit.telemetry", inspect.isfunction),
    "create_app": ("matchkit.service.app", inspect.isfunction),
    "running": ("matchkit.service.server", inspect.isfunction),
    "serve": ("matchkit.service.server", inspect.isfunction),
}


def test_all_is_exactly_the_documented_surface() -> None:
    error_names = {
        name
        for name, value in vars(errors).items()
        if inspect.isclass(value) and issubclass(value, matchkit.MatchkitError)
    }
    assert set(matchkit.__all__) == set(EXPECTED) | error_names
    assert len(matchkit.__all__) == len(set(matchkit.__all__))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_public_name_resolves_to_its_implementation(name: str) -> None:
    value = getattr(matchkit, name)
    module, kind = EXPECTED[name]
    assert kind(value), f"matchkit.{name} is {value!r}"
    assert value.__module__ == module
    assert inspect.getdoc(value), f"matchkit.{name} has no docstring"


@pytest.mark.parametrize(
    "name", sorted(name for name in matchkit.__all__ if name.endswith("Error"))
)
def test_every_public_error_is_a_matchkit_error(name: str) -> None:
    error = getattr(matchkit, name)
    assert issubclass(error, matchkit.MatchkitError)
    assert error.__module__ == "matchkit.errors"


def test_argument_errors_are_value_errors() -> None:
    assert issubclass(matchkit.InvalidArgumentError, ValueError)


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Clinet'"):
        matchkit.Clinet  # noqa: B018


def test_importing_matchkit_loads_neither_the_client_nor_the_service() -> None:
    code = (
        "import sys, matchkit\n"
        "heavy = [m for m in ('requests_cache', 'requests', 'starlette', 'uvicorn', "
        "'ipywidgets', 'matplotlib', 'matchkit.client', 'matchkit.service.app', "
        "'matchkit.telemetry') "
        "if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
