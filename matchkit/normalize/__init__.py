"""JSON:API documents -> :class:`matchkit.model.frames.MatchFrames` (:func:`to_frames`).

The public interface, for users and for the other subsystems (nothing outside this package
imports its modules directly; ``tests/test_layout.py`` checks it):

- :func:`to_frames`: documents -> MatchFrames (also ``matchkit.to_frames``).
- The column machinery another reader of JSON values shares with this one (the telemetry
  reader, :mod:`matchkit.telemetry`, builds its tables with it, so that a value converts, and
  a value that does not fit is reported, the same way in both):

  - :func:`to_arrow`: a chunk of JSON values -> an Arrow array (types inferred);
  - :func:`unify`: the chunks of one column cast to one type;
  - :func:`convert`: an Arrow array -> the pandas array of a column kind, values that do not
    fit reported into :class:`Problems`;
  - :class:`Problems`: the collector of what could not be resolved;
  - :func:`snake_case`: a wire key as a column name;
  - :data:`ARROW_POOL` and :func:`nulls`: the one Arrow memory pool both readers allocate from.
"""

from __future__ import annotations

from matchkit.normalize.arrow import ARROW_POOL, nulls
from matchkit.normalize.assemble import snake_case
from matchkit.normalize.columns import convert, to_arrow, unify
from matchkit.normalize.pipeline import to_frames
from matchkit.normalize.problems import Problems

__all__ = [
    "ARROW_POOL",
    "Problems",
    "convert",
    "nulls",
    "snake_case",
    "to_arrow",
    "to_frames",
    "unify",
]
