"""The client: :class:`Client` fetches match records, cached, paged and rate limited."""

from __future__ import annotations

from matchkit.client.client import Client

__all__ = ["Client"]
