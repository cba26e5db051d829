"""An ipywidgets panel to explore MatchFrames: filters above tabs of plots and a table.

Example (in JupyterLab)::

    from matchkit.widgets.explorer import explore
    panel = explore(frames)
    panel            # shows the panel; change a filter and the visible tab redraws
    panel.frames     # the MatchFrames the filters select

Every filter left empty means "all" (:mod:`matchkit.widgets.filters`). The plots are rendered
to PNG inside ``Output`` widgets (:mod:`matchkit.widgets._views`), so they show in JupyterLab,
in classic notebooks and in exported HTML with widget state alike.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets
import pandas as pd

from matchkit.analysis import COSMETIC_KINDS
from matchkit.analysis.inputs import require_match_frames
from matchkit.errors import MatchkitError
from matchkit.model.frames import MatchFrames
from matchkit.names import Names, as_names
from matchkit.widgets._views import (
    cosmetics_view,
    durations_view,
    html_output,
    sides_view,
    table_view,
)
from matchkit.widgets.filters import Filters

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
#: The views of the cosmetics tab: label -> mode of :func:`matchkit.widgets._views.cosmetics_view`.
COSMETIC_VIEWS = (
    ("top picks per character", "usage"),
    ("share heatmap", "heatmap"),
    ("non-default share, all kinds", "summary"),
)


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
        filters: the :class:`matchkit.widgets.filters.Filters` (their widgets, their mask).
        date_range, server_type, ranking_type, patch_version, region, character, player: the
            filter widgets (set their ``value`` to filter from code).
        side_group, side_level, cosmetic_kind, cosmetic_view: the options of the tabs.
        outputs: tab key -> the ``Output`` widget it renders into.
        tabs: the ``Tab`` widget; widget: the whole panel (a ``VBox``).
        reset: the button that clears every filter.
        date_readout: the selected dates, written in full.
        renders: how many times the filters were applied (one per filter change or reset).
        tab_renders: tab key -> how many times that tab was drawn.

    The panel opens with its visible tab drawn. A filter change redraws the visible tab only;
    another tab is drawn when it is opened (until then it says it is out of date).
    :meth:`render_all` draws every tab, for a static copy of the notebook (a kernel no longer
    runs to draw a tab when it is opened there).
    """

    def __init__(
        self,
        data: MatchFrames,
        *,
        names: Names | Mapping[str, Any] | None = None,
    ) -> None:
        require_match_frames(data)
        self.source = data
        self._mask = pd.Series(True, index=data.matches.index)
        self._selected: MatchFrames | None = data
        self.names = as_names(names)
        self.renders = 0
        self.tab_renders = dict.fromkeys(TABS, 0)
        self._stale: set[str] = set(TABS)
        self._building = True
        self.filters = Filters(data, self.names)
        # The filter widgets, where a notebook sets them (panel.server_type.value = ...).
        self.date_range = self.filters.date_range
        self.date_readout = self.filters.date_readout
        self.server_type = self.filters.server_type
        self.ranking_type = self.filters.ranking_type
        self.patch_version = self.filters.patch_version
        self.region = self.filters.region
        self.character = self.filters.character
        self.player = self.filters.player
        self.tabs = self._tabs()
        self.status = widgets.HTML()
        self.reset = widgets.Button(
            description="Reset filters", tooltip="Clear every filter: all matches"
        )
        controls = widgets.HBox([self.reset, self.status])
        self.widget = widgets.VBox([self.filters.widget, controls, self.tabs])
        self._observe()
        self._building = False
        self.refresh()

    def _tabs(self) -> widgets.Tab:
        """The tabs, each an ``Output`` (in :attr:`outputs`) under the options of its view."""
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
        self.cosmetic_view = widgets.Dropdown(options=COSMETIC_VIEWS, description="View")
        self.outputs = {key: widgets.Output() for key in TABS}
        sides_options = widgets.HBox([self.side_group, level_label, self.side_level])
        cosmetics_options = widgets.HBox([self.cosmetic_kind, self.cosmetic_view])
        return widgets.Tab(
            children=[
                self.outputs["durations"],
                widgets.VBox([sides_options, self.outputs["sides"]]),
                widgets.VBox([cosmetics_options, self.outputs["cosmetics"]]),
                self.outputs["table"],
            ],
            titles=list(TABS.values()),
        )

    def _observe(self) -> None:
        """What redraws what: a filter the visible tab, a tab's option that tab."""
        for control in self.filters.controls():
            control.observe(self._on_filter_change, names="value")
        self.reset.on_click(lambda _button: self.reset_filters())
        self.tabs.observe(self._on_tab_change, names="selected_index")
        for control, tab in (
            (self.side_group, "sides"),
            (self.side_level, "sides"),
            (self.cosmetic_kind, "cosmetics"),
            (self.cosmetic_view, "cosmetics"),
        ):
            control.observe(self._on_option_change(tab), names="value")

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
            self.filters.clear()
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
        return self.filters.mask()

    def refresh(self) -> None:
        """Apply the filters to ``source`` and redraw the visible tab (the others when opened)."""
        self._mask = self.selection_mask()
        # The tables are filtered when a tab (or the caller) asks for them, not here: the
        # durations tab reads the matches table only.
        self._selected = None
        self.renders += 1
        count = self.selected_count
        self.status.value = f"<b>{count:,}</b> of {len(self.source):,} matches selected"
        self.filters.describe_dates()
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
