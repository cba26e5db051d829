"""`matchkit serve`: starts the service, prints the base URL and the key, answers over HTTP."""

from __future__ import annotations

import requests

from tests.serve_process import run_serve, started_serve
from tests.service.conftest import error_of


def test_matchkit_serve_prints_url_and_key_and_serves(dataset_dir, tmp_path):
    arguments = ("--data", str(dataset_dir), "--rate-limit", "2/minute")
    with started_serve(*arguments, cache_dir=tmp_path / "cache") as served:
        assert served.banner[0].startswith("matchkit service on http://127.0.0.1:"), served.banner
        base_url, key = served.base_url, served.api_key
        assert key
        assert requests.get(f"{base_url}/status", timeout=30).status_code == 200
        headers = {"Authorization": f"Bearer {key}"}
        first = requests.get(f"{base_url}/shards/global/matches", headers=headers, timeout=30)
        assert first.status_code == 200
        assert first.headers["X-RateLimit-Limit"] == "2"
        requests.get(f"{base_url}/shards/global/matches", headers=headers, timeout=30)
        third = requests.get(f"{base_url}/shards/global/matches", headers=headers, timeout=30)
        assert third.status_code == 429
        assert error_of(third)["status"] == "429"
    assert key not in served.output, "the key must not reach the log"
    assert "GET /shards/global/matches" in served.output  # the access log is on, without headers


def test_matchkit_serve_rejects_a_bad_rate_limit(dataset_dir, tmp_path):
    result = run_serve("--rate-limit", "fast", "--data", str(dataset_dir), cache_dir=tmp_path)
    assert result.returncode == 2
    assert "rate_limit" in result.stderr
