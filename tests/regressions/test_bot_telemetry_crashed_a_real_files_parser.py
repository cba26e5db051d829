"""Issue 26, A5: the events of a match with bots named userID "0" (a bot's DeathEvents, its
playerStats rows), which had no MatchReservedUser: bots were left out of the reservations. A
parser written against the real files (warhound, PyPI) looks every such id up among the
reservations and crashed (``KeyError: '0'``) on every served file of an Arena match with a bot.
In the real file every id an event names is reserved; the generator now reserves every
participant, bots included (they still do not queue)."""

from __future__ import annotations

from itertools import islice

import orjson

from matchkit.sampledata.telemetry import telemetry_bytes
from matchkit.sampledata.telemetry.match import read_match
from matchkit.synth import iter_documents
from tests.builders.consistency import telemetry_mismatches
from tests.conftest import shared_path
from tests.service.test_telemetry_warhound import ids_without_reservation, import_warhound


def _bot_matches(count: int) -> list[dict]:
    documents = iter_documents("global", matches=400)
    with_bots = (
        document
        for document in documents
        if any(one.bot for one in read_match(document).participants)
    )
    return list(islice(with_bots, count))


def test_the_real_file_reserves_every_id_its_events_name() -> None:
    path = shared_path("telemetry", "telemetry-4810AA4CC2C34FDCBA34C7E8915EAFD4.json")
    assert ids_without_reservation(orjson.loads(path.read_bytes())) == set()


def test_every_id_of_a_bot_match_is_reserved_and_warhound_reads_it() -> None:
    documents = _bot_matches(12)
    assert len(documents) == 12
    arena = 0
    for document in documents:
        events = orjson.loads(telemetry_bytes(document))
        assert ids_without_reservation(events) == set(), document["data"]["id"]
        assert telemetry_mismatches(document, events) == []
        queued = {e["dataObject"]["userId"] for e in events if e["type"].endswith("QueueEvent")}
        assert "0" not in queued  # bots still do not queue
        if not read_match(document).royale:
            arena += 1
            parsed = import_warhound().process(events)
            assert "0" in parsed.match.dict_player_by_id
    assert arena >= 6
