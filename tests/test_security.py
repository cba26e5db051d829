"""Security: API keys compared in constant time and never leaked; loopback; no stray endpoints.

A distinctive key is planted and every artifact that could hold it is searched: the client's
DEBUG log, the messages and reprs of the client and its errors, the bytes of the HTTP cache
(SQLite file and its journal), the service's request log, and the service's own log and access
log (``matchkit serve``). Notebook outputs and the report's HTML are checked by the report's
tests.
"""

from __future__ import annotations

import hmac
import inspect
import logging
import socket
from pathlib import Path

import psutil
import pytest
import requests

from matchkit import AuthError, NotFoundError
from matchkit.client import RetryPolicy
from matchkit.client.cache import create_session
from matchkit.client.client import Client
from matchkit.sampledata.dataset import sample_data_path
from matchkit.service import auth, running, serve
from matchkit.service.auth import ApiKeys
from tests.serve_process import started_serve

PLANTED = "PLANTED-k3y-9f8e7d6c5b4a-LEAKCHECK"
OTHER = "another-valid-key-0000"
START, END = "2026-10-01T00:00:00Z", "2026-10-31T00:00:00Z"


# -- constant-time comparison ----------------------------------------------------------------


def test_the_service_compares_keys_with_compare_digest_only():
    source = inspect.getsource(auth.ApiKeys.authenticate)
    assert "hmac.compare_digest(" in source
    assert " == key" not in source
    assert "candidate in self._keys" not in source
    assert "presented in self._keys" not in source


def test_every_key_is_compared_whichever_matches(monkeypatch):
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def counting(left, right):
        calls.append((left, right))
        return real(left, right)

    monkeypatch.setattr(auth.hmac, "compare_digest", counting)
    keys = ApiKeys([PLANTED, OTHER, "third-key"])
    assert keys.authenticate(f"Bearer {PLANTED}") == PLANTED
    assert len(calls) == 3  # no early exit on the first (matching) key
    calls.clear()
    assert keys.authenticate("Bearer nope") is None
    assert len(calls) == 3
    assert all(isinstance(left, bytes) and isinstance(right, bytes) for left, right in calls)


def test_api_keys_repr_hides_the_keys():
    assert PLANTED not in repr(ApiKeys([PLANTED]))
    assert PLANTED not in str(ApiKeys([PLANTED]).__dict__.keys())


# -- no leaks --------------------------------------------------------------------------------


def _cache_bytes(folder: Path) -> bytes:
    return b"".join(path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file())


