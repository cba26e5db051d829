"""client.names() under PUBG: the dictionaries PUBG publishes apart from its API (api-assets),
read through the one transport without the key, cached so that they work offline, checked
before use; a local copy read from disk; an id without a name shown as its id."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import orjson
import pytest
import requests

from matchkit.client.client import Client
from matchkit.client.retrying import RetryPolicy
from matchkit.errors import CacheMissError, DocumentError, InvalidArgumentError
from matchkit.rules.profiles import PUBG
from matchkit.service import RunningService
from tests.client.pubg.conftest import NOW, CdnProxy

PUBLISHED = PUBG.name_dictionaries
assert PUBLISHED is not None
FOLDER = urlsplit(PUBLISHED.url).path  # /pubg/api-assets/master/dictionaries/


def test_the_embedded_double_names_maps_modes_and_causers(tmp_path: Path) -> None:
    with Client(profile="pubg", now=NOW, cache_dir=tmp_path, progress=False) as client:
        names = client.names()
        assert set(names.names) == set(PUBLISHED.files)
        assert names.name("map", "Baltic_Main") == "Erangel"
        assert names.name("game_mode", "squad-fpp") == "Squad FPP"
        assert names.name("damage_causer", "WeapHK416_C") == "M416"
        # new maps and causers appear before the dictionaries know them: shown as their ids
        assert names.name("damage_causer", "IBRTransportAircraft_C") == "IBRTransportAircraft_C"
        assert names.name("map", "TslGameMode_LandmarkBP_C") == "TslGameMode_LandmarkBP_C"
        asked = client.transport.network_requests
        assert client.names() == names
        assert client.transport.network_requests == asked  # the second time, from the cache


def test_dictionaries_go_without_the_key_and_work_offline_afterwards(
    pubg_client: Callable[..., Client], cdn_proxy: CdnProxy, tmp_path: Path
) -> None:
    folder = cdn_proxy.url + FOLDER
    online = pubg_client(cache_dir=tmp_path / "cache")  # holds the double's key
    names = online.names(dictionaries=folder)
    assert names.name("map", "Desert_Main") == "Miramar"
    assert len(cdn_proxy.headers) == len(PUBLISHED.files)
    assert all("Authorization" not in headers for headers in cdn_proxy.headers)
    offline = pubg_client(cache_dir=tmp_path / "cache", offline=True)
    assert offline.names(dictionaries=folder) == names
    assert len(cdn_proxy.headers) == len(PUBLISHED.files)  # nothing more was asked


def test_a_page_that_is_not_a_dictionary_is_refused_and_never_cached(
    pubg_client: Callable[..., Client], cdn_proxy: CdnProxy
) -> None:
    client = pubg_client()
    client.retry_policy = RetryPolicy(attempts=2, sleep=lambda _: None)
    cdn_proxy.body = b"<html>rate limited, try again</html>"
    with pytest.raises(DocumentError, match="dictionary of map names"):
        client.names(dictionaries=cdn_proxy.url + FOLDER)
    cdn_proxy.body = orjson.dumps({"Baltic_Main": 7})  # JSON, but not id -> name
    with pytest.raises(DocumentError, match="not a dictionary of names"):
        client.names(dictionaries=cdn_proxy.url + FOLDER)
    cdn_proxy.body = None
    assert client.names(dictionaries=cdn_proxy.url + FOLDER).name("map", "Baltic_Main") == (
        "Erangel"
    )


def test_a_local_copy_is_read_from_disk(
    pubg_service: RunningService, pubg_client: Callable[..., Client], tmp_path: Path
) -> None:
    assert pubg_service.telemetry_url is not None
    copy = tmp_path / "api-assets"
    for path in PUBLISHED.files.values():
        answer = requests.get(pubg_service.telemetry_url + FOLDER + path, timeout=30)
        (copy / "dictionaries" / path).parent.mkdir(parents=True, exist_ok=True)
        (copy / "dictionaries" / path).write_bytes(answer.content)
    client = pubg_client()
    names = client.names(dictionaries=copy)  # the clone, or its dictionaries folder
    assert names == client.names(dictionaries=copy / "dictionaries")
    assert names.name("vehicle", "Uaz_A_01_C") == "UAZ"
    assert names.name("map", "Baltic_Main") == "Erangel"
    assert client.transport.network_requests == 0
    (copy / "dictionaries" / PUBLISHED.files["item"]).unlink()
    with pytest.raises(InvalidArgumentError, match=r"itemId\.json"):
        client.names(dictionaries=copy)
    (copy / "dictionaries" / PUBLISHED.files["item"]).write_text("[1, 2]")
    with pytest.raises(DocumentError, match="not a dictionary of names"):
        client.names(dictionaries=copy)


def test_the_real_apis_names_are_pubgs_api_assets(tmp_path: Path) -> None:
    """Offline (nothing leaves this machine): the request a remote PUBG client makes is to
    PUBG's published dictionaries."""
    client = Client(
        "https://api.pubg.com", profile="pubg", offline=True, cache_dir=tmp_path, now=NOW
    )
    with (
        client,
        pytest.raises(CacheMissError, match=r"raw\.githubusercontent\.com/pubg/api-assets"),
    ):
        client.names()


def test_a_profile_whose_service_names_its_ids_takes_no_dictionaries(tmp_path: Path) -> None:
    client = Client("http://127.0.0.1:9", cache_dir=tmp_path, progress=False)
    with client, pytest.raises(InvalidArgumentError, match="catalogue"):
        client.names(dictionaries="https://example.invalid/dictionaries/")
    assert client.transport.network_requests == 0
