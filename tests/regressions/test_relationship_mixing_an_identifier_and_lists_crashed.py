"""A to-many relationship given as one identifier object beside resources that list theirs
(each is valid: data is an identifier, a list of them or null) raised a raw TypeError out of the
typed reader ("object of type 'Identifier' has no len()"), and a DocumentError ("malformed") out
of the general reader; alone in its batch, the same object was read as one identifier. Both
readers now read it as one identifier, whatever the batch holds beside it."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from matchkit import to_frames
from matchkit.normalize import walker
from tests.builders.resources import arena, page


def _page_with_one_roster_naming_a_single_participant() -> dict[str, Any]:
    document = page(arena("m1"))
    roster = next(r for r in document["included"] if r["type"] == "roster")
    roster["relationships"]["participants"]["data"] = roster["relationships"]["participants"][
        "data"
    ][0]
    return document


@pytest.mark.parametrize("rows", [1, walker.FLUSH_ROWS], ids=["batches of one", "one batch"])
def test_an_identifier_beside_lists_is_read_as_one_identifier(
    rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(walker, "FLUSH_ROWS", rows)
    document = _page_with_one_roster_naming_a_single_participant()
    typed, general = to_frames(orjson.dumps(document)), to_frames(document)
    for frames in (typed, general):
        rosters = frames.participants["roster_id"]
        assert (rosters == "m1-r1").sum() == 1  # the one identifier the first roster names
        assert (rosters == "m1-r2").sum() == 2
        assert frames.problems == (
            "1 of 4 participants are listed by no roster; their roster_id is <NA>",
        )
    assert typed.participants.equals(general.participants)
    assert typed.rosters.equals(general.rosters)


def test_null_and_an_identifier_beside_lists() -> None:
    # m1's rosters name one participant and none; m2's list theirs.
    document = page(arena("m1"), arena("m2"))
    first, second = (r for r in document["included"] if r["type"] == "roster" and "m1" in r["id"])
    first["relationships"]["participants"]["data"] = first["relationships"]["participants"]["data"][
        0
    ]
    second["relationships"]["participants"]["data"] = None
    typed, general = to_frames(orjson.dumps(document)), to_frames(document)
    for frames in (typed, general):
        rosters = frames.participants["roster_id"]
        assert rosters.notna().sum() == 5  # one of m1's participants, and m2's four
        assert (rosters == "m1-r1").sum() == 1
    assert typed.participants.equals(general.participants)
