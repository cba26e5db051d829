"""Issue 10: ``to_frames`` called ``gc.disable()``, turning garbage collection off for the whole
process (a notebook kernel, every thread) while it ran: a library call changed process-wide
state. The normalizer now leaves the collector alone and keeps its speed by allocating fewer
tracked objects (msgspec ``gc=False`` Structs, a pass per field)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import orjson

import matchkit.normalize
from matchkit import to_frames
from tests.builders.resources import arena, page


def test_the_collector_stays_on_while_pages_are_normalized() -> None:
    seen = []

    def pages() -> Iterator[bytes]:
        for number in range(3):
            seen.append(gc.isenabled())  # the state while the normalizer pulls pages
            yield orjson.dumps(page(arena(f"m{number}")))

    assert gc.isenabled()
    frames = to_frames(pages())
    assert len(frames) == 3
    assert seen == [True, True, True]
    assert gc.isenabled()


def test_no_module_of_the_normalizer_touches_the_collector() -> None:
    folder = Path(matchkit.normalize.__file__).parent
    for path in folder.glob("*.py"):
        text = path.read_text()
        assert "gc.disable" not in text, path.name
        assert "gc.freeze" not in text, path.name
