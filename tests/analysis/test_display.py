"""Tables as shown: shares as percentages, floats rounded, server and ranking types by name."""

from __future__ import annotations

import pandas as pd
import pytest

from matchkit.analysis import for_display
from matchkit.errors import InvalidArgumentError


def test_shares_become_percentages_and_other_floats_are_rounded() -> None:
    table = pd.DataFrame({"win_rate": [0.413223, 0.5], "minutes": [11.04, 9.96], "n": [3, 4]})
    shown = for_display(table)
    assert shown["win_rate"].tolist() == ["41.3%", "50.0%"]
    assert shown["minutes"].tolist() == [11.0, 10.0]
    assert shown["n"].tolist() == [3, 4]
    assert table["win_rate"].tolist() == [0.413223, 0.5]  # the original is left as it was


def test_server_and_ranking_types_are_shown_by_name_as_in_the_plots() -> None:
    table = pd.DataFrame(
        {
            "server_type": pd.Categorical(["QUICK2V2", "ROYALRUMBLEDUO", "LEAGUE3V3"]),
            "ranking_type": ["RANKED", "UNRANKED", None],
            "win_rate": [0.5, 0.25, 0.75],
        }
    )
    shown = for_display(table)
    assert shown["server_type"].tolist() == ["Quick 2v2", "Royal Rumble duo", "LEAGUE3V3"]
    assert shown["ranking_type"].tolist() == ["Ranked", "Unranked", "unknown"]
    assert table["server_type"].tolist() == ["QUICK2V2", "ROYALRUMBLEDUO", "LEAGUE3V3"]


def test_a_wrong_decimals_or_column_is_refused() -> None:
    table = pd.DataFrame({"win_rate": [0.5]})
    with pytest.raises(InvalidArgumentError, match="decimals"):
        for_display(table, decimals=-1)
    with pytest.raises(InvalidArgumentError, match="no column"):
        for_display(table, percent_columns=["share"])
