"""Attributes of a package loaded on first use (the ``__getattr__`` of a package's module).

Keeps ``import matchkit`` and ``import matchkit.service`` light: what pulls heavy dependencies
is imported only when it is first looked up.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["lazy_getattr"]


def lazy_getattr(
    package: str,
    modules: Mapping[str, Sequence[str]],
    *,
    before: Callable[[], None] | None = None,
) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports each name from its module on first use.

    Args:
        package: the package's ``__name__`` (named in the AttributeError).
        modules: for each module, the names it provides.
        before: called before one of the names is imported (e.g. to check that optional
            dependencies are installed, with an install hint).

    Example:
        >>> __getattr__ = lazy_getattr("pkg", {"json": ("dumps",)})
        >>> __getattr__("dumps")({})
        '{}'
    """
    where = {name: module for module, names in modules.items() for name in names}

    def module_getattr(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if before is not None:
            before()
        return getattr(importlib.import_module(where[name]), name)

    return module_getattr