def test_planted_key_never_reaches_logs_messages_reprs_or_the_cache(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    cache_dir = tmp_path / "cache"
    with running(api_keys=[PLANTED], faults="503=0.2,429=0.1,seed=4") as service:
        with Client(
            service.base_url,
            api_key=PLANTED,
            cache_dir=cache_dir,
            now=END,
            rate_limit="off",
            progress=False,
        ) as client:
            client.retry_policy = RetryPolicy(attempts=10, sleep=lambda seconds: None)
            frames = client.matches(START, END, max_matches=40)
            client.status()
            texts = [repr(client), str(client.__dict__), repr(client.transport), repr(frames)]
            with pytest.raises(NotFoundError) as missing:
                client.get_match("no-such-match")
            errors = [missing.value]
        # A key the service does not accept: the error names neither key.
        with Client(
            service.base_url,
            api_key=PLANTED + "-wrong",
            cache_dir=tmp_path / "other",
            now=END,
            progress=False,
        ) as refused:
            with pytest.raises(AuthError) as denied:
                refused.matches(START, END)
            errors.append(denied.value)
            texts.append(repr(refused))
        texts.append(repr(service))
        texts.extend(repr(entry) for entry in service.requests)
    assert len(frames) == 40
    for error in errors:
        texts.extend([str(error), repr(error), repr(error.errors), str(error.url)])
    texts.extend(record.getMessage() for record in caplog.records)
    texts.append(caplog.text)
    assert any("GET" in record.getMessage() for record in caplog.records)  # DEBUG was on
    for text in texts:
        assert PLANTED not in text, text
    cached = _cache_bytes(cache_dir)
    assert b"shards/global/matches" in cached  # the cache holds the pages...
    assert PLANTED.encode() not in cached  # ...and not the key
    assert b"Bearer" not in cached


def test_a_session_caches_no_authorization_header(tmp_path):
    with running(api_keys=[PLANTED]) as service:
        session = create_session(tmp_path)
        response = session.get(
            service.base_url + "/shards/global/matches",
            headers={"Authorization": f"Bearer {PLANTED}"},
            params={"page[limit]": 1},
            expire_after=60,
            timeout=30,
        )
        assert response.status_code == 200
        again = session.get(
            service.base_url + "/shards/global/matches",
            headers={"Authorization": f"Bearer {PLANTED}"},
            params={"page[limit]": 1},
            expire_after=60,
            timeout=30,
        )
        assert again.from_cache
        stored_request_headers = dict(again.request.headers)
        session.close()
    assert PLANTED not in str(stored_request_headers)
    assert PLANTED.encode() not in _cache_bytes(tmp_path)


def test_matchkit_serve_logs_no_key(tmp_path):
    arguments = ("--rate-limit", "2/minute", "--api-key", PLANTED, "--faults", "500=0.3,seed=1")
    with started_serve(*arguments, cache_dir=tmp_path / "cache") as served:
        base_url = served.base_url
        headers = {"Authorization": f"Bearer {PLANTED}"}
        for path in ("/shards/global/matches", "/shards/na/matches", "/shards/global/matches/x"):
            for _ in range(2):
                requests.get(base_url + path, headers=headers, timeout=30)
        requests.get(
            base_url + "/shards/global/matches", headers={"Authorization": "x"}, timeout=30
        )
        requests.get(base_url + "/status", headers=headers, timeout=30)
    assert "GET /shards/global/matches" in served.output  # uvicorn's access log (stdout)
    assert PLANTED not in "".join(served.banner) + served.output


# -- exposure --------------------------------------------------------------------------------


def test_the_service_binds_to_loopback_by_default():
    assert inspect.signature(serve).parameters["host"].default == "127.0.0.1"
    assert inspect.signature(running).parameters["host"].default == "127.0.0.1"
    with running() as service:
        port = int(service.base_url.rsplit(":", 1)[1])
        listening = [
            connection.laddr
            for connection in psutil.Process().net_connections(kind="tcp")
            if connection.status == psutil.CONN_LISTEN and connection.laddr.port == port
        ]
    assert [address.ip for address in listening] == ["127.0.0.1"]


def test_matchkit_serve_defaults_to_loopback():
    from matchkit.cli.parser import build_parser

    arguments = build_parser().parse_args(["serve"])
    assert arguments.host == "127.0.0.1"


@pytest.fixture(scope="module")
def service():
    with running() as handle:
        yield handle


def _get(service, path: str, method: str = "GET") -> requests.Response:
    return requests.request(
        method,
        service.base_url + path,
        headers={"Authorization": f"Bearer {service.api_key}"},
        timeout=30,
    )


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/docs",
        "/openapi.json",
        "/admin",
        "/metrics",
        "/shards",
        "/shards/global",
        "/shards/global/teams",
        "/shards/global/players/x/y",
        "/shards/global/matches/x/y",
        "/static/manifest.json",
        "/manifest.json",
        "/data/manifest.json",
        "/.git/config",
        "/status/x",
    ],
)
def test_only_documented_endpoints_exist(service, path):
    response = _get(service, path)
    assert response.status_code == 404
    assert response.json()["errors"][0]["status"] == "404"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "TRACE"])
@pytest.mark.parametrize("path", ["/status", "/shards/global/matches", "/shards/na/matches/x"])
def test_documented_endpoints_answer_only_get_head_and_options(service, path, method):
    response = _get(service, path, method)
    assert response.status_code == 405
    assert response.headers["Allow"] == "GET, HEAD, OPTIONS"


def _raw_get(service, target: str) -> bytes:
    port = int(service.base_url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(
            f"GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            f"Authorization: Bearer {service.api_key}\r\n\r\n".encode()
        )
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    return received


TRAVERSALS = [
    "/shards/../../etc/passwd",
    "/shards/global/matches/../../../../etc/passwd",
    "/shards/%2e%2e/%2e%2e/etc/passwd",
    "/shards/global/matches/..%2F..%2F..%2Fetc%2Fpasswd",
    "/shards/global/matches/%2e%2e%2f%2e%2e%2fmanifest.json",
    "/shards/global/matches/..%5C..%5Cmanifest.json",
    "/shards/..%2f..%2fdata/matches",
    "/shards/global/matches/%252e%252e%252fetc%252fpasswd",
    "/..%2f..%2f..%2fetc/passwd",
    "/shards/global/matches/....//....//etc/passwd",
    "/shards/global/matches/%00../../etc/passwd",
]


@pytest.mark.parametrize("target", TRAVERSALS)
def test_path_traversal_reads_nothing_outside_the_data_set(service, target):
    received = _raw_get(service, target)
    head, _, body = received.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    assert status in (400, 404), received[:300]
    assert b"root:" not in body
    manifest = (sample_data_path() / "manifest.json").read_bytes()
    assert manifest[:200] not in body
    assert b'"as_of"' not in body


def test_a_match_id_is_only_ever_looked_up_as_an_id(service):
    # Ids travel to the store as SQL parameters; a quote or a wildcard matches nothing.
    for match_id in ["' OR '1'='1", "%", "*", "1; DROP TABLE matches", "_"]:
        response = _get(service, "/shards/global/matches/" + requests.utils.quote(match_id))
        assert response.status_code == 404, match_id
    assert _get(service, "/shards/global/matches").status_code == 200  # the table is intact
