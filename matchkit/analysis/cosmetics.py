"""Which cosmetics (attachment, emote, mount, outfit) players pick, per character, and how often
the picks win.

Bots carry no cosmetics and are left out (counted in ``attrs["excluded"]``), as are participants
whose cosmetic of that kind is missing.

**Default cosmetic.** The data do not say which cosmetic a character gets for free, so matchkit
calls the *most picked* cosmetic of a character its default (ties go to the smallest id).
``non_default_share`` is the share of picks that are not that one.

**Diversity.** ``diversity`` is the Shannon entropy of a character's shares divided by its
maximum, ``ln(distinct)``: 1 when every cosmetic seen is picked equally often, 0 when one
cosmetic takes every pick. ``effective_choices`` is ``exp(entropy)``: the picks are as diverse
as that many equally popular cosmetics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from matchkit.analysis._archive import key_dtypes
from matchkit.analysis._common import (
    arena_mask,
    group_keys,
    participant_table,
    wilson_columns,
    with_group_columns,
)
from matchkit.analysis._engine import (
    by_partition,
    collect,
    is_lazy,
    summed,
    summed_counts,
    with_dtypes,
)
from matchkit.analysis._groups import counted
from matchkit.analysis.inputs import TableSource, is_archive, text_as_categories
from matchkit.errors import InvalidArgumentError
from matchkit.model.schema import COSMETIC_KINDS, CosmeticKind
from matchkit.names import Names, with_names
from matchkit.rules.checks import checked_whole_number

__all__ = [
    "COSMETIC_KINDS",
    "cosmetic_summary",
    "cosmetic_usage",
    "cosmetic_win_rates",
]


def cosmetic_usage(
    data: TableSource | pd.DataFrame,
    kind: CosmeticKind | Sequence[CosmeticKind] = "mount",
    by: str | Sequence[str] | None = "actor",
    *,
    top: int | None = None,
    names: Names | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """The share of each cosmetic among the picks of each character (or other group).

    Args:
        data: the normalized matches, or their participant view
            (:meth:`MatchFrames.participant_view`), or an archive (:func:`matchkit.archive.open`):
            the same table, computed by Dask.
        kind: one of :data:`COSMETIC_KINDS`, or several (their rows are stacked).
        by: grouping keys, columns of the participant view; ``"actor"`` (the character) by
            default; None pools every participant.
        top: keep the ``top`` most picked cosmetics of each group (shares stay relative to
            all picks of the group, so they add up to less than 1).
        names: display names (:mod:`matchkit.names`); ids without a name stay ids, and
            None names none.

    Returns:
        One row per group, kind and cosmetic, most picked first; names first, ids last: the
        ``by`` columns (``character`` in the place of ``actor``), ``cosmetic_kind``,
        ``cosmetic`` (its name), ``picks``, ``share``, ``rank`` (1 = most picked),
        ``is_default`` (rank 1, see the module notes), then the ids: ``actor`` (when grouped
        by it) and ``cosmetic_id``. ``attrs["excluded"]`` counts
        what was left out: ``bots`` (participants) and ``missing_cosmetic`` (picks: one per
        participant and kind whose value is missing).
    """
    kinds = _kinds(kind)
    keys = group_keys(by)
    counts, excluded = _tallied(_view(data, ("kind", *kinds), keys), kinds, keys)
    counts, excluded = _collected(data, counts, excluded, keys)
    table = _usage(counts, keys, kinds)
    if top is not None:
        table = table.loc[table["rank"] <= _checked_top(top)].reset_index(drop=True)
    table = _named(table, names, kind)
    table.attrs["excluded"] = excluded
    return table


def cosmetic_summary(
    data: TableSource | pd.DataFrame,
    kind: CosmeticKind | Sequence[CosmeticKind] = "mount",
    by: str | Sequence[str] | None = "actor",
    *,
    names: Names | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Per character (or other group) and kind: how many picks, how varied, how far from default.

    Args:
        data: the normalized matches, or their participant view, or an archive.
        kind: one of :data:`COSMETIC_KINDS`, or several.
        by: grouping keys, columns of the participant view (``"actor"`` by default).
        names: display names (:mod:`matchkit.names`); ids without a name stay ids, and
            None names none.

    Returns:
        One row per group and kind; names first, ids last: the ``by`` columns
        (``character`` in the place of ``actor``), ``cosmetic_kind``, ``picks``, ``distinct``
        (cosmetics seen), ``default_cosmetic`` (the name of the most picked),
        ``default_share``, ``non_default_share``, ``diversity`` (normalized entropy, 0..1),
        ``effective_choices`` (see the module notes), then the ids: ``actor`` (when grouped
        by it) and ``default_cosmetic_id``. ``attrs["excluded"]`` as in
        :func:`cosmetic_usage`.
    """
    kinds = _kinds(kind)
    keys = [*group_keys(by), "cosmetic_kind"]
    counts, excluded = _tallied(_view(data, ("kind", *kinds), keys[:-1]), kinds, keys[:-1])
    counts, excluded = _collected(data, counts, excluded, keys[:-1])
    usage = _usage(counts, keys[:-1], kinds)
    entropy_terms = -usage["share"] * np.log(usage["share"])
    grouped = usage.assign(entropy=entropy_terms).groupby(
        keys, observed=True, dropna=False, sort=True
    )
    table = grouped.agg(
        picks=("picks", "sum"),
        distinct=("cosmetic", "size"),
        entropy=("entropy", "sum"),
    )
    defaults = usage.loc[usage["rank"] == 1].set_index(keys)
    table["default_cosmetic_id"] = defaults["cosmetic"]
    table["default_share"] = defaults["share"]
    table["non_default_share"] = 1.0 - table["default_share"]
    max_entropy = np.log(table["distinct"].astype("float64"))
    table["diversity"] = (table["entropy"] / max_entropy.where(max_entropy > 0)).fillna(0.0)
    table["effective_choices"] = np.exp(table["entropy"])
    table = table.drop(columns="entropy").reset_index()
    named = _named(table.rename(columns={"default_cosmetic_id": "cosmetic_id"}), names, kind)
    table = named.rename(
        columns={"cosmetic_id": "default_cosmetic_id", "cosmetic": "default_cosmetic"}
    )
    table.attrs["excluded"] = excluded
    return table


