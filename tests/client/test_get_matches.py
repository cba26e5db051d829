"""Client.get_matches and get_match_body against the reference service over loopback HTTP."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from matchkit.client.client import Client
from matchkit.errors import InvalidArgumentError, NotFoundError
from matchkit.normalize.pipeline import to_frames
from matchkit.sampledata.dataset import open_dataset
from matchkit.service import RunningService
from tests.client.conftest import assert_same_frames, service_client

MATCHES = 40


@pytest.fixture(scope="module")
def documents() -> list[dict[str, Any]]:
    return list(itertools.islice(open_dataset().iter_documents("global"), MATCHES))


@pytest.fixture
def client(service: RunningService, tmp_path: Path) -> Iterator[Client]:
    with service_client(service, tmp_path / "cache") as client:
        yield client


def _id(document: dict[str, Any]) -> str:
    data = document["data"]
    return (data[0] if isinstance(data, list) else data)["id"]


@pytest.fixture
def ids(documents: list[dict[str, Any]]) -> list[str]:
    return [_id(document) for document in documents]


def test_get_matches_normalizes_the_matches_together_in_the_order_given(
    client: Client, documents: list[dict[str, Any]], ids: list[str]
) -> None:
    asked = ids[::-1]
    frames = client.get_matches([*asked, asked[3]])  # an id given twice: its match once
    assert frames.matches["match_id"].tolist() == asked
    # One normalization of every document: a player in several of these matches keeps its
    # latest snapshot, and the problems say how many differ, as to_frames says.
    expected = to_frames(documents)
    assert_same_frames(frames, expected)
    assert frames.problems == expected.problems
    assert expected.players["player_id"].nunique() < len(expected.participants)  # repeats


def test_get_match_body_is_the_document_get_match_reads(
    client: Client, documents: list[dict[str, Any]]
) -> None:
    match_id = _id(documents[0])
    body = client.get_match_body(match_id)
    assert isinstance(body, bytes)
    assert_same_frames(to_frames([body]), client.get_match(match_id))
    assert_same_frames(to_frames([body]), to_frames([documents[0]]))


@pytest.mark.parametrize(
    ("match_ids", "named"),
    [
        ("ABC", "one string"),
        (b"ABC", "one string"),
        (42, "int"),
        (["ABC", ".."], "'..'"),
        (["ABC", "a/b"], "'a/b'"),
    ],
)
def test_get_matches_refuses_bad_ids_before_any_request(
    client: Client, service: RunningService, match_ids: Any, named: str
) -> None:
    before = len(service.requests)
    with pytest.raises(InvalidArgumentError) as raised:
        client.get_matches(match_ids)
    assert len(service.requests) == before
    assert named in str(raised.value)


def test_get_matches_raises_for_a_missing_match_rather_than_leave_it_out(
    client: Client, ids: list[str]
) -> None:
    with pytest.raises(NotFoundError):
        client.get_matches([ids[0], "NO-SUCH-MATCH", ids[1]])


def test_get_matches_of_no_ids_is_empty(client: Client, service: RunningService) -> None:
    before = len(service.requests)
    frames = client.get_matches([])
    assert len(frames) == 0
    assert list(frames.matches.columns) == list(to_frames([]).matches.columns)
    assert len(service.requests) == before


def test_get_matches_shows_its_progress_over_the_matches(
    service: RunningService, tmp_path: Path, ids: list[str], capsys: pytest.CaptureFixture
) -> None:
    with service_client(service, tmp_path / "cache", progress=True) as client:
        client.get_matches(ids[:7])
    shown = capsys.readouterr().err
    assert "matchkit global" in shown
    assert "7/7" in shown
    assert service.api_key not in shown
