"""Display names of the ids in telemetry tables: characters and battlerites."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from matchkit.names import Names, as_names

__all__ = ["battlerite_labels", "character_labels"]


def character_labels(
    characters: pd.Series, names: Names | Mapping[str, Any] | None = None
) -> pd.Series:
    """Each character id's display name (``names``: :class:`matchkit.names.Names` or actor id
    -> name); an id without a name, or every id when ``names`` is None, is shown as the id."""
    return as_names(names).label("character", characters)


def battlerite_labels(
    battlerites: pd.Series, names: Names | Mapping[str, Any] | None = None
) -> pd.Series:
    """Each battlerite id's display name (``names``: :class:`matchkit.names.Names`, kind
    ``battlerite``); an id without a name, or every id when ``names`` is None, stays the id."""
    return as_names(names).label("battlerite", battlerites)
