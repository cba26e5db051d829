"""The PUBG plots render from MatchFrames and telemetry or from their analysis tables, leave no
pyplot state, and draw one match on an axis of its map's size with every kill."""

from __future__ import annotations

import io

import numpy as np
import pytest
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.patches import Circle

from matchkit.analysis.pubg import landing_spots, weapon_kill_shares
from matchkit.errors import InvalidArgumentError, StorageError
from matchkit.plots import (
    plot_damage_by_placement,
    plot_kill_distances,
    plot_landing_heatmap,
    plot_match_map,
    plot_weapon_kill_shares,
    plot_zone_phases,
)
from matchkit.telemetry.pubg import MAP_SIZES
from tests.analysis.helpers import frames_of
from tests.analysis.pubg import sample
from tests.builders.matches import arena_match

PLOTS = [
    plot_damage_by_placement,
    plot_kill_distances,
    plot_landing_heatmap,
    plot_weapon_kill_shares,
    plot_zone_phases,
]


def _rendered(ax) -> bytes:
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png", dpi=40)
    return buffer.getvalue()


def _match(mode: str, *, documented: bool = True) -> str:
    for plan in sample.plans():
        known = plan.map.id in MAP_SIZES
        if plan.mode.id == mode and known == documented:
            return plan.id
    raise AssertionError(f"no {mode} match in the sample")


@pytest.mark.parametrize("plot", PLOTS, ids=lambda f: f.__name__)
def test_each_plot_draws_on_a_new_figure_without_pyplot_state(plot) -> None:
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    options = {"map_name": "Baltic_Main"} if plot is plot_landing_heatmap else {}
    ax = plot(sample.frames(), sample.telemetry(), **options)
    assert isinstance(ax.figure, Figure)
    assert _rendered(ax).startswith(b"\x89PNG")
    assert plt.get_fignums() == before


def test_plots_draw_the_analysis_table_they_are_given() -> None:
    table = weapon_kill_shares(sample.frames(), sample.telemetry(), names=sample.names())
    ax = plot_weapon_kill_shares(table, top=5)
    labels = [tick.get_text() for tick in ax.get_yticklabels()]
    assert len(labels) == 5
    top = table.iloc[0]
    assert labels[-1] == f"{top['damage_causer_name']} (n={top['kills']:,})"
    with pytest.raises(InvalidArgumentError, match="weapon_kill_shares"):
        plot_weapon_kill_shares(table.drop(columns="share"))


def test_the_landing_heatmap_holds_the_map_s_landings_on_its_coordinates() -> None:
    table = landing_spots(sample.frames(), sample.telemetry(), bins=8)
    ax = plot_landing_heatmap(table, map_name="Baltic_Main")
    image = next(child for child in ax.get_children() if isinstance(child, AxesImage))
    size = MAP_SIZES["Baltic_Main"]
    assert image.get_extent() == [0, size, size, 0]
    erangel = table[table["map_id"] == "Baltic_Main"]
    assert np.asarray(image.get_array()).sum() == erangel["landings"].sum()
    with pytest.raises(InvalidArgumentError, match="choose one of the maps") as error:
        plot_landing_heatmap(table, map_name="Nowhere_Main")
    assert error.value.parameter == "map_name"


@pytest.mark.parametrize("mode", ["squad", "solo-fpp", "tdm"])
def test_the_match_map_is_the_map_s_size_and_draws_every_kill(mode: str) -> None:
    match_id = _match(mode)
    events = sample.raw()[match_id]
    size = MAP_SIZES[sample.map_of()[match_id]]
    ax = plot_match_map(sample.frames(), sample.telemetry(), match_id, names=sample.names())
    assert ax.get_xlim() == (0, size)
    assert ax.get_ylim() == (size, 0)
    kills = next(c for c in ax.collections if c.get_gid() == "kills")
    assert isinstance(kills, PathCollection)
    assert len(kills.get_offsets()) == len(sample.of_type(events, "LogPlayerKillV2"))
    winners = sample.winners(next(d for d in sample.documents() if d["data"]["id"] == match_id))
    walked = {e["character"]["accountId"] for e in sample.of_type(events, "LogPlayerPosition")}
    paths = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert sum(len(c.get_segments()) for c in paths) == len(walked)
    winner_paths = next(c for c in paths if c.get_label() == "the winners' paths")
    assert len(winner_paths.get_segments()) == len(winners & walked)
    phases = {
        e["common"]["isGame"]
        for e in sample.of_type(events, "LogGameStatePeriodic")
        if e["gameState"]["poisonGasWarningRadius"] > 0
    }
    circles = [p for p in ax.patches if isinstance(p, Circle)]
    assert len(circles) == len(phases)
    assert _rendered(ax).startswith(b"\x89PNG")


