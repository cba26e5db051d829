"""Regression: the API reference could not read the telemetry readers' parameter types.

``TelemetrySource`` and ``PubgSource`` were type aliases written as strings, so that an annotation
such as ``TelemetrySource | Sequence[TelemetrySource]`` evaluated to ``str | GenericAlias`` and
failed: pdoc printed "Error parsing type annotation" for ``to_telemetry_frames`` and
``to_pubg_telemetry_frames`` and showed their parameters unresolved. Every type alias of the
package that can be built at run time is now a type, which this test checks in every module.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import typing

import matchkit


def test_no_type_alias_is_a_string() -> None:
    aliases = {}
    for info in pkgutil.walk_packages(matchkit.__path__, prefix="matchkit."):
        if info.name.endswith(".__main__"):
            continue  # the command line: importing it runs it
        module = importlib.import_module(info.name)
        for name, annotation in vars(module).get("__annotations__", {}).items():
            if annotation in {"TypeAlias", typing.TypeAlias} and name in vars(module):
                aliases[f"{info.name}.{name}"] = (vars(module)[name], vars(module))
    assert "matchkit.telemetry.parse.TelemetrySource" in aliases  # not vacuous
    strings = sorted(
        name
        for name, (value, names) in aliases.items()
        if isinstance(value, str) and _builds(value, names)
    )
    assert not strings, f"type aliases written as strings (pdoc cannot combine them): {strings}"


def _builds(text: str, names: dict[str, object]) -> bool:
    """Whether ``text`` is a type at run time (``argparse._SubParsersAction[...]`` is not in
    Python 3.11: that alias can only be a string)."""
    try:
        eval(text, dict(names))
    except TypeError:
        return False
    return True


def test_the_readers_annotations_evaluate() -> None:
    telemetry = importlib.import_module("matchkit.telemetry")
    for reader in (telemetry.to_telemetry_frames, telemetry.to_pubg_telemetry_frames):
        # as pdoc reads it: the annotation's text in its module's names
        source = eval(reader.__annotations__["telemetry"], vars(sys.modules[reader.__module__]))
        assert "PathLike" in str(source), (reader.__name__, source)
