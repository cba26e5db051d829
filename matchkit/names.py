"""Names for ids: characters, cosmetics and maps as an analyst calls them.

The wire carries ids only. A :class:`Names` maps each kind of id (characters, cosmetics, maps,
game modes, telemetry battlerites) to display names:

- the sample set's own catalogue: :func:`sample_names` (read from the data set folder) or
  :meth:`matchkit.Client.names` (``GET /catalogue`` of a service: the embedded one, or a remote
  copy of the sample set), which reads the answer with :func:`catalogue_names`;
- a mapping you pass for any other data: :func:`load_names` (a dict, or a CSV or JSON file).

An id without a name stays its id (as text): nothing is dropped or guessed. Nothing here sends
a request: a catalogue a service serves comes through the client.

Example:
    >>> from matchkit.names import load_names
    >>> names = load_names({"character": {"1261834060": "Ashwind"}})
    >>> names.name("character", 1261834060), names.name("character", 42)
    ('Ashwind', '42')
"""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import orjson
import pandas as pd

from matchkit.errors import DocumentError, InvalidArgumentError
from matchkit.model.schema import COSMETIC_KINDS

__all__ = [
    "NAME_COLUMNS",
    "NAME_KINDS",
    "Names",
    "as_names",
    "catalogue_names",
    "load_names",
    "sample_names",
    "with_names",
]

#: The kinds of id a catalogue names.
NAME_KINDS = ("character", *COSMETIC_KINDS, "map", "game_mode", "battlerite")
#: Id column -> (kind of id, name column) that :func:`with_names` adds for it.
NAME_COLUMNS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "actor": ("character", "character"),
        "map_id": ("map", "map"),
        "game_mode": ("game_mode", "game_mode_name"),
        "battlerite_type": ("battlerite", "battlerite_name"),
        **{kind: (kind, f"{kind}_name") for kind in COSMETIC_KINDS},
    }
)


def _id_text(value: Any) -> str | None:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass(frozen=True)
class Names:
    """Display names per kind of id (id text -> name), and where they came from.

    Attributes:
        names: kind (:data:`NAME_KINDS` or your own) -> id as text -> name.
        source: where the names came from (a file, a URL, "given mapping").
    """

    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    source: str = "no names"

    def __post_init__(self) -> None:
        frozen = {
            str(kind): MappingProxyType({str(key): str(value) for key, value in mapping.items()})
            for kind, mapping in self.names.items()
        }
        object.__setattr__(self, "names", MappingProxyType(frozen))

    def __repr__(self) -> str:
        counts = ", ".join(f"{kind}={len(mapping)}" for kind, mapping in self.names.items())
        return f"Names({counts or 'empty'}; from {self.source})"

    def name(self, kind: str, value: Any) -> str:
        """The name of one id, else the id as text ("unknown" for a missing id)."""
        text = _id_text(value)
        if text is None:
            return "unknown"
        return self.names.get(kind, {}).get(text, text)

    def label(self, kind: str, values: pd.Series) -> pd.Series:
        """A Series of names for a Series of ids (same index; missing ids stay missing)."""
        mapping = self.names.get(kind, {})
        codes, uniques = pd.factorize(values.astype(object), use_na_sentinel=True)
        texts = [_id_text(value) for value in uniques]
        labels = [pd.NA if text is None else mapping.get(text, text) for text in texts]
        named = pd.array([*labels, pd.NA], dtype="string")
        return pd.Series(named[codes], index=values.index, dtype="string")

    def merge(self, other: Names) -> Names:
        """These names with ``other``'s added (``other`` wins on a clash).

        Raises:
            InvalidArgumentError: ``other`` is not Names (load one with :func:`load_names`).
        """
        if not isinstance(other, Names):
            raise InvalidArgumentError(
                f"merge: other must be Names (from load_names, sample_names or client.names()), "
                f"not {type(other).__name__}",
                parameter="other",
            )
        kinds = {kind: dict(mapping) for kind, mapping in self.names.items()}
        for kind, mapping in other.names.items():
            kinds.setdefault(kind, {}).update(mapping)
        return Names(kinds, source=f"{self.source} + {other.source}")

    def label_table(self, table: pd.DataFrame, *, cosmetic_kind: str | None = None) -> pd.DataFrame:
        """``table`` with a name column beside each id column it has: :func:`with_names` with
        these names (what :meth:`MatchFrames.participant_view
        <matchkit.model.frames.MatchFrames.participant_view>` calls, so that the model needs
        no import of this module)."""
        return with_names(table, self, cosmetic_kind=cosmetic_kind)


