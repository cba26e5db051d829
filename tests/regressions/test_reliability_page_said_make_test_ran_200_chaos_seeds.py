"""docs/reliability.md said ``make test`` ran 200 chaos seeds long after the suite had cut them
to 60: the pages that give the brief counts of the randomized tests now say the counts the
tests take."""

from __future__ import annotations

import re

from tests.chaos import test_chaos
from tests.conftest import REPO


def test_the_pages_give_the_chaos_seeds_make_test_runs() -> None:
    reliability = (REPO / "docs" / "reliability.md").read_text(encoding="utf-8")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    said = [int(n) for n in re.findall(r"`make test` \((\d+) seeds\)", reliability)]
    said += [int(n) for n in re.findall(r"`make test`\) \| (\d+) seeds", reliability)]
    said += [int(n) for n in re.findall(r"`make test` runs (\d+) seeds", reliability)]
    said += [int(n) for n in re.findall(r"\((\d+)\s+client chaos seeds", readme)]
    assert len(said) == 4, said  # every place that gives the count was found
    assert set(said) == {test_chaos.BRIEF_SEEDS}, said
