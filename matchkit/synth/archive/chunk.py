"""One chunk of synthetic matches, built as the archive stores it (:func:`draw_chunk`).

See :mod:`matchkit.synth.archive`. The matches, rosters and participants are drawn
(:mod:`.draw`), then each table is built from them in turn: rosters, participants, rounds,
round participants, the players' and teams' snapshots, assets, and the matches table itself,
with their telemetry first when asked. Every table comes out in its stored form (the known
columns of MatchFrames in order, text as ``string``, the snapshot columns of players and teams,
``month``), ready for :func:`matchkit.archive.writer.commit_batch`. The draws from the generator
follow one fixed order, so that a seed always gives the same archive.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.archive.convert import SNAPSHOT_COLUMNS, SNAPSHOT_LINKS
from matchkit.model.schema import PARTICIPANT_KINDS, TABLE_NAMES
from matchkit.sampledata import parameters as p
from matchkit.synth.archive.arrays import const, hex_ids, pick, ragged_arange, stored_schema
from matchkit.synth.archive.draw import (
    Drawn,
    Ints,
    Participants,
    Rosters,
    draw_matches,
    draw_participants,
    draw_rosters,
)
from matchkit.synth.archive.model import MICROS, SyntheticModel

__all__ = ["draw_chunk"]


def draw_chunk(
    model: SyntheticModel,
    rng: np.random.Generator,
    n: int,
    low: datetime,
    high: datetime,
    patches: list[tuple[int, str]],
    *,
    buckets: int = 1,
    telemetry: bool = False,
    match_ids: pa.Array | None = None,
) -> dict[str, pa.Table]:
    """``n`` matches created in ``[low, high)``, as stored tables by label in commit order
    (partitioned by month, in ``buckets`` buckets a month: the rule of
    :func:`matchkit.archive.layout.partitions`, as a sync applies it), with their telemetry
    tables first when ``telemetry`` (:mod:`matchkit.synth.archive.telemetry`). ``match_ids``:
    the matches' ids (``n`` of them), else drawn."""
    drawn = draw_matches(model, rng, n, low, high, patches, buckets=buckets, match_ids=match_ids)
    rosters = draw_rosters(model, rng, drawn)
    participants = draw_participants(model, rng, drawn, rosters)
    order = _stored_order(model, participants)
    tables: dict[str, pa.Table] = {
        "rosters": _rosters_table(model, drawn, rosters),
        "participants": _participants_table(model, drawn, rosters, participants, order),
    }
    tables.update(_rounds_tables(rng, drawn, participants))
    tables["players"], tables["teams"] = _snapshot_tables(model, drawn, rosters, participants)
    tables["assets"] = _assets_table(rng, drawn)
    tables["spectators"] = stored_schema("spectators").empty_table()
    tables["matches"] = _matches_table(model, rng, drawn)
    ordered: dict[str, pa.Table] = {}
    if telemetry:
        from matchkit.synth.archive.telemetry import TelemetryInputs, draw_telemetry

        inputs = TelemetryInputs.of(model, drawn, participants, tables, order)
        ordered.update(draw_telemetry(rng, inputs))
    for name in [*(t for t in TABLE_NAMES if t != "matches"), "matches"]:
        ordered[name] = tables[name]
    return ordered


def _rosters_table(model: SyntheticModel, drawn: Drawn, rosters: Rosters) -> pa.Table:
    match = rosters.match
    count = len(match)
    score = np.where(rosters.side == 1, drawn.final1[match], drawn.final2[match])
    return _table(
        "rosters",
        {
            "roster_id": rosters.ids,
            "match_id": drawn.match_ids.take(pa.array(match)),
            "team_id": pc.if_else(
                pa.array(rosters.as_team), model.team_ids.take(pa.array(rosters.team)), None
            ),
            "side": rosters.side,
            "side_label": pa.nulls(count, pa.string()),
            "score": pa.array(score, mask=~drawn.arena[match]),
            "won": rosters.side == rosters.winner[match],
            "shard_id": const("global", count),
        },
        drawn.month(match),
    )


