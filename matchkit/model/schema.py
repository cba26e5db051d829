"""The MatchFrames model, declared: every table, its key and its known columns with dtypes.

The normalizer builds each table from these declarations, the container re-applies them after
combining frames, and the Parquet reader restores them; ``docs/model.md`` describes the same
model for readers. A known column always exists, even when no document carried its field.
Columns that a document carries beyond these (unknown attribute or stats keys) become extra
columns after the known ones, sorted by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, get_args

import pandas as pd

__all__ = [
    "COSMETIC_KINDS",
    "DATETIME_DTYPE",
    "EXTRA_SECTIONS",
    "GLOBAL_SHAPE_EXTRAS",
    "KINDS",
    "LOOSE_MEMBERS",
    "PARTICIPANT_KINDS",
    "RESOURCE_TABLES",
    "SIDE_CODES",
    "SIDE_MEMBER",
    "SNAPSHOT_OWNERS",
    "SUBSECTIONS",
    "TABLES",
    "TABLE_NAMES",
    "USER_ID_MEMBER",
    "Column",
    "CosmeticKind",
    "Kind",
    "TableSchema",
    "WireType",
    "categorical_of",
    "category_dtype",
    "coerce_frame",
    "derived",
    "empty_frame",
    "pandas_dtype",
]

Kind = Literal["string", "category", "Int64", "boolean", "float64", "datetime"]
KINDS: tuple[Kind, ...] = ("string", "category", "Int64", "boolean", "float64", "datetime")

DATETIME_DTYPE = pd.DatetimeTZDtype(unit="us", tz="UTC")
"""Timestamps: tz-aware UTC with microseconds (what Parquet readers such as Spark expect)."""

SIDE_CODES: Mapping[str, int] = {
    "left/blue": 1,
    "left": 1,
    "blue": 1,
    "right/red": 2,
    "right": 2,
    "red": 2,
}
"""Text sides of the older variant and the integer side they stand for."""

PARTICIPANT_KINDS = ("registered", "anonymous", "bot")
"""The vocabulary of ``participants.kind``."""

CosmeticKind = Literal["attachment", "emote", "mount", "outfit"]
"""A cosmetic a participant picks: each is an integer stat of the participant (its id)."""
COSMETIC_KINDS: tuple[CosmeticKind, ...] = get_args(CosmeticKind)
"""The cosmetic kinds, in the order of :data:`CosmeticKind` (the participants' columns')."""

Section = Literal["attributes", "stats", "tags", "relationship", "derived"]


@dataclass(frozen=True)
class Column:
    """A known column.

    Attributes:
        name: the column's name (snake_case).
        kind: its dtype family; see :func:`pandas_dtype`.
        section: where the value comes from: ``attributes``, ``stats`` or ``tags`` of the
            resource (``key`` names the member), a ``relationship`` (``key`` names it) or
            ``derived`` by the normalizer.
        key: the wire member or relationship name.
        description: one line for the docs.
        categories: a fixed vocabulary of a ``category`` column (else its values' set).
    """

    name: str
    kind: Kind
    section: Section
    key: str = ""
    description: str = ""
    categories: tuple[str, ...] = ()

    @property
    def dtype(self) -> object:
        """The column's pandas dtype (a bare ``"category"`` unless the vocabulary is fixed)."""
        if self.categories:
            return category_dtype(self.categories)
        return pandas_dtype(self.kind)


@dataclass(frozen=True)
class TableSchema:
    """A table of MatchFrames.

    Attributes:
        name: the table's name (``matches``, ``rosters``, ...).
        resource_type: the JSON:API type its rows come from (empty for link tables).
        key: the columns that identify a row.
        columns: the known columns, in order.
        match_bound: rows belong to one match (the table carries ``match_id`` and is partitioned
            by match date in Parquet).
    """

    name: str
    resource_type: str
    key: tuple[str, ...]
    columns: tuple[Column, ...]
    match_bound: bool = True

    @property
    def column_names(self) -> list[str]:
        return [column.name for column in self.columns]

    def column(self, name: str) -> Column:
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(name)

    def wire_names(self, section: str) -> dict[str, str]:
        """Wire member -> column name for the known columns of one section."""
        return {c.key: c.name for c in self.columns if c.section == section}


def derived(
    name: str, kind: Kind, description: str, *, key: str = "", categories: tuple[str, ...] = ()
) -> Column:
    """A column the normalizer derives (``key``: the member it is derived from, if one)."""
    return Column(name, kind, "derived", key, description, categories)


def _int_stats(names: str) -> tuple[Column, ...]:
    """Integer stats columns named as their members, from ``"name name ..."``."""
    return tuple(Column(name, "Int64", "stats", name) for name in names.split())


def _id(name: str, description: str) -> Column:
    return derived(name, "string", description)


def _resource_table(
    name: str, resource_type: str, columns: tuple[Column, ...], *, match_bound: bool = True
) -> TableSchema:
    """The table of one resource type: keyed by ``<type>_id``, the resource's id, first."""
    key = f"{resource_type}_id"
    own_id = _id(key, f"the {resource_type} resource's id")
    return TableSchema(name, resource_type, (key,), (own_id, *columns), match_bound)


# The attributes a player and a team resource both carry.
_NAMED_ENTITY = (
    Column("name", "string", "attributes", "name"),
    Column("shard_id", "category", "attributes", "shardId"),
    Column("title_id", "category", "attributes", "titleId"),
)


# The columns of each table, in order.

_MATCHES = (
    Column("created_at", "datetime", "attributes", "createdAt", "creation time, UTC"),
    Column("duration", "Int64", "attributes", "duration", "seconds"),
    derived(
        "game",
        "category",
        "attributes.game, else stats.game (Royale matches carry stats.game)",
        key="game",
    ),
    Column("game_mode", "category", "attributes", "gameMode"),
    Column("patch_version", "category", "attributes", "patchVersion"),
    Column("shard_id", "category", "attributes", "shardId"),
    Column("title_id", "category", "attributes", "titleId"),
    Column("map_id", "string", "stats", "mapID"),
    Column("match_type", "category", "stats", "type", "stats.type, e.g. QUICK3V3"),
    Column("region", "category", "stats", "region", "the server region"),
    Column("server_type", "category", "tags", "serverType", "as delivered, e.g. QUICK3V3"),
    Column("ranking_type", "category", "tags", "rankingType", "RANKED / UNRANKED"),
    derived("is_royale", "boolean", 'stats.game or game is "Royale"'),
    derived(
        "stats_text",
        "string",
        "the match's stats when the older variant sends them as a text value",
        key="stats",
    ),
)

_ROSTERS = (
    _id("match_id", "the match whose rosters relationship lists it"),
    Column("team_id", "string", "relationship", "team", "when entered as a team"),
    derived(
        "side",
        "Int64",
        "stats.side (text sides mapped: left/blue 1, right/red 2), else the "
        "common stats.side of its participants",
        key="side",
    ),
    derived("side_label", "string", "the text side as delivered"),
    Column("score", "Int64", "stats", "score"),
    Column("won", "boolean", "attributes", "won", 'from "true" / "false"'),
    Column("shard_id", "category", "attributes", "shardId"),
)

_PARTICIPANTS = (
    _id("match_id", "the match of its roster"),
    _id("roster_id", "the roster whose participants relationship lists it"),
    Column("player_id", "string", "relationship", "player"),
    Column("actor", "string", "attributes", "actor", "character id or hero token"),
    Column("shard_id", "category", "attributes", "shardId"),
    derived("is_registered", "boolean", 'has a player relationship (to a player other than "0")'),
    derived("kind", "category", "registered, anonymous or bot", categories=PARTICIPANT_KINDS),
    derived("side", "Int64", "stats.side", key="side"),
    Column("user_id", "string", "stats", "userID", "as text (the wire mixes types)"),
    *_int_stats(" ".join(COSMETIC_KINDS)),
    *_int_stats("kills deaths assists score"),
)

_ROUNDS = (
    _id("match_id", "the match whose rounds relationship lists it"),
    Column("ordinal", "Int64", "attributes", "ordinal", "0-based order in the match"),
    Column("duration", "Int64", "attributes", "duration", "seconds"),
    Column("winning_team", "Int64", "stats", "winningTeam"),
)

_ROUND_PARTICIPANTS = (
    _id("round_id", "the round"),
    _id("participant_id", "a participant its participants relationship lists"),
    _id("match_id", "the round's match"),
)

_PLAYERS = (
    *_NAMED_ENTITY,
    Column("patch_version", "category", "attributes", "patchVersion"),
)

_TEAMS = (*_NAMED_ENTITY,)

_ASSETS = (
    _id("match_id", "the match whose assets relationship lists it"),
    Column("url", "string", "attributes", "URL", "e.g. the telemetry file"),
    Column("name", "string", "attributes", "name"),
    Column("description", "string", "attributes", "description"),
    Column("created_at", "datetime", "attributes", "createdAt"),
)

_SPECTATORS = (
    _id("match_id", "the match whose spectators relationship lists it"),
    derived("spectator_type", "category", "the identifier's type"),
    _id("spectator_id", "the identifier's id"),
)

# One table a row: its name, the resource type its rows come from, (its key,) its columns.
TABLES: dict[str, TableSchema] = {
    schema.name: schema
    for schema in (
        _resource_table("matches", "match", _MATCHES),
        _resource_table("rosters", "roster", _ROSTERS),
        _resource_table("participants", "participant", _PARTICIPANTS),
        _resource_table("rounds", "round", _ROUNDS),
        TableSchema("round_participants", "", ("round_id", "participant_id"), _ROUND_PARTICIPANTS),
        _resource_table("players", "player", _PLAYERS, match_bound=False),
        _resource_table("teams", "team", _TEAMS, match_bound=False),
        _resource_table("assets", "asset", _ASSETS),
        TableSchema("spectators", "", ("match_id", "spectator_type", "spectator_id"), _SPECTATORS),
    )
}

TABLE_NAMES: tuple[str, ...] = tuple(TABLES)

# --- The wire vocabulary: every name of the JSON:API documents the normalizer relies on. ---

SUBSECTIONS = ("stats", "tags")
"""The attribute members that hold objects of members (read as sections of their own)."""

EXTRA_SECTIONS = ("attributes", "stats", "tags", "relationships")
"""Where extra columns come from, in the order their names are claimed."""

SIDE_MEMBER = "side"
"""The stats member of rosters and participants that holds the side (an integer on the global
shape, a text such as ``"left/blue"`` on the older variant; see :data:`SIDE_CODES`)."""

USER_ID_MEMBER = "userID"
"""The participant stats member holding the user id (an integer or text on the wire)."""

RESOURCE_TABLES: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "match": ("matches", ("rosters", "rounds", "assets", "spectators")),
    "roster": ("rosters", ("participants", "team")),
    "participant": ("participants", ("player",)),
    "round": ("rounds", ("participants",)),
    "player": ("players", ("matches",)),
    "team": ("teams", ()),
    "asset": ("assets", ()),
    "sample": ("samples", ("matches",)),
    "season": ("seasons", ()),
}
"""Resource type -> (its table, the relationships read as identifier arrays). Any other
relationship becomes an extra column holding its identifiers as JSON text."""

