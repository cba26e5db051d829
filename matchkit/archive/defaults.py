"""The defaults of a sync, light enough for the command line's parser to import."""

from __future__ import annotations

from datetime import timedelta

__all__ = ["DEFAULT_SETTLE", "DEFAULT_WINDOW"]

DEFAULT_WINDOW = timedelta(days=7)
"""The span of one batch."""
DEFAULT_SETTLE = timedelta(hours=6)
"""How long before now a match may still be listed late (a service lists a match once it has
ended and been ingested, and its ``created_at`` is its start): a sync's watermark stops this far
before its end, and the next sync reads that span again."""
