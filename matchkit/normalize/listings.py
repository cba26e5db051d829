"""The pairs of a listing table (PUBG's players' match lists, samples' matches), over every
copy of each listing resource.

A player asked twice (in a ``/players`` answer and a ``/players/{id}`` one, a day apart) lists
the matches of both answers: its ``player_matches`` rows are every ``(player, match)`` pair any
copy listed, each once, in the order first seen (:data:`matchkit.model.listings.LISTINGS`). A
snapshot's other columns are settled by decision 17 (:mod:`matchkit.normalize.repeats`).
"""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.model.listings import LISTINGS
from matchkit.normalize.arrow import ARROW_POOL, filtered, take
from matchkit.normalize.chunks import ChunkTable, Links

__all__ = ["copied_listings", "every_copys_pairs"]


def every_copys_pairs(
    owners: pa.Array, matches: pa.Array, copied: tuple[pa.Array, Links] | None
) -> tuple[pa.Array, pa.Array]:
    """``(owner ids, match ids)``: the first copies' pairs, then the later copies' (their ids and
    identifiers, ``copied``) of type ``match``, each pair once in the order seen."""
    if copied is None or not len(copied[1].ids):
        return owners, matches
    ids, links = copied
    keep = pc.equal(links.types, "match", memory_pool=ARROW_POOL)
    owners = pa.concat_arrays([owners, filtered(take(ids, links.rows), keep)], ARROW_POOL)
    matches = pa.concat_arrays([matches, filtered(links.ids, keep)], ARROW_POOL)
    pairs = pd.DataFrame({"owner": owners.to_pandas(), "match": matches.to_pandas()})
    first = pa.array(~pairs.duplicated().to_numpy())
    return filtered(owners, first), filtered(matches, first)


def copied_listings(
    type_: str, copies: ChunkTable
) -> dict[tuple[str, str], tuple[pa.Array, Links]]:
    """The later copies' ids and listing identifiers of ``type_``, by ``(type, relationship)``:
    read before the copies are settled and let go."""
    return {
        (owner, relationship): (copies.ids(), copies.links(relationship))
        for owner, relationship in LISTINGS.values()
        if owner == type_
    }
