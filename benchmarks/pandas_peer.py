"""The pandas peer of the normalize benchmark: the same tables as ``matchkit.to_frames``.

What a competent pandas user writes without matchkit, from docs/model.md: ``pd.json_normalize``
per resource type, ``explode`` + merges for the relationships, renames to the MatchFrames
column names, ``pd.to_datetime(..., utc=True)``, the won "true"/"false" map, the roster side
(stats.side, text sides mapped, else the side its participants share), participant kinds, extra
columns (snake_case, prefixed by their section when the name is taken; lists and mixed values as
JSON text) and ``astype`` to the dtypes. The peer is told the schema (column order and dtypes)
and reads ``matchkit.model.schema`` for the known columns' order; it calls none of matchkit's
normalizer code. A baseline, kept plain on purpose: no tricks to make it faster or slower.

Limits (not exercised by the benchmark's global-shape input, which :func:`check_peer` verifies
equal): nested *objects* inside stats are flattened by json_normalize into dotted columns and
dropped here, where to_frames keeps them as JSON text (so Vainglory's participants lose
itemGrants and friends); ``data`` must be a list (not a single object); relationships outside
the model are ignored; values that do not fit their dtype raise instead of becoming missing and
reported. On the recorded Battlerite list pages the tables equal to_frames' too.
"""

from __future__ import annotations

import math
import operator
import re
from typing import Any

import orjson
import pandas as pd

from matchkit.model.schema import TABLES

__all__ = ["Dtypes", "check_peer", "peer", "told_dtypes"]

# The peer's knowledge of the model, written from docs/model.md by hand (as a user would).
_SIDE_CODES = {"left/blue": 1, "left": 1, "blue": 1, "right/red": 2, "right": 2, "red": 2}
_KINDS = ["registered", "anonymous", "bot"]
_SECTIONS = (
    ("attributes", "attributes."),
    ("stats", "attributes.stats."),
    ("tags", "attributes.tags."),
)
_KNOWN_WIRE = {
    "matches": {
        "attributes.createdAt": "created_at",
        "attributes.duration": "duration",
        "attributes.gameMode": "game_mode",
        "attributes.patchVersion": "patch_version",
        "attributes.shardId": "shard_id",
        "attributes.titleId": "title_id",
        "attributes.stats.mapID": "map_id",
        "attributes.stats.type": "match_type",
        "attributes.stats.region": "region",
        "attributes.tags.serverType": "server_type",
        "attributes.tags.rankingType": "ranking_type",
    },
    "rosters": {
        "attributes.stats.score": "score",
        "attributes.won": "won",
        "attributes.shardId": "shard_id",
    },
    "participants": {
        "attributes.actor": "actor",
        "attributes.shardId": "shard_id",
        **{
            f"attributes.stats.{key}": key
            for key in ("attachment", "emote", "mount", "outfit", "kills", "deaths", "assists")
        },
        "attributes.stats.score": "score",
    },
    "rounds": {
        "attributes.ordinal": "ordinal",
        "attributes.duration": "duration",
        "attributes.stats.winningTeam": "winning_team",
    },
    "players": {
        "attributes.name": "name",
        "attributes.shardId": "shard_id",
        "attributes.titleId": "title_id",
        "attributes.patchVersion": "patch_version",
    },
    "teams": {
        "attributes.name": "name",
        "attributes.shardId": "shard_id",
        "attributes.titleId": "title_id",
    },
    "assets": {
        "attributes.URL": "url",
        "attributes.name": "name",
        "attributes.description": "description",
        "attributes.createdAt": "created_at",
    },
}
# Wire members that a derived column consumes (so they are no extras).
_CONSUMED = {
    "matches": {"attributes.game", "attributes.stats.game"},
    "rosters": {"attributes.stats.side"},
    "participants": {"attributes.stats.side", "attributes.stats.userID"},
}

Dtypes = dict[str, dict[str, Any]]
"""Table -> column -> dtype: the schema the peer is told (``"category"`` for categoricals)."""