def _from_mapping(data: Any, *, kind: str | None, source: str) -> Names:
    if isinstance(data, Mapping) and "names" in data and isinstance(data["names"], Mapping):
        data = data["names"]
    if not isinstance(data, Mapping):
        raise InvalidArgumentError(
            f"names from {source}: expected {{kind: {{id: name}}}} or, with kind=, {{id: name}}; "
            f"got {type(data).__name__}",
            parameter="source",
        )
    if kind is not None:
        data = {kind: data}
    for name, mapping in data.items():
        if not isinstance(mapping, Mapping):
            raise InvalidArgumentError(
                f"names from {source}: {name!r} must map ids to names (or pass kind= for a flat "
                f"{{id: name}} mapping); got {type(mapping).__name__}",
                parameter="source",
            )
    return Names(data, source=source)


def _from_csv(path: Path, *, kind: str | None) -> Names:
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    needed = ("id", "name") if kind is not None else ("kind", "id", "name")
    columns = set(rows[0]) if rows else set()
    if not rows or not set(needed) <= columns:
        raise InvalidArgumentError(
            f"{path}: a names CSV needs the columns {', '.join(needed)} (found "
            f"{', '.join(sorted(columns)) or 'no rows'})",
            parameter="source",
        )
    kinds: dict[str, dict[str, str]] = {}
    for row in rows:
        kinds.setdefault(kind or row["kind"], {})[row["id"]] = row["name"]
    return Names(kinds, source=str(path))


def load_names(
    source: Mapping[str, Any] | str | os.PathLike[str], *, kind: str | None = None
) -> Names:
    """Names from a mapping you pass, or from a CSV or JSON file.

    Args:
        source: ``{kind: {id: name}}`` (or, with ``kind``, ``{id: name}``); a ``.json`` file
            holding either (a catalogue file works too); a ``.csv`` file with columns
            ``kind,id,name`` (or ``id,name`` with ``kind``).
        kind: the kind of every id in a flat mapping or a two-column CSV (``"character"``).

    Raises:
        InvalidArgumentError: the source has none of these shapes, or the file is missing.
        DocumentError: a JSON file is not valid JSON.
    """
    if isinstance(source, Mapping):
        return _from_mapping(source, kind=kind, source="given mapping")
    if not isinstance(source, str | os.PathLike):
        raise InvalidArgumentError(
            f"source must be a mapping or a path, not {type(source).__name__}", parameter="source"
        )
    path = Path(source)
    if not path.is_file():
        raise InvalidArgumentError(f"no names file at {path}", parameter="source")
    if path.suffix.lower() == ".csv":
        return _from_csv(path, kind=kind)
    try:
        data = orjson.loads(path.read_bytes())
    except orjson.JSONDecodeError as error:
        raise DocumentError(f"{path} is not valid JSON: {error}") from None
    return _from_mapping(data, kind=kind, source=str(path))


def sample_names() -> Names:
    """The sample set's catalogue, read from its folder (``catalogue.json``).

    Raises:
        MatchkitError: the sample set has no catalogue file.
    """
    from matchkit.sampledata.dataset import find_catalogue

    path = find_catalogue(None)
    if path is None:
        raise InvalidArgumentError("the sample data set has no catalogue.json", parameter="source")
    return load_names(path)


