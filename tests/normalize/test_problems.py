"""The typed problems collector (matchkit.normalize.problems) and what reaches MatchFrames."""

from __future__ import annotations

from matchkit import to_frames
from matchkit.normalize.problems import Problem, Problems
from tests.builders.resources import arena, page


def test_problems_keep_their_kind_subject_count_and_order() -> None:
    problems = Problems()
    problems.add("orphan", "rounds", 2, "2 of 5 rounds are listed by no match")
    problems.add("unfit_values", "matches.duration", 1, "matches.duration: 1 value(s) ...")
    problems.add("orphan", "assets", 3, "3 of 3 assets are listed by no match")
    assert len(problems) == 3
    assert problems.count("orphan") == 5
    assert problems.count("ignored_type") == 0
    assert problems.texts()[0] == "2 of 5 rounds are listed by no match"
    assert [problem.subject for problem in problems] == ["rounds", "matches.duration", "assets"]
    assert str(Problem("orphan", "x", 1, "text")) == "text"
    assert repr(problems) == "Problems(3 entries)"


def test_match_frames_carry_the_problems_texts() -> None:
    resource, included = arena("m1")
    resource["attributes"]["duration"] = "long"
    frames = to_frames(page((resource, included)))
    assert frames.problems == (
        "matches.duration: 1 value(s) are not integers (e.g. 'long'); they are <NA>",
    )
