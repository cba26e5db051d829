"""DeclaredFrames: what every frozen container of declared tables shares.

:class:`matchkit.model.frames.MatchFrames` and
:class:`matchkit.telemetry.frames.TelemetryFrames` are frozen dataclasses with one DataFrame
field per declared table and a ``problems`` tuple. This base gives them the table mapping, the
empty frames, the repr, the summary's common lines, the field checks and the checks of the
frames a combining method is given (:meth:`DeclaredFrames.checked_all`), once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any, ClassVar

import pandas as pd

from matchkit.errors import InvalidArgumentError
from matchkit.model.schema import TableSchema, empty_frame

__all__ = ["DeclaredFrames"]


class DeclaredFrames:
    """A mixin for a frozen dataclass of declared tables plus ``problems``.

    Subclasses name their tables' schemas (table name to schema, in model order) and the table
    whose rows ``len()`` counts as class arguments, and are dataclasses whose fields are the
    tables, then ``problems: tuple[str, ...]``::

        @dataclass(frozen=True, eq=False, repr=False)
        class MatchFrames(DeclaredFrames, schemas=TABLES, counted="matches"): ...

    ``quiet`` names tables the repr and the summary show only when they have rows.
    """

    _SCHEMAS: ClassVar[dict[str, TableSchema]]
    _COUNTED: ClassVar[str]
    _QUIET: ClassVar[frozenset[str]]
    problems: tuple[str, ...]

    def __init_subclass__(
        cls,
        *,
        schemas: dict[str, TableSchema],
        counted: str,
        quiet: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        cls._SCHEMAS = schemas
        cls._COUNTED = counted
        cls._QUIET = frozenset(quiet)  # tables the repr and summary name only when not empty

    @classmethod
    def checked(cls, value: object, *, parameter: str, where: str) -> Any:
        """``value`` itself when it is frames of this class.

        Raises:
            InvalidArgumentError: it is not, naming what was given and ``where`` (the method).
        """
        if not isinstance(value, cls):
            raise InvalidArgumentError(
                f"{where}: {parameter} must be {cls.__name__}, not {_given(value)}",
                parameter=parameter,
            )
        return value

    @classmethod
    def checked_all(cls, frames: object, *, where: str, parameter: str = "frames") -> list[Any]:
        """``frames`` as a list, when it is an iterable of frames of this class (the argument of
        ``concat``): a single frames object, anything else or an item of another kind is refused
        before any work, naming what was given.

        Raises:
            InvalidArgumentError: ``frames`` is not an iterable of this class's frames.
        """
        name = cls.__name__
        if isinstance(frames, DeclaredFrames):
            hint = f"; wrap it in a list: {where}([frames])" if isinstance(frames, cls) else ""
            raise InvalidArgumentError(
                f"{where}: {parameter} must be an iterable of {name} (a list), not one "
                f"{type(frames).__name__}{hint}",
                parameter=parameter,
            )
        if isinstance(frames, str | bytes | pd.DataFrame) or not isinstance(frames, Iterable):
            raise InvalidArgumentError(
                f"{where}: {parameter} must be an iterable of {name} (a list), not "
                f"{_given(frames)}",
                parameter=parameter,
            )
        items = list(frames)
        for index, item in enumerate(items):
            if not isinstance(item, cls):
                raise InvalidArgumentError(
                    f"{where}: {parameter} must hold only {name}; item {index} is {_given(item)}",
                    parameter=parameter,
                )
        return items

    def __len__(self) -> int:
        return len(getattr(self, self._COUNTED))

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by name, in model order."""
        return {name: getattr(self, name) for name in self._SCHEMAS}

    @classmethod
    def empty(cls) -> Any:
        """Frames with every table's known columns and no rows."""
        return cls(**{name: empty_frame(schema) for name, schema in cls._SCHEMAS.items()})

    def _shown(self) -> dict[str, pd.DataFrame]:
        return {
            name: frame
            for name, frame in self.tables.items()
            if len(frame) or name not in self._QUIET
        }

    def __repr__(self) -> str:
        counts = ", ".join(f"{name}={len(frame)}" for name, frame in self._shown().items())
        return f"{type(self).__name__}({counts}, problems={len(self.problems)})"

    def _table_lines(self) -> list[str]:
        """The summary's first lines: rows per table (a quiet table only when it has rows)."""
        shown = self._shown()
        width = max(map(len, shown))
        return [f"{name:<{width}}  {len(frame):>9,} rows" for name, frame in shown.items()]

    def _problem_lines(self, *, more: bool) -> list[str]:
        """The summary's last lines: the number of problems and the first five."""
        lines = [f"problems: {len(self.problems)}"]
        lines.extend(f"  - {problem}" for problem in self.problems[:5])
        if more and len(self.problems) > 5:
            lines.append(f"  ... and {len(self.problems) - 5} more (see .problems)")
        return lines

    def __post_init__(self) -> None:
        for field in fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            if field.name == "problems":
                if not isinstance(value, tuple):
                    object.__setattr__(self, "problems", tuple(value))
            elif not isinstance(value, pd.DataFrame):
                raise InvalidArgumentError(
                    f"{type(self).__name__}.{field.name} must be a pandas DataFrame, not "
                    f"{type(value).__name__}",
                    parameter=field.name,
                )


def _given(value: object) -> str:
    """What was given, for an error: its type, and a short repr of a plain value."""
    kind = type(value).__name__
    if value is None or isinstance(value, bool | int | float | str | bytes):
        text = repr(value)
        return f"{kind} {text[:40] + '...' if len(text) > 40 else text}"
    return kind
