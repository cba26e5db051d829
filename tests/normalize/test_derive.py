"""Columns derived from several wire values (matchkit.normalize.derive)."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa

from matchkit.normalize.derive import (
    participant_kinds,
    roster_sides_from_participants,
    sides_from_stats,
    whole_match_game,
)
from matchkit.normalize.problems import Problems


def test_integer_sides_stay_integers_without_labels() -> None:
    sides, labels = sides_from_stats(pa.array([1, 2, None]), rows=3, label="t", problems=Problems())
    assert sides.tolist() == [1, 2, pd.NA]
    assert labels is None


def test_text_sides_map_to_codes_and_keep_their_labels() -> None:
    problems = Problems()
    sides, labels = sides_from_stats(
        pa.array(["left/blue", " Red ", "2", "middle", None]),
        rows=5,
        label="rosters.side",
        problems=problems,
    )
    assert sides.tolist() == [1, 2, 2, pd.NA, pd.NA]
    assert labels.to_pylist() == ["left/blue", " Red ", None, "middle", None]
    [problem] = list(problems)
    assert (problem.kind, problem.count) == ("unknown_side", 1)
    assert "'middle'" in problem.text


def test_no_side_column_gives_missing_sides() -> None:
    sides, labels = sides_from_stats(None, rows=2, label="t", problems=Problems())
    assert sides.tolist() == [pd.NA, pd.NA]
    assert labels is None


def test_rosters_without_a_side_take_the_side_their_participants_share() -> None:
    participants = pd.DataFrame(
        {
            "roster_id": pd.array(["a", "a", "b", "b", "c"], dtype="string"),
            "side": pd.array([1, 1, 1, 2, None], dtype="Int64"),
        }
    )
    sides = pd.array([None, None, None, 2], dtype="Int64")
    filled = roster_sides_from_participants(pa.array(["a", "b", "c", "d"]), sides, participants)
    assert filled.tolist() == [1, pd.NA, pd.NA, 2]  # b disagrees, c has none, d kept its own


def test_participant_kinds() -> None:
    kinds = participant_kinds(
        pa.array(["0", "0", "42", None]), pa.array(["p1", "0", None, None]), rows=4
    )
    assert list(kinds["kind"]) == ["registered", "bot", "anonymous", "anonymous"]
    assert kinds["is_registered"].tolist() == [True, False, False, False]


def test_the_game_of_a_match_and_whether_it_is_royale() -> None:
    game, royale, leftover = whole_match_game(
        pa.array(["Arena", None, "Arena"]), pa.array([None, "Royale", "Royale"]), rows=3
    )
    assert game.to_pylist() == ["Arena", "Royale", "Arena"]
    assert royale.tolist() == [False, True, True]
    assert leftover.to_pylist() == [None, "Royale", "Royale"]  # they differ in the last match
    _, _, none = whole_match_game(pa.array(["Arena"]), None, rows=1)
    assert none is None
