"""Attributes of a package loaded on first use (the ``__getattr__`` of a package's module).

Keeps ``import matchkit`` and ``import matchkit.service`` light: what pulls heavy dependencies
is imported only when it is first looked up.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

__all__ = ["lazy_attribute"]


def lazy_attribute(package: str, where: Mapping[str, str], name: str) -> Any:
    """The attribute ``name`` of package ``package``, imported from module ``where[name]``.

    Raises:
        AttributeError: ``name`` is not one of the package's lazy attributes.
    """
    if name not in where:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return getattr(importlib.import_module(where[name]), name)
