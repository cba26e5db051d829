"""The telemetry of one chunk of synthetic matches (``matchkit synth --archive --telemetry``).

Drawn with numpy from the chunk's own arrays (:class:`TelemetryInputs`, which
:func:`matchkit.synth.archive.draw.draw_chunk` passes), so that it agrees with its matches as
real telemetry does, by the relations that
:func:`matchkit.telemetry.consistency.consistency_problems` checks: a ``MatchStart`` in the
second of ``created_at``; a ``MatchReservedUser`` per participant with its character and
cosmetics; an Arena match's rounds with their lengths and winners, each player's per-round
stats summing to the participant's kills, deaths and score, one ``DeathEvent`` per death in its
round, five battlerite picks per player in round 0; a ``MatchFinishedEvent`` with the rosters'
scores and the match's length; a ``QueueEvent`` per human. A Royale match carries match-level
events only (no rounds, stats or picks), as the sample service's files do. Every event of a
match has its own cursor, in time order (queue, start, reservations, picks, each round's deaths
then its end, the finish). Tables no relation needs (round events, spells, team updates,
shutdowns, region samples, other events) are empty. Players telemetry cannot name (guests
without an id) have no events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from matchkit.sampledata import parameters as p
from matchkit.synth.archive.arrays import ARROW_TYPES, ragged_arange
from matchkit.telemetry.schema import PLAYER_STATS, TABLE_NAMES, TABLES

if TYPE_CHECKING:
    from matchkit.synth.archive.draw import Drawn, Participants
    from matchkit.synth.archive.model import SyntheticModel

__all__ = ["TelemetryInputs", "draw_telemetry", "telemetry_schema"]

Ints = npt.NDArray[np.int64]

_MICROS = 1_000_000
_MS = 1_000
_PICKS = 5
_PHASES = ("queue_events", "match_starts", "reserved_users", "battlerite_picks", "round", "end")
"""The order of a match's events where their times tie (a start and its reservations)."""


@dataclass(frozen=True)
class TelemetryInputs:
    """The arrays of a chunk the telemetry is drawn from.

    Attributes:
        n, match_ids, created (µs), duration (s), arena, rounds, round_seconds, outcome,
            final1, final2, patch, server_type, size: the matches (:class:`Drawn`).
        game_mode, map_id, region, ranking: the matches' values as telemetry writes them.
        month: the partition value of the matches of some rows.
        p_match, p_side, p_user (telemetry id or None), p_human, p_actor, p_cosmetics,
            p_kills, p_deaths, p_score: the participants.
        battlerites: per participant, its character's battlerite ids.
        intro, round_break: an Arena match's intro and the break between rounds (seconds).
    """

    n: int
    match_ids: pa.Array
    created: Ints
    duration: Ints
    arena: npt.NDArray[np.bool_]
    rounds: Ints
    round_seconds: Ints
    outcome: npt.NDArray[np.bool_]
    final1: Ints
    final2: Ints
    patch: pa.Array
    server_type: pa.Array
    size: Ints
    game_mode: Ints
    month: Callable[[Ints], pa.Array]
    map_id: pa.Array
    region: pa.Array
    ranking: pa.Array
    p_match: Ints
    p_side: Ints
    p_user: pa.Array
    p_human: npt.NDArray[np.bool_]
    p_actor: Ints
    p_cosmetics: Mapping[str, Ints]
    p_kills: Ints
    p_deaths: Ints
    p_score: Ints
    battlerites: Ints
    intro: int
    round_break: int

    @classmethod
    def of(
        cls,
        model: SyntheticModel,
        drawn: Drawn,
        participants: Participants,
        tables: Mapping[str, pa.Table],
        order: npt.NDArray[np.intp],
    ) -> TelemetryInputs:
        """The inputs of a chunk drawn by :func:`matchkit.synth.archive.draw.draw_chunk`
        (``order``: the drawn participants' positions in its participants table)."""
        matches, rows = tables["matches"], tables["participants"]
        drawn_order = np.empty_like(order)
        drawn_order[order] = np.arange(len(order))  # each drawn participant's row
        return cls(
            n=drawn.n,
            match_ids=drawn.match_ids,
            created=drawn.created,
            duration=drawn.duration,
            arena=drawn.arena,
            rounds=drawn.rounds,
            round_seconds=drawn.round_seconds,
            outcome=drawn.outcome,
            final1=drawn.final1,
            final2=drawn.final2,
            patch=drawn.patch,
            server_type=drawn.server_type,
            size=drawn.size,
            game_mode=model.game_mode_numbers[drawn.mode],
            month=drawn.month,
            map_id=matches.column("map_id").combine_chunks(),
            region=matches.column("region").combine_chunks(),
            ranking=matches.column("ranking_type").combine_chunks(),
            p_match=participants.match,
            p_side=np.asarray(rows.column("side"))[drawn_order],
            p_user=rows.column("user_id").combine_chunks().take(pa.array(drawn_order)),
            p_human=participants.kind != 2,
            p_actor=model.actor_numbers[participants.actor],
            p_cosmetics=participants.cosmetics,
            p_kills=participants.kills,
            p_deaths=participants.deaths,
            p_score=participants.score,
            battlerites=model.battlerites[participants.actor],
            intro=p.ARENA_INTRO_SECONDS,
            round_break=p.ARENA_ROUND_BREAK_SECONDS,
        )


