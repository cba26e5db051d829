"""Issue 11 item 10: page[offset] / page[limit] of ``--5``, an offset above 2^63-1, or a value
over 4,300 digits (Python's int-str limit) answered 500. Each is a 400 naming the parameter."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from matchkit.service import RunningService
from tests.service.small import get, small_service

LIST = "/shards/global/matches"
BAD_VALUES = {
    "double minus": "--5",
    "2^63": str(2**63),
    "2^64 + 1": str(2**64 + 1),
    "4,301 digits": "9" * 4301,
    "5,000 digits, leading zeros": "0" * 4999 + "5",
    "minus and 4,301 digits": "-" + "9" * 4301,
}


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    with small_service(tmp_path_factory.mktemp("paging-values")) as handle:
        yield handle


@pytest.mark.parametrize("parameter", ["page[offset]", "page[limit]"])
@pytest.mark.parametrize("value", list(BAD_VALUES.values()), ids=list(BAD_VALUES))
def test_bad_paging_value_is_a_400_naming_the_parameter(service, parameter, value):
    response = get(service, LIST, params={parameter: value})
    assert response.status_code == 400, response.text[:200]
    (error,) = response.json()["errors"]
    assert error["status"] == "400"
    assert error["source"] == {"parameter": parameter}
    assert len(error["detail"]) < 300, "the message must not echo thousands of digits"
    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_largest_offset_is_an_empty_page_and_zero_padding_reads_as_the_number(service):
    largest = get(service, LIST, params={"page[offset]": str(2**63 - 1)})
    assert largest.status_code == 200, largest.text[:200]
    assert largest.json()["data"] == []
    padded = get(service, LIST, params={"page[limit]": "0002", "page[offset]": "00"})
    assert padded.status_code == 200, padded.text[:200]
    assert len(padded.json()["data"]) == 2
    assert "page[limit]=2" in padded.json()["links"]["next"]


def test_service_log_has_no_internal_error(service):
    for value in BAD_VALUES.values():
        get(service, LIST, params={"page[offset]": value})
    statuses = {entry.status for entry in service.requests}
    assert not {status for status in statuses if status >= 500}
