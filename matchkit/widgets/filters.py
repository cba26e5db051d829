"""The explorer's filters: one widget per filter over a MatchFrames, and the matches they select.

Every filter left empty means "all": all dates, every server type, ranking, patch, region and
character, any player. :meth:`Filters.mask` turns their values into a boolean mask over the
matches; :mod:`matchkit.widgets.explorer` redraws its tabs when a value changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
import pandas as pd

from matchkit.analysis import group_label, version_key
from matchkit.model.frames import MatchFrames
from matchkit.names import Names

__all__ = ["Filters"]

#: The filters that select by a column of the matches table: attribute -> column.
MATCH_COLUMN_FILTERS = {
    "server_type": "server_type",
    "ranking_type": "ranking_type",
    "patch_version": "patch_version",
    "region": "region",
}


class Filters:
    """The filter widgets over ``source``: dates, server type, ranking, patch, region, character,
    player.

    Attributes:
        date_range: the days (UTC) to keep; date_readout: them written in full.
        server_type, ranking_type, patch_version, region: the values to keep of each column.
        character: the characters (actor ids, shown by name) a kept match must have.
        player: a player id or a name (any case) a kept match must have.
        widget: the filters laid out in two columns.
    """

    def __init__(self, source: MatchFrames, names: Names) -> None:
        self.source = source
        matches = source.matches
        layout = widgets.Layout(width="auto")
        self.date_range = _date_slider(matches["created_at"])
        self.date_readout = widgets.HTML()
        self.server_type = _multi("Server type", matches["server_type"], layout)
        self.ranking_type = _multi("Ranking", matches["ranking_type"], layout)
        self.patch_version = _multi("Patch", matches["patch_version"], layout, key=version_key)
        self.region = _multi("Region", matches["region"], layout)
        self.character = widgets.SelectMultiple(
            options=[(names.name("character", actor), actor) for actor in _characters(source)],
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
        self.widget = widgets.GridBox(
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

    def controls(self) -> list[widgets.Widget]:
        """The widgets whose ``value`` filters, in the order a change is applied."""
        return [
            self.date_range,
            self.server_type,
            self.ranking_type,
            self.patch_version,
            self.region,
            self.character,
            self.player,
        ]

    def clear(self) -> None:
        """Every filter back to "all" (each change is observed: hold the redraws meanwhile)."""
        self.date_range.index = (0, len(self.date_range.options) - 1)
        for name in [*MATCH_COLUMN_FILTERS, "character"]:
            getattr(self, name).value = ()
        self.player.value = ""

    def mask(self) -> pd.Series:
        """A boolean Series over ``source.matches``: the matches the filters select."""
        matches = self.source.matches
        mask = pd.Series(True, index=matches.index)
        start, end = self.date_range.value
        if start is not None:
            created = matches["created_at"]
            mask &= (created >= start) & (created < end + pd.Timedelta(days=1))
        for name, column in MATCH_COLUMN_FILTERS.items():
            chosen = getattr(self, name).value
            if chosen:
                mask &= matches[column].astype(object).isin(chosen)
        participants = self.source.participants
        if self.character.value:
            chosen = participants.loc[participants["actor"].isin(self.character.value), "match_id"]
            mask &= matches["match_id"].isin(chosen)
        if self.player.value.strip():
            mask &= matches["match_id"].isin(self._player_matches(self.player.value.strip()))
        return mask.fillna(False).astype(bool)

    def describe_dates(self) -> None:
        """Write the selected days in full beside the slider (its own readout cuts them off)."""
        self.date_readout.value = _date_text(self.date_range)

    def _player_matches(self, text: str) -> pd.Series:
        players = self.source.players
        by_name = players.loc[players["name"].str.casefold() == text.casefold(), "player_id"]
        wanted = {text, *by_name.dropna().tolist()}
        participants = self.source.participants
        return participants.loc[participants["player_id"].isin(wanted), "match_id"]


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
