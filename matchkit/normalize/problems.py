"""What the normalizer could not resolve, collected as typed entries.

Every layer of the normalizer (the walk, the readers, the table builder, the column conversion)
reports into one :class:`Problems` collector; :attr:`MatchFrames.problems
<matchkit.model.frames.MatchFrames.problems>` holds their texts, in the order reported.

Example:
    >>> problems = Problems()
    >>> problems.add("unfit_values", "matches.duration", 2, "matches.duration: 2 value(s) ...")
    >>> problems.count("unfit_values"), problems.texts()
    (2, ('matches.duration: 2 value(s) ...',))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

__all__ = ["Problem", "ProblemKind", "Problems"]

ProblemKind = Literal[
    "ignored_type",  # resources of a type outside the model
    "missing_reference",  # a relationship names a resource no document includes
    "unexpected_identifier",  # a relationship lists an identifier of another type
    "repeated_listing",  # a child listed by more than one parent
    "orphan",  # a child listed by no parent
    "unfit_values",  # values that do not fit their column's kind
    "unknown_side",  # a text side outside the known vocabulary
    "differing_snapshots",  # a player or team arrived with different attributes (decision 17)
    "conflicting_copies",  # a match-bound resource arrived twice with different content
]


@dataclass(frozen=True)
class Problem:
    """One thing the normalizer could not resolve.

    Attributes:
        kind: what kind of problem it is.
        subject: where: a column (``"matches.duration"``), a relationship
            (``"participant.player"``) or a resource type.
        count: how many values, references or resources it concerns.
        text: the line shown to users.
    """

    kind: ProblemKind
    subject: str
    count: int
    text: str

    def __str__(self) -> str:
        return self.text


class Problems:
    """The problems of one normalization, in the order reported."""

    def __init__(self) -> None:
        self._entries: list[Problem] = []

    def add(self, kind: ProblemKind, subject: str, count: int, text: str) -> None:
        """Report a problem."""
        self._entries.append(Problem(kind, subject, count, text))

    def count(self, kind: ProblemKind) -> int:
        """The total count of the problems of one kind."""
        return sum(problem.count for problem in self._entries if problem.kind == kind)

    def texts(self) -> tuple[str, ...]:
        """Every problem's text, in the order reported."""
        return tuple(problem.text for problem in self._entries)

    def __iter__(self) -> Iterator[Problem]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Problems({len(self)} entries)"