def catalogue_names(document: Mapping[str, Any], *, source: str) -> Names:
    """Names from a catalogue document (``{"names": {kind: {id: name}}, ...}``), as a service
    serves it at ``GET /catalogue`` and a data set keeps it in ``catalogue.json``.

    Args:
        document: the parsed catalogue.
        source: where it came from (a URL, a file), kept as :attr:`Names.source`.

    Raises:
        InvalidArgumentError: the document is not a catalogue.
    """
    if not isinstance(document, Mapping) or not isinstance(document.get("names"), Mapping):
        raise InvalidArgumentError(
            f"names from {source}: a catalogue is an object with a 'names' object",
            parameter="source",
        )
    return _from_mapping(document, kind=None, source=source)


def as_names(value: Names | Mapping[str, Any] | None, *, kind: str = "character") -> Names:
    """``value`` as Names: Names as is, None as no names, a mapping through :func:`load_names`.

    A flat ``{id: name}`` mapping is taken as names of ``kind`` (characters by default).
    """
    if value is None:
        return Names()
    if isinstance(value, Names):
        return value
    if isinstance(value, Mapping):
        nested = all(isinstance(mapping, Mapping) for mapping in value.values())
        return load_names(value, kind=None if nested and value else kind)
    raise InvalidArgumentError(
        f"names must be matchkit.names.Names or a mapping, not {type(value).__name__}",
        parameter="names",
    )


def with_names(
    table: pd.DataFrame,
    names: Names | Mapping[str, Any] | None,
    *,
    cosmetic_kind: str | None = None,
    ids: Literal["beside", "last"] = "beside",
) -> pd.DataFrame:
    """``table`` with a name column for each id column it has (see :data:`NAME_COLUMNS`).

    ``actor`` gets ``character``, ``map_id`` gets ``map``, ``mount`` gets ``mount_name`` (and
    so on), and ``cosmetic_id`` gets ``cosmetic``: named by the row's ``cosmetic_kind`` column,
    else by ``cosmetic_kind``. Ids without a name stay their id, as text. A name column that
    is already there is left alone.

    Args:
        table: any table with id columns.
        names: display names, or None (every name is then its id, as text).
        cosmetic_kind: the kind of ``cosmetic_id`` when the table has no ``cosmetic_kind``.
        ids: ``"beside"``: each name column right after its id column; ``"last"``: each name
            column where its id column was, and the named id columns at the end (in their
            order), so that a reader meets names first (the analysis tables).
    """
    if ids not in ("beside", "last"):
        raise InvalidArgumentError(f"ids={ids!r}: use 'beside' or 'last'", parameter="ids")
    catalogue = as_names(names)
    table = table.copy()
    pairs = [(column, *NAME_COLUMNS[column]) for column in table.columns if column in NAME_COLUMNS]
    for column, kind, target in pairs:
        if target not in table.columns:
            table.insert(
                table.columns.get_loc(column) + 1, target, catalogue.label(kind, table[column])
            )
    if "cosmetic_id" in table.columns and "cosmetic" not in table.columns:
        if "cosmetic_kind" in table.columns:
            kinds = table["cosmetic_kind"].astype(object)
            labelled = pd.Series(pd.NA, index=table.index, dtype="string")
            for kind in kinds.dropna().unique():
                rows = kinds == kind
                labelled.loc[rows] = catalogue.label(str(kind), table.loc[rows, "cosmetic_id"])
        else:
            labelled = catalogue.label(cosmetic_kind or "", table["cosmetic_id"])
        table.insert(table.columns.get_loc("cosmetic_id") + 1, "cosmetic", labelled)
    if ids == "last":
        name_of = {column: name for column, (_, name) in NAME_COLUMNS.items()}
        name_of["cosmetic_id"] = "cosmetic"
        named = [c for c in table.columns if c in name_of and name_of[c] in table.columns]
        table = table[[*(c for c in table.columns if c not in named), *named]]
    return table