def told_dtypes(frames: Any) -> Dtypes:
    """The column order and dtypes of a MatchFrames, as a user who was told the schema knows
    them; categoricals as plain ``"category"``, so that the peer finds the categories itself."""
    return {
        name: {
            column: "category" if isinstance(dtype, pd.CategoricalDtype) else dtype
            for column, dtype in table.dtypes.items()
        }
        for name, table in frames.tables.items()
    }


def _snake(key: str) -> str:
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", key)
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return re.sub(r"[^0-9A-Za-z]+", "_", name).strip("_").lower()


def _json_text(value: Any) -> Any:
    """Text as it is, missing as missing, anything else as compact JSON with sorted keys."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, float) and math.isnan(value):
        return None
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def _get(frame: pd.DataFrame, column: str) -> pd.Series:
    """A wire column, all missing when no resource carried it."""
    if column in frame:
        return frame[column]
    return pd.Series(None, index=frame.index, dtype="str")


def _extras(frame: pd.DataFrame, table: str, taken: set[str]) -> dict[str, pd.Series]:
    """Every attributes/stats/tags member that no known column takes, snake_case, prefixed by
    its section when the name is taken; nested values and mixed kinds as JSON text."""
    skip = set(_KNOWN_WIRE[table]) | _CONSUMED.get(table, set())
    extras = {}
    for section, prefix in _SECTIONS:
        for column in sorted(frame.columns):
            key = column.removeprefix(prefix)
            if column in skip or key == column or "." in key or key in ("stats", "tags"):
                continue
            name = _snake(key)
            if name in taken:
                name = f"{section}_{name}"
            taken.add(name)
            values = frame[column]
            extras[name] = values.map(_json_text) if values.dtype == object else values
    return extras


def _table(
    table: str, known: dict[str, Any], extras: dict[str, pd.Series], dtypes: Dtypes
) -> pd.DataFrame:
    """Known columns in the schema's order (missing ones all <NA>), then the extras by name,
    each cast to its dtype."""
    columns = {}
    for name in TABLES[table].column_names:
        value = known.get(name)
        if value is None:
            dtype = dtypes[table][name]
            value = pd.Series(None, dtype="str" if dtype == "category" else dtype)
        columns[name] = value
    columns.update(sorted(extras.items()))
    frame = pd.DataFrame(
        {name: pd.Series(value).reset_index(drop=True) for name, value in columns.items()}
    )
    return frame.astype({name: dtypes[table][name] for name in frame if name in dtypes[table]})


def _identifiers(frame: pd.DataFrame, relationship: str, owner: str) -> pd.DataFrame:
    """One row per identifier of a to-many relationship: ``owner``, ``type``, ``id``."""
    column = f"relationships.{relationship}.data"
    if column not in frame:
        return pd.DataFrame({owner: [], "type": [], "id": []}, dtype="str")
    pairs = frame[["id", column]].explode(column).dropna(subset=[column])
    return pd.DataFrame(
        {
            owner: pairs["id"],
            "type": pairs[column].map(operator.itemgetter("type")),
            "id": pairs[column].map(operator.itemgetter("id")),
        },
        dtype="str",
    )


def _links(frame: pd.DataFrame, relationship: str, owner: str, type_: str, child: str):
    identifiers = _identifiers(frame, relationship, owner)
    identifiers = identifiers[identifiers["type"] == type_]
    return identifiers.rename(columns={"id": child})[[owner, child]]


def _to_one(frame: pd.DataFrame, relationship: str, type_: str) -> pd.Series:
    """The id of a to-one relationship (json_normalize flattened its identifier)."""
    column = f"relationships.{relationship}.data"
    return _get(frame, f"{column}.id").where(_get(frame, f"{column}.type") == type_)


def _sides(values: pd.Series) -> tuple[pd.Series, pd.Series | None]:
    """(integer side, text label) of stats.side: text sides map through the side codes."""
    if values.isna().all():
        return values.astype("Int64"), None
    if pd.api.types.is_numeric_dtype(values):
        return values, None
    labels = values.where(values.map(lambda value: isinstance(value, str)))
    numbers = pd.to_numeric(values.where(labels.isna()), errors="coerce")
    return numbers.fillna(labels.str.strip().str.lower().map(_SIDE_CODES)), labels


def _by_type(pages: list[bytes]) -> dict[str, pd.DataFrame]:
    """One json_normalize frame per resource type, duplicates (same type and id) dropped."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for page in pages:
        document = orjson.loads(page)
        for resource in document["data"] + document.get("included", []):
            by_type.setdefault(resource["type"], []).append(resource)
    return {
        type_: pd.json_normalize(resources).drop_duplicates(subset=["id"])
        for type_, resources in by_type.items()
    }


