"""``Client.telemetry(match_ids, on_error="skip")`` fetched the good ids, then skipped a bad one.

An id a URL path cannot hold (``"a/b"``, say) was only checked when its match was fetched, after
the matches before it; under ``on_error="skip"`` its ``InvalidArgumentError`` became a line of
``problems`` and the telemetry came back without it. A bad argument is a mistake to fix, not a
match the service failed to give: every id is now checked before any request
(``client.arguments.checked_match_ids``, shared with ``get_matches``), and an id that is not a
string is named as such rather than as the whole list's type.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from matchkit.client.client import Client
from matchkit.errors import InvalidArgumentError
from matchkit.sampledata.dataset import open_dataset
from matchkit.service import RunningService
from tests.client.conftest import service_client


@pytest.mark.parametrize(
    ("bad", "named"), [("a/b", "match_id='a/b'"), ("..", "match_id='..'"), (5, "match_id=5")]
)
def test_a_bad_match_id_is_refused_before_any_request(
    sample_service: RunningService, tmp_path: Path, bad: object, named: str
) -> None:
    document = next(itertools.islice(open_dataset().iter_documents("global"), 1))
    good = (
        document["data"]["id"] if isinstance(document["data"], dict) else document["data"][0]["id"]
    )
    before = len(sample_service.requests)
    with service_client(sample_service, tmp_path) as client:
        for on_error in ("skip", "raise"):
            with pytest.raises(InvalidArgumentError) as raised:
                client.telemetry([good, bad], on_error=on_error)
            assert named in str(raised.value)
    assert len(sample_service.requests) == before


def test_one_id_alone_is_checked_and_a_non_iterable_is_named(tmp_path: Path) -> None:
    with Client(cache_dir=tmp_path, progress=False, offline=True) as client:
        with pytest.raises(InvalidArgumentError, match=r"matches must be MatchFrames .* not int"):
            client.telemetry(5)
        with pytest.raises(InvalidArgumentError, match="match_id='a/b'"):
            client.telemetry("a/b")
