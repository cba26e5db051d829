"""Columns the normalizer derives from several wire values: sides, participant kinds, game.

Each function works on whole columns (Arrow arrays, lists, DataFrames), never row by row in
pandas.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.model.schema import PARTICIPANT_KINDS, SIDE_CODES, category_dtype
from matchkit.normalize.arrow import ARROW_POOL, compared, nulls
from matchkit.normalize.columns import convert, int_or_none, integer_array, missing_integers
from matchkit.normalize.problems import Problems

__all__ = [
    "kinds_by_prefix",
    "participant_kinds",
    "roster_sides_from_participants",
    "royale_by_game_mode",
    "sides_from_stats",
    "whole_match_game",
]


def _text(array: pa.Array | None, rows: int) -> pa.Array:
    if array is None or pa.types.is_null(array.type):
        return nulls(rows, pa.string())
    if pa.types.is_string(array.type):
        return array
    return array.cast(pa.string(), memory_pool=ARROW_POOL)


def sides_from_stats(
    array: pa.Array | None, *, rows: int, label: str, problems: Problems
) -> tuple[pd.arrays.IntegerArray, pa.Array | None]:
    """Integer sides and, when the wire sent text, the text labels.

    ``stats.side`` is an integer on the global shape and a text such as ``"left/blue"`` on the
    older variant; text sides map through :data:`matchkit.model.schema.SIDE_CODES` (numeric text is
    read as the number). A text side that is neither is kept as its label, with side <NA>, and
    reported.

    Returns:
        ``(sides, labels)``; labels is None when no side was text.
    """
    if array is None:
        return missing_integers(rows), None
    if not (pa.types.is_string(array.type) or pa.types.is_large_string(array.type)):
        return convert(array, "Int64", label=label, problems=problems), None
    sides: list[int | None] = []
    labels: list[str | None] = []
    unknown: list[str] = []
    for value in array.to_pylist():
        if value is None:
            sides.append(None)
            labels.append(None)
            continue
        text = value.strip()
        code = SIDE_CODES.get(text.lower())
        number = int_or_none(text) if code is None else None
        if number is not None:
            sides.append(number)
            labels.append(None)
            continue
        if code is None:
            unknown.append(value)
        sides.append(code)
        labels.append(value)
    if unknown:
        problems.add(
            "unknown_side",
            label,
            len(unknown),
            f"{label}: {len(unknown)} text side(s) are not one of {sorted(SIDE_CODES)} "
            f"(e.g. {unknown[0]!r}); side is <NA>, the text is kept as side_label",
        )
    return integer_array(sides), pa.array(labels, pa.string(), memory_pool=ARROW_POOL)


def roster_sides_from_participants(
    roster_ids: pa.Array, sides: pd.arrays.IntegerArray, participants: pd.DataFrame
) -> pd.arrays.IntegerArray:
    """Fill rosters without a side with the side their participants share.

    A roster keeps <NA> when its participants carry no side or disagree.
    """
    missing = np.asarray(sides.isna())
    if not missing.any() or participants.empty:
        return sides
    known = participants.loc[
        participants["side"].notna() & participants["roster_id"].notna(), ["roster_id", "side"]
    ]
    if known.empty:
        return sides
    bounds = known.groupby("roster_id", observed=True, sort=False)["side"].agg(["min", "max"])
    common = bounds.loc[bounds["min"] == bounds["max"], "min"]
    filled = pd.Series(roster_ids.to_pylist(), dtype=pd.StringDtype()).map(common).astype("Int64")
    result = sides.copy()
    result[missing] = filled.array[missing]
    return result


def participant_kinds(
    user_ids: pa.Array | None, player_ids: pa.Array, *, rows: int
) -> dict[str, Any]:
    """``kind`` and ``is_registered`` of each participant.

    registered: a player relationship to a player other than ``"0"``; bot: otherwise, when
    ``stats.userID`` is 0 or ``"0"`` (the real service linked bots to the player ``"0"``);
    anonymous: the rest.
    """
    registered = compared(pc.not_equal, player_ids, "0")
    user_zero = compared(pc.equal, _text(user_ids, rows), "0")
    registered_mask = registered.to_numpy(zero_copy_only=False)
    bot_mask = user_zero.to_numpy(zero_copy_only=False) & ~registered_mask
    codes = np.where(
        registered_mask,
        PARTICIPANT_KINDS.index("registered"),
        np.where(bot_mask, PARTICIPANT_KINDS.index("bot"), PARTICIPANT_KINDS.index("anonymous")),
    )
    return {
        "kind": pd.Categorical.from_codes(codes, dtype=category_dtype(PARTICIPANT_KINDS)),
        "is_registered": pd.arrays.BooleanArray(registered_mask, np.zeros(rows, dtype=bool)),
    }


def whole_match_game(
    attribute_game: pa.Array | None, stats_game: pa.Array | None, *, rows: int
) -> tuple[pa.Array, pd.arrays.BooleanArray, pa.Array | None]:
    """A match's game (attributes.game, else stats.game) and whether it is Royale.

    Returns:
        ``(game, is_royale, leftover)``; leftover is ``stats.game`` whole when some match sends
        both and they differ (kept as the extra column ``stats_game``), else None.
    """
    attribute_text = _text(attribute_game, rows)
    stats_text = _text(stats_game, rows)
    game = pc.coalesce(attribute_text, stats_text, memory_pool=ARROW_POOL)
    royale = pc.or_(
        compared(pc.equal, stats_text, "Royale"),
        compared(pc.equal, game, "Royale"),
        memory_pool=ARROW_POOL,
    )
    differs = compared(pc.not_equal, attribute_text, stats_text)
    leftover = stats_game if pc.any(differs).as_py() else None
    is_royale = pd.arrays.BooleanArray(
        royale.to_numpy(zero_copy_only=False), np.zeros(rows, dtype=bool)
    )
    return game, is_royale, leftover


def kinds_by_prefix(
    kinds: dict[str, Any], player_ids: pa.Array, prefixes: Mapping[str, str], *, rows: int
) -> dict[str, Any]:
    """``kind`` and ``is_registered`` with the kind each player id's prefix says (a profile's
    ``kinds_by_prefix``: PUBG's ``account.`` registered, ``ai.`` a bot) where it says one; the
    other rows keep ``kinds`` (:func:`participant_kinds`)."""
    if not prefixes:
        return kinds
    codes = np.asarray(kinds["kind"].codes).copy()
    text = _text(player_ids, rows)
    for prefix, kind in prefixes.items():
        found = pc.starts_with(text, pattern=prefix, memory_pool=ARROW_POOL)
        mask = pc.fill_null(found, False).to_numpy(zero_copy_only=False)
        codes[mask] = PARTICIPANT_KINDS.index(kind)
    registered = codes == PARTICIPANT_KINDS.index("registered")
    return {
        "kind": pd.Categorical.from_codes(codes, dtype=category_dtype(PARTICIPANT_KINDS)),
        "is_registered": pd.arrays.BooleanArray(registered, np.zeros(rows, dtype=bool)),
    }


def royale_by_game_mode(
    is_royale: pd.arrays.BooleanArray,
    game_modes: pa.Array | None,
    modes: frozenset[str],
    *,
    rows: int,
) -> pd.arrays.BooleanArray:
    """``is_royale`` also true where the game mode is one of a profile's battle royales."""
    if not modes or game_modes is None:
        return is_royale
    found = pc.is_in(_text(game_modes, rows), value_set=pa.array(sorted(modes), pa.string()))
    royale = np.asarray(is_royale.to_numpy(dtype=bool, na_value=False)) | pc.fill_null(
        found, False
    ).to_numpy(zero_copy_only=False)
    return pd.arrays.BooleanArray(royale, np.zeros(rows, dtype=bool))
