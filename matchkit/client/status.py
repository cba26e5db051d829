"""The service's status resource, read into a :class:`ServiceStatus` with a readable repr."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from matchkit.errors import InvalidArgumentError
from matchkit.rules.windows import format_time, parse_time

__all__ = ["ServiceStatus", "read_status"]


@dataclass(frozen=True)
class ServiceStatus:
    """The service's status resource.

    Attributes:
        name: the resource id (the service's name).
        version: the service version, when given.
        released_at: when that version was released, when given.
        attributes: every attribute as delivered.
    """

    name: str | None
    version: str | None
    released_at: datetime | None
    attributes: dict[str, Any]

    def __repr__(self) -> str:
        # Readable in a notebook or a report: the time as ISO 8601, not datetime.datetime(...).
        released = "None" if self.released_at is None else format_time(self.released_at)
        return (
            f"ServiceStatus(name={self.name!r}, version={self.version!r}, "
            f"released_at={released}, attributes={self.attributes!r})"
        )


def read_status(document: dict[str, Any] | None) -> ServiceStatus:
    """The status resource of a ``GET /status`` document the transport has checked (it holds
    one status resource, as an object or a list of one)."""
    data = (document or {})["data"]
    data = data[0] if isinstance(data, list) else data
    attributes = data.get("attributes") or {}
    released = attributes.get("releasedAt")
    try:
        released_at = None if released is None else parse_time(released)
    except InvalidArgumentError:
        released_at = None
    return ServiceStatus(
        name=data.get("id"),
        version=attributes.get("version"),
        released_at=released_at,
        attributes=dict(attributes),
    )
