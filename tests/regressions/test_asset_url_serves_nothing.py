"""Issue 13: the telemetry asset of every generated match pointed at ``https://cdn.example.com``,
a URL that serves nothing. The URL a served match document gives now answers the file."""

from __future__ import annotations

import requests

from matchkit.sampledata.dataset import open_dataset
from matchkit.service import running
from matchkit.synth import write_dataset


def test_the_asset_url_of_a_served_match_answers_its_telemetry(tmp_path):
    write_dataset(tmp_path / "data", matches=12, na_matches=1)
    match_id = next(open_dataset(tmp_path / "data").iter_documents("global"))["data"]["id"]
    with running(data=tmp_path / "data", store_dir=tmp_path / "store") as service:
        document = requests.get(
            f"{service.base_url}/shards/global/matches/{match_id}",
            headers={"Authorization": f"Bearer {service.api_key}"},
            timeout=30,
        ).json()
        (url,) = [i["attributes"]["URL"] for i in document["included"] if i["type"] == "asset"]
        assert url.startswith(f"{service.base_url}/telemetry/global/")
        response = requests.get(url, headers={"Accept": "application/json"}, timeout=30)
    assert response.status_code == 200
    events = response.json()
    assert isinstance(events, list)
    assert {"cursor", "type", "dataObject"} == set(events[0])
