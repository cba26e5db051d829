"""Which profile's column map a normalization reads: given, or told by the documents.

Each profile declares the ``titleId`` values its documents carry
(:attr:`matchkit.rules.profiles.Profile.title_ids`); the match, player and sample resources of
the documents name theirs. With no profile given, the one whose title ids the documents carry is
read (none claimed: the default, Gamelocker). Documents of two profiles in one call, or a
profile given that the documents contradict, are refused: read with the wrong map, PUBG's
participants would all be "anonymous" and their player ids empty, without a word.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.errors import DocumentError
from matchkit.model.schema import Kind, TableSchema
from matchkit.normalize.arrow import ARROW_POOL
from matchkit.normalize.chunks import ChunkTable, Sections
from matchkit.normalize.derive import royale_by_game_mode
from matchkit.rules.columns import ColumnMap
from matchkit.rules.profiles import DEFAULT_PROFILE, PROFILES, Profile, get_profile

__all__ = [
    "TITLED_TYPES",
    "map_columns",
    "profile_game",
    "profile_player_ids",
    "resolve_profile",
    "title_ids",
]

TITLED_TYPES = ("match", "player", "sample")
"""The resource types whose ``attributes.titleId`` tells the service."""


def title_ids(tables: dict[str, ChunkTable]) -> set[str]:
    """The ``titleId`` values the titled resources carry (read without taking the columns)."""
    found: set[str] = set()
    for type_ in TITLED_TYPES:
        table = tables.get(type_)
        if table is None or not table.chunks:
            continue
        for chunk in table.chunks:
            array = chunk.sections.get("attributes", {}).get("titleId")
            if array is not None and pa.types.is_string(array.type):
                found.update(v for v in pc.unique(array, memory_pool=ARROW_POOL).to_pylist() if v)
    return found


def resolve_profile(given: str | Profile | None, titles: Iterable[str]) -> Profile:
    """The profile to read the documents with.

    Raises:
        InvalidArgumentError: ``given`` is no profile.
        DocumentError: the documents are of two profiles, or not of the one given.
    """
    profile = None if given is None else get_profile(given)
    claimed: dict[str, tuple[Profile, str]] = {}
    for title in sorted(titles):
        owners = [candidate for candidate in PROFILES.values() if title in candidate.title_ids]
        # A title no profile claims is the default profile's (Gamelocker titles are many).
        owner = owners[0] if owners else DEFAULT_PROFILE
        claimed.setdefault(owner.name, (owner, title))
    if len(claimed) > 1:
        raise DocumentError(
            f"the documents are of several services ({', '.join(sorted(claimed))}, by their "
            "titleId); normalize each service's documents apart, then MatchFrames.concat"
        )
    if not claimed:
        return profile or DEFAULT_PROFILE
    ((found, title),) = claimed.values()
    if profile is not None and profile is not found:
        raise DocumentError(
            f"the documents are the {found.name} profile's (titleId {title!r}), "
            f"not the {profile.name} profile's; pass profile={found.name!r} or leave it out"
        )
    return found


def map_columns(
    columns: ColumnMap, schema: TableSchema, sections: Sections, known: Mapping[str, Any]
) -> tuple[Mapping[str, Any], dict[str, tuple[Kind, pa.Array | None]]]:
    """A table's values with a profile's column map applied: each mapped member taken out of
    ``sections``, into ``known`` when it is a column of the model (PUBG's ``matchType``: the
    model's ``match_type``), else into the profile's own columns (name -> kind and values,
    ``None`` when no document carried it). Without a mapped member, ``known`` as it is."""
    mapped = columns.of(schema.resource_type) if schema.resource_type else ()
    declared: dict[str, tuple[Kind, pa.Array | None]] = {}
    if not mapped:
        return known, declared
    known = dict(known)
    names = set(schema.column_names)
    for wire in mapped:
        array = sections.get(wire.section, {}).pop(wire.member, None)
        if wire.column in names:
            if array is not None:
                known[wire.column] = array
        else:
            declared[wire.column] = (cast("Kind", wire.kind), array)
    return known, declared


def profile_player_ids(
    columns: ColumnMap, linked: pa.Array, stats: dict[str, pa.Array]
) -> pa.Array:
    """Each participant's player id: its ``player`` relationship's, else the profile's player
    id member of its stats (PUBG's ``playerId``), taken out of ``stats``."""
    member = columns.player_id_member
    carried = None if member is None else stats.pop(member, None)
    if carried is None:
        return linked
    text = carried if pa.types.is_string(carried.type) else carried.cast(pa.string())
    return pc.coalesce(linked, text, memory_pool=ARROW_POOL)


def profile_game(
    profile: Profile,
    game: pa.Array,
    is_royale: pd.arrays.BooleanArray,
    game_modes: pa.Array | None,
    *,
    rows: int,
) -> tuple[pa.Array, pd.arrays.BooleanArray]:
    """A match's game, the profile's where the documents say none (PUBG's ``"pubg"``), and
    ``is_royale`` also where the game mode is one of the profile's battle royales."""
    if profile.game is not None:
        game = pc.fill_null(game, profile.game)
    royale = royale_by_game_mode(
        is_royale, game_modes, profile.columns.royale_game_modes, rows=rows
    )
    return game, royale
