"""to_frames against its floor and a straightforward pandas peer, side by side.

Builds at least 20,000 matches in pages of 5, in the real global shape, with its own small
deterministic generator, then measures in one run:

(a) ``orjson.loads`` of every page alone, with the garbage collector paused: the floor;
(b) ``matchkit.to_frames`` on the raw pages, end to end, as a user runs it (collector on);
(c) a peer: what a competent pandas user writes without matchkit to get the same tables:
    ``pd.json_normalize`` per resource type, ``explode`` + merges for the relationships,
    renames to the MatchFrames columns, the won and side rules, participant kinds, extra
    columns, ``astype`` to the dtypes. The peer is told the schema (column order and dtypes,
    categoricals as plain ``"category"``) from an untimed to_frames run, like a user who was
    given docs/model.md; it calls none of matchkit's normalizer code.

(a) and (b) are the best of 5 interleaved runs, (c) the best of 2. Outside the timed region the
benchmark checks that the peer's nine tables equal to_frames' (``pd.testing.assert_frame_equal``
on values, dtypes and column order, rows sorted by key) and prints that they matched, so the
ratio c/b compares like with like; it stops with an error if they differ.

It prints matches per second, the ratios b/a and c/b, the time of ``to_frames`` on one page
(its fixed cost: what ``Client.get_match`` pays per call; best of 20), and the peak memory of
(b) beyond the raw pages, relative to the raw JSON size. Memory is the resident set size (RSS,
psutil) sampled every millisecond in a fresh process that holds only the raw pages, so that
Arrow's and numpy's allocations count too (tracemalloc would miss Arrow's). Targets: b/a <= 3,
c/b >= 5, peak extra memory < 3x the raw bytes.

Then the PUBG case: the PUBG sample set's match documents (``matchkit.sampledata.pubg``, 64
players a match, one document a match as ``/matches/{id}`` answers it), parsed with orjson (the
floor, collector paused) and normalized by ``to_frames``, best of 7 interleaved runs; target
b/a <= 2.5.

Run: ``make bench`` or ``python -m benchmarks normalize``; ``MATCHKIT_BENCH_MATCHES`` sets the
number of matches (default 20,000), ``MATCHKIT_BENCH_PUBG_MATCHES`` the PUBG case's (default
1,200).
"""

from __future__ import annotations

import gc
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import pandas as pd

from benchmarks.clock import Timing, clock, since
from benchmarks.memory import peak_rss_beyond
from benchmarks.pandas_peer import Dtypes, check_peer, peer, told_dtypes
from matchkit import to_frames

MATCHES = int(os.environ.get("MATCHKIT_BENCH_MATCHES", "20000"))
PUBG_MATCHES = int(os.environ.get("MATCHKIT_BENCH_PUBG_MATCHES", "1200"))
PUBG_REPEATS = 7
PAGE_SIZE = 5
SEED = 20171127
REPEATS = 5
PEER_REPEATS = 2
ONE_PAGE_REPEATS = 20

_MAPS = [f"{i:032X}" for i in range(1, 12)]
_REGIONS = ["eu", "na", "sa", "sea", "oc", "ru"]
_SERVER_TYPES = ["QUICK2V2", "QUICK3V3", "ROYALRUMBLESOLO", "ROYALRUMBLEDUO"]


def _uuid(rng: random.Random) -> str:
    value = f"{rng.getrandbits(128):032x}"
    return f"{value[:8]}-{value[8:12]}-{value[12:16]}-{value[16:20]}-{value[20:]}"


