"""The explorer panel, headless: set filter values, check the selection and the re-rendered tabs."""

from __future__ import annotations

import pytest

from matchkit.errors import InvalidArgumentError
from matchkit.widgets.explorer import TABS, ExplorerPanel, explore
from tests.analysis.helpers import frames_of
from tests.analysis.lazy import lazy_tables
from tests.builders.matches import arena_match, player, royale_match


@pytest.fixture(scope="module")
def frames():
    documents = [
        arena_match(
            "A1",
            created_at="2026-10-01T10:00:00Z",
            region="eu",
            participants=[[player("alice", actor="10")], [player("bob", actor="20")]],
        ),
        arena_match(
            "A2",
            winner=2,
            created_at="2026-10-02T10:00:00Z",
            region="asia",
            ranking_type="UNRANKED",
            participants=[[player("alice", actor="30")], [player("carol", actor="20")]],
        ),
        arena_match(
            "A3",
            created_at="2026-10-03T23:59:59Z",
            server_type="QUICK3V3",
            patch_version="2.2",
            rounds=[(60, 1), (50, 1), (40, 1)],
        ),
        arena_match("A4", created_at="2026-10-05T00:00:00Z", server_type="QUICK3V3"),
        royale_match("R1", created_at="2026-10-04T12:00:00Z"),
    ]
    return frames_of(*documents)


@pytest.fixture
def panel(frames):
    return explore(frames)


def _images(panel: ExplorerPanel) -> dict[str, str]:
    """The content each tab shows now: the PNG (base64) or the HTML."""
    shown = {}
    for key, output in panel.outputs.items():
        assert len(output.outputs) == 1, key
        data = output.outputs[0]["data"]
        shown[key] = data.get("image/png") or data["text/html"]
    return shown


def _selected(panel: ExplorerPanel) -> list[str]:
    return sorted(panel.frames.matches["match_id"])


def test_starts_with_everything_selected_and_the_visible_tab_rendered(panel, frames):
    assert isinstance(panel, ExplorerPanel)
    assert len(panel.frames) == len(frames) == 5
    assert panel.renders == 1
    assert panel.tab_renders == {"durations": 1, "sides": 0, "cosmetics": 0, "table": 0}
    shown = _images(panel)
    assert set(shown) == set(TABS)
    assert "image/png" in panel.outputs["durations"].outputs[0]["data"]
    for key in ("sides", "cosmetics", "table"):
        assert "Out of date" in shown[key], key
    panel.render_all()
    shown = _images(panel)
    for key in ("durations", "sides", "cosmetics"):
        assert "image/png" in panel.outputs[key].outputs[0]["data"], key
    assert "Overview by server type" in shown["table"]
    assert panel.tab_renders == dict.fromkeys(TABS, 1)
    assert "5</b> of 5 matches" in panel.status.value
    assert "ExplorerPanel(5 of 5" in repr(panel)


def test_server_type_filter_redraws_the_visible_tab_and_the_others_when_opened(panel):
    before = _images(panel)
    drawn = dict(panel.tab_renders)
    panel.server_type.value = ("QUICK3V3",)
    assert _selected(panel) == ["A3", "A4"]
    assert set(panel.frames.participants["match_id"]) == {"A3", "A4"}
    assert panel.renders == 2
    # Only the visible tab (durations) was drawn again; the others say they are out of date.
    assert panel.tab_renders == {**drawn, "durations": drawn["durations"] + 1}
    after = _images(panel)
    assert after["durations"] != before["durations"]
    for key in ("sides", "cosmetics", "table"):
        assert "Out of date" in after[key], key
    for index, key in enumerate(TABS):
        panel.tabs.selected_index = index
        assert panel.tab_renders[key] == drawn[key] + 1, key
    after = _images(panel)
    for key in TABS:
        assert after[key] != before[key], key
    assert "Quick 3v3" in after["table"]
    assert "Quick 2v2" not in after["table"]
    # Opening a tab that is up to date draws nothing.
    panel.tabs.selected_index = 0
    assert panel.tab_renders["durations"] == drawn["durations"] + 1


def test_render_all_draws_every_out_of_date_tab(panel):
    panel.ranking_type.value = ("RANKED",)
    panel.render_all()
    assert not any("Out of date" in shown for shown in _images(panel).values())


