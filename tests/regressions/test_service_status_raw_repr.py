"""Issue 12: `client.status()` showed a raw dataclass repr with `datetime.datetime(...)` in the
quickstart notebook and the report."""

from __future__ import annotations

from datetime import UTC, datetime

from matchkit.client.client import ServiceStatus


def test_the_status_repr_shows_the_time_as_iso_8601() -> None:
    status = ServiceStatus(
        name="matchkit",
        version="0.1.0",
        released_at=datetime(2026, 10, 31, tzinfo=UTC),
        attributes={"releasedAt": "2026-10-31T00:00:00Z", "version": "0.1.0"},
    )
    text = repr(status)
    assert "datetime.datetime(" not in text
    assert text == (
        "ServiceStatus(name='matchkit', version='0.1.0', released_at=2026-10-31T00:00:00Z, "
        "attributes={'releasedAt': '2026-10-31T00:00:00Z', 'version': '0.1.0'})"
    )


def test_an_unknown_release_time_reads_none() -> None:
    status = ServiceStatus(name=None, version=None, released_at=None, attributes={})
    assert repr(status) == "ServiceStatus(name=None, version=None, released_at=None, attributes={})"
