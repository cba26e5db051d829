"""Fault injection (``faults=``): the spec, the seeded sequence, and each fault on the wire."""

from __future__ import annotations

import socket
from collections import Counter

import pytest
import requests

from matchkit.errors import InvalidArgumentError
from matchkit.service import create_app, running
from matchkit.service.faults import FAULT_KINDS, NO_RESPONSE_STATUS, FaultInjector, Faults
from tests.serve_process import run_serve, started_serve
from tests.service.conftest import error_of

LIST = "/shards/global/matches"


# -- the spec --------------------------------------------------------------------------------


def test_spec_string_sets_each_probability_and_the_settings():
    faults = Faults.parse(
        "500=0.05,503=0.05,502=0.02,504=0.02,drop=0.03,slow=0.02,truncate=0.02,429=0.05,"
        "seed=7,slow_seconds=2.5,retry_after=3"
    )
    assert faults == Faults(
        internal_error=0.05,
        unavailable=0.05,
        bad_gateway=0.02,
        gateway_timeout=0.02,
        drop=0.03,
        slow=0.02,
        truncate=0.02,
        rate_limited=0.05,
        seed=7,
        slow_seconds=2.5,
        retry_after=3,
    )
    assert set(faults.rates()) == set(FAULT_KINDS)
    assert Faults.parse(str(faults)) == faults  # the printed form reads back


@pytest.mark.parametrize("spec", [None, "", "off", " OFF "])
def test_no_faults(spec):
    assert Faults.parse(spec) is None


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("500=2", "from 0 to 1"),
        ("500=-0.1", "from 0 to 1"),
        ("500=0.6,drop=0.6", "add up to 1.2"),
        ("404=0.1", "unknown key '404'"),
        ("drop", "KEY=VALUE"),
        ("drop=often", "not a float"),
        ("drop=nan", "finite"),
        ("seed=1.5", "not a int"),
        ("drop=0.1,drop=0.2", "given twice"),
        ("slow=0.1,slow_seconds=0", "slow_seconds"),
        ("retry_after=-1", "retry_after"),
    ],
)
def test_bad_spec_is_an_invalid_argument_naming_the_problem(spec, words):
    with pytest.raises(InvalidArgumentError, match="faults") as raised:
        Faults.parse(spec)
    assert words in str(raised.value)
    assert raised.value.parameter == "faults"


def test_faults_must_be_a_spec_or_a_value(dataset_dir, store_dir):
    with pytest.raises(InvalidArgumentError, match="spec string"):
        create_app(data=dataset_dir, store_dir=store_dir, faults=0.5)


def test_the_sequence_is_fixed_by_the_seed_and_follows_the_probabilities():
    faults = Faults(internal_error=0.1, drop=0.2, truncate=0.05, seed=11)
    first = [FaultInjector(faults).draw() for _ in range(1)]
    one, two = FaultInjector(faults), FaultInjector(faults)
    sequence = [one.draw() for _ in range(4000)]
    assert sequence == [two.draw() for _ in range(4000)]
    assert sequence[:1] == first
    other = FaultInjector(Faults(internal_error=0.1, drop=0.2, truncate=0.05, seed=12))
    assert sequence != [other.draw() for _ in range(4000)]
    counts = Counter(sequence)
    assert counts == one.counts + Counter({None: counts[None]})
    # Within 5 standard deviations of the binomial expectations.
    for kind, rate in (("500", 0.1), ("drop", 0.2), ("truncate", 0.05), (None, 0.65)):
        spread = 5 * (4000 * rate * (1 - rate)) ** 0.5
        assert abs(counts[kind] - 4000 * rate) < spread, (kind, counts[kind])


# -- on the wire -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def serve_with(dataset_dir, store_dir):
    """Start a service on the factory data set with a given fault spec."""

    def start(spec: str, **options):
        return running(data=dataset_dir, store_dir=store_dir, faults=spec, **options)

    return start


def _get(service, path=LIST, *, timeout=10.0, **options):
    headers = {"Authorization": f"Bearer {service.api_key}", **options.pop("headers", {})}
    return requests.get(service.base_url + path, headers=headers, timeout=timeout, **options)


@pytest.mark.parametrize(("kind", "title"), [("500", "Internal Server Error"), ("503", None)])
def test_500_and_503_answer_a_json_api_error(serve_with, kind, title):
    with serve_with(f"{kind}=1") as service:
        response = _get(service)
    assert response.status_code == int(kind)
    assert response.headers["Content-Type"] == "application/json"
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    error = error_of(response)
    assert error["detail"]
    if title:
        assert error["title"] == title


