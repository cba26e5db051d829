"""Every served telemetry file is readable by a parser written for the real files.

warhound (PyPI, the dev extra) parsed real Battlerite telemetry: it looks up each player an
event names (``userID``, ``accountId``, a ``playerStats`` row) among the file's
MatchReservedUsers. The served files of a generated data set, fetched over HTTP from the
embedded service as a client would, are parsed by it, bot matches included.

Royale files are left to the id check alone: warhound counts a file's rounds by its
RoundFinishedEvents and indexes every event by round, so a file without rounds (every Royale
file: match-level events only, ``../shared/spec/telemetry.md``, decided by matchkit where no real
Royale file is known) is beyond it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
import pytest
import requests

from matchkit.sampledata.dataset import open_dataset
from matchkit.sampledata.telemetry.match import read_match
from matchkit.service import RunningService, running
from matchkit.synth import write_dataset

KEY = "warhound-test-key-2b7e"


def import_warhound() -> ModuleType:
    """warhound; fails under CI (CI=true) when it is missing, skips elsewhere."""
    try:
        import warhound
    except ImportError:
        message = "warhound is missing: install the dev extra (pip install -e '.[dev]')"
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(message)
        pytest.skip(message)
    return warhound


def ids_without_reservation(events: list[dict[str, Any]]) -> set[str]:
    """The ids events name (userID, accountId, userId, playerStats rows) that no
    MatchReservedUser reserves."""
    reserved, named = set(), set()
    for event in events:
        data = event["dataObject"]
        if event["type"] == "Structures.MatchReservedUser":
            reserved.add(str(data["accountId"]))
            continue
        named.update(str(data[key]) for key in ("userID", "accountId") if key in data)
        named.update(str(row["userID"]) for row in data.get("playerStats") or ())
    return named - reserved


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningService, Path]]:
    data = tmp_path_factory.mktemp("warhound-data")
    write_dataset(data, matches=150, na_matches=1)
    with running(data=data, store_dir=tmp_path_factory.mktemp("store"), api_keys=[KEY]) as service:
        yield service, data


def served_files(service: RunningService, data: Path) -> Iterator[tuple[Any, list[Any]]]:
    """Each global match's view and its telemetry as the service serves it (URL from the API)."""
    with requests.Session() as session:
        for document in open_dataset(data).iter_documents("global"):
            match_id = document["data"]["id"]
            answer = session.get(
                f"{service.base_url}/shards/global/matches/{match_id}",
                headers={"Authorization": f"Bearer {KEY}"},
                timeout=30,
            )
            assert answer.status_code == 200, answer.text
            served_document = answer.json()
            (url,) = [
                item["attributes"]["URL"]
                for item in served_document["included"]
                if item["type"] == "asset"
            ]
            response = session.get(url, headers={"Accept": "application/json"}, timeout=30)
            assert response.status_code == 200
            yield read_match(served_document), orjson.loads(response.content)


def test_warhound_reads_every_served_arena_file_bot_matches_included(served) -> None:
    warhound = import_warhound()
    kinds = {"arena": 0, "arena with bots": 0, "royale": 0}
    for view, events in served_files(*served):
        assert ids_without_reservation(events) == set(), view.match_id
        if view.royale:
            kinds["royale"] += 1
            continue
        bots = [one for one in view.participants if one.bot]
        kinds["arena with bots" if bots else "arena"] += 1
        parsed = warhound.process(events)
        players = parsed.match.dict_player_by_id
        assert {one.user_id for one in view.participants} == set(players), view.match_id
        assert len(parsed.outcome.list_round_summary) == len(view.rounds)
        summaries = parsed.outcome.list_round_summary
        assert all(set(s.dict_player_round_stats_by_player_id) == set(players) for s in summaries)
    assert kinds["arena with bots"] >= 10, kinds  # the sample holds enough bot matches
    assert kinds["arena"] >= 50, kinds
    assert kinds["royale"] >= 10, kinds