def _known(frame: pd.DataFrame, table: str, key: str) -> dict[str, Any]:
    """The id as the key column, and the known wire columns renamed."""
    columns = {key: frame["id"]}
    columns.update((name, frame[w]) for w, name in _KNOWN_WIRE[table].items() if w in frame)
    return columns


def _plain(frame: pd.DataFrame, table: str, key: str, dtypes: Dtypes) -> pd.DataFrame:
    """A table with no derived columns (besides match_id when the frame has one)."""
    columns = _known(frame, table, key)
    if "match_id" in frame:
        columns["match_id"] = frame["match_id"]
    if "created_at" in columns:
        columns["created_at"] = pd.to_datetime(columns["created_at"], utc=True)
    return _table(table, columns, _extras(frame, table, set(TABLES[table].column_names)), dtypes)


def _matches(match: pd.DataFrame, dtypes: Dtypes) -> pd.DataFrame:
    columns = _known(match, "matches", "match_id")
    columns["created_at"] = pd.to_datetime(_get(match, "attributes.createdAt"), utc=True)
    attribute_game = _get(match, "attributes.game")
    stats_game = _get(match, "attributes.stats.game")
    columns["game"] = attribute_game.fillna(stats_game)
    columns["is_royale"] = (columns["game"] == "Royale") | (stats_game == "Royale")
    if "attributes.stats" in match:  # the older variant's stats as one text value
        stats = match["attributes.stats"]
        columns["stats_text"] = stats.where(stats.map(lambda value: isinstance(value, str)))
    extras = _extras(match, "matches", set(TABLES["matches"].column_names))
    if (attribute_game.notna() & stats_game.notna() & (attribute_game != stats_game)).any():
        extras["stats_game"] = stats_game  # kept when it says more than attributes.game
    return _table("matches", columns, extras, dtypes)


def _participants(
    participant: pd.DataFrame, participant_links: pd.DataFrame, dtypes: Dtypes
) -> pd.DataFrame:
    """Participants with their roster and match (``participant_links``: participant_id,
    roster_id, match_id), kind and side."""
    participant = participant.merge(
        participant_links.rename(columns={"participant_id": "id"}), on="id", how="left"
    )
    columns = _known(participant, "participants", "participant_id")
    columns["match_id"] = participant["match_id"]
    columns["roster_id"] = participant["roster_id"]
    columns["player_id"] = player_ids = _to_one(participant, "player", "player")
    columns["user_id"] = user_ids = _get(participant, "attributes.stats.userID").map(_json_text)
    registered = player_ids.notna() & (player_ids != "0")
    bot = ~registered & (user_ids == "0")
    kind = pd.Series("anonymous", index=participant.index).mask(registered, "registered")
    columns["kind"] = kind.mask(bot, "bot").astype(pd.CategoricalDtype(_KINDS))
    columns["is_registered"] = registered
    columns["side"], side_label = _sides(_get(participant, "attributes.stats.side"))
    extras = _extras(participant, "participants", set(TABLES["participants"].column_names))
    if side_label is not None:
        extras["side_label"] = side_label
    return _table("participants", columns, extras, dtypes)


