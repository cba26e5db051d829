"""The deterministic synthetic match generator that writes the sample data set.

The same arguments give the same bytes on every run and platform: every draw comes from a
seeded :class:`random.Random` (see :mod:`matchkit.sampledata.sampling`), ids are made of its bits,
nothing depends on the clock, on hashing or on set order. The defaults reproduce the committed
``data/`` folder (``matchkit synth --out data``); ``data/README.md`` documents the generative
model, and :mod:`matchkit.sampledata.parameters` holds every number of it.

Example:
    >>> manifest = write_dataset("sample", matches=50, na_matches=10)  # doctest: +SKIP
    >>> manifest["shards"]["global"]["matches"]  # doctest: +SKIP
    50
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, NamedTuple
from uuid import uuid4

import orjson

from matchkit.errors import InvalidArgumentError, MatchkitError
from matchkit.model.replace import replace_folder
from matchkit.rules.checks import checked_whole_number
from matchkit.rules.windows import RETENTION, format_time, parse_time
from matchkit.sampledata.catalogue import build_catalogue
from matchkit.sampledata.dataset import FORMAT, MANIFEST, open_dataset, write_shard_file
from matchkit.sampledata.parameters import (
    DAYS,
    DEFAULT_AS_OF,
    DEFAULT_NA_MATCHES,
    DEFAULT_SEED,
    GLOBAL_MATCHES,
    parameters_record,
)
from matchkit.sampledata.sampling import Draw
from matchkit.synth.global_shard import GlobalMatches
from matchkit.synth.na_shard import NaMatches
from matchkit.synth.names import CATALOGUE_FILE, write_catalogue
from matchkit.synth.timeline import timed_documents

__all__ = [
    "DAYS",
    "DEFAULT_AS_OF",
    "DEFAULT_NA_MATCHES",
    "DEFAULT_SEED",
    "GLOBAL_MATCHES",
    "iter_documents",
    "model_parameters",
    "write_dataset",
]


class _Shard(NamedTuple):
    """A shard's match builder, how its match ids are drawn (global: hex, na: UUIDs), its
    default number of matches and the argument that names it in errors."""

    builder: type[GlobalMatches] | type[NaMatches]
    new_id: Callable[[Draw], str]
    default: int
    name: str


_SHARDS = {
    "global": _Shard(GlobalMatches, Draw.hex_id, GLOBAL_MATCHES, "matches"),
    "na": _Shard(NaMatches, Draw.uuid, DEFAULT_NA_MATCHES, "na_matches"),
}


MAX_SEED = 2**63 - 1
"""The largest seed: the manifest records it as a JSON integer of 64 bits."""


def _whole(value: object, name: str, *, low: int, high: int | None = None) -> int:
    message = f"{name}={value!r} must be a whole number >= {low}"
    value = checked_whole_number(value, low=low, parameter=name, message=message)
    if high is not None and value > high:
        raise InvalidArgumentError(f"{name}={value!r} must be at most {high}", parameter=name)
    return value


def _as_of(value: str | datetime) -> datetime:
    moment = parse_time(value, parameter="as_of")
    if moment.microsecond:
        raise InvalidArgumentError(
            f"as_of={value!r} has a fraction of a second; give whole seconds", parameter="as_of"
        )
    return moment


def iter_documents(
    shard: Literal["global", "na"],
    *,
    seed: int = DEFAULT_SEED,
    matches: int | None = None,
    as_of: str | datetime = DEFAULT_AS_OF,
    days: int = DAYS,
) -> Iterator[dict[str, Any]]:
    """Generate one shard's single-match documents, ordered by (createdAt, id).

    Args:
        shard: ``"global"`` (current shape) or ``"na"`` (older shape).
        seed: the seed; the same seed gives the same documents.
        matches: how many matches (default: 4,200 global, 600 na).
        as_of: the moment the data set ends at; every timestamp lies before it.
        days: how many days before ``as_of`` the matches spread over (at most 120, the
            service's retention).

    Raises:
        InvalidArgumentError: an argument out of range.
    """
    seed = _whole(seed, "seed", low=0, high=MAX_SEED)
    days = _whole(days, "days", low=1, high=RETENTION.days)
    moment = _as_of(as_of)
    catalogue = build_catalogue()
    if shard not in _SHARDS:
        raise InvalidArgumentError(
            f"shard={shard!r} is not generated; use global or na", parameter="shard"
        )
    builder, new_id, default, name = _SHARDS[shard]
    count = _whole(default if matches is None else matches, name, low=0)
    build = builder(seed, catalogue, as_of=moment, days=days).match
    return timed_documents(f"{seed}:{shard}", new_id, build, matches=count, as_of=moment, days=days)


def model_parameters() -> dict[str, Any]:
    """The generative model's parameters and the game catalogue, as written to the manifest."""
    record = parameters_record()
    record["catalogue"] = build_catalogue().record()
    return record


def write_dataset(
    out: str | os.PathLike[str],
    *,
    seed: int = DEFAULT_SEED,
    matches: int = GLOBAL_MATCHES,
    na_matches: int = DEFAULT_NA_MATCHES,
    as_of: str | datetime = DEFAULT_AS_OF,
    days: int = DAYS,
) -> dict[str, Any]:
    """Write a data set folder (manifest.json, global.jsonl.gz, na.jsonl.gz, catalogue.json).

    Args:
        out: the folder; created if missing. Other files in it are left alone; the data set's
            own files are replaced only where a matchkit data set was written before. They are
            written beside the folder and moved in at the end
            (:func:`matchkit.model.replace.replace_folder`): a run that fails changes nothing.
        seed: the seed; the defaults reproduce the committed sample set.
        matches: global matches.
        na_matches: na (older shape) matches.
        as_of: the moment the data set ends at (``YYYY-MM-DDTHH:MM:SSZ``).
        days: days before ``as_of`` the matches spread over (1..120).

    Returns:
        The manifest written (format, as_of, days, seed, shards with counts and sha256 of the
        uncompressed lines, catalogue with its path and sha256, parameters).

    Raises:
        InvalidArgumentError: an argument out of range, or ``out`` holds files of the data set's
            names that matchkit did not write.
    """
    folder = Path(out)
    _check_replaceable(folder)
    moment = _as_of(as_of)
    global_documents = iter_documents("global", seed=seed, matches=matches, as_of=moment, days=days)
    na_documents = iter_documents("na", seed=seed, matches=na_matches, as_of=moment, days=days)
    # Written beside the folder, then moved in (replace_folder): a failed run changes nothing,
    # and only the data set's own files are ever replaced.
    folder.absolute().parent.mkdir(parents=True, exist_ok=True)
    staging = folder.absolute().parent / f".{folder.name}.writing-{os.getpid()}-{uuid4().hex}"
    staging.mkdir()
    try:
        shards = {
            "global": write_shard_file(staging / "global.jsonl.gz", global_documents),
            "na": write_shard_file(staging / "na.jsonl.gz", na_documents),
        }
        manifest = {
            "catalogue": write_catalogue(staging),
            "format": FORMAT,
            "as_of": format_time(moment),
            "days": days,
            "seed": seed,
            "shards": shards,
            "parameters": model_parameters(),
            "renames": _renames_record(seed, moment, days),
        }
        (staging / MANIFEST).write_bytes(
            orjson.dumps(manifest, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
        )
        replace_folder(
            staging,
            folder.absolute(),
            manifest=MANIFEST,
            listed=lambda _: _DATASET_FILES,
            parameter="out",
            adopt=True,
        )
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return manifest


def _renames_record(seed: int, as_of: datetime, days: int) -> dict[str, list[dict[str, str]]]:
    """Per shard, the players renamed in the window (id, from, to, at), for the manifest."""
    catalogue = build_catalogue()
    return {
        shard: [
            rename.record()
            for rename in builder(seed, catalogue, as_of=as_of, days=days).renames.renames
        ]
        for shard, (builder, *_rest) in _SHARDS.items()
    }


_DATASET_FILES = (MANIFEST, "global.jsonl.gz", "na.jsonl.gz", CATALOGUE_FILE)


def _check_replaceable(folder: Path) -> None:
    """Refuse to write over files of the data set's names unless matchkit wrote them."""
    if folder.exists() and not folder.is_dir():
        raise InvalidArgumentError(f"{folder} exists and is not a folder", parameter="out")
    taken = [name for name in _DATASET_FILES if (folder / name).exists()]
    if not taken:
        return
    try:
        open_dataset(folder)
    except MatchkitError as error:
        raise InvalidArgumentError(
            f"{folder} holds {', '.join(taken)}, and it is not a matchkit data set ({error}); "
            "nothing was replaced: choose another folder",
            parameter="out",
        ) from None
