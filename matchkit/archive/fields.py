"""Reading the JSON of an archive's manifest field by field: each reader returns the value of
the shape it names or raises :class:`MalformedError` naming the field (which the manifest's
reader turns into an :class:`~matchkit.errors.ArchiveError` naming the file)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from matchkit.errors import InvalidArgumentError
from matchkit.rules.windows import format_time, parse_time

__all__ = [
    "MalformedError",
    "json_batch_key",
    "json_count",
    "json_list",
    "json_object",
    "json_optional_time",
    "json_table_versions",
    "json_text",
    "json_texts",
    "json_time",
    "time_json",
]


class MalformedError(Exception):
    """A field of the manifest has the wrong shape (the message names it)."""


def json_object(value: object, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MalformedError(f"{name} is {value!r}, not an object")
    return value


def json_list(value: object, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise MalformedError(f"{name} is {value!r}, not a list")
    return value


def json_text(value: object, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise MalformedError(f"{name} is {value!r}, not a text")
    return value


def json_texts(value: object, name: str) -> tuple[str, ...]:
    return tuple(json_text(item, name) for item in json_list(value, name))


def json_count(value: object, name: str, *, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise MalformedError(f"{name} is {value!r}, not a whole number >= {least}")
    return value


def json_time(value: object, name: str) -> datetime:
    if isinstance(value, str):
        try:
            return parse_time(value, parameter=name)
        except InvalidArgumentError:
            pass
    raise MalformedError(f"{name} is {value!r}, not a time")


def json_optional_time(value: object, name: str) -> datetime | None:
    return None if value is None else json_time(value, name)


def time_json(moment: datetime | None) -> str | None:
    return None if moment is None else format_time(moment)


def json_batch_key(key: str, name: str) -> int:
    if not key.isdigit():
        raise MalformedError(f"{name} has the key {key!r}, not a batch number")
    return int(key)


def json_table_versions(value: object, batch: str) -> dict[str, int]:
    tables = json_object(value, f"versions.{batch}")
    return {
        label: json_count(version, f"versions.{batch}.{label}") for label, version in tables.items()
    }
