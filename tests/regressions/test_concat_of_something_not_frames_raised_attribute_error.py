"""Issue 26, A10: ``MatchFrames.concat`` and ``TelemetryFrames.concat`` of something that is not
frames raised AttributeError or TypeError (``'int' object has no attribute 'tables'``), or a
KeyError for the other kind of frames; ``MatchFrames.merge``, ``Names.merge`` and
``consistency_problems`` too. Every method that combines frames now checks what it is given,
once (:class:`matchkit.model.base.DeclaredFrames`), and raises an argument error naming it."""

from __future__ import annotations

from typing import Any

import pytest

from matchkit import MatchFrames
from matchkit.errors import InvalidArgumentError
from matchkit.names import sample_names
from matchkit.telemetry import TelemetryFrames
from matchkit.telemetry.consistency import consistency_problems

KINDS = (MatchFrames, TelemetryFrames)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
@pytest.mark.parametrize(
    ("given", "named"),
    [
        ([1], "item 0 is int 1"),
        ([None], "item 0 is NoneType None"),
        (None, "not NoneType None"),
        (5, "not int 5"),
        ("matches", "not str 'matches'"),
    ],
)
def test_concat_of_what_is_not_frames_names_it(kind: Any, given: Any, named: str) -> None:
    with pytest.raises(InvalidArgumentError, match=f"{kind.__name__}.concat: frames .*{named}"):
        kind.concat(given)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_concat_of_the_other_kind_or_of_one_frames_names_it(kind: Any) -> None:
    other = TelemetryFrames if kind is MatchFrames else MatchFrames
    with pytest.raises(InvalidArgumentError, match=f"item 1 is {other.__name__}"):
        kind.concat([kind.empty(), other.empty()])
    with pytest.raises(InvalidArgumentError, match=r"not one .*wrap it in a list"):
        kind.concat(kind.empty())
    assert len(kind.concat(iter([kind.empty()]))) == 0  # any iterable of frames


def test_the_other_combining_methods_name_what_they_were_given() -> None:
    with pytest.raises(InvalidArgumentError, match="other must be MatchFrames, not Telemetry"):
        MatchFrames.empty().merge(TelemetryFrames.empty())
    with pytest.raises(InvalidArgumentError, match=r"other must be Names \(.*\), not dict"):
        sample_names().merge({"character": {}})
    with pytest.raises(InvalidArgumentError, match="telemetry must be TelemetryFrames"):
        consistency_problems(MatchFrames.empty(), MatchFrames.empty())