def telemetry_schema(name: str) -> pa.Schema:
    """The stored Arrow schema of a telemetry table (its declared columns, then ``month``)."""
    fields = [pa.field(c.name, ARROW_TYPES[c.kind]) for c in TABLES[name].columns]
    return pa.schema([*fields, pa.field("month", pa.string())])


class _Events:
    """The event tables of a chunk as they are drawn, and what orders each match's events
    (its row, the phase, the time in ms) for their cursors."""

    def __init__(self, c: TelemetryInputs) -> None:
        self.c = c
        self.tables: dict[str, dict[str, Any]] = {}
        self.order: dict[str, tuple[Ints, ...]] = {}

    def add(self, name: str, rows: Ints, phase: str, columns: dict[str, Any]) -> None:
        """Table ``name``: an event per row (a match index), in ``phase``."""
        match_id = self.c.match_ids.take(pa.array(rows))
        self.tables[name] = {"match_id": match_id, **columns, "_rows": rows}
        phases = np.full(len(rows), _PHASES.index(phase))
        self.order[name] = (rows, phases, np.asarray(columns["time"]))


def draw_telemetry(rng: np.random.Generator, c: TelemetryInputs) -> dict[str, pa.Table]:
    """The telemetry tables of a chunk, by label (``telemetry/<name>``).

    Args:
        rng: the chunk's generator (drawn after its matches).
        c: the chunk's arrays.
    """
    named = np.flatnonzero(np.asarray(c.p_user.is_valid()))  # the players telemetry names
    events = _Events(c)
    start_ms = c.created // _MS + rng.integers(0, 1000, c.n)  # MatchStart, within the second
    _starts(rng, c, events, named, start_ms)
    arena_deaths = _arena(rng, c, events, named, start_ms)
    _deaths(rng, c, events, named, start_ms, arena_deaths)
    events.add(
        "match_finishes",
        np.arange(c.n),
        "end",
        {
            "time": start_ms + c.duration * _MS,
            "team_one_score": np.where(c.arena, c.final1, 0),  # 0 in Royale, as the service's
            "team_two_score": np.where(c.arena, c.final2, 0),
            "match_length": c.duration,
            "region": c.region,
        },
    )
    _cursors(events.tables, events.order, c.n)
    events.tables["files"] = _files(events.tables, c)
    return {
        f"telemetry/{name}": _table(name, events.tables.get(name, {}), c.month)
        for name in TABLE_NAMES
    }


def _starts(
    rng: np.random.Generator, c: TelemetryInputs, events: _Events, named: Ints, start_ms: Ints
) -> None:
    """A QueueEvent per human before the start, the MatchStart, a reservation per player."""
    queued = named[c.p_human[named]]
    waited = rng.gamma(2.0, 30.0, len(queued))
    events.add(
        "queue_events",
        c.p_match[queued],
        "queue_events",
        {
            "time": start_ms[c.p_match[queued]] - (waited * _MS).astype(np.int64) - 5_000,
            "user_id": c.p_user.take(pa.array(queued)),
            "time_in_queue": waited,
            "character": c.p_actor[queued],
            "ranking_type": c.ranking.take(pa.array(c.p_match[queued])),
            "team_side": c.p_side[queued],
            "match_region": c.region.take(pa.array(c.p_match[queued])),
        },
    )
    events.add(
        "match_starts",
        np.arange(c.n),
        "match_starts",
        {
            "time": start_ms,
            "version": c.patch,
            "server_type": c.server_type,
            "game_mode": c.game_mode,
            "map_id": c.map_id,
            "team_size": c.size,
            "region": c.region,
        },
    )
    match = c.p_match[named]
    events.add(
        "reserved_users",
        match,
        "reserved_users",
        {
            "time": start_ms[match],
            "user_id": c.p_user.take(pa.array(named)),
            "server_type": c.server_type.take(pa.array(match)),
            "character": c.p_actor[named],
            "team": c.p_side[named],
            "ranking_type": c.ranking.take(pa.array(match)),
            **{slot: values[named] for slot, values in c.p_cosmetics.items()},
        },
    )