def test_reset_clears_every_filter_in_one_redraw(panel, frames):
    panel.server_type.value = ("QUICK3V3",)
    panel.date_range.index = (1, 2)
    panel.player.value = "alice"
    renders = panel.renders
    panel.reset.click()
    assert panel.renders == renders + 1
    assert len(panel.frames) == len(frames)
    assert panel.server_type.value == ()
    assert panel.player.value == ""
    assert panel.date_range.index == (0, len(panel.date_range.options) - 1)


def test_date_readout_is_written_in_full(panel):
    assert panel.date_range.readout is False
    assert panel.date_readout.value == "<small>2026-10-01 to 2026-10-05 (5 days, UTC)</small>"
    panel.date_range.index = (1, 1)
    assert panel.date_readout.value == "<small>2026-10-02 to 2026-10-02 (1 day, UTC)</small>"


def test_labels_are_written_alike(panel):
    assert [label for label, _ in panel.ranking_type.options] == ["Ranked", "Unranked"]
    assert [label for label, _ in panel.server_type.options][:2] == ["Quick 2v2", "Quick 3v3"]


def test_characters_are_named_when_names_are_given(frames):
    panel = explore(frames, names={"character": {"10": "Ashwind"}})
    assert ("Ashwind", "10") in panel.character.options
    assert ("20", "20") in panel.character.options  # no name: the id


def test_filters_combine(panel):
    panel.server_type.value = ("QUICK2V2",)
    panel.ranking_type.value = ("RANKED",)
    assert _selected(panel) == ["A1"]
    panel.ranking_type.value = ()
    panel.region.value = ("asia",)
    assert _selected(panel) == ["A2"]


def test_patch_filter_options_are_ordered_and_filter(panel):
    assert list(panel.patch_version.options) == [("2.1", "2.1"), ("2.2", "2.2")]
    panel.patch_version.value = ("2.2",)
    assert _selected(panel) == ["A3"]


def test_date_range_is_inclusive_of_whole_days(panel):
    days = dict(panel.date_range.options)
    assert list(days) == ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04", "2026-10-05"]
    panel.date_range.value = (days["2026-10-02"], days["2026-10-03"])
    # A3 at 23:59:59 on the 3rd is inside; R1 on the 4th is not.
    assert _selected(panel) == ["A2", "A3"]


def test_character_filter_selects_matches_with_that_character(panel):
    labels = [label for label, _ in panel.character.options]
    # The default actor of the builder plays 8 times, character 20 twice.
    assert labels[:2] == ["100", "20"]
    panel.character.value = ("20",)
    assert _selected(panel) == ["A1", "A2"]


def test_player_filter_by_id_or_name(panel):
    panel.player.value = "alice"
    assert _selected(panel) == ["A1", "A2"]
    panel.player.value = "NAME-CAROL"  # players' names, case-insensitive
    assert _selected(panel) == ["A2"]
    panel.player.value = ""
    assert len(panel.frames) == 5


def test_no_match_shows_a_message_instead_of_plots(panel):
    panel.player.value = "nobody"
    assert len(panel.frames) == 0
    panel.render_all()
    for output in panel.outputs.values():
        assert "No match passes" in output.outputs[0]["data"]["text/html"]


def test_tab_options_redraw_their_tab_only(panel):
    before = _images(panel)
    panel.side_group.value = "region"
    panel.cosmetic_kind.value = "outfit"
    after = _images(panel)
    assert panel.renders == 1
    assert after["sides"] != before["sides"]
    assert after["cosmetics"] != before["cosmetics"]
    assert after["durations"] == before["durations"]


def test_round_level_side_view(panel):
    panel.server_type.value = ("QUICK3V3",)
    panel.side_level.value = "round"
    data = panel.outputs["sides"].outputs[0]["data"]
    assert "image/png" in data


def test_panel_displays_as_its_widget(panel):
    bundle = panel._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"] == repr(panel)


def test_an_archive_is_refused_with_the_way_to_explore_part_of_it(frames):
    with pytest.raises(InvalidArgumentError, match=r"to_frames\(start, end\)") as raised:
        explore(lazy_tables(frames))
    assert raised.value.parameter == "data"
