"""A small, deterministic data set for service tests, in the ``matchkit.sampledata.dataset`` folder
format.

It mixes the shapes the service must serve: Arena and Royale matches on ``global`` (registered,
anonymous and bot participants, rosters entered as teams, rounds, a telemetry asset) and the
older ``na`` shape (text stats, heroes, named players and teams). Matches spread over ``days``
days before ``as_of``, more than the 120-day retention, so that clamping has something to cut.

Example:
    >>> manifest = build_dataset(tmp_path / "data")  # doctest: +SKIP
"""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from matchkit.rules.windows import format_time, parse_time
from matchkit.sampledata.dataset import FORMAT, MANIFEST, write_shard_file
from tests.builders import resources
from tests.builders.resources import Resource

__all__ = ["AS_OF", "NA_PLAYER_NAMES", "PLAYER_IDS", "TEAM_NAMES", "build_dataset"]

AS_OF = "2026-10-31T00:00:00Z"
PLAYER_IDS = tuple(str(900_000_000_000_000_000 + 7919 * number) for number in range(40))
NA_PLAYER_NAMES = tuple(f"hero_fan_{number}" for number in range(30))
TEAM_NAMES = ("ACE", "BOLT", "CROW", "DUSK", "EMBR")
SERVER_TYPES = ("QUICK2V2", "QUICK3V3", "ROYALRUMBLESOLO", "ROYALRUMBLEDUO")
REGIONS = ("eu-west", "us-east", "sa-east", "ap-southeast")


def build_dataset(
    folder: Path,
    *,
    as_of: str = AS_OF,
    global_matches: int = 400,
    na_matches: int = 200,
    days: int = 130,
    seed: int = 7,
) -> dict[str, Any]:
    """Write the data set into ``folder``; returns its manifest."""
    rng = random.Random(seed)
    end = parse_time(as_of)
    global_documents = [_global_match(rng, end, days) for _ in range(global_matches)]
    # Half of na lies within the last two days so that its 3-hour default window finds some.
    na_documents = [_na_match(rng, end, 2 if number % 2 else days) for number in range(na_matches)]
    for documents in (global_documents, na_documents):
        # Every tenth match shares its creation time with the one before: ties to break by id.
        for index in range(1, len(documents), 10):
            earlier = _data(documents[index - 1])["attributes"]["createdAt"]
            _data(documents[index])["attributes"]["createdAt"] = earlier
    shards = {}
    for shard, documents in (("global", global_documents), ("na", na_documents)):
        documents.sort(key=lambda doc: (_data(doc)["attributes"]["createdAt"], _data(doc)["id"]))
        shards[shard] = write_shard_file(folder / f"{shard}.jsonl.gz", documents)
    manifest = {
        "format": FORMAT,
        "as_of": as_of,
        "days": days,
        "seed": seed,
        "shards": shards,
        "parameters": {"builder": "tests.builders.datasets"},
    }
    (folder / MANIFEST).write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
    return manifest


def _data(document: dict[str, Any]) -> dict[str, Any]:
    data = document["data"]
    return data[0] if isinstance(data, list) else data


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _created_at(rng: random.Random, end: datetime, days: int) -> str:
    return format_time(end - timedelta(seconds=rng.randrange(1, days * 86_400)))


def _player(player_id: str, shard: str, name: str | None = None) -> Resource:
    return resources.player(
        player_id,
        name=name or f"p{player_id[-4:]}",
        stats={},
        shard=shard,
        title="matchkit-test",
        assets=False,
    )


def _team(rng: random.Random, shard: str) -> Resource:
    return resources.team(
        _uuid(rng), name=rng.choice(TEAM_NAMES), shard=shard, stats={}, title="matchkit-test"
    )


