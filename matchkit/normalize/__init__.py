"""JSON:API documents -> :class:`matchkit.model.frames.MatchFrames` (:func:`to_frames`)."""

from __future__ import annotations

from matchkit.normalize.pipeline import to_frames

__all__ = ["to_frames"]
