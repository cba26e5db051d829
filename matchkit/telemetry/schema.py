"""The TelemetryFrames model, declared: every table, the event type it comes from, its columns.

Columns reuse :class:`matchkit.model.schema.Column`: ``section="attributes"`` names a member of
the event's ``dataObject`` (``key``), ``section="derived"`` a value matchkit computes (the match
id, the event's ``cursor``, a death's round, a list position). ``docs/telemetry.md`` describes
the same tables for readers; ``docs/telemetry-format.md`` the wire format.

Every event table carries ``match_id``, ``cursor`` and ``time`` (tz-aware UTC, from the event's
``time`` in milliseconds). A ``dataObject`` member no column declares becomes an extra column
(snake_case, after the known ones, sorted by name); an event type no table declares is kept
whole in ``other_events``.
"""

from __future__ import annotations

from dataclasses import dataclass

from matchkit.model.schema import Column, Kind, TableSchema
from matchkit.rules import events
from matchkit.rules.events import (
    DEATH,
    MATCH_FINISHED,
    MATCH_START,
    PICK,
    QUEUE,
    RESERVED_USER,
    ROUND_EVENT,
    ROUND_FINISHED,
    SHUTDOWN,
    SPELL,
    STAT_KEYS,
    TEAM_UPDATE,
)

__all__ = [
    *events.__all__,
    "EVENT_TABLES",
    "MATCH_ID_KEYS",
    "PLAYER_STATS",
    "TABLES",
    "TABLE_NAMES",
    "EventTable",
]

MATCH_ID_KEYS = ("matchID", "matchId")
"""How events spell the match id (checked against the file's match, then carried as match_id)."""


def _derived(name: str, kind: Kind, description: str) -> Column:
    return Column(name, kind, "derived", "", description)


def _member(name: str, kind: Kind, key: str, description: str = "") -> Column:
    return Column(name, kind, "attributes", key, description)


_MATCH_ID = _derived("match_id", "string", "the match the telemetry file belongs to")
_CURSOR = _derived("cursor", "Int64", "the event's cursor: its global, increasing position")
_TIME = _member("time", "datetime", "time", "when the event happened, UTC (milliseconds)")
_EXTERNAL = _member("external_match_id", "string", "externalMatchID", "empty in real files")
_EVENT = (_MATCH_ID, _CURSOR, _TIME)
_EVENT_KEY = ("match_id", "cursor")


def _plain(spec: str) -> tuple[Column, ...]:
    """Columns named after their members, from ``"key:kind key:kind ..."`` (no description)."""
    pairs = (item.split(":") for item in spec.split())
    return tuple(_member(_snake(key), kind, key) for key, kind in pairs)  # type: ignore[arg-type]


def _user(key: str) -> Column:
    return _member("user_id", "string", key, "the player (= participants.player_id)")


_CHARACTER = _member("character", "Int64", "character", "the character (= participants.actor)")
_ROUND = _member("round", "Int64", "round", "0-based round (= rounds.ordinal)")


def _snake(key: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in key)


PLAYER_STATS: tuple[str, ...] = tuple(_snake(key) for key in STAT_KEYS)
"""The per-round stats a RoundFinishedEvent carries per player (column names)."""


@dataclass(frozen=True)
class EventTable:
    """A table built from one event type.

    Attributes:
        schema: the table's declaration.
        event_type: the ``type`` of the events it holds (empty for derived tables).
    """

    schema: TableSchema
    event_type: str


def _event_table(
    name: str, event_type: str, columns: tuple[Column, ...], *, key: tuple[str, ...] = _EVENT_KEY
) -> EventTable:
    """The table of one event type: match_id, cursor and time, then ``columns``."""
    return EventTable(TableSchema(name, event_type, key, (*_EVENT, *columns)), event_type)


# The columns of each event table after match_id, cursor and time, in order.

