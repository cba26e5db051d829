"""The telemetry generator: consistent with every kind of match, deterministic, unsorted.

The sample set's telemetry is checked on a seeded sample of its Arena matches (300) plus every
Royale match of the sample drawn and at least one match of each server type and ranking type.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import orjson
import pytest

from matchkit.errors import InvalidArgumentError
from matchkit.rules.events import EVENT_TYPES, ROYALE_EVENT_TYPES
from matchkit.sampledata.dataset import open_dataset
from matchkit.sampledata.telemetry import parameters as t
from matchkit.sampledata.telemetry import (
    telemetry_bytes,
    telemetry_events,
)
from matchkit.sampledata.telemetry.match import read_match
from matchkit.synth import iter_documents
from tests.builders.consistency import mismatches_of
from tests.builders.datasets import build_dataset

REPO = Path(__file__).resolve().parents[2]
SAMPLE_SIZE = 300


def _kind(document: dict[str, Any]) -> tuple[str, str]:
    tags = document["data"]["attributes"]["tags"]
    return tags["serverType"], tags["rankingType"]


@pytest.fixture(scope="module")
def sample_documents() -> list[dict[str, Any]]:
    """300 Arena matches of the committed sample set (seeded), plus one of every kind."""
    documents = list(open_dataset().iter_documents("global"))
    arena = [doc for doc in documents if doc["data"]["attributes"]["game"] == "Arena"]
    chosen = random.Random(13).sample(arena, SAMPLE_SIZE)
    kinds = {_kind(doc) for doc in chosen}
    for doc in documents:
        if _kind(doc) not in kinds:
            kinds.add(_kind(doc))
            chosen.append(doc)
    return chosen


def test_the_sample_covers_every_kind_of_match(sample_documents):
    kinds = Counter(_kind(doc) for doc in sample_documents)
    for server_type in ("QUICK2V2", "QUICK3V3", "ROYALRUMBLESOLO", "ROYALRUMBLEDUO"):
        for ranking in ("RANKED", "UNRANKED"):
            assert kinds[(server_type, ranking)] >= 1, (server_type, ranking)
    assert sum(count for (kind, _), count in kinds.items() if kind.startswith("QUICK")) >= 300


def test_sample_telemetry_agrees_with_its_matches(sample_documents):
    files = [telemetry_events(document) for document in sample_documents]
    assert mismatches_of(sample_documents, files) == []


def _rows_by_round(events):
    finished = [e["dataObject"] for e in events if e["type"] == "Structures.RoundFinishedEvent"]
    return sorted(finished, key=lambda data: data["round"])


def test_rounds_play_out_as_the_match_model_plays_them(sample_documents):
    """Beyond the sums: in each round every loser dies once, not every winner dies, each
    death is a kill of the other side, and nobody is alive longer than the round."""
    checked = 0
    for document in sample_documents:
        view = read_match(document)
        if view.royale:
            continue
        side_of = {person.user_id: person.side for person in view.participants}
        if len(side_of) != len(view.participants):
            continue  # two bots share userID 0: rows cannot be told apart by id
        for data in _rows_by_round(telemetry_events(document)):
            rows = data["playerStats"]
            winner = data["winningTeam"]
            for side in (1, 2):
                own = [row for row in rows if side_of[row["userID"]] == side]
                others = [row for row in rows if side_of[row["userID"]] != side]
                assert sum(row["kills"] for row in own) == sum(row["deaths"] for row in others)
                if side == winner:
                    assert not all(row["deaths"] == 1 for row in own)
                else:
                    assert all(row["deaths"] == 1 for row in own)
            for row in rows:
                assert row["deaths"] in (0, 1)
                assert 0 < row["timeAlive"] <= data["roundLength"]
                if row["deaths"] == 0:
                    assert row["timeAlive"] == data["roundLength"]
            checked += 1
    assert checked > 900


def test_events_are_unsorted_with_increasing_unique_cursors(sample_documents):
    for document in sample_documents[:40]:
        events = telemetry_events(document)
        cursors = [event["cursor"] for event in events]
        assert len(set(cursors)) == len(cursors)
        assert cursors != sorted(cursors)
        ordered = sorted(events, key=lambda event: event["cursor"])
        times = [event["dataObject"]["time"] for event in ordered]
        assert times == sorted(times)
        assert ordered[0]["type"].endswith("QueueEvent")
        assert ordered[-1]["type"] == "Structures.ServerShutdown"
        start = next(e for e in events if e["type"] == "Structures.MatchStart")
        created = read_match(document).created_at.timestamp()
        assert start["dataObject"]["time"] == int(created) * 1000


def test_event_types_by_kind_of_match(sample_documents):
    for document in sample_documents:
        view = read_match(document)
        types = {event["type"] for event in telemetry_events(document)}
        if view.royale:
            assert types <= set(ROYALE_EVENT_TYPES)
            assert {"Structures.MatchStart", "Structures.ServerShutdown"} <= types
        elif view.ranked:
            assert types == set(EVENT_TYPES)
        else:
            assert types == set(EVENT_TYPES) - {"com.stunlock.battlerite.team.TeamUpdateEvent"}


def test_spells_come_in_one_burst_at_the_end(sample_documents):
    document = next(doc for doc in sample_documents if _kind(doc) == ("QUICK3V3", "RANKED"))
    ordered = sorted(telemetry_events(document), key=lambda event: event["cursor"])
    kinds = [event["type"] for event in ordered]
    first = kinds.index("Structures.UserRoundSpell")
    last = len(kinds) - 1 - kinds[::-1].index("Structures.UserRoundSpell")
    assert set(kinds[first : last + 1]) == {"Structures.UserRoundSpell"}
    assert kinds.index("Structures.RoundFinishedEvent") < first
    assert "Structures.RoundFinishedEvent" not in kinds[last:]
    assert kinds[last + 1] == "Structures.MatchFinishedEvent"
    rounds = {e["dataObject"]["round"] for e in ordered if e["type"].endswith("UserRoundSpell")}
    assert rounds == {one.ordinal for one in read_match(document).rounds}


_DIGEST = """
import hashlib, sys
from matchkit.synth import iter_documents
from matchkit.sampledata.telemetry import telemetry_bytes
digest = hashlib.sha256()
for document in iter_documents("global", seed=5, matches=60):
    digest.update(telemetry_bytes(document))