SNAPSHOT_OWNERS: Mapping[str, tuple[str, str]] = {
    "player": ("participants", "player_id"),
    "team": ("rosters", "team_id"),
}
"""Resources that are snapshots at each match's time (decision 17) -> the table and column that
link them to a match. The copy that came with the latest match is kept."""

WireType = Literal["integer", "text", "any"]

LOOSE_MEMBERS = frozenset({("participant", "stats", USER_ID_MEMBER)})
"""``(type, section, member)`` of the model whose wire type varies (userID: integer or text)."""

GLOBAL_SHAPE_EXTRAS: Mapping[str, Mapping[str, Mapping[str, WireType]]] = {
    "match": {"attributes": {"game": "text"}, "stats": {"game": "text"}},
    "roster": {"stats": {"placement": "integer", SIDE_MEMBER: "integer"}},
    "participant": {
        "stats": {
            "abilityUses": "integer",
            "damageDone": "integer",
            "damageReceived": "integer",
            "disablesDone": "integer",
            "disablesReceived": "integer",
            "energyGained": "integer",
            "energyUsed": "integer",
            "healingDone": "integer",
            "healingReceived": "integer",
            SIDE_MEMBER: "integer",
            "timeAlive": "integer",
        }
    },
    "player": {"relationships": {"assets": "any"}},
}
"""Members the global shape carries beyond the model's known columns, with their wire types:
in the recorded responses of the real Battlerite service, the interface (``stats.game``) and the
sample data set (Royale rosters' ``placement``). The typed reader's shapes
(:mod:`matchkit.normalize.typed_shapes`) declare them, so that such pages take its fast path; a
member not named here sends its page down the general reader, which is only slower."""


