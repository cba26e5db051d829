"""An ipywidgets panel to explore MatchFrames: filters above tabs of plots and a table.

Example (in JupyterLab)::

    from matchkit.widgets.explorer import explore
    panel = explore(frames)
    panel            # shows the panel; change a filter and the visible tab redraws
    panel.frames     # the MatchFrames the filters select

Every filter left empty means "all". The plots are rendered to PNG inside ``Output`` widgets,
so they show in JupyterLab, in classic notebooks and in exported HTML with widget state alike.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from matchkit.analysis import COSMETIC_KINDS, group_label, version_key
from matchkit.analysis.inputs import require_match_frames
from matchkit.errors import MatchkitError
from matchkit.names import Names, as_names
from matchkit.widgets._views import (
    cosmetics_view,
    durations_view,
    html_output,
    sides_view,
    table_view,
)

try:
    import ipywidgets as widgets
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "matchkit.widgets.explorer needs ipywidgets: pip install 'matchkit[notebook]'"
    ) from error

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames

__all__ = ["ExplorerPanel", "explore"]

#: The tabs of the panel, in order: key -> title.
TABS: Mapping[str, str] = {
    "durations": "Durations",
    "sides": "Side win rates",
    "cosmetics": "Cosmetics",
    "table": "Table",
}
#: The match columns the side win rate tab can group by.
SIDE_GROUPS = ("server_type", "ranking_type", "patch_version", "region")


def explore(
    data: MatchFrames,
    *,
    names: Names | Mapping[str, Any] | None = None,
) -> ExplorerPanel:
    """A filter panel over ``data`` with duration, side and cosmetic plots and a table.

    Args:
        data: the matches to explore, in memory (of an archive, the part its
            ``to_frames(start, end)`` gives): each filter change selects from them again.
        names: display names of characters and cosmetics (:mod:`matchkit.names`); None: no
            names, each id is its own name.

    Returns:
        The panel; it displays itself when it is the last expression of a cell.

    Raises:
        InvalidArgumentError: ``data`` is not MatchFrames.
    """
    return ExplorerPanel(data, names=names)


class ExplorerPanel:
    """Filters (dates, server type, ranking type, patch, region, character, player) over tabs.

    Attributes:
        frames: the MatchFrames that the current filters select.
        source: the MatchFrames the panel was built on.
        date_range, server_type, ranking_type, patch_version, region, character, player: the
            filter widgets (set their ``value`` to filter from code).
        side_group, side_level, cosmetic_kind, cosmetic_view: the options of the tabs.
        outputs: tab key -> the ``Output`` widget it renders into.
        tabs: the ``Tab`` widget; widget: the whole panel (a ``VBox``).
        reset: the button that clears every filter.
        date_readout: the selected dates, written in full.
        renders: how many times the filters were applied (one per filter change or reset).
        tab_renders: tab key -> how many times that tab was drawn.

    A filter change redraws the visible tab only; another tab is drawn when it is opened
    (until then it says it is out of date). :meth:`render_all` draws every tab, for a static
    copy of the notebook.
    """

    def __init__(
        self,
        data: MatchFrames,
        *,
        names: Names | Mapping[str, Any] | None = None,
    ) -> None:
        require_match_frames(data)
        frames = data
        self.source = frames
        self._mask = pd.Series(True, index=frames.matches.index)
        self._selected: MatchFrames | None = frames
        self.names = as_names(names)
        self.renders = 0
        self.tab_renders = dict.fromkeys(TABS, 0)
        self._stale: set[str] = set(TABS)
        self._building = True
        matches = frames.matches
        layout = widgets.Layout(width="auto")
        self.date_range = _date_slider(matches["created_at"])
        self.server_type = _multi("Server type", matches["server_type"], layout)
        self.ranking_type = _multi("Ranking", matches["ranking_type"], layout)
        self.patch_version = _multi("Patch", matches["patch_version"], layout, key=version_key)
        self.region = _multi("Region", matches["region"], layout)
        self.character = widgets.SelectMultiple(
            options=[(self.names.name("character", actor), actor) for actor in _characters(frames)],
            description="Character",
            rows=5,
            layout=layout,
        )
        self.player = widgets.Text(
            description="Player",
            placeholder="player id or name",
            continuous_update=False,
            layout=layout,
        )
        self.side_group = widgets.Dropdown(
            options=[(name.replace("_", " "), name) for name in SIDE_GROUPS],
            description="Group by",
        )
        # Labelled beside the buttons (a ToggleButtons' own description is drawn above them).
        self.side_level = widgets.ToggleButtons(options=["match", "round"])
        level_label = widgets.Label("Level", layout=widgets.Layout(margin="0 0 0 24px"))
        self.cosmetic_kind = widgets.Dropdown(
            options=list(COSMETIC_KINDS), value="mount", description="Cosmetic"
        )
        self.cosmetic_view = widgets.Dropdown(
            options=[
                ("top picks per character", "usage"),
                ("share heatmap", "heatmap"),
                ("non-default share, all kinds", "summary"),
            ],
            description="View",
        )
        self.status = widgets.HTML()
        self.date_readout = widgets.HTML()
        self.reset = widgets.Button(
            description="Reset filters", tooltip="Clear every filter: all matches"
        )
        self.outputs = {key: widgets.Output() for key in TABS}
        self.tabs = widgets.Tab(
            children=[
                self.outputs["durations"],
                widgets.VBox(
                    [
                        widgets.HBox([self.side_group, level_label, self.side_level]),
                        self.outputs["sides"],
                    ]
                ),
                widgets.VBox(
                    [
                        widgets.HBox([self.cosmetic_kind, self.cosmetic_view]),
                        self.outputs["cosmetics"],
                    ]
                ),
                self.outputs["table"],
            ],
            titles=list(TABS.values()),
        )
        filters = widgets.GridBox(
            [
                widgets.VBox([self.date_range, self.date_readout]),
                self.player,
                self.server_type,
                self.ranking_type,
                self.patch_version,
                self.region,
                self.character,
            ],
            layout=widgets.Layout(grid_template_columns="repeat(2, minmax(300px, 1fr))"),
        )
        self.widget = widgets.VBox([filters, widgets.HBox([self.reset, self.status]), self.tabs])
        for control in self._filters():
            control.observe(self._on_filter_change, names="value")
        self.reset.on_click(lambda _button: self.reset_filters())
        self.tabs.observe(self._on_tab_change, names="selected_index")
        self.side_group.observe(self._on_option_change("sides"), names="value")
        self.side_level.observe(self._on_option_change("sides"), names="value")
        self.cosmetic_kind.observe(self._on_option_change("cosmetics"), names="value")
        self.cosmetic_view.observe(self._on_option_change("cosmetics"), names="value")
        self._building = False
        self.refresh()
        self.render_all()

    def __repr__(self) -> str:
        return f"ExplorerPanel({self.selected_count} of {len(self.source)} matches selected)"

    @property
    def frames(self) -> MatchFrames:
        """The MatchFrames the current filters select (built on first use after a change)."""
        if self._selected is None:
            self._selected = self.source.filter(self._mask)
        return self._selected

    @property
    def selected_count(self) -> int:
        """How many matches the current filters select."""
        return int(self._mask.sum())

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # The widget view, with the panel's own short text instead of the widget tree's repr.
        bundle = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = repr(self)
        return bundle

    def _filters(self) -> list[widgets.Widget]:
        return [
            self.date_range,
            self.server_type,
            self.ranking_type,
            self.patch_version,
            self.region,
            self.character,
            self.player,
        ]

    def _on_filter_change(self, change: Mapping[str, Any]) -> None:
        if not self._building:
            self.refresh()

    def _on_tab_change(self, change: Mapping[str, Any]) -> None:
        tab = self.visible_tab
        if tab in self._stale:
            self._render(tab)

    def _on_option_change(self, tab: str) -> Callable[[Mapping[str, Any]], None]:
        def redraw(change: Mapping[str, Any]) -> None:
            if not self._building:
                self._render(tab)

        return redraw

    @property
    def visible_tab(self) -> str:
        """The key of the tab on show."""
        return list(TABS)[self.tabs.selected_index or 0]

    def reset_filters(self) -> None:
        """Clear every filter (all dates, every value, no player): one redraw."""
        self._building = True
        try:
            self.date_range.index = (0, len(self.date_range.options) - 1)
            for control in (
                self.server_type,
                self.ranking_type,
                self.patch_version,
                self.region,
                self.character,
            ):
                control.value = ()
            self.player.value = ""
        finally:
            self._building = False
        self.refresh()

    def render_all(self) -> None:
        """Draw every tab that is out of date (for a static copy showing all of them)."""
        for tab in TABS:
            if tab in self._stale:
                self._render(tab)

    def selection_mask(self) -> pd.Series:
        """A boolean Series over ``source.matches``: the matches the filters select."""
        matches = self.source.matches
        mask = pd.Series(True, index=matches.index)
        start, end = self.date_range.value
        if start is not None:
            created = matches["created_at"]
            mask &= (created >= start) & (created < end + pd.Timedelta(days=1))
        for control, column in (
            (self.server_type, "server_type"),
            (self.ranking_type, "ranking_type"),
            (self.patch_version, "patch_version"),
            (self.region, "region"),
        ):
            if control.value:
                mask &= matches[column].astype(object).isin(control.value)
        participants = self.source.participants
        if self.character.value:
            chosen = participants.loc[participants["actor"].isin(self.character.value), "match_id"]
            mask &= matches["match_id"].isin(chosen)
        if self.player.value.strip():
            mask &= matches["match_id"].isin(self._player_matches(self.player.value.strip()))
        return mask.fillna(False).astype(bool)

    def _player_matches(self, text: str) -> pd.Series:
        players = self.source.players
        by_name = players.loc[players["name"].str.casefold() == text.casefold(), "player_id"]
        wanted = {text, *by_name.dropna().tolist()}
        participants = self.source.participants
        return participants.loc[participants["player_id"].isin(wanted), "match_id"]

    def refresh(self) -> None:
        """Apply the filters to ``source`` and redraw the visible tab (the others when opened)."""
        self._mask = self.selection_mask()
        # The tables are filtered when a tab (or the caller) asks for them, not here: the
        # durations tab reads the matches table only.
        self._selected = None
        self.renders += 1
        count = self.selected_count
        self.status.value = f"<b>{count:,}</b> of {len(self.source):,} matches selected"
        self.date_readout.value = _date_text(self.date_range)
        self._stale = set(TABS)
        stale = html_output("<p><i>Out of date: drawn again when this tab is opened.</i></p>")
        for tab in TABS:
            if tab != self.visible_tab:
                self.outputs[tab].outputs = (stale,)
        self._render(self.visible_tab)

    def _render(self, tab: str) -> None:
        self._stale.discard(tab)
        self.tab_renders[tab] += 1
        output = self.outputs[tab]
        if self.selected_count == 0:
            output.outputs = (html_output("<p>No match passes these filters.</p>"),)
            return
        try:
            bundle = getattr(self, f"_render_{tab}")()
        except (MatchkitError, ValueError) as error:
            bundle = html_output(f"<p>Cannot draw this view: {html.escape(str(error))}</p>")
        output.outputs = (bundle,)

    def _render_durations(self) -> dict[str, Any]:
        return durations_view(self.source.matches.loc[self._mask])

    def _render_sides(self) -> dict[str, Any]:
        return sides_view(self.frames, by=self.side_group.value, level=self.side_level.value)

    def _render_cosmetics(self) -> dict[str, Any]:
        view = self.frames.participant_view()
        if self.character.value:
            view = view.loc[view["actor"].isin(self.character.value)]
        return cosmetics_view(
            view, kind=self.cosmetic_kind.value, mode=self.cosmetic_view.value, names=self.names
        )

    def _render_table(self) -> dict[str, Any]:
        return table_view(self.frames)


def _multi(
    description: str,
    column: pd.Series,
    layout: widgets.Layout,
    *,
    key: Callable[[Any], Any] = str,
) -> widgets.SelectMultiple:
    values = sorted(column.dropna().astype(object).unique(), key=key)
    return widgets.SelectMultiple(
        options=[(group_label(value), value) for value in values],
        description=description,
        rows=min(max(len(values), 2), 5),
        layout=layout,
    )


def _date_slider(created_at: pd.Series) -> widgets.SelectionRangeSlider:
    known = created_at.dropna()
    if known.empty:
        options: Sequence[tuple[str, Any]] = [("no dates", None)]
    else:
        days = pd.date_range(known.min().floor("D"), known.max().floor("D"), freq="D")
        options = [(day.strftime("%Y-%m-%d"), day) for day in days]
    # The slider's own readout cuts long ranges off: the full range is written beside it.
    return widgets.SelectionRangeSlider(
        options=options,
        index=(0, len(options) - 1),
        description="Dates (UTC)",
        continuous_update=False,
        readout=False,
        layout=widgets.Layout(width="auto"),
    )


def _date_text(slider: widgets.SelectionRangeSlider) -> str:
    """The selected dates in full: first and last day, and how many days."""
    first, last = slider.index
    start, end = slider.options[first][0], slider.options[last][0]
    if slider.value[0] is None:
        return "<small>no dates</small>"
    days = last - first + 1
    return f"<small>{start} to {end} ({days:,} day{'s' if days != 1 else ''}, UTC)</small>"


def _characters(frames: MatchFrames) -> list[str]:
    """Characters of non-bot participants, most played first."""
    participants = frames.participants
    actors = participants.loc[participants["kind"].astype(object) != "bot", "actor"].dropna()
    counts = actors.astype(str).value_counts()
    return sorted(counts.index, key=lambda actor: (-counts[actor], actor))
