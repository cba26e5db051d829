"""matchkit.rules.jsonapi: documents, keys, relationships, the resource index, split_by_match."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from matchkit.errors import DocumentError, MatchkitError
from matchkit.rules.jsonapi import (
    ResourceIndex,
    describe_errors,
    iter_documents,
    load_document,
    primary_resources,
    relationship_keys,
    resource_key,
    split_by_match,
)
from tests.builders.resources import arena, page, participant, player, team


class TestLoadDocument:
    def test_bytes_str_and_dict_give_the_same_document(self) -> None:
        document = page(arena("m1"))
        raw = orjson.dumps(document)
        assert load_document(raw) == document
        assert load_document(raw.decode()) == document
        assert load_document(bytearray(raw)) == document
        assert load_document(document) is document

    def test_not_json(self) -> None:
        with pytest.raises(DocumentError, match="not valid JSON") as caught:
            load_document(b"<html>Bad gateway</html>", document_index=3)
        assert caught.value.document_index == 3
        assert "document 3" in str(caught.value)
        assert isinstance(caught.value, MatchkitError)
        assert isinstance(caught.value, ValueError)

    def test_not_an_object(self) -> None:
        with pytest.raises(DocumentError, match="JSON object, not list"):
            load_document(b"[1, 2]")

    def test_error_document(self) -> None:
        errors = {"errors": [{"status": "401", "title": "Unauthorized", "detail": "bad key"}]}
        with pytest.raises(DocumentError, match="401 Unauthorized bad key"):
            load_document(errors)

    def test_no_data_member(self) -> None:
        with pytest.raises(DocumentError, match="no 'data' member"):
            load_document({"links": {}, "meta": {}})

    @pytest.mark.parametrize("data", [5, "match", True])
    def test_data_of_the_wrong_type(self, data: object) -> None:
        with pytest.raises(DocumentError, match="'data' must be"):
            load_document({"data": data})

    def test_included_must_be_a_list(self) -> None:
        with pytest.raises(DocumentError, match="'included' must be a list"):
            load_document({"data": [], "included": {"type": "player", "id": "1"}})

    def test_null_data_is_allowed(self) -> None:
        assert primary_resources(load_document({"data": None})) == []


def test_describe_errors_accepts_the_real_services_shapes() -> None:
    assert describe_errors([{"title": "Not Found"}]) == "Not Found"
    assert describe_errors([{"description": "gone"}, "oops"]) == "gone; oops"
    assert describe_errors({"status": "429"}) == "429"
    assert describe_errors([]) == "(an empty errors list)"


class TestIterDocuments:
    def test_one_document_or_many(self) -> None:
        one = page(arena("m1"))
        assert list(iter_documents(one)) == [one]
        assert list(iter_documents(orjson.dumps(one))) == [one]
        assert list(iter_documents([one, orjson.dumps(one)])) == [one, one]
        assert list(iter_documents(iter([one]))) == [one]

    def test_position_is_reported(self) -> None:
        with pytest.raises(DocumentError) as caught:
            list(iter_documents([page(arena("m1")), b"{"]))
        assert caught.value.document_index == 1

    def test_not_iterable(self) -> None:
        with pytest.raises(DocumentError, match="iterable"):
            list(iter_documents(42))  # type: ignore[arg-type]


class TestKeys:
    def test_resource_key(self) -> None:
        assert resource_key({"type": "match", "id": "m"}) == ("match", "m")

    @pytest.mark.parametrize(
        "resource",
        [{"type": "match"}, {"id": "m"}, {"type": "match", "id": 5}, {"type": "", "id": "m"}],
    )
    def test_resource_key_needs_type_and_id(self, resource: dict) -> None:
        with pytest.raises(DocumentError, match="non-empty string 'type' and 'id'") as caught:
            resource_key(resource, document_index=2)
        assert caught.value.document_index == 2
        assert caught.value.resource is not None

    def test_resource_key_of_a_non_object(self) -> None:
        with pytest.raises(DocumentError, match="not str"):
            resource_key("match")

    def test_relationship_keys(self) -> None:
        roster = {
            "type": "roster",
            "id": "r",
            "relationships": {
                "participants": {"data": [{"type": "participant", "id": "p1"}]},
                "team": {"data": None},
                "captain": {"data": {"type": "player", "id": "7"}},
            },
        }
        assert relationship_keys(roster, "participants") == [("participant", "p1")]
        assert relationship_keys(roster, "team") == []
        assert relationship_keys(roster, "captain") == [("player", "7")]
        assert relationship_keys(roster, "missing") == []
        assert relationship_keys({"type": "x", "id": "y"}, "any") == []

    @pytest.mark.parametrize(
        ("relationships", "message"),
        [
            ([], "'relationships' must be an object"),
            ({"team": []}, "must be an object with 'data'"),
            ({"team": {"data": "t1"}}, "identifier, a list of them or null"),
            ({"team": {"data": {"type": "team"}}}, "relationship 'team' of roster r"),
        ],
    )
    def test_malformed_relationships(self, relationships: object, message: str) -> None:
        resource = {"type": "roster", "id": "r", "relationships": relationships}
        with pytest.raises(DocumentError, match=message) as caught:
            relationship_keys(resource, "team", document_index=1)
        assert caught.value.document_index == 1
        assert caught.value.resource is not None


class TestResourceIndex:
    def test_keyed_by_type_and_id_first_one_wins(self) -> None:
        first = {"data": [], "included": [player("7", name="first"), team("7")]}
        second = {"data": [], "included": [player("7", name="second")]}
        index = ResourceIndex([first, second])
        assert len(index) == 2
        assert index["player", "7"]["attributes"]["name"] == "first"
        assert index["team", "7"]["type"] == "team"
        assert repr(index) == "ResourceIndex(2 resources)"

    def test_related_and_missing(self) -> None:
        member = participant("p1", player="7")
        index = ResourceIndex([{"data": [], "included": [member, team("7")]}])
        assert index.related(member, "player") == []  # a team "7" is not the player "7"
        assert index.missing(member, "player") == [("player", "7")]
        index.add({"data": [], "included": [player("7")]})
        assert [r["type"] for r in index.related(member, "player")] == ["player"]


class TestSplitByMatch:
    def test_each_match_gets_what_it_reaches(self) -> None:
        document = page(arena("m1"), arena("m2", per_side=3, rounds=2))
        parts = split_by_match(orjson.dumps(document))
        assert [part["data"]["id"] for part in parts] == ["m1", "m2"]
        _, included_1 = arena("m1")
        _, included_2 = arena("m2", per_side=3, rounds=2)
        assert parts[0]["included"] == included_1  # same resources, original order
        assert parts[1]["included"] == included_2

    def test_shared_players_go_to_both_and_other_matches_to_none(self) -> None:
        first, included = arena("m1")
        second, included_2 = arena("m2")
        shared = included[0]["relationships"]["player"]["data"]["id"]
        included_2[0]["relationships"]["player"]["data"]["id"] = shared
        document = page((first, included), (second, included_2))
        parts = split_by_match(document)
        for part in parts:
            keys = {(r["type"], r["id"]) for r in part["included"]}
            assert ("player", shared) in keys
            assert not any(type_ == "match" for type_, _ in keys)

    def test_single_object_and_status_documents(self, samples_dir: Path) -> None:
        single = split_by_match(page(arena("m1"), single=True))
        assert len(single) == 1
        status = (samples_dir / "battlerite" / "status-response.json").read_bytes()
        assert split_by_match(status) == []

    def test_real_multi_match_page(self, samples_dir: Path) -> None:
        raw = (samples_dir / "battlerite" / "matches-response-84.json").read_bytes()
        document = json.loads(raw)
        parts = split_by_match(raw)
        assert len(parts) == len(document["data"])
        every = {(r["type"], r["id"]) for r in document["included"]}
        reached = {(r["type"], r["id"]) for part in parts for r in part["included"]}
        assert reached == every  # nothing in that page is left unreachable
        participants = sum(
            1 for part in parts for r in part["included"] if r["type"] == "participant"
        )
        assert participants == sum(1 for r in document["included"] if r["type"] == "participant")
