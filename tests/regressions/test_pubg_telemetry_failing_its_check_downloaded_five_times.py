"""Issue 36: a PUBG telemetry file that fails its check was downloaded 5 times per match
before failing (each answer was taken for a broken proxy reply and retried).

Now a file that fails its check is a DocumentError the first time: one download, nothing
cached, so once the host serves the right file the next call gets it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import requests

from matchkit.client.client import Client
from matchkit.errors import DocumentError
from tests.client.pubg.conftest import CdnProxy, cdn_proxy, pubg_client, pubg_service, through

__all__ = ["cdn_proxy", "pubg_client", "pubg_service"]  # the fixtures this module uses


def test_a_broken_pubg_file_is_downloaded_once(
    pubg_client: Callable[..., Client], cdn_proxy: CdnProxy
) -> None:
    client = pubg_client()
    sample = client.samples(start="2026-11-13T00:00:00Z")
    match_id = sample.matches["match_id"].iloc[0]
    frames = through(sample.filter(sample.matches["match_id"] == match_id), cdn_proxy)
    url = sample.assets.set_index("match_id").loc[match_id, "url"]
    whole = requests.get(url, timeout=30, headers={"Accept-Encoding": "identity"}).content
    cdn_proxy.body = whole[: len(whole) // 2]  # a file cut short
    with pytest.raises(DocumentError, match=match_id):
        client.telemetry(frames)
    assert len(cdn_proxy.headers) == 1
