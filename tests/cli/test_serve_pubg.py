"""`matchkit serve --profile pubg`: the PUBG double and its telemetry host from the command line."""

from __future__ import annotations

import re

import requests

from tests.serve_process import run_serve, started_serve
from tests.service.pubg.conftest import VND


def test_matchkit_serve_profile_pubg_serves_the_double(tmp_path) -> None:
    with started_serve(
        "--profile", "pubg", "--rate-limit", "2/minute", cache_dir=tmp_path
    ) as served:
        assert served.banner[0].startswith("matchkit PUBG service on http://127.0.0.1:")
        assert "telemetry files on http://127.0.0.1:" in served.banner[2]
        # the names, where the banner says, as PUBG publishes its own (api-assets)
        names = re.search(r"names at (\S+) ", served.banner[2])
        assert names is not None
        assert names.group(1).endswith("/pubg/api-assets/master/dictionaries/")
        maps = requests.get(names.group(1) + "telemetry/mapName.json", timeout=30).json()
        assert maps["Baltic_Main"] == "Erangel"
        status = requests.get(f"{served.base_url}/status", headers={"Accept": VND}, timeout=30)
        assert status.json()["data"]["id"] == "pubg-api"
        sent = {"Authorization": f"Bearer {served.api_key}", "Accept": VND}
        answers = [
            requests.get(f"{served.base_url}/shards/steam/seasons", headers=sent, timeout=30)
            for _ in range(3)
        ]
        assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert served.api_key not in served.output


def test_an_option_of_the_other_service_is_refused_by_name(tmp_path) -> None:
    result = run_serve("--profile", "pubg", "--faults", "500=0.1", cache_dir=tmp_path)
    assert result.returncode == 2
    assert "faults is not an option of the pubg profile's service" in result.stderr
