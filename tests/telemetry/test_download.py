"""Client.telemetry over real HTTP (pytest-httpserver as the CDN and the API): no API key,
cached forever, validated before caching, retried, never partial."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from matchkit import to_frames
from matchkit.client import RetryPolicy
from matchkit.client.client import Client
from matchkit.errors import DocumentError, InvalidArgumentError, NotFoundError, ServiceError
from matchkit.model.frames import MatchFrames
from matchkit.telemetry import to_telemetry_frames
from tests.conftest import shared_path

MATCH_ID = "4810AA4CC2C34FDCBA34C7E8915EAFD4"
API_KEY = "planted-key-telemetry-5d1e"


@pytest.fixture(scope="module")
def telemetry_bytes() -> bytes:
    return shared_path("telemetry", f"telemetry-{MATCH_ID}.json").read_bytes()


@pytest.fixture(scope="module")
def match_document() -> dict[str, Any]:
    path = shared_path("telemetry", f"match-response-{MATCH_ID}.json")
    return orjson.loads(path.read_bytes())


@pytest.fixture
def make_client(httpserver: HTTPServer, tmp_path: Path) -> Iterator[Callable[..., Client]]:
    clients: list[Client] = []

    def build(**options: Any) -> Client:
        options.setdefault("api_key", API_KEY)
        options.setdefault("cache_dir", tmp_path / "cache")
        options.setdefault("rate_limit", "off")
        options.setdefault("now", "2018-05-01T00:00:00Z")
        options.setdefault("progress", False)
        client = Client(httpserver.url_for("/").rstrip("/"), **options)
        client.retry_policy = RetryPolicy(sleep=lambda _: None, random=lambda: 0.5)
        clients.append(client)
        return client

    yield build
    for client in clients:
        client.close()


def frames_with_url(document: dict[str, Any], url: str, match_id: str = MATCH_ID) -> MatchFrames:
    """The recorded match, its telemetry asset pointing at ``url``."""
    frames = to_frames([document])
    assets = frames.assets.copy()
    assets["url"] = url
    assets["match_id"] = match_id
    assets["asset_id"] = f"asset-of-{match_id}"
    matches = frames.matches.copy()
    matches["match_id"] = match_id
    return dataclasses.replace(frames, matches=matches, assets=assets)


def telemetry_requests(httpserver: HTTPServer) -> list[Request]:
    return [request for request, _ in httpserver.log if "telemetry" in request.path]


def test_downloads_without_the_api_key_and_caches_forever(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],
    match_document: dict[str, Any],
    telemetry_bytes: bytes,
) -> None:
    path = f"/cdn/global/2018/04/21/10/24/{MATCH_ID}-telemetry.json"
    httpserver.expect_request(path).respond_with_data(
        telemetry_bytes, content_type="application/json"
    )
    frames = frames_with_url(match_document, httpserver.url_for(path))
    client = make_client()
    telemetry = client.telemetry(frames)
    expected = to_telemetry_frames({MATCH_ID: telemetry_bytes})
    for name, table in expected.tables.items():
        assert telemetry.tables[name].equals(table), name
    sent = telemetry_requests(httpserver)
    assert len(sent) == 1
    assert "Authorization" not in sent[0].headers
    assert API_KEY not in str(sent[0].headers)
    assert sent[0].headers.get("Accept") == "application/json"
    again = make_client().telemetry(frames)  # a new client, the same cache
    assert len(telemetry_requests(httpserver)) == 1
    assert again.round_player_stats.equals(telemetry.round_player_stats)
    cache_file = (client.cache_dir / "http_cache.sqlite").read_bytes()
    assert API_KEY.encode() not in cache_file


def test_match_ids_fetch_the_match_first(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],
    match_document: dict[str, Any],
    telemetry_bytes: bytes,
) -> None:
    path = f"/cdn/{MATCH_ID}-telemetry.json"
    document = orjson.loads(orjson.dumps(match_document))
    for resource in document["included"]:
        if resource["type"] == "asset":
            resource["attributes"]["URL"] = httpserver.url_for(path)
    httpserver.expect_request(f"/shards/global/matches/{MATCH_ID}").respond_with_json(document)
    httpserver.expect_request(path).respond_with_data(telemetry_bytes)
    telemetry = make_client().telemetry([MATCH_ID])
    assert telemetry.match_ids == [MATCH_ID]
    assert len(telemetry.round_player_stats) == 18
    api = [r for r, _ in httpserver.log if r.path.startswith("/shards")]
    assert api[0].headers["Authorization"] == f"Bearer {API_KEY}"  # the API gets the key
    assert "Authorization" not in telemetry_requests(httpserver)[0].headers


def test_a_bad_200_is_retried_and_never_cached(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],
    match_document: dict[str, Any],
    telemetry_bytes: bytes,
) -> None:
    path = "/cdn/flaky-telemetry.json"
    answers = iter([b"<html>maintenance</html>", b'{"not": "a list"}', telemetry_bytes])

    def handler(request: Request) -> Response:
        return Response(next(answers), content_type="application/json")

    httpserver.expect_request(path).respond_with_handler(handler)
    frames = frames_with_url(match_document, httpserver.url_for(path))
    telemetry = make_client().telemetry(frames)
    assert len(telemetry.deaths) == 10
    assert len(telemetry_requests(httpserver)) == 3
    make_client().telemetry(frames)  # cached: the good file, not a bad one
    assert len(telemetry_requests(httpserver)) == 3


def test_a_broken_file_is_an_error_naming_the_match_and_is_not_stored(
    httpserver: HTTPServer, make_client: Callable[..., Client], match_document: dict[str, Any]
) -> None:
    path = "/cdn/broken-telemetry.json"
    httpserver.expect_request(path).respond_with_data(b'[{"cursor": 1}]')
    frames = frames_with_url(match_document, httpserver.url_for(path))
    client = make_client()
    with pytest.raises(DocumentError, match=MATCH_ID):
        client.telemetry(frames)
    attempts = len(telemetry_requests(httpserver))
    assert attempts == client.retry_policy.attempts
    with pytest.raises(DocumentError):
        client.telemetry(frames)
    assert len(telemetry_requests(httpserver)) == 2 * attempts  # asked again: nothing stored


def test_missing_files_raise_or_are_skipped_and_listed(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],
    match_document: dict[str, Any],
    telemetry_bytes: bytes,
) -> None:
    good = frames_with_url(match_document, httpserver.url_for("/cdn/good.json"))
    gone = frames_with_url(match_document, httpserver.url_for("/cdn/gone.json"), "GONE")
    httpserver.expect_request("/cdn/good.json").respond_with_data(telemetry_bytes)
    httpserver.expect_request("/cdn/gone.json").respond_with_json({"errors": []}, status=404)
    both = MatchFrames.concat([gone, good])
    client = make_client()
    with pytest.raises(NotFoundError, match="GONE"):
        client.telemetry(both)
    skipped = client.telemetry(both, on_error="skip")
    assert skipped.match_ids == [MATCH_ID]
    assert len(skipped.problems) == 1
    assert "GONE" in skipped.problems[0]


def test_a_match_without_a_telemetry_asset(
    make_client: Callable[..., Client], match_document: dict[str, Any]
) -> None:
    frames = to_frames([match_document])
    frames = dataclasses.replace(frames, assets=frames.assets.iloc[0:0])
    client = make_client()
    with pytest.raises(DocumentError, match=f"{MATCH_ID} has no telemetry asset"):
        client.telemetry(frames)
    skipped = client.telemetry(frames, on_error="skip")
    assert len(skipped) == 0
    assert MATCH_ID in skipped.problems[0]


def test_server_errors_are_retried_then_refused(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],
    match_document: dict[str, Any],
    telemetry_bytes: bytes,
) -> None:
    statuses = iter([503, 502, 200])

    def handler(request: Request) -> Response:
        status = next(statuses)
        body = telemetry_bytes if status == 200 else b"busy"
        return Response(body, status=status)

    httpserver.expect_request("/cdn/busy.json").respond_with_handler(handler)
    frames = frames_with_url(match_document, httpserver.url_for("/cdn/busy.json"))
    assert len(make_client().telemetry(frames).rounds) == 3
    httpserver.expect_request("/cdn/down.json").respond_with_data(b"down", status=500)
    down = frames_with_url(match_document, httpserver.url_for("/cdn/down.json"))
    with pytest.raises(ServiceError, match=f"500 .*{MATCH_ID}"):
        make_client().telemetry(down)


def test_arguments_are_checked(make_client: Callable[..., Client]) -> None:
    client = make_client()
    with pytest.raises(InvalidArgumentError, match="max_workers"):
        client.telemetry([MATCH_ID], max_workers=0)
    with pytest.raises(InvalidArgumentError, match="on_error"):
        client.telemetry([MATCH_ID], on_error="ignore")
    with pytest.raises(InvalidArgumentError, match="matches"):
        client.telemetry(42)  # type: ignore[arg-type]


@pytest.fixture
def serve_copies(
    httpserver: HTTPServer, match_document: dict[str, Any], telemetry_bytes: bytes
) -> Callable[[int], MatchFrames]:
    """Serves ``count`` matches M00, M01, ..., each with its own copy of the recorded telemetry,
    and gives their MatchFrames."""

    def serve(count: int) -> MatchFrames:
        events = orjson.loads(telemetry_bytes)
        parts = []
        for number in range(count):
            match_id = f"M{number:02d}"
            copied = orjson.loads(orjson.dumps(events))
            for event in copied:
                for key in ("matchID", "matchId"):
                    if key in event["dataObject"]:
                        event["dataObject"][key] = match_id
            path = f"/cdn/{match_id}.json"
            httpserver.expect_request(path).respond_with_data(orjson.dumps(copied))
            parts.append(frames_with_url(match_document, httpserver.url_for(path), match_id))
        return MatchFrames.concat(parts)

    return serve


def test_several_downloads_at_once_keep_input_order(
    serve_copies: Callable[[int], MatchFrames], make_client: Callable[..., Client]
) -> None:
    frames = serve_copies(12)
    telemetry = make_client().telemetry(frames, max_workers=3)
    assert telemetry.match_ids == [f"M{number:02d}" for number in range(12)]
    assert len(telemetry.user_round_spells) == 12 * 129


def test_a_new_file_is_decoded_once(
    httpserver: HTTPServer,
    make_client: Callable[..., Client],
    match_document: dict[str, Any],
    telemetry_bytes: bytes,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The file is checked (and decoded) once, and what is checked is what is stored and
    returned."""
    from matchkit.telemetry import parse as download

    path = f"/cdn/global/2018/04/21/10/24/{MATCH_ID}-telemetry.json"
    httpserver.expect_request(path).respond_with_data(
        telemetry_bytes, content_type="application/json"
    )
    checks: list[int] = []
    check = download.check_events

    def counted(raw: Any, **options: Any) -> Any:
        checks.append(len(raw))
        return check(raw, **options)

    monkeypatch.setattr(download, "check_events", counted)
    telemetry = make_client().telemetry(frames_with_url(match_document, httpserver.url_for(path)))
    assert checks == [len(telemetry_bytes)]
    assert len(telemetry.round_player_stats) > 0
    assert telemetry.files["events"].tolist() == [285]