def _stored_order(model: SyntheticModel, participants: Participants) -> npt.NDArray[np.intp]:
    """The participants' positions in the order the archive stores them: by ``player_id``,
    those without one last (:func:`matchkit.archive.layout.sort_column`). The pool's ids are
    in text order by number, so this is a sort of integers here, where the writer would sort
    the text and copy every column."""
    registered = participants.kind == 0
    ranks = np.where(registered, participants.player, len(model.player_ids))
    order: npt.NDArray[np.intp] = np.argsort(ranks, kind="stable")
    return order


def _participants_table(
    model: SyntheticModel,
    drawn: Drawn,
    rosters: Rosters,
    participants: Participants,
    order: npt.NDArray[np.intp],
) -> pa.Table:
    """The participants, in the archive's order (``order``: :func:`_stored_order`)."""
    count = len(participants.roster)
    kind = participants.kind[order]
    roster, match = participants.roster[order], participants.match[order]
    player = participants.player[order]
    player_id = pc.if_else(pa.array(kind == 0), model.player_ids.take(pa.array(player)), None)
    return _table(
        "participants",
        {
            "participant_id": participants.ids.take(pa.array(order)),
            "match_id": drawn.match_ids.take(pa.array(match)),
            "roster_id": rosters.ids.take(pa.array(roster)),
            "player_id": player_id,
            "actor": pick(model.actors, participants.actor[order]),
            "shard_id": const("global", count),
            "is_registered": kind == 0,
            "kind": pick(np.array(PARTICIPANT_KINDS), kind),
            "side": rosters.side[roster],
            "user_id": pc.if_else(pa.array(kind == 2), "0", player_id),
            **{name: values[order] for name, values in participants.cosmetics.items()},
            "kills": participants.kills[order],
            "deaths": participants.deaths[order],
            "assists": pa.nulls(count, pa.int64()),
            "score": participants.score[order],
        },
        drawn.month(match),
    )


def _rounds_tables(
    rng: np.random.Generator, drawn: Drawn, participants: Participants
) -> dict[str, pa.Table]:
    """An Arena match's rounds (lengths, winners), and a row per round and participant."""
    q_match = np.repeat(np.arange(drawn.n), drawn.rounds)
    q_ord = ragged_arange(drawn.rounds)
    round_ids = hex_ids(rng, len(q_match), lower=True)
    rounds = _table(
        "rounds",
        {
            "round_id": round_ids,
            "match_id": drawn.match_ids.take(pa.array(q_match)),
            "ordinal": q_ord,
            "duration": drawn.round_seconds[q_match, q_ord],
            "winning_team": np.where(drawn.outcome[q_match, q_ord], 1, 2),
        },
        drawn.month(q_match),
    )
    p_count = np.bincount(participants.match, minlength=drawn.n)
    per_round = p_count[q_match]
    rp_round = np.repeat(np.arange(len(q_match)), per_round)
    rp_part = np.repeat((np.cumsum(p_count) - p_count)[q_match], per_round)
    rp_part += ragged_arange(per_round)
    round_participants = _table(
        "round_participants",
        {
            "round_id": round_ids.take(pa.array(rp_round)),
            "participant_id": participants.ids.take(pa.array(rp_part)),
            "match_id": drawn.match_ids.take(pa.array(q_match[rp_round])),
        },
        drawn.month(q_match[rp_round]),
    )
    return {"rounds": rounds, "round_participants": round_participants}


def _snapshot_tables(
    model: SyntheticModel, drawn: Drawn, rosters: Rosters, participants: Participants
) -> tuple[pa.Table, pa.Table]:
    """The players' and teams' snapshots: each one's of its latest match in the chunk."""
    registered = np.flatnonzero(participants.kind == 0)
    players = _snapshots(
        "players",
        model.player_ids,
        model.player_names,
        participants.player[registered],
        participants.match[registered],
        drawn,
        with_patch=True,
    )
    teamed = np.flatnonzero(rosters.as_team)
    teams = _snapshots(
        "teams",
        model.team_ids,
        model.team_names,
        rosters.team[teamed],
        rosters.match[teamed],
        drawn,
        with_patch=False,
    )
    return players, teams


