"""Which reference service serves a profile: the Gamelocker one, or a double of the profile's own.

``create_app``, ``serve`` and ``running`` take ``profile=``; a profile listed in
:data:`DOUBLES` is served by its own package (which has the same three), every other one by
the Gamelocker service of :mod:`matchkit.service.app` and :mod:`matchkit.service.server`. The
profile itself is read from :func:`matchkit.rules.profiles.get_profile` (an unknown name is a
typed error naming the known ones).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import Any

from matchkit.errors import InvalidArgumentError
from matchkit.rules.profiles import Profile, get_profile

__all__ = ["DOUBLES", "create_app", "double_for", "require_known_options"]

DOUBLES: Mapping[str, str] = MappingProxyType({"pubg": "matchkit.service.pubg"})
"""Profile name -> the package of its double (``create_app``, ``serve``, ``running``)."""


def double_for(profile: str | Profile | None) -> ModuleType | None:
    """The package of the profile's own double, or ``None`` (the Gamelocker service).

    Raises:
        InvalidArgumentError: no profile of that name.
    """
    path = DOUBLES.get(get_profile(profile).name)
    return None if path is None else importlib.import_module(path)


def require_known_options(
    options: Mapping[str, Any], *functions: Any, profile: str | Profile | None
) -> None:
    """Refuse options the profile's service does not take, naming them, before it starts.

    Args:
        options: the keyword arguments given.
        functions: the functions they go to (one passing the rest on to the next).
        profile: the profile, for the message.

    Raises:
        InvalidArgumentError: an option none of ``functions`` names.
    """
    parameters = {
        name
        for function in functions
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.kind not in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
    }
    unknown = sorted(set(options) - parameters)
    if unknown:
        name = get_profile(profile).name
        raise InvalidArgumentError(
            f"{unknown[0]} is not an option of the {name} profile's service; it takes "
            f"{', '.join(sorted(parameters))}",
            parameter=unknown[0],
        )


def create_app(*, profile: str | Profile | None = None, **options: Any) -> Any:
    """The reference service of ``profile`` as an ASGI app (default: the Gamelocker one; see
    :func:`matchkit.service.app.create_app` and :func:`matchkit.service.pubg.create_app`)."""
    double = double_for(profile)
    if double is None:
        from matchkit.service.app import create_app as gamelocker_app

        return gamelocker_app(**options)
    require_known_options(options, double.create_app, profile=profile)
    return double.create_app(**options)