def pandas_dtype(kind: str) -> object:
    """The pandas dtype of a column kind (``category``: with no categories yet)."""
    if kind == "string":
        return pd.StringDtype()
    if kind == "datetime":
        return DATETIME_DTYPE
    if kind == "category":
        return category_dtype(())
    return kind


def category_dtype(categories: Iterable[str]) -> pd.CategoricalDtype:
    """An unordered categorical of text categories, always of pandas' ``str`` dtype.

    (Without an explicit dtype an empty category list would be ``object``, and categoricals
    with equal categories of different dtypes do not compare equal.) A dtype of a few
    categories is made once and shared (dtypes are immutable): pandas checks every new one,
    which was a fifth of normalizing one page.
    """
    categories = tuple(categories)
    if len(categories) <= _SHARED_CATEGORIES and all(type(c) is str for c in categories):
        return _shared_category_dtype(categories)
    return _new_category_dtype(categories)


_SHARED_CATEGORIES = 64
"""Lists of text categories up to this long share their dtype (the usual ones: regions, server
types, patches); longer ones, rare and possibly large, are made each time."""


@lru_cache(maxsize=512)
def _shared_category_dtype(categories: tuple[str, ...]) -> pd.CategoricalDtype:
    return _new_category_dtype(categories)


def _new_category_dtype(categories: tuple[str, ...]) -> pd.CategoricalDtype:
    return pd.CategoricalDtype(pd.Index(list(categories), dtype=str), ordered=False)


