"""How deep the randomized tests go: ``make test`` runs them briefly, ``make test-deep`` long.

Each randomized test (chaos seeds, kill trials, repeated runs) takes its count from
:func:`count`: the brief default in ``make test``, the deep one when ``MATCHKIT_TEST_DEEP=1``
(``make test-deep``), or an exact number from the test's own variable (e.g.
``MATCHKIT_CHAOS_SEEDS=300``), which wins over both. The property tests whose examples are
costly take their ``max_examples`` from :func:`examples`.
"""

from __future__ import annotations

import os

DEEP = "MATCHKIT_TEST_DEEP"


def is_deep() -> bool:
    """Whether this run is ``make test-deep``."""
    return os.environ.get(DEEP, "").strip().lower() in {"1", "true", "yes"}


def count(variable: str, *, brief: int, deep: int) -> int:
    """The count for one randomized test: ``variable`` if set, else ``deep`` or ``brief``."""
    given = os.environ.get(variable, "").strip()
    if given:
        return int(given)
    return deep if is_deep() else brief


def examples(brief: int) -> int:
    """A property test's ``max_examples``: ``brief`` in ``make test``, ten times as many in
    ``make test-deep``. For the tests whose examples cost a tenth of a second or more each."""
    return brief * 10 if is_deep() else brief
