"""One chunk of synthetic matches, drawn with numpy and built as the archive stores it.

See :mod:`matchkit.archive.synthetic`. Every table comes out in its stored form (the known
columns of MatchFrames in order, text as ``string``, the snapshot columns of players and teams,
``month``), ready for :func:`matchkit.archive.writer.commit_batch`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.archive.convert import SNAPSHOT_COLUMNS, SNAPSHOT_LINKS
from matchkit.archive.layout import bucket_of, partitions
from matchkit.model.schema import COSMETIC_KINDS, PARTICIPANT_KINDS, TABLE_NAMES, TABLES
from matchkit.sampledata import parameters as p

__all__ = ["ARROW_TYPES", "draw_chunk", "hex_ids", "ragged_arange", "stored_schema"]

_MICROS = 1_000_000
ARROW_TYPES = {
    "string": pa.string(),
    "category": pa.string(),
    "Int64": pa.int64(),
    "boolean": pa.bool_(),
    "float64": pa.float64(),
    "datetime": pa.timestamp("us", tz="UTC"),
}


def _pairs(digits: bytes) -> np.ndarray:
    """Byte value -> its two hex digits, as one uint16 (in memory order)."""
    pairs = [digits[b >> 4 : (b >> 4) + 1] + digits[b & 15 : (b & 15) + 1] for b in range(256)]
    return np.frombuffer(b"".join(pairs), dtype=np.uint16).copy()


_PAIRS_UPPER = _pairs(b"0123456789ABCDEF")
_PAIRS_LOWER = _pairs(b"0123456789abcdef")


def stored_schema(name: str) -> pa.Schema:
    """The stored Arrow schema of a MatchFrames table with its known columns only."""
    fields = [pa.field(c.name, ARROW_TYPES[c.kind]) for c in TABLES[name].columns]
    if name in SNAPSHOT_LINKS:
        fields += [
            pa.field("match_id", pa.string()),
            pa.field("match_created_at", pa.timestamp("us", tz="UTC")),
        ]
    return pa.schema([*fields, pa.field("month", pa.string())])


def hex_ids(rng: np.random.Generator, n: int, *, lower: bool = False) -> pa.Array:
    """``n`` random 32-digit hex ids, built straight into an Arrow string array."""
    table = _PAIRS_LOWER if lower else _PAIRS_UPPER
    data = table[np.frombuffer(rng.bytes(16 * n), dtype=np.uint8)]
    offsets = np.arange(0, (n + 1) * 32, 32, dtype=np.int32)
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data.tobytes()))


def ragged_arange(counts: np.ndarray) -> np.ndarray:
    """``0..c-1`` for each count ``c``, concatenated."""
    total = int(counts.sum())
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    return np.arange(total) - starts


def _table(name: str, columns: dict[str, Any], month: pa.Array) -> pa.Table:
    schema = stored_schema(name)
    arrays = []
    for field in schema:
        value = month if field.name == "month" else columns[field.name]
        arrays.append(
            value
            if isinstance(value, pa.Array) and value.type == field.type
            else pa.array(value, field.type)
        )
    return pa.Table.from_arrays(arrays, schema=schema)


def _const(value: str, n: int) -> pa.Array:
    return pa.DictionaryArray.from_arrays(np.zeros(n, np.int8), pa.array([value])).cast(pa.string())


def _pick(values: np.ndarray, index: np.ndarray) -> pa.Array:
    """``values[index]`` as a string array, through a dictionary (no Python strings per row)."""
    dictionary = pa.array(list(values), pa.string())
    return pa.DictionaryArray.from_arrays(pa.array(index, pa.int32()), dictionary).cast(pa.string())


def draw_chunk(
    model: Any,
    rng: np.random.Generator,
    n: int,
    low: datetime,
    high: datetime,
    patches: list[tuple[int, str]],
    *,
    buckets: int = 1,
    telemetry: bool = False,
) -> dict[str, pa.Table]:
    """``n`` matches created in ``[low, high)``, as stored tables by label in commit order
    (partitioned by month, in ``buckets`` buckets a month: the rule of
    :func:`matchkit.archive.layout.partitions`, as a sync applies it), with their telemetry
    tables first when ``telemetry`` (:mod:`matchkit.archive.synthetic_telemetry`)."""
    modes = model.modes
    m = rng.choice(len(modes), size=n, p=model.mode_share)
    rosters_per = np.array([x.rosters for x in modes])[m]
    size = np.array([x.roster_size for x in modes])[m]
    arena = np.array([x.game == "Arena" for x in modes])[m]
    ranked = rng.random(n) < np.array([float(x.ranked_share) for x in modes])[m]
    # created_at: a day of the chunk, an hour by the daily cycle, a second within the hour
    days = max(1, int((high - low).total_seconds() // 86400))
    seconds = (
        rng.integers(0, days, n) * 86400
        + rng.choice(24, n, p=model.hours) * 3600
        + rng.integers(0, 3600, n)
    )
    created = np.sort(int(low.timestamp()) * _MICROS + seconds * _MICROS)
    month_of = created.astype("datetime64[us]").astype("datetime64[M]")
    month_values, month_index = np.unique(month_of, return_inverse=True)
    month_names = np.datetime_as_string(month_values, unit="M")

    def month(rows: np.ndarray) -> pa.Array:
        return _pick(month_names, month_index[rows])

    # Arena: first to 3 rounds, side 1 winning each with its mode's probability
    p_side = np.array([float(x.side_one_round_win or 0.5) for x in modes])[m]
    outcome = rng.random((n, 5)) < p_side[:, None]
    wins1, wins2 = np.cumsum(outcome, axis=1), np.cumsum(~outcome, axis=1)
    rounds = np.where(arena, np.argmax((wins1 == 3) | (wins2 == 3), axis=1) + 1, 0)
    last = np.maximum(rounds, 1) - 1
    final1, final2 = wins1[np.arange(n), last], wins2[np.arange(n), last]
    low_d, mode_d, high_d = (np.array([x.duration[i] for x in modes])[m][:, None] for i in range(3))
    round_seconds = rng.triangular(low_d, mode_d, high_d, (n, 5)).astype(np.int64)
    played = np.arange(5)[None, :] < rounds[:, None]
    arena_duration = (
        p.ARENA_INTRO_SECONDS
        + (round_seconds * played).sum(axis=1)
        + p.ARENA_ROUND_BREAK_SECONDS * np.maximum(rounds - 1, 0)
    )
    duration = np.where(arena, arena_duration, round_seconds[:, 0])
    match_ids = hex_ids(rng, n)
    if buckets > 1:  # each match's partition: its month's bucket (month() reads these)
        month_index = month_index * buckets + bucket_of(match_ids, buckets)
        month_names = partitions(
            np.repeat(month_names.astype(object), buckets),
            np.tile(np.arange(buckets), len(month_names)),
            buckets,
        )
    every = np.arange(n)
    patch_index = np.searchsorted([start for start, _ in patches], created, side="right") - 1
    patch = _pick(np.array([version for _, version in patches]), patch_index)
    server_type = _pick(np.array([x.server_type for x in modes]), m)
    tables: dict[str, pa.Table] = {}
    # rosters
    r_match = np.repeat(every, rosters_per)
    nr = len(r_match)
    r_side = ragged_arange(rosters_per) + 1
    winner = np.where(
        arena, np.where(final1 == 3, 1, 2), (rng.random(n) * rosters_per).astype(np.int64) + 1
    )
    r_score = np.where(r_side == 1, final1[r_match], final2[r_match])
    team_share = np.where(ranked[r_match], 0.25, 0.10) * (size[r_match] > 1)
    as_team = rng.random(nr) < team_share
    team = rng.integers(0, len(model.team_ids), nr)
    roster_ids = hex_ids(rng, nr, lower=True)
    team_id = pc.if_else(pa.array(as_team), model.team_ids.take(pa.array(team)), None)
    tables["rosters"] = _table(
        "rosters",
        {
            "roster_id": roster_ids,
            "match_id": match_ids.take(pa.array(r_match)),
            "team_id": team_id,
            "side": r_side,
            "side_label": pa.nulls(nr, pa.string()),
            "score": pa.array(r_score, mask=~arena[r_match]),
            "won": r_side == winner[r_match],
            "shard_id": _const("global", nr),
        },
        month(r_match),
    )
    # participants
    p_roster = np.repeat(np.arange(nr), size[r_match])
    p_match = r_match[p_roster]
    k = len(p_roster)
    draw = rng.random(k)
    kind = np.where(ranked[p_match] | (draw < 0.77), 0, np.where(draw < 0.92, 1, 2))
    player = _distinct_players(model.player_cdf, rng, p_match)
    player_id = pc.if_else(pa.array(kind == 0), model.player_ids.take(pa.array(player)), None)
    kills, deaths = rng.poisson(2.2, k), rng.poisson(2.2, k)
    participant_ids = hex_ids(rng, k, lower=True)
    actor = rng.choice(len(model.actors), k, p=model.actor_share)
    cosmetics: dict[str, np.ndarray] = {
        slot: rng.integers(100_000_000, 2_000_000_000, k) for slot in COSMETIC_KINDS
    }
    tables["participants"] = _table(
        "participants",
        {
            "participant_id": participant_ids,
            "match_id": match_ids.take(pa.array(p_match)),
            "roster_id": roster_ids.take(pa.array(p_roster)),
            "player_id": player_id,
            "actor": _pick(model.actors, actor),
            "shard_id": _const("global", k),
            "is_registered": kind == 0,
            "kind": _pick(np.array(PARTICIPANT_KINDS), kind),
            "side": r_side[p_roster],
            "user_id": pc.if_else(pa.array(kind == 2), "0", player_id),
            **cosmetics,
            "kills": kills,
            "deaths": deaths,
            "assists": pa.nulls(k, pa.int64()),
            "score": kills * 100 + rng.integers(0, 1500, k),
        },
        month(p_match),
    )
    # rounds and round_participants (Arena)
    q_match = np.repeat(every, rounds)
    q_ord = ragged_arange(rounds)
    round_ids = hex_ids(rng, len(q_match), lower=True)
    tables["rounds"] = _table(
        "rounds",
        {
            "round_id": round_ids,
            "match_id": match_ids.take(pa.array(q_match)),
            "ordinal": q_ord,
            "duration": round_seconds[q_match, q_ord],
            "winning_team": np.where(outcome[q_match, q_ord], 1, 2),
        },
        month(q_match),
    )
    p_count = np.bincount(p_match, minlength=n)
    per_round = p_count[q_match]
    rp_round = np.repeat(np.arange(len(q_match)), per_round)
    rp_part = np.repeat((np.cumsum(p_count) - p_count)[q_match], per_round)
    rp_part += ragged_arange(per_round)
    tables["round_participants"] = _table(
        "round_participants",
        {
            "round_id": round_ids.take(pa.array(rp_round)),
            "participant_id": participant_ids.take(pa.array(rp_part)),
            "match_id": match_ids.take(pa.array(q_match[rp_round])),
        },
        month(q_match[rp_round]),
    )
    # players and teams: each one's snapshot of its latest match in the chunk
    registered = np.flatnonzero(kind == 0)
    tables["players"] = _snapshots(
        "players",
        model.player_ids,
        model.player_names,
        player[registered],
        p_match[registered],
        match_ids,
        created,
        patch,
        month,
    )
    teamed = np.flatnonzero(as_team)
    tables["teams"] = _snapshots(
        "teams",
        model.team_ids,
        model.team_names,
        team[teamed],
        r_match[teamed],
        match_ids,
        created,
        None,
        month,
    )
    tables["assets"] = _table(
        "assets",
        {
            "asset_id": hex_ids(rng, n, lower=True),
            "match_id": match_ids,
            "url": pc.binary_join_element_wise(
                "https://telemetry.example.com/", match_ids, ".json.gz", ""
            ),
            "name": _const("telemetry", n),
            "description": _const("", n),
            "created_at": pa.array(created + duration * _MICROS, pa.timestamp("us", tz="UTC")),
        },
        month(every),
    )
    tables["spectators"] = stored_schema("spectators").empty_table()
    tables["matches"] = _table(
        "matches",
        {
            "match_id": match_ids,
            "created_at": pa.array(created, pa.timestamp("us", tz="UTC")),
            "duration": duration,
            "game": _pick(np.array(["Royale", "Arena"]), arena.astype(int)),
            "game_mode": _pick(model.game_modes, m),
            "patch_version": patch,
            "shard_id": _const("global", n),
            "title_id": _const(p.GLOBAL_TITLE_ID, n),
            "map_id": pc.if_else(
                pa.array(arena),
                _pick(model.maps, rng.integers(0, len(model.maps), n)),
                model.royale_map,
            ),
            "match_type": server_type,
            "region": _pick(model.regions, rng.choice(len(model.regions), n, p=model.region_share)),
            "server_type": server_type,
            "ranking_type": _pick(np.array(["UNRANKED", "RANKED"]), ranked.astype(int)),
            "is_royale": ~arena,
            "stats_text": pa.nulls(n, pa.string()),
        },
        month(every),
    )
    drawn = {}
    if telemetry:
        from types import SimpleNamespace

        from matchkit.archive.synthetic_telemetry import draw_telemetry

        matches, participants = tables["matches"], tables["participants"]
        chunk = SimpleNamespace(
            n=n, match_ids=match_ids, created=created, duration=duration, arena=arena,
            rounds=rounds, round_seconds=round_seconds, outcome=outcome, final1=final1,
            final2=final2, patch=patch, server_type=server_type, size=size,
            game_mode=model.game_mode_numbers[m], month=month,
            map_id=matches.column("map_id").combine_chunks(),
            region=matches.column("region").combine_chunks(),
            ranking=matches.column("ranking_type").combine_chunks(),
            p_match=p_match, p_side=r_side[p_roster],
            p_user=participants.column("user_id").combine_chunks(),
            p_human=kind != 2, p_actor=model.actor_numbers[actor], p_cosmetics=cosmetics,
            p_kills=kills, p_deaths=deaths, p_score=np.asarray(participants.column("score")),
            battlerites=model.battlerites[actor],
            intro=p.ARENA_INTRO_SECONDS, round_break=p.ARENA_ROUND_BREAK_SECONDS,
        )  # fmt: skip
        drawn.update(draw_telemetry(rng, chunk))
    for name in [*(t for t in TABLE_NAMES if t != "matches"), "matches"]:
        drawn[name] = tables[name]
    return drawn


def _distinct_players(cdf: np.ndarray, rng: np.random.Generator, match: np.ndarray) -> np.ndarray:
    """A player per participant, by activity, never the same one twice in a match (the
    participants are in match order): a repeated draw is drawn again until none is left."""
    player = np.searchsorted(cdf, rng.random(len(match)))
    while True:
        order = np.lexsort((player, match))
        repeated = order[1:][
            (match[order[1:]] == match[order[:-1]]) & (player[order[1:]] == player[order[:-1]])
        ]
        if len(repeated) == 0:
            return player
        player[repeated] = np.searchsorted(cdf, rng.random(len(repeated)))


def _snapshots(name, ids, names, who, match_rows, match_ids, created, patch, month) -> pa.Table:
    """One row per id of ``who``: the latest of its matches (rows are in time order)."""
    reverse = who[::-1]
    unique, first = np.unique(reverse, return_index=True)
    latest = len(who) - 1 - first  # the last occurrence of each id
    rows = match_rows[latest]
    n = len(unique)
    columns = {
        SNAPSHOT_LINKS[name][1]: ids.take(pa.array(unique)),
        "name": names.take(pa.array(unique)),
        "shard_id": _const("global", n),
        "title_id": _const(p.GLOBAL_TITLE_ID, n),
        SNAPSHOT_COLUMNS[0]: match_ids.take(pa.array(rows)),
        SNAPSHOT_COLUMNS[1]: pa.array(created[rows], pa.timestamp("us", tz="UTC")),
    }
    if patch is not None:
        columns["patch_version"] = patch.take(pa.array(rows))
    return _table(name, columns, month(rows))