def _arena(
    rng: np.random.Generator, c: TelemetryInputs, events: _Events, named: Ints, start_ms: Ints
) -> dict[str, Any]:
    """Arena: five battlerite picks per player in round 0, the rounds, each player's stats per
    round; the deaths in their rounds (returned, for :func:`_deaths`)."""
    in_arena = c.arena[c.p_match[named]]
    pickers = np.repeat(named[in_arena], _PICKS)
    slot = np.tile(np.arange(_PICKS), int(in_arena.sum()))
    kits = c.battlerites[pickers]
    choice = np.argsort(rng.random(kits.shape), axis=1)[np.arange(len(pickers)), slot]
    events.add(
        "battlerite_picks",
        c.p_match[pickers],
        "battlerite_picks",
        {
            "time": start_ms[c.p_match[pickers]] + 1_000,
            "user_id": c.p_user.take(pa.array(pickers)),
            "round": np.zeros(len(pickers), np.int64),
            "character": c.p_actor[pickers],
            "server_type": c.server_type.take(pa.array(c.p_match[pickers])),
            "battlerite_type": kits[np.arange(len(pickers)), choice],
        },
    )
    q_match = np.repeat(np.arange(c.n), c.rounds)
    q_ord = ragged_arange(c.rounds)
    ends = np.cumsum(c.round_seconds * (np.arange(5)[None, :] < c.rounds[:, None]), axis=1)
    round_end = (
        start_ms[q_match]
        + (c.intro + ends[q_match, q_ord] + c.round_break * q_ord) * _MS  # intro, rounds, breaks
    )
    events.add(
        "rounds",
        q_match,
        "round",
        {
            "time": round_end,
            "round": q_ord,
            "round_length": c.round_seconds[q_match, q_ord],
            "winning_team": np.where(c.outcome[q_match, q_ord], 1, 2),
        },
    )
    stats, deaths = _round_stats(rng, c, named[in_arena], round_end, q_match)
    events.tables["round_player_stats"] = stats
    return deaths


def _deaths(
    rng: np.random.Generator,
    c: TelemetryInputs,
    events: _Events,
    named: Ints,
    start_ms: Ints,
    arena: dict[str, Any],
) -> None:
    """A DeathEvent per death: an Arena one in its round (drawn with the round stats), a
    Royale one during the match (no round)."""
    royale = named[~c.arena[c.p_match[named]]]
    died = np.repeat(royale, c.p_deaths[royale])
    at = start_ms[c.p_match[died]] + (
        rng.random(len(died)) * c.duration[c.p_match[died]] * _MS
    ).astype(np.int64)
    no_round = np.concatenate([np.zeros(len(arena["rows"]), bool), np.ones(len(died), bool)])
    rounds = np.concatenate([arena["round"], np.zeros(len(died), np.int64)])
    events.add(
        "deaths",
        np.concatenate([arena["rows"], c.p_match[died]]),
        "round",
        {
            "time": np.concatenate([arena["time"], at]),
            "user_id": pa.concat_arrays([arena["user_id"], c.p_user.take(pa.array(died))]),
            "round": pa.array(rounds, mask=no_round),
        },
    )


