"""The normalizer fuzzing (tests/normalize/test_fuzz.py) found: a stats value nested 1,000 deep
raised RecursionError out of to_frames. ``text_value`` fell back to ``str(value)`` for a value
orjson cannot encode (nested more than 255 deep), and its repr overflowed the recursion limit.
At this depth the page is now a DocumentError that says so; a value the parser reads (600
deep) is kept as text."""

from __future__ import annotations

import orjson
import pytest

from matchkit import DocumentError, to_frames
from tests.builders.matches import arena_match, bot, player

DEPTH = 1000


def _page_with_deep_kills() -> bytes:
    """A built match whose first participant's ``kills`` is an object nested ``DEPTH`` deep."""
    document = arena_match(
        "M1", participants=[[player("a"), bot("b")], [player("c")]], rounds=[(60, 1), (70, 2)]
    )
    raw = orjson.dumps(document)
    deep = ('{"a":' * DEPTH + "1" + "}" * DEPTH).encode()
    assert b'"kills":0' in raw
    return raw.replace(b'"kills":0', b'"kills":' + deep, 1)


def test_stats_nested_1000_deep_are_a_document_error_that_says_so() -> None:
    # Deeper than the parser goes: refused, saying why. (A value the parser reads, 600 deep, is
    # kept as text: tests/normalize/test_fuzz.py.)
    with pytest.raises(DocumentError, match="nested too deeply"):
        to_frames(_page_with_deep_kills())
