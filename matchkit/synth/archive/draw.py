"""The draws of a chunk of synthetic matches: the matches (:func:`draw_matches`: modes, times,
rounds, durations, ids, partitions), their rosters (:func:`draw_rosters`) and participants
(:func:`draw_participants`), as numpy arrays from which :mod:`.chunk` builds the tables."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from matchkit.archive.layout import bucket_of, partitions
from matchkit.model.schema import COSMETIC_KINDS
from matchkit.sampledata import parameters as p
from matchkit.synth.archive.arrays import hex_ids, pick, ragged_arange
from matchkit.synth.archive.model import MICROS, PlayerActivity, SyntheticModel

__all__ = [
    "Drawn",
    "Participants",
    "Rosters",
    "draw_matches",
    "draw_participants",
    "draw_rosters",
]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Drawn:
    """The per-match arrays of a chunk, from which every table is built.

    Attributes:
        n: matches.
        mode: each match's mode (an index into the model's modes).
        rosters, size: rosters a match and players a roster.
        arena, ranked: an Arena match (else Royale); a ranked one.
        created: created_at in microseconds, sorted.
        outcome: (n, 5) whether side 1 won each possible round.
        rounds: rounds played (0 in Royale).
        final1, final2: the sides' round wins at the end.
        round_seconds: (n, 5) each round's length (a Royale match's length in column 0).
        duration: the match's length in seconds.
        match_ids, patch, server_type: Arrow arrays of the matches.
        partition_names, partition_index: the partition values, and each match's one.
    """

    n: int
    mode: Ints
    rosters: Ints
    size: Ints
    arena: Bools
    ranked: Bools
    created: Ints
    outcome: Bools
    rounds: Ints
    final1: Ints
    final2: Ints
    round_seconds: Ints
    duration: Ints
    match_ids: pa.Array
    patch: pa.Array
    server_type: pa.Array
    partition_names: npt.NDArray[np.object_]
    partition_index: Ints

    def month(self, rows: Ints) -> pa.Array:
        """The partition value of the matches of ``rows`` (a row's match index)."""
        return pick(self.partition_names, self.partition_index[rows])


@dataclass(frozen=True)
class Rosters:
    """The rosters drawn: each one's match, side, team (if any) and id; each match's winning
    side."""

    match: Ints
    side: Ints
    winner: Ints
    as_team: Bools
    team: Ints
    ids: pa.Array


@dataclass(frozen=True)
class Participants:
    """The participants drawn: each one's roster and match, kind (0 registered, 1 guest, 2
    bot), player, stats, id, character and cosmetics (what their telemetry is drawn from)."""

    roster: Ints
    match: Ints
    kind: Ints
    player: Ints
    kills: Ints
    deaths: Ints
    ids: pa.Array
    actor: Ints
    cosmetics: Mapping[str, Ints]
    score: Ints


def draw_matches(
    model: SyntheticModel,
    rng: np.random.Generator,
    n: int,
    low: datetime,
    high: datetime,
    patches: list[tuple[int, str]],
    *,
    buckets: int = 1,
    match_ids: pa.Array | None = None,
) -> Drawn:
    """The matches of a chunk: modes, creation times by the daily cycle, Arena's first-to-3
    rounds with side 1 winning each with its mode's probability, lengths, ids (``match_ids``
    when given: ``n`` of them), partitions."""
    modes = model.modes
    m = rng.choice(len(modes), size=n, p=model.mode_share)
    arena = np.array([x.game == "Arena" for x in modes])[m]
    ranked = rng.random(n) < np.array([float(x.ranked_share) for x in modes])[m]
    # created_at: a day of the chunk, an hour by the daily cycle, a second within the hour
    days = max(1, int((high - low).total_seconds() // 86400))
    seconds = (
        rng.integers(0, days, n) * 86400
        + rng.choice(24, n, p=model.hours) * 3600
        + rng.integers(0, 3600, n)
    )
    created = np.sort(int(low.timestamp()) * MICROS + seconds * MICROS)
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
    if match_ids is None:
        match_ids = hex_ids(rng, n)
    names, index = _partitions(created, match_ids, buckets)
    patch_index = np.searchsorted([start for start, _ in patches], created, side="right") - 1
    return Drawn(
        n=n,
        mode=m,
        rosters=np.array([x.rosters for x in modes])[m],
        size=np.array([x.roster_size for x in modes])[m],
        arena=arena,
        ranked=ranked,
        created=created,
        outcome=outcome,
        rounds=rounds,
        final1=final1,
        final2=final2,
        round_seconds=round_seconds,
        duration=np.where(arena, arena_duration, round_seconds[:, 0]),
        match_ids=match_ids,
        patch=pick(np.array([version for _, version in patches]), patch_index),
        server_type=pick(np.array([x.server_type for x in modes]), m),
        partition_names=names,
        partition_index=index,
    )


def _partitions(
    created: Ints, match_ids: pa.Array, buckets: int
) -> tuple[npt.NDArray[np.object_], Ints]:
    """The partition values of a chunk's months (and buckets), and each match's one."""
    month_of = created.astype("datetime64[us]").astype("datetime64[M]")
    month_values, month_index = np.unique(month_of, return_inverse=True)
    names = np.datetime_as_string(month_values, unit="M").astype(object)
    if buckets <= 1:
        return names, month_index
    index = month_index * buckets + bucket_of(match_ids, buckets)
    names = partitions(
        np.repeat(names, buckets), np.tile(np.arange(buckets), len(month_values)), buckets
    )
    return names, index


def draw_rosters(model: SyntheticModel, rng: np.random.Generator, drawn: Drawn) -> Rosters:
    """Each match's rosters (sides 1, 2, ...), its winner (Arena: who won 3 rounds; Royale: one
    drawn), and the rosters that entered as a team (more often in ranked matches)."""
    match = np.repeat(np.arange(drawn.n), drawn.rosters)
    count = len(match)
    arena_winner = np.where(drawn.final1 == 3, 1, 2)
    winner = np.where(
        drawn.arena, arena_winner, (rng.random(drawn.n) * drawn.rosters).astype(np.int64) + 1
    )
    team_share = np.where(drawn.ranked[match], 0.25, 0.10) * (drawn.size[match] > 1)
    return Rosters(
        match=match,
        side=ragged_arange(drawn.rosters) + 1,
        winner=winner,
        as_team=rng.random(count) < team_share,
        team=rng.integers(0, len(model.team_ids), count),
        ids=hex_ids(rng, count, lower=True),
    )


def draw_participants(
    model: SyntheticModel, rng: np.random.Generator, drawn: Drawn, rosters: Rosters
) -> Participants:
    """Each roster's players: registered (always in ranked matches), guests or bots; a player
    by activity, never twice in a match; kills and deaths; a character by popularity; and
    cosmetics."""
    roster = np.repeat(np.arange(len(rosters.match)), drawn.size[rosters.match])
    match = rosters.match[roster]
    count = len(roster)
    draw = rng.random(count)
    kind = np.where(drawn.ranked[match] | (draw < 0.77), 0, np.where(draw < 0.92, 1, 2))
    player = _distinct_players(model.players, rng, match)
    kills, deaths = rng.poisson(2.2, count), rng.poisson(2.2, count)
    ids = hex_ids(rng, count, lower=True)
    actor = rng.choice(len(model.actors), count, p=model.actor_share)
    cosmetics: dict[str, Ints] = {  # from the character's catalogue, as in the sample set
        slot: model.cosmetic_items[slot][
            actor, rng.choice(len(model.cosmetic_share[slot]), count, p=model.cosmetic_share[slot])
        ]
        for slot in COSMETIC_KINDS
    }
    score = kills * 100 + rng.integers(0, 1500, count)
    return Participants(
        roster=roster,
        match=match,
        kind=kind,
        player=player,
        kills=kills,
        deaths=deaths,
        ids=ids,
        actor=actor,
        cosmetics=cosmetics,
        score=score,
    )


def _distinct_players(players: PlayerActivity, rng: np.random.Generator, match: Ints) -> Ints:
    """A player per participant, by activity, never the same one twice in a match (the
    participants are in match order): a repeated draw is drawn again until none is left.

    A repeat is found by comparing each participant with the few before it in its match
    (shifted arrays, no sort of the whole chunk), and the repeats are drawn again in the order
    of their match, then player, then position."""
    most = int(np.bincount(match).max(initial=0))
    player = players.draw(rng.random(len(match)))
    while True:
        repeat = np.zeros(len(match), dtype=bool)
        for shift in range(1, most):
            repeat[shift:] |= (match[shift:] == match[:-shift]) & (
                player[shift:] == player[:-shift]
            )
        repeated = np.flatnonzero(repeat)
        if len(repeated) == 0:
            return player
        repeated = repeated[np.lexsort((player[repeated], match[repeated]))]
        player[repeated] = players.draw(rng.random(len(repeated)))