print(digest.hexdigest())
"""


def test_bytes_are_identical_across_runs_and_processes():
    digest = hashlib.sha256()
    for document in iter_documents("global", seed=5, matches=60):
        first = telemetry_bytes(document)
        assert telemetry_bytes(document) == first
        digest.update(first)
    for hash_seed in ("1", "4242"):
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
        other = subprocess.run(
            [sys.executable, "-c", _DIGEST],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
            env=environment,
        )
        assert other.stdout.strip() == digest.hexdigest()


def test_the_file_is_compact_json_of_the_events(sample_documents):
    document = sample_documents[0]
    raw = telemetry_bytes(document)
    assert orjson.loads(raw) == telemetry_events(document)
    assert b"\n" not in raw


def test_na_matches_have_no_telemetry():
    document = next(iter(iter_documents("na", seed=3, matches=1)))
    with pytest.raises(InvalidArgumentError, match="only global matches have telemetry"):
        telemetry_events(document)


def test_documents_of_other_shapes_still_get_exact_sums(tmp_path):
    """Documents the generator did not make (the service tests' factory: kills drawn
    independently of deaths, 1-based rounds, bots) still get files whose sums hold."""
    build_dataset(tmp_path, global_matches=80, na_matches=1)
    documents = list(open_dataset(tmp_path).iter_documents("global"))
    files = [telemetry_events(document) for document in documents]
    assert mismatches_of(documents, files) == []
    checked = 0
    for document, events in zip(documents, files, strict=True):
        view = read_match(document)
        if view.royale:
            continue
        ordinals = {one.ordinal for one in view.rounds}
        for event in events:
            if "round" in event["dataObject"]:
                assert event["dataObject"]["round"] in ordinals, event["type"]
        kills = defaultdict(int)
        for data in _rows_by_round(events):
            for row in data["playerStats"]:
                kills[row["userID"]] += row["kills"]
        for person in read_match(document).participants:
            if "kills" in person.stats and person.user_id != "0":
                assert kills[person.user_id] == person.stats["kills"]
                checked += 1
    assert checked > 50


def test_data_readme_documents_the_telemetry_model_as_the_code_has_it():
    from tools.data_readme import TELEMETRY_BEGIN, TELEMETRY_END, telemetry_tables

    readme = (REPO / "data" / "README.md").read_text(encoding="utf-8")
    block = readme.split(TELEMETRY_BEGIN, 1)[1].split(TELEMETRY_END, 1)[0]
    assert block.strip() == telemetry_tables().strip()
    assert t.FEATURED_CHARACTER in block
    assert f"{float(Fraction(t.FEATURED_PICK_WHEN_WON)) * 100:.1f}%" in block
    for region, _factor in t.QUEUE_REGION_FACTOR:
        assert f"`{region}`" in block