@pytest.mark.parametrize("kind", ["502", "504"])
def test_502_and_504_answer_a_gateway_html_page(serve_with, kind):
    with serve_with(f"{kind}=1") as service:
        response = _get(service)
    assert response.status_code == int(kind)
    assert response.headers["Content-Type"] == "text/html"
    assert response.text.lstrip().startswith("<html>")
    assert f"<h1>{kind} " in response.text
    assert int(response.headers["Content-Length"]) == len(response.content)


def test_429_carries_the_rate_limit_headers(serve_with):
    with serve_with("429=1,retry_after=4", rate_limit="30/minute") as service:
        response = _get(service)
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "4"
    assert response.headers["X-RateLimit-Limit"] == "30"
    assert response.headers["X-RateLimit-Remaining"] == "0"
    assert response.headers["X-RateLimit-Reset"] == str(4 * 10**9)
    assert "rate limit" in error_of(response)["detail"]


def test_drop_closes_the_connection_without_a_response(serve_with):
    with serve_with("drop=1") as service:
        with pytest.raises(requests.ConnectionError, match="without response"):
            _get(service)
        # The service is still up, and logs the dropped request with status 0.
        assert requests.get(service.base_url + "/status", timeout=10).status_code == 200
        statuses = [(entry.path, entry.status) for entry in service.requests]
    assert statuses == [(LIST, NO_RESPONSE_STATUS), ("/status", 200)]


def test_drop_at_the_socket_level_reads_nothing(serve_with):
    with serve_with("drop=1") as service:
        port = int(service.base_url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(
                f"GET {LIST} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {service.api_key}"
                "\r\n\r\n".encode()
            )
            assert connection.recv(65536) == b""  # closed: not a single byte of response


def test_slow_holds_the_response_past_the_client_timeout(serve_with):
    with serve_with("slow=1,slow_seconds=3") as service:
        with pytest.raises(requests.ReadTimeout):
            _get(service, timeout=0.3)
        # A client that waits long enough gets the full answer.
        patient = _get(service, timeout=30)
        assert patient.status_code == 200
        assert patient.json()["data"]
        statuses = [entry.status for entry in service.requests]
    assert statuses == [NO_RESPONSE_STATUS, 200]


def test_truncate_announces_the_full_length_and_cuts_the_body(serve_with):
    with serve_with("truncate=1") as service:
        port = int(service.base_url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(
                f"GET {LIST} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {service.api_key}"
                "\r\n\r\n".encode()
            )
            received = b""
            while chunk := connection.recv(65536):
                received += chunk
        with pytest.raises(requests.exceptions.ChunkedEncodingError):
            _get(service)
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length")
    )
    assert 0 < len(body) < length


def test_status_and_unknown_paths_are_never_faulted(serve_with):
    with serve_with("500=1") as service:
        assert requests.get(service.base_url + "/status", timeout=10).status_code == 200
        assert requests.get(service.base_url + "/nowhere", timeout=10).status_code == 404
        assert requests.options(service.base_url + LIST, timeout=10).status_code == 200
        assert _get(service).status_code == 500
        assert service.app.state.fault_injector.counts == Counter({"500": 1})


def test_same_seed_same_statuses_over_http(serve_with):
    spec = "500=0.2,503=0.2,502=0.1,429=0.1,seed=5"
    runs = []
    for _ in range(2):
        with serve_with(spec) as service:
            runs.append([_get(service).status_code for _ in range(40)])
    assert runs[0] == runs[1]
    assert set(runs[0]) == {200, 500, 503, 502, 429}


def test_matchkit_serve_faults_option(dataset_dir, tmp_path):
    arguments = ("--data", str(dataset_dir), "--rate-limit", "off", "--faults", "503=1,seed=3")
    with started_serve(*arguments, cache_dir=tmp_path / "cache") as served:
        assert served.process.stdout.readline().strip() == "injecting faults: 503=1,seed=3"
        response = requests.get(
            served.base_url + LIST,
            headers={"Authorization": f"Bearer {served.api_key}"},
            timeout=30,
        )
        assert response.status_code == 503


def test_matchkit_serve_rejects_a_bad_fault_spec(dataset_dir, tmp_path):
    result = run_serve("--faults", "teapot=1", "--data", str(dataset_dir), cache_dir=tmp_path)
    assert result.returncode == 2
    assert "unknown key 'teapot'" in result.stderr