def _snapshots(
    name: str,
    ids: pa.Array,
    names: pa.Array,
    who: Ints,
    match_rows: Ints,
    drawn: Drawn,
    *,
    with_patch: bool,
) -> pa.Table:
    """One row per id of ``who``: the latest of its matches (rows are in time order)."""
    reverse = who[::-1]
    unique, first = np.unique(reverse, return_index=True)
    latest = len(who) - 1 - first  # the last occurrence of each id
    rows = match_rows[latest]
    n = len(unique)
    columns: dict[str, object] = {
        SNAPSHOT_LINKS[name][1]: ids.take(pa.array(unique)),
        "name": names.take(pa.array(unique)),
        "shard_id": const("global", n),
        "title_id": const(p.GLOBAL_TITLE_ID, n),
        SNAPSHOT_COLUMNS[0]: drawn.match_ids.take(pa.array(rows)),
        SNAPSHOT_COLUMNS[1]: pa.array(drawn.created[rows], pa.timestamp("us", tz="UTC")),
    }
    if with_patch:
        columns["patch_version"] = drawn.patch.take(pa.array(rows))
    return _table(name, columns, drawn.month(rows))


def _assets_table(rng: np.random.Generator, drawn: Drawn) -> pa.Table:
    """A telemetry asset per match, created when the match ended."""
    n = drawn.n
    return _table(
        "assets",
        {
            "asset_id": hex_ids(rng, n, lower=True),
            "match_id": drawn.match_ids,
            "url": pc.binary_join_element_wise(
                "https://telemetry.example.com/", drawn.match_ids, ".json.gz", ""
            ),
            "name": const("telemetry", n),
            "description": const("", n),
            "created_at": pa.array(
                drawn.created + drawn.duration * MICROS, pa.timestamp("us", tz="UTC")
            ),
        },
        drawn.month(np.arange(n)),
    )


def _matches_table(model: SyntheticModel, rng: np.random.Generator, drawn: Drawn) -> pa.Table:
    """The matches, with a map drawn for each Arena match and a region by its share."""
    n = drawn.n
    maps = pick(model.maps, rng.integers(0, len(model.maps), n))
    regions = pick(model.regions, rng.choice(len(model.regions), n, p=model.region_share))
    return _table(
        "matches",
        {
            "match_id": drawn.match_ids,
            "created_at": pa.array(drawn.created, pa.timestamp("us", tz="UTC")),
            "duration": drawn.duration,
            "game": pick(np.array(["Royale", "Arena"]), drawn.arena.astype(int)),
            "game_mode": pick(model.game_modes, drawn.mode),
            "patch_version": drawn.patch,
            "shard_id": const("global", n),
            "title_id": const(p.GLOBAL_TITLE_ID, n),
            "map_id": pc.if_else(pa.array(drawn.arena), maps, model.royale_map),
            "match_type": drawn.server_type,
            "region": regions,
            "server_type": drawn.server_type,
            "ranking_type": pick(np.array(["UNRANKED", "RANKED"]), drawn.ranked.astype(int)),
            "is_royale": ~drawn.arena,
            "stats_text": pa.nulls(n, pa.string()),
        },
        drawn.month(np.arange(n)),
    )


def _table(name: str, columns: Mapping[str, object], month: pa.Array) -> pa.Table:
    schema = stored_schema(name)
    arrays = []
    for field in schema:
        value = month if field.name == "month" else columns[field.name]
        if isinstance(value, pa.ChunkedArray):  # else pa.array below reads it row by row
            value = value.combine_chunks()
        arrays.append(
            value
            if isinstance(value, pa.Array) and value.type == field.type
            else pa.array(value, field.type)
        )
    return pa.Table.from_arrays(arrays, schema=schema)