@pytest.mark.parametrize("workers", [1, 3])
def test_files_become_tables_as_they_come_not_all_at_once(
    serve_copies: Callable[[int], MatchFrames],
    make_client: Callable[..., Client],
    httpserver: HTTPServer,
    monkeypatch: pytest.MonkeyPatch,
    workers: int,
) -> None:
    """The builder takes each file as it is fetched; at most ``AHEAD`` files per worker wait
    decoded beyond it, so memory does not grow with the number of matches."""
    from matchkit.client import downloads as assets
    from matchkit.telemetry import download

    frames = serve_copies(12)
    fetched_when_taken: list[int] = []
    build = assets.build_tables

    def counted(files: Any) -> Any:
        def taken() -> Iterator[Any]:
            for file in files:
                fetched_when_taken.append(
                    sum(request.path.startswith("/cdn/") for request, _ in httpserver.log)
                )
                yield file

        return build(taken())

    monkeypatch.setattr(assets, "build_tables", counted)
    telemetry = make_client().telemetry(frames, max_workers=workers)
    assert telemetry.match_ids == [f"M{number:02d}" for number in range(12)]
    assert len(fetched_when_taken) == 12
    assert fetched_when_taken[0] < 12  # before: every file was fetched before the first was read
    for taken, fetched in enumerate(fetched_when_taken, start=1):
        assert fetched <= taken + download.AHEAD * workers


def test_cached_files_are_read_where_they_are_taken_not_in_threads(
    serve_copies: Callable[[int], MatchFrames],
    make_client: Callable[..., Client],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reading a stored file holds the GIL: the pool only downloads. A warm re-run of the
    bench's 1,000 files took 0.76-0.83 s through the pool, 0.63-0.66 s this way."""
    from concurrent.futures import ThreadPoolExecutor

    frames = serve_copies(6)
    cold = make_client().telemetry(frames, max_workers=3)
    submitted: list[Any] = []
    submit = ThreadPoolExecutor.submit

    def counted(pool: ThreadPoolExecutor, function: Any, *args: Any) -> Any:
        submitted.append(args)
        return submit(pool, function, *args)

    monkeypatch.setattr(ThreadPoolExecutor, "submit", counted)
    warm = make_client().telemetry(frames, max_workers=3)
    assert submitted == []
    assert warm.match_ids == cold.match_ids
    for name, table in cold.tables.items():
        assert warm.tables[name].equals(table), name
