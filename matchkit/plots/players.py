"""A player's form over time: a rolling win rate with its interval, and the characters played.

The top Axes shows, at each of the player's matches, the share of their last ``window`` decided
matches they won, with its Wilson interval as a band, the 50% line and their overall rate. The
Axes below it (sharing the time axis) shows which character they played in each match: one row
per character (by name, the most played first; the rest as "other"), a filled marker for a win,
a hollow one for a loss, a grey cross where the match does not say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.dates import AutoDateLocator, ConciseDateFormatter
from matplotlib.figure import Figure

from matchkit.analysis import TableSource, player_history, wilson_columns
from matchkit.errors import InvalidArgumentError
from matchkit.model.frames import MatchFrames
from matchkit.names import Names
from matchkit.plots._arguments import checked_count
from matchkit.plots._style import OTHER_COLOR, percent_axis

__all__ = ["plot_player_form", "rolling_win_rate"]

_REQUIRED = ("created_at", "won", "actor")
_LINE = "#0072B2"


class _Marks(TypedDict, total=False):
    """How the points of one result are drawn (keywords of ``Axes.scatter``)."""

    marker: str
    color: str
    facecolors: str
    edgecolors: str


_OTHER = "other"


def _checked_history(
    data: TableSource | Sequence[MatchFrames] | pd.DataFrame,
    player_id: str | None,
    names: Names | Mapping[str, Any] | None,
) -> pd.DataFrame:
    if isinstance(data, pd.DataFrame):
        missing = [name for name in _REQUIRED if name not in data.columns]
        if missing:
            raise InvalidArgumentError(
                f"the table lacks {missing}: pass a player_history(...) result, or MatchFrames "
                "with player_id=",
                parameter="data",
            )
        return data
    if player_id is None:
        raise InvalidArgumentError(
            "pass player_id= with MatchFrames (or an archive), or a player_history(...) table",
            parameter="player_id",
        )
    return player_history(data, player_id, names=names)


def rolling_win_rate(
    history: pd.DataFrame, *, window: int = 20, confidence: float = 0.95
) -> pd.DataFrame:
    """At each decided match: ``created_at``, ``matches`` (in the window), ``wins``,
    ``win_rate``, ``ci_low``, ``ci_high`` over the last ``window`` decided matches (fewer at
    the start)."""
    window = checked_count(window, "window")
    decided = history.loc[history["won"].notna(), ["created_at", "won"]]
    decided = decided.sort_values("created_at", kind="stable").reset_index(drop=True)
    won = decided["won"].astype(bool).astype("int64")
    table = pd.DataFrame(
        {
            "created_at": decided["created_at"],
            "matches": won.rolling(window, min_periods=1).count().astype("int64"),
            "wins": won.rolling(window, min_periods=1).sum().astype("int64"),
        }
    )
    return table.assign(**wilson_columns(table["wins"], table["matches"], confidence=confidence))


def plot_player_form(
    data: TableSource | Sequence[MatchFrames] | pd.DataFrame,
    *,
    player_id: str | None = None,
    ax: Axes | None = None,
    window: int = 20,
    top: int = 8,
    confidence: float = 0.95,
    label: str | None = None,
    names: Names | Mapping[str, Any] | None = None,
    **style: Any,
) -> Axes:
    """The player's rolling win rate (with its interval) and the characters they played.

    Args:
        data: MatchFrames, a list of them or an archive, with ``player_id``; or a
            :func:`matchkit.analysis.player_history` table.
        player_id: the player, when ``data`` is not a history table.
        ax: the Axes of the win rate; a new Figure with two Axes when None. The characters'
            Axes is added below the given one (an inset sharing its time axis).
        window: the number of decided matches the rate rolls over.
        top: the characters shown by name (most played first); the others are "other".
        confidence: the interval's confidence level.
        label: who the player is, for the title (their name).
        names: display names, when ``data`` is MatchFrames.
        **style: passed to the rate's line.

    Returns:
        The win rate's Axes. The characters' Axes is ``ax.figure.axes[1]`` in a new Figure,
        ``ax.child_axes[0]`` on a given Axes.
    """
    history = _checked_history(data, player_id, names)
    top = checked_count(top, "top")
    rates = rolling_win_rate(history, window=window, confidence=confidence)
    if ax is None:
        figure = Figure(figsize=(9.0, 6.0), layout="constrained")
        ax, strip = figure.subplots(2, 1, sharex=True, height_ratios=(2, 1))
    else:
        strip = ax.inset_axes((0.0, -0.75, 1.0, 0.5), sharex=ax)
    # Drawn once the window is full (or holds every decided match), not from one match on.
    rates = rates.loc[rates["matches"] >= min(window, len(rates))]
    times = rates["created_at"]
    ax.fill_between(
        times,
        rates["ci_low"],
        rates["ci_high"],
        color=_LINE,
        alpha=0.2,
        linewidth=0,
        label=f"{confidence:.0%} interval",
    )
    line = {"color": _LINE, "linewidth": 2, "label": f"won, last {window} matches", **style}
    ax.plot(times, rates["win_rate"], **line)
    ax.axhline(0.5, color="black", linestyle="--", linewidth=1, label="50%")
    decided = history["won"].dropna().astype(bool)
    if len(decided):
        ax.axhline(
            decided.mean(),
            color=OTHER_COLOR,
            linestyle=":",
            linewidth=1.5,
            label=f"overall {decided.mean():.0%} of {len(decided):,}",
        )
    ax.set_ylim(-0.03, 1.03)
    percent_axis(ax)
    ax.set_ylabel(f"Matches won (rolling {window})")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    who = label or "one player"
    ax.set_title(f"Form of {who}: {len(history):,} matches")
    _characters(strip, history, top=top)
    return ax


def _characters(strip: Axes, history: pd.DataFrame, *, top: int) -> None:
    column = "character" if "character" in history.columns else "actor"
    played = history[column].astype("string").fillna(_OTHER)
    counts = played.value_counts(sort=False)
    order = sorted(counts.index, key=lambda name: (-counts[name], str(name)))
    shown = order[:top]
    rows = [*shown, _OTHER] if len(order) > top else shown
    row_of = {name: index for index, name in enumerate(rows)}
    y = played.map(lambda name: row_of.get(name, row_of.get(_OTHER, 0)))
    result = history["won"].astype("boolean")
    won, lost = result.fillna(False).astype(bool), (~result).fillna(False).astype(bool)
    kinds: tuple[tuple[str, pd.Series, _Marks], ...] = (
        ("won", won, {"facecolors": _LINE, "edgecolors": _LINE}),
        ("lost", lost, {"facecolors": "white", "edgecolors": _LINE}),
        ("result unknown", result.isna(), {"color": OTHER_COLOR, "marker": "x"}),
    )
    for name, chosen, look in kinds:
        if chosen.any():
            marks: _Marks = {"marker": "o", **look}
            x = history.loc[chosen, "created_at"]
            strip.scatter(x, y[chosen], s=18, linewidths=1, label=name, **marks)
    others = int(sum(counts[name] for name in order[top:]))
    labels = [f"{name} ({counts[name]})" for name in shown]
    if len(order) > top:
        labels.append(f"{_OTHER} ({others})")
    strip.set_yticks(range(len(rows)), labels)
    strip.set_ylim(len(rows) - 0.5, -0.5)
    strip.set_ylabel("Character")
    locator = AutoDateLocator()
    strip.xaxis.set_major_locator(locator)
    strip.xaxis.set_major_formatter(ConciseDateFormatter(locator))
    strip.grid(axis="y", alpha=0.3)
    strip.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