def categorical_of(series: pd.Series) -> pd.Series:
    """A text or categorical Series as a categorical with its sorted values as categories."""
    present = series.dropna()
    categories = sorted({str(value) for value in present.unique()})
    return series.astype(object).astype(category_dtype(categories))


def empty_frame(schema: TableSchema) -> pd.DataFrame:
    """A table with its known columns, dtypes applied, and no rows."""
    return pd.DataFrame(
        {column.name: pd.Series([], dtype=pandas_dtype(column.kind)) for column in schema.columns}
    )


def coerce_frame(frame: pd.DataFrame, schema: TableSchema) -> pd.DataFrame:
    """Give a table its known columns (added when missing) and dtypes, known columns first.

    Extra columns keep their dtype and follow in name order. Used after concatenation, where
    categoricals with different categories fall back to plain strings.
    """
    known = set(schema.column_names)
    data: dict[str, object] = {}
    for column in schema.columns:
        dtype = column.dtype
        if column.name not in frame:
            data[column.name] = pd.Series(None, index=frame.index, dtype=dtype)
            continue
        series = frame[column.name]
        if column.kind == "category" and not column.categories:
            if not isinstance(series.dtype, pd.CategoricalDtype):
                # concat leaves text where the parts' categories differed.
                series = categorical_of(series)
        elif series.dtype != dtype:
            series = series.astype(dtype)
        data[column.name] = series
    for name in sorted(set(frame.columns) - known):
        data[name] = frame[name]
    return pd.DataFrame(data, index=frame.index)