def test_the_match_map_draws_the_user_s_image_under_the_data(tmp_path) -> None:
    picture = tmp_path / "map.png"
    figure = Figure(figsize=(1, 1))
    figure.add_subplot().imshow(np.arange(16.0).reshape(4, 4))
    figure.savefig(picture)
    match_id = _match("squad")
    size = MAP_SIZES[sample.map_of()[match_id]]
    ax = plot_match_map(sample.frames(), sample.telemetry(), match_id, image=picture)
    image = next(child for child in ax.get_children() if isinstance(child, AxesImage))
    assert image.get_extent() == [0, size, size, 0]
    assert ax.get_xlim() == (0, size)
    with pytest.raises(StorageError, match="cannot read the map image"):
        plot_match_map(
            sample.frames(), sample.telemetry(), match_id, image=tmp_path / "missing.png"
        )


def test_a_map_of_unknown_size_needs_map_size() -> None:
    match_id = _match("squad-fpp", documented=False)
    with pytest.raises(InvalidArgumentError, match="pass map_size=") as error:
        plot_match_map(sample.frames(), sample.telemetry(), match_id)
    assert error.value.parameter == "map_size"
    ax = plot_match_map(sample.frames(), sample.telemetry(), match_id, map_size=816_000)
    assert ax.get_xlim() == (0, 816_000)


def test_a_match_not_in_the_data_is_refused_with_what_to_pass() -> None:
    with pytest.raises(InvalidArgumentError, match=r"not in data: pass one of data\.matches"):
        plot_match_map(sample.frames(), sample.telemetry(), "no-such-match")
    with pytest.raises(InvalidArgumentError, match="must be a match id"):
        plot_match_map(sample.frames(), sample.telemetry(), 7)  # type: ignore[arg-type]


def test_a_match_without_telemetry_is_refused() -> None:
    from matchkit.telemetry.pubg import to_pubg_telemetry_frames

    one = to_pubg_telemetry_frames([sample.files()[0]])
    other = next(m for m in sample.frames().matches["match_id"] if m not in one.match_ids)
    with pytest.raises(InvalidArgumentError, match="telemetry holds no file of match"):
        plot_match_map(sample.frames(), one, other)


def test_gamelocker_match_frames_are_refused_by_the_plots() -> None:
    gamelocker = frames_of(arena_match("A0"))
    with pytest.raises(InvalidArgumentError, match="not PUBG"):
        plot_match_map(gamelocker, sample.telemetry(), "A0")
    with pytest.raises(InvalidArgumentError, match="not PUBG"):
        plot_zone_phases(gamelocker, sample.telemetry())


def test_zone_phase_ticks_give_the_positions() -> None:
    ax = plot_zone_phases(sample.frames(), sample.telemetry())
    labels = [tick.get_text() for tick in ax.get_xticklabels()]
    assert labels
    assert all("\nn=" in label for label in labels)


@pytest.mark.parametrize(
    ("options", "parameter"),
    [
        ({"image": 7}, "image"),
        ({"map_size": -5}, "map_size"),
        ({"map_size": "big"}, "map_size"),
        ({"names": 3}, "names"),
    ],
)
def test_bad_match_map_options_name_their_parameter(options, parameter) -> None:
    frames, telemetry = sample.small()
    match_id = telemetry.match_ids[1]
    with pytest.raises(InvalidArgumentError) as error:
        plot_match_map(frames, telemetry, match_id, **options)
    assert error.value.parameter == parameter