_QUEUE_EVENTS = (
    _user("userId"),
    *_plain("teamId:string sessionId:string season:Int64 eventType:string"),
    _member(
        "time_joined_queue",
        "Int64",
        "timeJoinedQueue",
        "a nanosecond monotonic clock, not the epoch (text of digits beyond int64)",
    ),
    _member("time_in_queue", "float64", "timeInQueue", "seconds"),
    _CHARACTER,
    _member("character_archetype", "Int64", "characterArchetype", "2, 4 or 8"),
    _member("queue_types", "string", "queueTypes", "JSON list of queue names"),
    *_plain("limitMatchmakingRange:boolean preferredRegion:string rankingType:string"),
    *_plain("league:Int64 division:Int64 divisionRating:Int64 teamSize:Int64"),
    _member("team_members", "string", "teamMembers", "JSON list of the other members"),
    *_plain("placementGamesLeft:Int64 matchRegion:string"),
    _member("team_side", "Int64", "teamSide", "1 or 2 (= rosters.side)"),
    _member("auto_matchmaking", "boolean", "autoMatchmaking"),
)

_MATCH_STARTS = (
    _EXTERNAL,
    _member("version", "string", "version", "the patch"),
    _member("server_type", "string", "type", "as tags.serverType"),
    _member("game_mode", "Int64", "gameMode"),
    _member("map_id", "string", "mapID"),
    *_plain("teamSize:Int64 region:string"),
)

_RESERVED_USERS = (
    _user("accountId"),
    *_plain("serverType:string characterLevel:Int64 teamId:string totalTimePlayed:Int64"),
    *_plain("characterTimePlayed:Int64"),
    _CHARACTER,
    _member("team", "Int64", "team", "1 or 2 (= rosters.side)"),
    *_plain("rankingType:string mount:Int64 attachment:Int64 outfit:Int64 emote:Int64"),
    *_plain("league:Int64 division:Int64 divisionRating:Int64 seasonId:Int64"),
)

_BATTLERITE_PICKS = (
    _EXTERNAL,
    _user("userID"),
    _ROUND,
    _CHARACTER,
    *_plain("serverType:string loadoutType:string"),
    _member("battlerite_type", "Int64", "battleriteType", "the battlerite picked"),
)

_ROUND_EVENTS = (
    _EXTERNAL,
    _user("userID"),
    _ROUND,
    _CHARACTER,
    _member("event_type", "string", "type", "e.g. ULTIMATE_USED"),
    _member("value", "Int64", "value"),
    _member("time_into_round", "Int64", "timeIntoRound", "0 in real files"),
)

_DEATHS = (
    _EXTERNAL,
    _user("userID"),
    _derived(
        "round",
        "Int64",
        "the round it happened in: that of the first RoundFinishedEvent after it in "
        "cursor order (<NA> when none follows, e.g. a match without rounds)",
    ),
)

_ROUNDS = (
    _EXTERNAL,
    _ROUND,
    _member("round_length", "Int64", "roundLength", "seconds (= rounds.duration)"),
    _member("winning_team", "Int64", "winningTeam", "1 or 2 (= rounds.winning_team)"),
)

_USER_ROUND_SPELLS = (
    _user("accountId"),
    _ROUND,
    _CHARACTER,
    *_plain("typeId:Int64 sourceTypeId:Int64"),
    _member("score_type", "string", "scoreType", "USES, DAMAGE_DONE, ..."),
    _member("value", "Int64", "value"),
)

_MATCH_FINISHES = (
    _EXTERNAL,
    _member("team_one_score", "Int64", "teamOneScore", "= the side 1 roster's score"),
    _member("team_two_score", "Int64", "teamTwoScore", "= the side 2 roster's score"),
    _member("match_length", "Int64", "matchLength", "seconds (= matches.duration)"),
    _member("leavers", "string", "leavers", "JSON list"),
    _member("region", "string", "region"),
)

