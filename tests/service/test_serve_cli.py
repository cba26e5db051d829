"""`matchkit serve`: starts the service, prints the base URL and the key, answers over HTTP."""

from __future__ import annotations

import os
import subprocess
import sys

import requests

from tests.service.conftest import error_of


def test_matchkit_serve_prints_url_and_key_and_serves(dataset_dir, tmp_path):
    environment = {**os.environ, "MATCHKIT_CACHE_DIR": str(tmp_path / "cache")}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "matchkit",
            "serve",
            "--port",
            "0",
            "--data",
            str(dataset_dir),
            "--rate-limit",
            "2/minute",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    try:
        url_line = process.stdout.readline()
        key_line = process.stdout.readline()
        assert url_line.startswith("matchkit service on http://127.0.0.1:"), url_line
        base_url = url_line.split()[-1]
        key = key_line.removeprefix("API key: ").strip()
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
    finally:
        process.terminate()
        rest, errors = process.communicate(timeout=30)
    logged = rest + errors
    assert key not in logged, "the key must not reach the log"
    assert "GET /shards/global/matches" in logged  # the access log is on, without headers


def test_matchkit_serve_rejects_a_bad_rate_limit(dataset_dir, tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "matchkit",
            "serve",
            "--rate-limit",
            "fast",
            "--data",
            str(dataset_dir),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "MATCHKIT_CACHE_DIR": str(tmp_path)},
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "rate_limit" in result.stderr