def _rosters(roster: pd.DataFrame, participants: pd.DataFrame, dtypes: Dtypes) -> pd.DataFrame:
    """Rosters (with match_id); side from stats.side, else the side their participants share."""
    columns = _known(roster, "rosters", "roster_id")
    columns["match_id"] = roster["match_id"]
    columns["team_id"] = _to_one(roster, "team", "team")
    columns["won"] = _get(roster, "attributes.won").map({"true": True, "false": False})
    side, columns["side_label"] = _sides(_get(roster, "attributes.stats.side"))
    if side.isna().any():
        sides = participants.dropna(subset=["roster_id", "side"])
        bounds = sides.groupby("roster_id")["side"].agg(["min", "max"])
        common = bounds.loc[bounds["min"] == bounds["max"], "min"]
        side = side.fillna(roster["id"].map(common))
    columns["side"] = side
    extras = _extras(roster, "rosters", set(TABLES["rosters"].column_names))
    return _table("rosters", columns, extras, dtypes)


def peer(pages: list[bytes], dtypes: Dtypes) -> dict[str, pd.DataFrame]:
    """(c) The straightforward pandas way to the same tables as to_frames: json_normalize per
    resource type, explode + merges for relationships, renames, astype to the told dtypes."""
    wire = _by_type(pages)
    empty = pd.DataFrame({"id": pd.Series([], dtype="str")})
    match, roster, participant, round_, player, team, asset = (
        wire.get(type_, empty)
        for type_ in ("match", "roster", "participant", "round", "player", "team", "asset")
    )
    roster_links = _links(match, "rosters", "match_id", "roster", "roster_id")
    participant_links = _links(roster, "participants", "roster_id", "participant", "participant_id")
    participant_links = participant_links.merge(roster_links, on="roster_id", how="left")
    participants = _participants(participant, participant_links, dtypes)
    roster = roster.merge(roster_links.rename(columns={"roster_id": "id"}), on="id", how="left")
    round_links = _links(match, "rounds", "match_id", "round", "round_id")
    round_ = round_.merge(round_links.rename(columns={"round_id": "id"}), on="id", how="left")
    played = _links(round_, "participants", "round_id", "participant", "participant_id")
    played = played.merge(round_links, on="round_id", how="left")
    asset_links = _links(match, "assets", "match_id", "asset", "asset_id")
    asset = asset.merge(asset_links.rename(columns={"asset_id": "id"}), on="id", how="left")
    watched = _identifiers(match, "spectators", "match_id").rename(
        columns={"type": "spectator_type", "id": "spectator_id"}
    )
    return {
        "matches": _matches(match, dtypes),
        "rosters": _rosters(roster, participants, dtypes),
        "participants": participants,
        "rounds": _plain(round_, "rounds", "round_id", dtypes),
        "round_participants": _table("round_participants", dict(played), {}, dtypes),
        "players": _plain(player, "players", "player_id", dtypes),
        "teams": _plain(team, "teams", "team_id", dtypes),
        "assets": _plain(asset, "assets", "asset_id", dtypes),
        "spectators": _table("spectators", dict(watched), {}, dtypes),
    }


def check_peer(tables: dict[str, pd.DataFrame], frames: Any) -> str:
    """Raise unless the peer's tables equal to_frames' (sorted by key, index reset)."""
    columns = 0
    for name, schema in TABLES.items():
        key = list(schema.key)
        expected = frames.tables[name].sort_values(key).reset_index(drop=True)
        got = tables[name].sort_values(key).reset_index(drop=True)
        try:
            pd.testing.assert_frame_equal(got, expected)
        except AssertionError as error:
            raise RuntimeError(f"the peer's {name} differ from to_frames': {error}") from error
        columns += len(expected.columns)
    return (
        f"peer check: the peer's {len(TABLES)} tables ({columns} columns) equal to_frames' on "
        "this input (assert_frame_equal, values and dtypes, rows sorted by key): like for like"
    )