def _round_stats(
    rng: np.random.Generator, c: TelemetryInputs, players: Ints, round_end: Ints, q_match: Ints
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Per round and player: kills, deaths and score split over the match's rounds (summing
    to the participant's), the other stats drawn; and one DeathEvent per death in its round."""
    rounds = c.rounds[c.p_match[players]]
    first = (np.cumsum(c.rounds) - c.rounds)[c.p_match[players]]  # the match's first round row
    who = np.repeat(players, rounds)
    ordinal = ragged_arange(rounds)
    row = np.repeat(first, rounds) + ordinal  # its round's row (of q_match)
    counts = {}
    for stat, totals in (("kills", c.p_kills), ("deaths", c.p_deaths)):
        owner = np.repeat(np.arange(len(players)), totals[players])
        pick = (rng.random(len(owner)) * rounds[owner]).astype(np.int64)
        offsets = np.cumsum(rounds) - rounds
        counts[stat] = np.bincount(offsets[owner] + pick, minlength=len(who))
    share = rng.random(len(who)) + 0.1
    share /= np.bincount(np.repeat(np.arange(len(players)), rounds), share)[
        np.repeat(np.arange(len(players)), rounds)
    ]
    score = np.floor(c.p_score[who] * share).astype(np.int64)
    last = np.cumsum(rounds) - 1  # the remainder goes to each player's last round
    score[last] += c.p_score[players] - np.add.reduceat(score, last - rounds + 1)
    stats: dict[str, Any] = {
        "match_id": c.match_ids.take(pa.array(c.p_match[who])),
        "round": ordinal,
        "user_id": c.p_user.take(pa.array(who)),
        "kills": counts["kills"],
        "deaths": counts["deaths"],
        "score": score,
        "_rows": c.p_match[who],
    }
    for name in PLAYER_STATS:
        if name not in stats:
            stats[name] = rng.integers(0, 4000, len(who))
    died = np.repeat(np.arange(len(who)), counts["deaths"])
    round_rows = row[died]
    begin = round_end[round_rows] - c.round_seconds[q_match[round_rows], ordinal[died]] * _MS
    span = round_end[round_rows] - begin
    deaths = {
        "rows": c.p_match[who[died]],
        "time": begin + (rng.random(len(died)) * (span - 1)).astype(np.int64),
        "user_id": c.p_user.take(pa.array(who[died])),
        "round": ordinal[died],
    }
    return stats, deaths


def _cursors(tables: dict[str, dict[str, Any]], order: dict[str, tuple[Ints, ...]], n: int) -> None:
    """Each event's cursor: its place in its match's file, in time order (then phase)."""
    names = list(order)
    rows, phase, time = (np.concatenate([order[t][i] for t in names]) for i in range(3))
    sizes = [len(order[t][0]) for t in names]
    ordered = np.lexsort((phase, time, rows))
    counts = np.bincount(rows, minlength=n)
    cursor = np.empty(len(rows), np.int64)
    cursor[ordered] = ragged_arange(counts)
    for name, part in zip(names, np.split(cursor, np.cumsum(sizes)[:-1]), strict=True):
        tables[name]["cursor"] = part


def _files(tables: dict[str, dict[str, Any]], c: TelemetryInputs) -> dict[str, Any]:
    """Per match: its events, first and last cursor, and first and last event time."""
    rows = np.concatenate([t["_rows"] for name, t in tables.items() if "cursor" in t])
    times = np.concatenate([np.asarray(t["time"]) for t in tables.values() if "cursor" in t])
    counts = np.bincount(rows, minlength=c.n)
    first = np.full(c.n, np.iinfo(np.int64).max)
    last = np.full(c.n, np.iinfo(np.int64).min)
    np.minimum.at(first, rows, times)
    np.maximum.at(last, rows, times)
    return {
        "match_id": c.match_ids,
        "events": counts,
        "first_cursor": np.zeros(c.n, np.int64),
        "last_cursor": counts - 1,
        "started_at": first * _MS,
        "ended_at": last * _MS,
        "_rows": np.arange(c.n),
    }


def _table(name: str, columns: dict[str, Any], month: Callable[[Ints], pa.Array]) -> pa.Table:
    schema = telemetry_schema(name)
    rows = columns.get("_rows", np.zeros(0, np.int64))
    arrays = []
    for field in schema:
        if field.name == "month":
            arrays.append(month(rows))
            continue
        value = columns.get(field.name)
        if value is None:
            arrays.append(pa.nulls(len(rows), field.type))
        elif field.name in ("time",) and not isinstance(value, pa.Array):
            arrays.append(pa.array(np.asarray(value) * _MS, field.type))  # ms -> µs
        elif isinstance(value, pa.Array | pa.ChunkedArray):
            arrays.append(value if value.type == field.type else value.cast(field.type))
        else:
            arrays.append(pa.array(value, field.type))
    return pa.Table.from_arrays(arrays, schema=schema)
