"""Regression: a PUBG telemetry file whose LogMatchDefinition carries a ``MatchId`` that is not
text (``[]``, a number, an object) raised msgspec's ValidationError from inside the reader, not a
DocumentError. Found by ``tests/telemetry/pubg/test_bad_input.py``'s property test
(``test_any_json_is_tables_or_a_typed_error``) in a whole run."""

from __future__ import annotations

import gzip

import orjson
import pytest

from matchkit.errors import DocumentError
from matchkit.telemetry.pubg import read_pubg_file

TIME = "2025-07-12T17:12:02.807Z"


@pytest.mark.parametrize("match_id", [[], 5, {"a": 1}, True])
@pytest.mark.parametrize("packed", [False, True], ids=["bytes", "gzip"])
def test_a_definition_whose_match_id_is_not_text_is_a_document_error(
    match_id: object, packed: bool
) -> None:
    events = [
        {"_T": "LogMatchStart", "_D": TIME},
        {"_T": "LogMatchDefinition", "_D": TIME, "MatchId": match_id},
    ]
    content = orjson.dumps(events)
    with pytest.raises(
        DocumentError, match=r"event 1 \(LogMatchDefinition\) has a MatchId that is not text"
    ):
        read_pubg_file(gzip.compress(content) if packed else content)
