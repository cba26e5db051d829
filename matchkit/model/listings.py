"""The listing tables: what a service lists beside its matches, and every table of MatchFrames.

PUBG's players list their recent match ids, its samples list match ids, its seasons are a list:
:class:`~matchkit.model.frames.MatchFrames` holds them after the match tables of
:data:`matchkit.model.schema.TABLES` (``FRAME_TABLES``). They are not match-bound, and an
archive keeps only the match tables.
"""

from __future__ import annotations

from collections.abc import Mapping

from matchkit.model.schema import TABLES, Column, TableSchema, derived

__all__ = ["FRAME_TABLES", "LISTINGS", "LISTING_TABLES"]


def _listed_resource(name: str, resource_type: str, columns: tuple[Column, ...]) -> TableSchema:
    """The table of a listed resource type: keyed by ``<type>_id``, the resource's id, first."""
    key = f"{resource_type}_id"
    own_id = derived(key, "string", f"the {resource_type} resource's id")
    return TableSchema(name, resource_type, (key,), (own_id, *columns), match_bound=False)


_SAMPLES = (
    Column("created_at", "datetime", "attributes", "createdAt", "the sample's start, UTC"),
    Column("shard_id", "category", "attributes", "shardId"),
    Column("title_id", "category", "attributes", "titleId"),
)
_SEASONS = (
    Column("is_current_season", "boolean", "attributes", "isCurrentSeason"),
    Column("is_offseason", "boolean", "attributes", "isOffseason"),
)

LISTING_TABLES: dict[str, TableSchema] = {
    schema.name: schema
    for schema in (
        TableSchema(
            "player_matches",
            "",
            ("player_id", "match_id"),
            (
                derived("player_id", "string", "the player whose matches relationship lists it"),
                derived(
                    "match_id",
                    "string",
                    "a recent match of theirs, in the order listed (newest first)",
                ),
            ),
            match_bound=False,
        ),
        _listed_resource("samples", "sample", _SAMPLES),
        TableSchema(
            "sample_matches",
            "",
            ("sample_id", "match_id"),
            (
                derived("sample_id", "string", "the sample whose matches relationship lists it"),
                derived("match_id", "string", "a match of the sample, in the order listed"),
            ),
            match_bound=False,
        ),
        _listed_resource("seasons", "season", _SEASONS),
    )
}
"""The listing tables: what a service lists beside its matches (PUBG's players' match lists,
samples and seasons). :class:`~matchkit.model.frames.MatchFrames` holds them after the match
tables; an archive keeps only :data:`TABLES`."""

LISTINGS: Mapping[str, tuple[str, str]] = {
    "player_matches": ("player", "matches"),
    "sample_matches": ("sample", "matches"),
}
"""Listing table -> (the resource type that lists, its relationship). A resource that came in
several documents (a player asked twice) lists in its table every match any copy listed: the
one relationship of a snapshot type read as identifiers, never settled by decision 17."""

FRAME_TABLES: dict[str, TableSchema] = {**TABLES, **LISTING_TABLES}
"""Every table of :class:`~matchkit.model.frames.MatchFrames`: the match tables, then the
listing tables."""
