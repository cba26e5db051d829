"""The parse hooks of PUBG's answers, each against its request: a sample, seasons, players and a
player of another shard (or day, or id) are refused, so they are retried and never cached."""

from __future__ import annotations

from datetime import timedelta

import orjson
import pytest

from matchkit.client.players import player_check, players_parser
from matchkit.client.request import Fetched
from matchkit.client.responses import BadAnswerError, check_body
from matchkit.client.samples import sample_check, seasons_check
from matchkit.rules.windows import parse_time

DAY = timedelta(days=1)


def _fetched(kind: str, document: dict) -> Fetched:
    body = orjson.dumps(document)
    return Fetched(body, check_body(kind, body), "http://127.0.0.1/x", 200, False)  # type: ignore[arg-type]


def _sample(shard: str, created: str, link_shard: str | None = None) -> dict:
    document: dict = {
        "data": {
            "type": "sample",
            "id": "s",
            "attributes": {"createdAt": created, "shardId": shard, "titleId": "bluehole-pubg"},
            "relationships": {"matches": {"data": [{"type": "match", "id": "m"}]}},
        }
    }
    if link_shard is not None:
        document["links"] = {"self": f"http://127.0.0.1/shards/{link_shard}/samples"}
    return document


def test_a_sample_of_the_shard_and_day_asked_is_taken() -> None:
    start = parse_time("2026-11-10T00:00:00Z")
    fetched = _fetched("samples", _sample("steam", "2026-11-10T00:00:00Z"))
    assert sample_check("steam", start, DAY)(fetched) == fetched.body


@pytest.mark.parametrize(
    ("document", "said"),
    [
        (_sample("kakao", "2026-11-10T00:00:00Z"), "shardId 'kakao', not steam"),
        (_sample("steam", "2026-11-10T00:00:00Z", "console"), "names shard 'console'"),
        (_sample("steam", "2026-11-12T00:00:00Z"), "where the sample of 2026-11-10"),
        (_sample("steam", "yesterday"), "not a time"),
    ],
)
def test_a_sample_that_is_not_the_one_asked_is_refused(document: dict, said: str) -> None:
    start = parse_time("2026-11-10T00:00:00Z")
    with pytest.raises(BadAnswerError, match=said):
        sample_check("steam", start, DAY)(_fetched("samples", document))


def test_a_document_that_is_not_a_sample_is_refused() -> None:
    with pytest.raises(BadAnswerError, match="where a sample belongs"):
        check_body("samples", orjson.dumps({"data": [{"type": "match", "id": "m"}]}))


def test_seasons_of_another_shard_are_refused() -> None:
    document = {
        "data": [{"type": "season", "id": "division.bro.official.pc-2018-39", "attributes": {}}],
        "links": {"self": "http://127.0.0.1/shards/kakao/seasons"},
    }
    with pytest.raises(BadAnswerError, match="seasons of another shard"):
        seasons_check("steam")(_fetched("seasons", document))
    with pytest.raises(BadAnswerError, match="where a season belongs"):
        check_body("seasons", orjson.dumps({"data": [{"type": "player", "id": "p"}]}))


def _player(identifier: str, name: str, shard: str) -> dict:
    return {"type": "player", "id": identifier, "attributes": {"name": name, "shardId": shard}}


def test_players_of_another_shard_or_not_asked_are_refused() -> None:
    asked = ("Alpha", "Beta")
    good = _fetched("players", {"data": [_player("account.1", "Alpha", "steam")]})
    assert players_parser("names", asked, "steam")(good) == good.body
    other_shard = _fetched("players", {"data": [_player("account.1", "Alpha", "kakao")]})
    with pytest.raises(BadAnswerError, match="of shard 'kakao', not steam"):
        players_parser("names", asked, "steam")(other_shard)
    not_asked = _fetched("players", {"data": [_player("account.2", "alpha", "steam")]})
    with pytest.raises(BadAnswerError, match="not asked for"):
        players_parser("names", asked, "steam")(not_asked)


def test_a_player_by_id_must_be_that_player() -> None:
    other = _fetched("player", {"data": _player("account.2", "Beta", "steam")})
    with pytest.raises(BadAnswerError, match=r"'account\.2'"):
        player_check("account.1", "steam")(other)
    same = _fetched("player", {"data": _player("account.1", "Alpha", "steam")})
    assert player_check("account.1", "steam")(same) == same.body
