"""Cosmetic usage, summaries and win rates on hand-built matches, counted by hand."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from matchkit.analysis import cosmetic_summary, cosmetic_usage, cosmetic_win_rates
from matchkit.errors import InvalidArgumentError
from tests.analysis.helpers import frames_of, wilson
from tests.builders.matches import arena_match, bot, player, royale_match


@pytest.fixture(scope="module")
def frames():
    first = arena_match(
        "M1",
        winner=1,
        participants=[
            [
                player("p1", actor="10", mount=1, outfit=101),
                player("p2", actor="20", mount=5),
                player("p9", actor="20", mount=None),
            ],
            [player("p3", actor="10", mount=1), bot("b1", actor="10")],
        ],
    )
    second = arena_match(
        "M2",
        winner=2,
        participants=[
            [player("p4", actor="10", mount=2), player("p5", actor="30", mount=7)],
            [
                player("p6", actor="10", mount=3),
                player("p7", actor="20", mount=5),
                player("p8", actor="30", mount=6),
            ],
        ],
    )
    return frames_of(first, second, royale_match("R", teams=4))


def _rows(table: pd.DataFrame, actor: str) -> pd.DataFrame:
    return table.loc[table["actor"] == actor].reset_index(drop=True)


def test_usage_shares_ranks_and_default(frames):
    usage = cosmetic_usage(frames, kind="mount")
    leading = ["character", "cosmetic_kind", "cosmetic", "picks", "share", "rank"]
    assert list(usage.columns) == [*leading, "is_default", "actor", "cosmetic_id"]
    ten = _rows(usage, "10")
    # Character 10 picked mounts 1, 1, 2, 3 (the bot b1 is left out).
    assert ten["cosmetic_id"].tolist() == [1, 2, 3]
    assert ten["picks"].tolist() == [2, 1, 1]
    assert ten["share"].tolist() == [0.5, 0.25, 0.25]
    assert ten["rank"].tolist() == [1, 2, 3]
    assert ten["is_default"].tolist() == [True, False, False]
    # A tie (7 once, 6 once) goes to the smaller id.
    thirty = _rows(usage, "30")
    assert thirty["cosmetic_id"].tolist() == [6, 7]
    assert thirty["is_default"].tolist() == [True, False]
    assert usage.attrs["excluded"] == {"bots": 1, "missing_cosmetic": 1}


def test_usage_top_keeps_shares_of_all_picks(frames):
    usage = cosmetic_usage(frames, kind="mount", top=2)
    ten = _rows(usage, "10")
    assert ten["cosmetic_id"].tolist() == [1, 2]
    assert ten["share"].tolist() == [0.5, 0.25]


def test_usage_of_several_kinds_and_pooled(frames):
    usage = cosmetic_usage(frames, kind=["mount", "outfit"], by=None)
    outfits = usage.loc[usage["cosmetic_kind"] == "outfit"]
    # Outfits: p1 101; 41 for the 8 other arena players (p9 included) and the 4 Royale ones.
    assert outfits["cosmetic_id"].tolist() == [41, 101]
    assert outfits["picks"].tolist() == [12, 1]
    mounts = usage.loc[usage["cosmetic_kind"] == "mount"]
    assert mounts["picks"].sum() == 12  # 9 arena players but p9 (no mount), 4 Royale
    assert usage.attrs["excluded"] == {"bots": 1, "missing_cosmetic": 1}


def test_usage_accepts_the_participant_view(frames):
    from_frames = cosmetic_usage(frames, kind="emote")
    from_view = cosmetic_usage(frames.participant_view(), kind="emote")
    pd.testing.assert_frame_equal(from_frames, from_view)


def test_summary_diversity_and_non_default_share(frames):
    summary = cosmetic_summary(frames, kind="mount").set_index("actor")
    ten = summary.loc["10"]
    assert (ten["picks"], ten["distinct"], ten["default_cosmetic_id"]) == (4, 3, 1)
    assert ten["default_share"] == 0.5
    assert ten["non_default_share"] == 0.5
    # Shares 1/2, 1/4, 1/4: entropy 1.5 ln 2, maximum ln 3.
    assert ten["diversity"] == pytest.approx(1.5 * math.log(2) / math.log(3))
    assert ten["effective_choices"] == pytest.approx(2**1.5)
    twenty = summary.loc["20"]
    assert (twenty["distinct"], twenty["non_default_share"], twenty["diversity"]) == (1, 0, 0)
    assert twenty["effective_choices"] == pytest.approx(1)
    thirty = summary.loc["30"]
    assert thirty["diversity"] == pytest.approx(1)
    assert thirty["effective_choices"] == pytest.approx(2)


def test_win_rates_by_character_and_mount(frames):
    rates = cosmetic_win_rates(frames, kind="mount")
    ten = _rows(rates, "10")
    # M1 won by side 1 (p1 mount 1) against p3 (mount 1); M2 won by side 2 (p6 mount 3).
    assert ten["cosmetic_id"].tolist() == [1, 2, 3]
    assert ten["picks"].tolist() == [2, 1, 1]
    assert ten["wins"].tolist() == [1, 0, 1]
    assert (ten["ci_low"].iloc[0], ten["ci_high"].iloc[0]) == pytest.approx(wilson(1, 2))
    twenty = _rows(rates, "20")
    assert (twenty["picks"].iloc[0], twenty["wins"].iloc[0]) == (2, 2)
    assert rates.attrs["excluded"] == {
        "bots": 1,
        "missing_cosmetic": 1,
        "royale": 4,
        "without_result": 0,
    }


def test_win_rates_min_picks_and_top(frames):
    frequent = cosmetic_win_rates(frames, kind="mount", min_picks=2)
    assert list(zip(frequent["actor"], frequent["cosmetic_id"], strict=True)) == [
        ("10", 1),
        ("20", 5),
    ]
    top = cosmetic_win_rates(frames, kind="mount", top=1)
    assert list(zip(top["actor"], top["cosmetic_id"], strict=True)) == [
        ("10", 1),
        ("20", 5),
        ("30", 6),
    ]
    pooled = cosmetic_win_rates(frames, kind="mount", by=None, top=2)
    assert pooled["cosmetic_id"].tolist() == [1, 5]


@pytest.mark.parametrize(
    ("function", "arguments", "parameter"),
    [
        (cosmetic_usage, {"kind": "hat"}, "kind"),
        (cosmetic_usage, {"kind": []}, "kind"),
        (cosmetic_usage, {"top": 0}, "top"),
        (cosmetic_usage, {"by": "nope"}, "by"),
        (cosmetic_win_rates, {"kind": ["mount", "emote"]}, "kind"),
        (cosmetic_win_rates, {"kind": "hat"}, "kind"),
        (cosmetic_win_rates, {"kind": ""}, "kind"),
        (cosmetic_summary, {"kind": ""}, "kind"),
        (cosmetic_win_rates, {"confidence": 0}, "confidence"),
    ],
)
def test_bad_arguments(frames, function, arguments, parameter):
    with pytest.raises(InvalidArgumentError) as raised:
        function(frames, **arguments)
    assert raised.value.parameter == parameter
