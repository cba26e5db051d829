"""Pages of the list endpoint built from the sample set's single-match documents."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import orjson

from matchkit.sampledata.dataset import open_dataset

Document = dict[str, Any]


@cache
def sample_documents(shard: str) -> tuple[Document, ...]:
    """The sample set's single-match documents of one shard, in (createdAt, id) order."""
    return tuple(open_dataset().iter_documents(shard))


def match_key(document: Document) -> tuple[str, str]:
    """A single-match document's (createdAt, match id)."""
    match = document["data"]
    return match["attributes"]["createdAt"], match["id"]


def build_page(documents: Sequence[Document]) -> bytes:
    """One page: the matches in the given order; each included resource once, the copy that
    came with the latest match of the page (a snapshot is as of its latest match, decision 17).
    """
    included: dict[tuple[str, str], Document] = {}
    for document in sorted(documents, key=match_key, reverse=True):
        for resource in document["included"]:
            included.setdefault((resource["type"], resource["id"]), resource)
    data = [document["data"] for document in documents]
    return orjson.dumps({"data": data, "included": list(included.values()), "links": {}})


def build_pages(documents: Sequence[Document], *, size: int = 5) -> list[bytes]:
    """Consecutive pages of ``size`` matches, in the order given."""
    return [build_page(documents[start : start + size]) for start in range(0, len(documents), size)]