def _global_match(rng: random.Random, end: datetime, days: int) -> dict[str, Any]:
    # The order of the draws from ``rng`` is the data set: keep it when editing.
    match_id = f"{rng.getrandbits(128):032X}"
    created_at = _created_at(rng, end, days)
    age_days = (end - parse_time(created_at)).days
    server_type = rng.choice(SERVER_TYPES)
    royale = server_type.startswith("ROYAL")
    stats: dict[str, Any] = {
        "mapID": f"{rng.getrandbits(64):016X}",
        "type": server_type,
        "region": rng.choice(REGIONS),
    }
    if royale:
        stats["game"] = "Royale"
        team_size = 1 if server_type == "ROYALRUMBLESOLO" else 2
        roster_count = rng.randint(4, 6)
    else:
        team_size = 2 if server_type == "QUICK2V2" else 3
        roster_count = 2
    included: list[Resource] = []
    rosters, everyone = [], []
    players_in_match = rng.sample(PLAYER_IDS, roster_count * team_size)
    winner = rng.randrange(roster_count)
    round_winners = [] if royale else _rounds_to_three(rng, winner)
    for index in range(roster_count):
        members = []
        for slot in range(team_size):
            kind = rng.choices(["registered", "anonymous", "bot"], [6, 2, 1])[0]
            participant_id = _uuid(rng)
            actor = str(rng.choice((1001, 1002, 1003, 1004, 1005)))
            participant_stats = {
                "attachment": rng.randint(1, 9),
                "emote": rng.randint(1, 9),
                "mount": rng.randint(1, 9),
                "outfit": rng.randint(1, 9),
                "side": index + 1,
                "userID": 0 if kind == "bot" else str(rng.getrandbits(40)),
                "kills": rng.randint(0, 9),
            }
            player_id = None
            if kind == "registered":
                player_id = players_in_match[index * team_size + slot]
                included.append(_player(player_id, "global"))
            members.append(
                resources.participant(
                    participant_id,
                    player=player_id,
                    stats=participant_stats,
                    actor=actor,
                    unlinked=resources.OMIT,
                )
            )
        everyone.extend(members)
        roster_id = _uuid(rng)
        team = _team(rng, "global") if rng.random() < 0.2 else None
        if team is not None:
            included.append(team)
        score = 0 if royale else sum(1 for number in round_winners if number == index + 1)
        rosters.append(
            resources.roster(
                roster_id,
                participants=[item["id"] for item in members],
                team=None if team is None else team["id"],
                won="true" if index == winner else "false",
                stats={"score": score, "side": index + 1},
            )
        )
    rounds = []
    for ordinal, winning_team in enumerate(round_winners, start=1):
        round_id = _uuid(rng)
        rounds.append(
            resources.round_(
                round_id,
                participants=[item["id"] for item in everyone],
                ordinal=ordinal,
                duration=rng.randint(40, 120),
                winning_team=winning_team,
            )
        )
    asset = resources.asset(
        _uuid(rng),
        url=f"https://cdn.example.invalid/telemetry/{match_id}.json",
        created_at=created_at,
    )
    duration = rng.randint(120, 900)
    ranking_type = rng.choice(("RANKED", "UNRANKED"))
    match = resources.match(
        match_id,
        rosters=[item["id"] for item in rosters],
        rounds=[item["id"] for item in rounds],
        assets=[asset["id"]],
        created_at=created_at,
        stats=stats,
        tags={"rankingType": ranking_type, "serverType": server_type},
        links={"schema": "", "self": f"https://example.invalid/matches/{match_id}"},
        duration=duration,
        game="Royale" if royale else "Arena",
        gameMode=str(1_000_000 + SERVER_TYPES.index(server_type)),
        patchVersion=f"2.{12 - age_days // 21}",
        titleId="matchkit-test",
    )
    return {"data": match, "included": _dedup([*included, *rosters, *everyone, *rounds, asset])}


def _rounds_to_three(rng: random.Random, winner: int) -> list[int]:
    wins = [0, 0]
    teams = []
    while wins[winner] < 3:
        team = winner if wins[1 - winner] == 2 or rng.random() < 0.6 else 1 - winner
        wins[team] += 1
        teams.append(team + 1)
    return teams


def _dedup(items: list[Resource]) -> list[Resource]:
    seen, kept = set(), []
    for resource in items:
        key = (resource["type"], resource["id"])
        if key not in seen:
            seen.add(key)
            kept.append(resource)
    return kept


def _na_match(rng: random.Random, end: datetime, days: int) -> dict[str, Any]:
    match_id = _uuid(rng)
    included: list[Resource] = []
    rosters = []
    names = rng.sample(NA_PLAYER_NAMES, 6)
    for index, side in enumerate(("left/blue", "right/red")):
        members = []
        for slot in range(3):
            name = names[index * 3 + slot]
            player_id = _na_player_id(name)
            participant_id = _uuid(rng)
            actor = f"*Hero{rng.randint(1, 40):03d}*"
            participant_stats = {
                "assists": rng.randint(0, 12),
                "crystalMineCaptures": rng.randint(0, 3),
                "deaths": rng.randint(0, 10),
                "farm": round(rng.uniform(0, 150), 3),
                "items": ["Weapon3", "Boots3"],
            }
            members.append(
                resources.participant(
                    participant_id,
                    player=player_id,
                    stats=participant_stats,
                    actor=actor,
                    shard=None,
                )
            )
            included.append(_player(player_id, "na", name=name))
        roster_id = _uuid(rng)
        roster_stats = {
            "acesEarned": rng.randint(0, 5),
            "gold": rng.randint(20_000, 50_000),
            "side": side,
        }
        team = _team(rng, "na") if rng.random() < 0.3 else None
        if team is not None:
            included.append(team)
        rosters.append(
            resources.roster(
                roster_id,
                participants=[item["id"] for item in members],
                team=None if team is None else team["id"],
                won=None,
                stats=roster_stats,
                shard=None,
            )
        )
        included.extend(members)
    created_at = _created_at(rng, end, days)
    match = resources.match(
        match_id,
        rosters=[item["id"] for item in rosters],
        rounds=None,
        assets=None,
        spectators=None,
        created_at=created_at,
        stats="victory",
        tags=None,
        links=None,
        duration=rng.randint(900, 2400),
        gameMode=rng.choice(("casual", "ranked")),
        patchVersion="",
        shardId="na",
        titleId="semc-vainglory",
    )
    return {"data": match, "included": _dedup([*included, *rosters])}


def _na_player_id(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"matchkit-test/{name}"))