_TEAM_UPDATES = (
    _EXTERNAL,
    _member("team_id", "string", "teamID", "= rosters.team_id"),
    _member("user_ids", "string", "userIDs", "JSON list of the team's players"),
    *_plain("season:Int64 mode:string"),
    *(
        _member(_snake(key), "Int64", key)
        for key in (
            "prevLeague",
            "league",
            "prevDivision",
            "division",
            "prevDivisionRating",
            "divisionRating",
            "prevWins",
            "wins",
            "prevLosses",
            "losses",
            "roundsWon",
            "roundsLost",
            "teamSize",
        )
    ),
    *_plain("rankingChangeType:string prevPlacementGamesLeft:Int64"),
    *_plain("placementGamesLeft:Int64 matchRegion:string"),
)

_SHUTDOWNS = (
    _EXTERNAL,
    _member("match_time", "Int64", "matchTime", "seconds"),
    _member("reason", "string", "reason"),
)

# One table a row: its name, the event type it holds, its columns (after _EVENT).
EVENT_TABLES: tuple[EventTable, ...] = (
    _event_table("queue_events", QUEUE, _QUEUE_EVENTS),
    _event_table("match_starts", MATCH_START, _MATCH_STARTS),
    _event_table("reserved_users", RESERVED_USER, _RESERVED_USERS),
    _event_table("battlerite_picks", PICK, _BATTLERITE_PICKS),
    _event_table("round_events", ROUND_EVENT, _ROUND_EVENTS),
    _event_table("deaths", DEATH, _DEATHS),
    _event_table("rounds", ROUND_FINISHED, _ROUNDS, key=("match_id", "round")),
    _event_table("user_round_spells", SPELL, _USER_ROUND_SPELLS),
    _event_table("match_finishes", MATCH_FINISHED, _MATCH_FINISHES),
    _event_table("team_updates", TEAM_UPDATE, _TEAM_UPDATES),
    _event_table("shutdowns", SHUTDOWN, _SHUTDOWNS),
)

_DERIVED_TABLES = (
    TableSchema(
        "files",
        "",
        ("match_id",),
        (
            _MATCH_ID,
            _derived("events", "Int64", "events in the file"),
            _derived("first_cursor", "Int64", "the smallest cursor"),
            _derived("last_cursor", "Int64", "the largest cursor"),
            _derived("started_at", "datetime", "the earliest event time"),
            _derived("ended_at", "datetime", "the latest event time"),
        ),
    ),
    TableSchema(
        "round_player_stats",
        ROUND_FINISHED,
        ("match_id", "round", "user_id"),
        (
            _MATCH_ID,
            _derived("round", "Int64", "0-based round of its RoundFinishedEvent"),
            _user("userID"),
            *(
                _member(name, "Int64", key)
                for name, key in zip(PLAYER_STATS, STAT_KEYS, strict=True)
            ),
        ),
    ),
    TableSchema(
        "queue_region_samples",
        QUEUE,
        ("match_id", "cursor", "position"),
        (
            _MATCH_ID,
            _derived("cursor", "Int64", "the cursor of its QueueEvent"),
            _derived("user_id", "string", "the queued player"),
            _derived("position", "Int64", "0-based position in regionSamples"),
            _member("region", "string", "region"),
            _member("latency_ms", "Int64", "latencyMS", "milliseconds"),
        ),
    ),
    TableSchema(
        "other_events",
        "",
        ("match_id", "cursor"),
        (
            *_EVENT,
            _derived("event_type", "string", "the event's type, unknown to matchkit"),
            _derived("data", "string", "its dataObject as compact JSON text (sorted keys)"),
        ),
    ),
)

TABLES: dict[str, TableSchema] = {
    schema.name: schema
    for schema in (
        _DERIVED_TABLES[0],
        *(table.schema for table in EVENT_TABLES),
        *_DERIVED_TABLES[1:],
    )
}
TABLE_NAMES: tuple[str, ...] = tuple(TABLES)