def cosmetic_win_rates(
    data: TableSource | pd.DataFrame,
    kind: CosmeticKind = "mount",
    by: str | Sequence[str] | None = "actor",
    *,
    top: int | None = None,
    min_picks: int = 1,
    confidence: float = 0.95,
    names: Names | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """The win rate of the participants who picked each cosmetic, with a Wilson interval.

    Only Arena matches count (a Royale "win" is a first place among many teams, a different
    base rate); participants whose roster has no result are left out. Teammates share one
    result, so picks are not independent: read the interval as a rough guide.

    Args:
        data: the normalized matches, or their participant view, or an archive.
        kind: one of :data:`COSMETIC_KINDS`.
        by: grouping keys, columns of the participant view (``"actor"`` by default).
        top: keep the ``top`` most picked cosmetics of each group.
        min_picks: leave out cosmetics picked fewer times than this in their group.
        confidence: the interval's confidence level.
        names: display names (:mod:`matchkit.names`); ids without a name stay ids, and
            None names none.

    Returns:
        One row per group and cosmetic, most picked first; names first, ids last: the ``by``
        columns (``character`` in the place of ``actor``), ``cosmetic`` (its name), ``picks``,
        ``wins``, ``win_rate``, ``ci_low``, ``ci_high``, then the ids: ``actor`` (when grouped
        by it) and ``cosmetic_id``. ``attrs["excluded"]`` counts
        participants left out: ``bots``, ``missing_cosmetic``, ``royale``,
        ``without_result``.
    """
    if not isinstance(kind, str):
        raise InvalidArgumentError(
            f"kind={kind!r}: give one cosmetic kind ({', '.join(COSMETIC_KINDS)})",
            parameter="kind",
        )
    _kinds(kind)  # one of COSMETIC_KINDS
    keys = group_keys(by)
    view = _view(data, ("won", "kind", kind), keys, optional=("is_royale",))
    counts, excluded = _tallied(view, [kind], keys, wins=True)
    table, excluded = _collected(data, counts, excluded, keys)
    table = table.drop(columns="cosmetic_kind").astype({"picks": "int64", "wins": "int64"})
    table = table.loc[table["picks"] >= min_picks]
    table = table.sort_values(
        [*keys, "picks", "cosmetic"], ascending=[True] * len(keys) + [False, True]
    )
    if top is not None:
        limit = _checked_top(top)
        if keys:
            rank = table.groupby(keys, observed=True, dropna=False).cumcount() + 1
            table = table.loc[rank <= limit]
        else:
            table = table.head(limit)
    table = table.reset_index(drop=True)
    table = table.assign(**wilson_columns(table["wins"], table["picks"], confidence=confidence))
    table = _named(table, names, kind)
    table.attrs["excluded"] = excluded
    return table


def _named(
    table: pd.DataFrame, names: Names | Mapping[str, Any] | None, kind: object
) -> pd.DataFrame:
    """The id column ``cosmetic`` as ``cosmetic_id``; names lead, the named ids come last."""
    table = table.rename(columns={"cosmetic": "cosmetic_id"})
    single = kind if isinstance(kind, str) else None
    return with_names(table, names, cosmetic_kind=single, ids="last")


def _checked_top(top: object) -> int:
    message = f"top={top!r} must be a positive integer"
    return checked_whole_number(top, parameter="top", message=message, low=1)


def _kinds(kind: CosmeticKind | Sequence[CosmeticKind]) -> list[str]:
    kinds: list[str] = (
        [kind] if isinstance(kind, str) else list(kind) if isinstance(kind, Sequence) else []
    )
    unknown = [name for name in kinds if name not in COSMETIC_KINDS]
    if unknown or not kinds or len(set(kinds)) != len(kinds):
        raise InvalidArgumentError(
            f"kind={kind!r}: use one or more of {', '.join(COSMETIC_KINDS)}, each once",
            parameter="kind",
        )
    return kinds


def _view(
    data: TableSource | pd.DataFrame,
    required: Sequence[str],
    keys: list[str],
    *,
    optional: Sequence[str] = (),
) -> Any:
    """The participant view with the ``required`` columns and the group keys (lazy on an
    archive, its text read as categoricals but for the ids its tables are joined by: each
    partition is counted on its own)."""
    data = text_as_categories(data, [*required, *keys])
    table = participant_table(data, required=required, keys=keys, optional=optional)
    return with_group_columns(table, keys, source="the participant view")


def _tallied(
    view: Any, kinds: list[str], keys: list[str], *, wins: bool = False
) -> tuple[dict[str, pd.DataFrame], dict[str, int]]:
    """:func:`_tallies` of the view; on an archive, of each partition in the Dask workers
    (one task a partition), summed here.

    Not a lazy grouping: its masks and selections were a task each, 26 a partition, and the
    workers waited on the scheduler between them (``cosmetic_usage`` at 1M matches 0.96-0.99 s,
    against 0.42-0.44 s a task a partition)."""
    if not is_lazy(view):
        return _tallies(view, kinds, keys, wins)
    tallies = partial(_partition_tallies, kinds=kinds, keys=keys, wins=wins)
    parts = by_partition(tallies, {"view": view})
    counts = {name: summed([part[name] for part, _ in parts]) for name in kinds}
    return counts, summed_counts([excluded for _, excluded in parts])


def _partition_tallies(
    tables: Any, kinds: list[str], keys: list[str], wins: bool
) -> tuple[dict[str, pd.DataFrame], dict[str, int]]:
    """:func:`_tallies` of one partition's view (in a worker)."""
    return _tallies(tables.view, kinds, keys, wins)


def _tallies(
    view: pd.DataFrame, kinds: list[str], keys: list[str], wins: bool
) -> tuple[dict[str, pd.DataFrame], dict[str, int]]:
    """The picks of each kind counted per group and cosmetic (``picks``; with ``wins``, of
    Arena participants with a result only, and their ``wins``), and what was left out.

    Kept apart by kind, not stacked with a ``cosmetic_kind`` column: grouping by that column
    (one value per kind) cost a third of the grouping on an archive, where the picks are
    millions of rows and the counts a few hundred. Counted by :func:`counted`, which copies no
    column for the rows it keeps."""
    excluded: dict[str, int] = {"bots": 0, "missing_cosmetic": 0}
    chosen = np.ones(len(view), dtype=bool)
    if wins:
        if "is_royale" in view.columns:
            chosen = arena_mask(view).to_numpy(dtype=bool)
        has_result = view["won"].notna().to_numpy()
        excluded["royale"] = int((~chosen).sum())
        excluded["without_result"] = int((chosen & ~has_result).sum())
        chosen = chosen & has_result
    is_bot = (view["kind"] == "bot").to_numpy(dtype=bool, na_value=False) & chosen
    person = chosen & ~is_bot
    excluded["bots"] = int(is_bot.sum())
    columns = {key: view[key] for key in keys}
    if wins:
        columns["wins"] = view["won"]
    counts = {}
    for name in kinds:
        cosmetic = view[name].astype("Int64")
        present = cosmetic.notna().to_numpy()
        excluded["missing_cosmetic"] += int((person & ~present).sum())
        counts[name] = counted(
            {**columns, "cosmetic": cosmetic},
            [*keys, "cosmetic"],
            person & present,
            size="picks",
            sums=["wins"] if wins else [],
        )
    return counts, excluded


def _collected(
    data: TableSource | pd.DataFrame,
    tables: Mapping[str, Any],
    excluded: dict[str, Any],
    keys: list[str],
) -> tuple[pd.DataFrame, dict[str, int]]:
    """The counted tables of each kind stacked, ``cosmetic_kind`` after the groups, the groups
    as columns in the dtypes they have on MatchFrames (on an archive, a categorical key's
    categories are computed: its column's values), and the counts of ``excluded`` as ints."""
    dtypes, categories = (
        key_dtypes(data, "participant_view", keys) if is_archive(data) else ({}, {})
    )
    (categories,) = collect(categories)
    parts = []
    for name, table in tables.items():
        table = table.reset_index()
        values = [column for column in table.columns if column not in keys]
        parts.append(table.assign(cosmetic_kind=name)[[*keys, "cosmetic_kind", *values]])
    table = with_dtypes(pd.concat(parts, ignore_index=True), dtypes, categories)
    return table, {reason: int(count) for reason, count in excluded.items()}


def _usage(counts: pd.DataFrame, keys: list[str], kinds: list[str]) -> pd.DataFrame:
    """Shares and ranks of each cosmetic in its group and kind, most picked first."""
    group = [*keys, "cosmetic_kind"]
    counts = counts.assign(
        cosmetic_kind=pd.Categorical(counts["cosmetic_kind"].astype(object), categories=kinds),
        picks=counts["picks"].astype("int64"),
    )
    totals = counts.groupby(group, observed=True, dropna=False)["picks"].transform("sum")
    counts["share"] = counts["picks"] / totals
    counts = counts.sort_values(
        [*group, "picks", "cosmetic"], ascending=[True] * len(group) + [False, True]
    ).reset_index(drop=True)
    counts["rank"] = counts.groupby(group, observed=True, dropna=False).cumcount() + 1
    counts["is_default"] = counts["rank"] == 1
    return counts.astype({"picks": "int64", "rank": "int64"})