def _participant(rng: random.Random, side: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    player_id = str(rng.randrange(10**17, 10**18)) if rng.random() < 0.9 else None
    stats: dict[str, Any] = {
        "attachment": rng.randrange(2**31),
        "emote": rng.randrange(2**31),
        "mount": rng.randrange(2**31),
        "outfit": rng.randrange(2**31),
        "side": side,
    }
    if rng.random() < 5 / 6:  # about one participant in six carries only cosmetics and side
        stats.update(
            abilityUses=rng.randrange(400),
            damageDone=rng.randrange(3000),
            damageReceived=rng.randrange(3000),
            deaths=rng.randrange(6),
            disablesDone=rng.randrange(300),
            disablesReceived=rng.randrange(300),
            energyGained=rng.randrange(800),
            energyUsed=rng.randrange(800),
            healingDone=rng.randrange(2000),
            healingReceived=rng.randrange(2000),
            kills=rng.randrange(10),
            score=rng.randrange(3000),
            timeAlive=rng.randrange(600),
        )
        user_id = player_id or "0"
        stats["userID"] = int(user_id) if rng.random() < 0.1 else user_id
        stats = dict(sorted(stats.items()))
    participant = {
        "type": "participant",
        "id": _uuid(rng),
        "attributes": {"actor": str(rng.randrange(10**9)), "shardId": "global", "stats": stats},
        "relationships": {"player": {"data": None}},
    }
    player = None
    if player_id is not None:
        participant["relationships"]["player"]["data"] = {"type": "player", "id": player_id}
        player = {
            "type": "player",
            "id": player_id,
            "attributes": {
                "name": "",
                "patchVersion": "",
                "shardId": "",
                "stats": None,
                "titleId": "",
            },
            "relationships": {"assets": {"data": []}},
            "links": {"schema": "", "self": f"https://example.invalid/players/{player_id}"},
        }
    return participant, player


def _match(rng: random.Random, created: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    server_type = rng.choice(_SERVER_TYPES)
    royale = server_type.startswith("ROYAL")
    match_id = f"{rng.getrandbits(128):032X}"
    team_size = {"QUICK2V2": 2, "QUICK3V3": 3, "ROYALRUMBLESOLO": 1, "ROYALRUMBLEDUO": 2}
    size = team_size[server_type]
    roster_count = rng.randrange(4, 9) if royale else 2
    winner = rng.randrange(roster_count)
    included: list[dict[str, Any]] = []
    rosters = []
    participants_all = []
    for number in range(roster_count):
        side = number + 1
        members = []
        for _ in range(size):
            participant, player = _participant(rng, side)
            members.append(participant)
            participants_all.append(participant)
            if player is not None:
                included.append(player)
        roster = {
            "type": "roster",
            "id": _uuid(rng),
            "attributes": {
                "shardId": "global",
                "stats": {"score": 3 if number == winner else rng.randrange(3), "side": side},
                "won": "true" if number == winner else "false",
            },
            "relationships": {
                "participants": {"data": [{"type": "participant", "id": p["id"]} for p in members]},
                "team": {"data": None},
            },
        }
        rosters.append(roster)
        included.append(roster)
        included.extend(members)
    rounds = []
    if not royale:
        for ordinal in range(rng.randrange(3, 6)):
            round_ = {
                "type": "round",
                "id": _uuid(rng),
                "attributes": {
                    "duration": rng.randrange(60, 200),
                    "ordinal": ordinal,
                    "stats": {"winningTeam": rng.randrange(1, 3)},
                },
                "relationships": {
                    "participants": {
                        "data": [
                            {"type": "participant", "id": p["id"]}
                            for p in participants_all
                            if rng.random() < 0.5
                        ]
                    }
                },
            }
            rounds.append(round_)
            included.append(round_)
    asset = {
        "type": "asset",
        "id": _uuid(rng),
        "attributes": {
            "URL": f"https://cdn.example.invalid/telemetry/{match_id}.json",
            "createdAt": _iso(created + 600),
            "description": "",
            "name": "telemetry",
        },
    }
    included.append(asset)
    stats = {"mapID": rng.choice(_MAPS), "region": rng.choice(_REGIONS), "type": server_type}
    if royale:
        stats["game"] = "Royale"
    match = {
        "type": "match",
        "id": match_id,
        "attributes": {
            "createdAt": _iso(created),
            "duration": rng.randrange(120, 1200),
            "game": "BattleriteRoyale" if royale else "BattleriteArena",
            "gameMode": str(rng.randrange(10**9, 2 * 10**9)),
            "patchVersion": rng.choice(["2.1", "2.2", "2.3"]),
            "shardId": "global",
            "stats": stats,
            "tags": {"rankingType": rng.choice(["RANKED", "UNRANKED"]), "serverType": server_type},
            "titleId": "stunlock-studios-battlerite",
        },
        "relationships": {
            "assets": {"data": [{"type": "asset", "id": asset["id"]}]},
            "rosters": {"data": [{"type": "roster", "id": r["id"]} for r in rosters]},
            "rounds": {"data": [{"type": "round", "id": r["id"]} for r in rounds]},
            "spectators": {"data": []},
        },
        "links": {"schema": "", "self": f"https://example.invalid/matches/{match_id}"},
    }
    rng.shuffle(included)
    return match, included


def _iso(seconds: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def build_pages(matches: int = MATCHES, *, seed: int = SEED) -> list[bytes]:
    """Raw JSON pages of ``PAGE_SIZE`` matches each, in the global shape; deterministic."""
    rng = random.Random(seed)
    created = 1_780_000_000
    pages = []
    for start in range(0, matches, PAGE_SIZE):
        data, included = [], []
        for _ in range(min(PAGE_SIZE, matches - start)):
            created += rng.randrange(1, 300)
            match, resources = _match(rng, created)
            data.append(match)
            included.extend(resources)
        document = {
            "data": data,
            "included": included,
            "links": {"self": f"https://example.invalid/matches?page[offset]={start}"},
            "meta": {},
        }
        pages.append(orjson.dumps(document))
    return pages


def floor(pages: list[bytes]) -> Timing:
    """(a) Time to parse every page with orjson, collector paused."""
    gc.disable()
    try:
        started = clock()
        for page in pages:
            orjson.loads(page)
        return since(started)
    finally:
        gc.enable()


def matchkit_run(pages: list[bytes]) -> Timing:
    """(b) Time for to_frames end to end, as a user runs it."""
    started = clock()
    frames = to_frames(pages)
    elapsed = since(started)
    if len(frames) == 0:
        raise RuntimeError("to_frames returned no matches")
    return elapsed


def peer_run(pages: list[bytes], dtypes: Dtypes) -> tuple[Timing, dict[str, pd.DataFrame]]:
    started = clock()
    tables = peer(pages, dtypes)
    return since(started), tables


def measure_memory(pages_file: Path) -> tuple[int, int]:
    """In this (fresh) process: ``(raw bytes, peak RSS beyond the raw pages)`` of to_frames."""
    pages = orjson.loads(pages_file.read_bytes())
    pages = [page.encode() for page in pages]
    raw = sum(map(len, pages))
    return raw, peak_rss_beyond(lambda: to_frames(pages))


def main() -> None:
    started = time.perf_counter()
    pages = build_pages()
    raw = sum(map(len, pages))
    print(
        f"input: {MATCHES:,} matches in {len(pages):,} pages of {PAGE_SIZE}, "
        f"{raw / 1e6:.1f} MB of JSON (built in {time.perf_counter() - started:.1f} s)"
    )
    # Interleaved repeats, best of each: other processes on the machine slow all alike. CPU
    # time (this process only) is printed beside wall time because it is steadier on a
    # shared machine.
    floor_time = matchkit_time = (float("inf"), float("inf"))
    for _ in range(REPEATS):
        floor_time = tuple(map(min, floor_time, floor(pages)))
        matchkit_time = tuple(map(min, matchkit_time, matchkit_run(pages)))
    # The peer is told the schema (column order and dtypes) from one untimed to_frames run,
    # and its output is checked against that run, outside the timed region.
    reference = to_frames(pages)
    dtypes = told_dtypes(reference)
    peer_time = (float("inf"), float("inf"))
    for _ in range(PEER_REPEATS):
        tables = None  # the previous run's tables are not held during the next
        elapsed, tables = peer_run(pages, dtypes)
        peer_time = tuple(map(min, peer_time, elapsed))
    check = check_peer(tables, reference)
    del tables, reference
    print(f"{'':<40} {'wall':>8} {'cpu':>8}  {'matches/s (wall)':>16}")
    for label, (wall, cpu) in (
        ("(a) orjson.loads, gc paused (floor)", floor_time),
        ("(b) matchkit.to_frames, gc on", matchkit_time),
        ("(c) json_normalize + merges (peer)", peer_time),
    ):
        print(f"{label:<40} {wall:7.2f}s {cpu:7.2f}s  {MATCHES / wall:>16,.0f}")
    print(check)
    for name, index in (("wall", 0), ("cpu", 1)):
        print(
            f"{name}: b/a = {matchkit_time[index] / floor_time[index]:.2f} (target <= 3), "
            f"c/b = {peer_time[index] / matchkit_time[index]:.2f} (target >= 5)"
        )
    one_page = min(matchkit_run(pages[:1])[0] for _ in range(ONE_PAGE_REPEATS))
    print(f"one page of {PAGE_SIZE} matches: {one_page * 1e3:.1f} ms (best of {ONE_PAGE_REPEATS})")
    with tempfile.TemporaryDirectory() as folder:
        pages_file = Path(folder) / "pages.json"
        pages_file.write_bytes(orjson.dumps([page.decode() for page in pages]))
        del pages
        result = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from pathlib import Path; "
                "from benchmarks.bench_normalize import measure_memory; "
                "print(*measure_memory(Path(sys.argv[1])))",
                str(pages_file),
            ],
            cwd=Path(__file__).resolve().parents[1],
            capture_output=True,
            text=True,
            check=True,
        )
    raw_bytes, extra = map(int, result.stdout.split()[-2:])
    print(
        f"peak memory of (b) beyond the raw pages (RSS): {extra / 1e6:.0f} MB = "
        f"{extra / raw_bytes:.2f}x the raw JSON  (target < 3)"
    )
    pubg_case()


def pubg_documents(count: int = PUBG_MATCHES) -> list[bytes]:
    """``count`` match documents of the PUBG sample set (seeds 1, 2, ... as needed)."""
    from matchkit.sampledata.pubg.documents import match_document
    from matchkit.sampledata.pubg.plan import build_plan

    documents: list[bytes] = []
    seed = 0
    while len(documents) < count:
        seed += 1
        for shard in build_plan(seed=seed).shards.values():
            for match in shard.matches[: count - len(documents)]:
                document = match_document(match, telemetry_url="http://telemetry.invalid")
                documents.append(orjson.dumps(document))
    return documents


def pubg_case() -> None:
    """The PUBG case: to_frames of PUBG match documents against their orjson floor."""
    documents = pubg_documents()
    raw = sum(map(len, documents))
    floor_time = matchkit_time = (float("inf"), float("inf"))
    for _ in range(PUBG_REPEATS):
        floor_time = tuple(map(min, floor_time, floor(documents)))
        matchkit_time = tuple(map(min, matchkit_time, matchkit_run(documents)))
    print(f"PUBG: {len(documents):,} match documents, {raw / 1e6:.1f} MB of JSON")
    for name, index in (("wall", 0), ("cpu", 1)):
        print(
            f"PUBG {name}: floor {floor_time[index]:.3f}s, to_frames {matchkit_time[index]:.3f}s, "
            f"b/a = {matchkit_time[index] / floor_time[index]:.2f} (target <= 2.5)"
        )


if __name__ == "__main__":
    main()
