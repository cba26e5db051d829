"""Every notebook's findings are computed, asserted, and hold on the sample set.

The notebooks' own assertions run under nbval (``pytest --nbval notebooks``); these tests check
that they are there, that no finding is written into static prose, and that the findings the
committed notebooks print agree with the tables computed here from the same data.
"""

from __future__ import annotations

import pytest

from matchkit.analysis import (
    COSMETIC_KINDS,
    cosmetic_summary,
    duration_summary,
    percent,
    side_win_rates,
)
from tests.analysis.helpers import sample_frames
from tests.analysis.notebook_claims import (
    LABELS,
    WRITTEN_ORDER,
    WRITTEN_SHARE,
    code,
    load,
    rendered_prose,
    static_prose,
)

NAMES = [
    "01-quickstart.ipynb",
    "02-durations.ipynb",
    "03-side-win-rates.ipynb",
    "04-cosmetics.ipynb",
    "05-explorer.ipynb",
]


@pytest.fixture(scope="module")
def frames():
    return sample_frames()


@pytest.mark.parametrize("name", NAMES)
def test_findings_are_computed_asserted_and_concluded(name):
    notebook = load(name)
    sources = code(notebook)
    assert any("assert " in source for source in sources), "no assertion checks a finding"
    prose = rendered_prose(notebook)
    assert prose, "no finding is formatted from the data"
    assert prose[-1].startswith("**Conclusion.**"), "the notebook does not end on a conclusion"
    assert "Markdown(" in sources[-1]
    written = static_prose(notebook)
    assert not WRITTEN_SHARE.findall(written), "a share is written into static prose"
    assert not WRITTEN_ORDER.findall(written), "an ordering is written into static prose"


@pytest.mark.parametrize("name", NAMES)
def test_no_raw_repr_or_secret_in_outputs(name):
    for cell in load(name)["cells"]:
        for output in cell.get("outputs", []):
            text = "".join(output.get("data", {}).get("text/plain", "")) + "".join(
                output.get("text", "")
            )
            assert "datetime.datetime(" not in text
            assert "Bearer" not in text


def test_quickstart_counts(frames):
    prose = " ".join(rendered_prose(load("01-quickstart.ipynb")))
    total = len(frames.matches)
    arena = int((~frames.matches["is_royale"].fillna(False).astype(bool)).sum())
    assert f"{total:,} matches" in prose
    assert f"{arena:,} Arena ({arena / total:.1%})" in prose


def test_durations_name_the_longest_and_shortest_modes(frames):
    modes = duration_summary(frames, by="server_type", unit="minutes").set_index("server_type")
    longest, shortest = modes["median"].idxmax(), modes["median"].idxmin()
    prose = " ".join(rendered_prose(load("02-durations.ipynb")))
    assert f"{LABELS[longest]} matches last longest (median {modes['median'].max():.1f} min)" in (
        prose
    )
    assert f"{LABELS[shortest]} matches are the shortest" in prose
    royale = modes.index.astype(str).str.startswith("ROYAL")
    if modes.loc[royale, "median"].max() < modes.loc[~royale, "median"].min():
        assert "Royale matches are shorter than Arena matches" in prose
    assert "min" in prose
    assert " s)" not in prose  # one unit: minutes


def test_side_rates_printed_are_the_tables(frames):
    rates = side_win_rates(frames, by="server_type")
    prose = " ".join(rendered_prose(load("03-side-win-rates.ipynb")))
    for row in rates.loc[rates["side"] == 1].itertuples():
        interval = f"[{percent(row.ci_low)}, {percent(row.ci_high)}]"
        assert f"{LABELS[row.server_type]} {percent(row.win_rate)} {interval}" in prose
        if row.ci_low > 0.5:
            assert "above 50%" in prose


def test_cosmetics_name_the_most_varied_kind(frames):
    summary = cosmetic_summary(frames, kind=COSMETIC_KINDS, by="actor")
    by_kind = summary.groupby("cosmetic_kind", observed=True)["non_default_share"].median()
    prose = " ".join(rendered_prose(load("04-cosmetics.ipynb")))
    most = by_kind.idxmax()
    assert f"most for the **{most}** (median non-default share" in prose
    assert f"{percent(by_kind[most])}" in prose
    assert "0.41" not in prose  # shares are shown rounded, as percentages


def test_explorer_selection_is_counted(frames):
    matches = frames.matches
    chosen = (matches["server_type"] == "QUICK3V3") & (matches["ranking_type"] == "RANKED")
    prose = " ".join(rendered_prose(load("05-explorer.ipynb")))
    assert f"The selection holds {int(chosen.sum()):,} of {len(matches):,} matches" in prose
