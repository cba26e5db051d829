"""Regression: ``synth --archive`` drew each participant's cosmetics as random numbers between
100,000,000 and 2,000,000,000, not from the game's catalogue as the sample set does: every pick
its own item, so a cosmetic analysis of a 1M-match archive grouped 5.9M picks into as many
groups, and ``cosmetic_usage(archive)`` killed the Dask workers (1 GiB each) four times over.
Found by measuring ``cosmetic_usage`` on an archive beside DuckDB (issue 37). Now each slot's
item comes from the character's catalogue, the default with the sample set's share."""

from __future__ import annotations

import matchkit.archive
from matchkit.analysis import cosmetic_usage
from matchkit.model.schema import COSMETIC_KINDS
from matchkit.sampledata import parameters as p
from matchkit.sampledata.catalogue import build_catalogue
from matchkit.synth.archive import write_synthetic_archive


def test_synthetic_cosmetics_come_from_the_catalogue_with_its_shares(tmp_path) -> None:
    write_synthetic_archive(tmp_path / "archive", matches=20_000, days=30)
    archive = matchkit.archive.open(tmp_path / "archive")
    participants = archive.to_frames().participants
    catalogue = {c.actor: c for c in build_catalogue().characters}
    slots = {slot.name: slot for slot in p.COSMETIC_SLOTS}
    for kind in COSMETIC_KINDS:
        items = (
            participants["actor"]
            .astype(str)
            .map(lambda actor, kind=kind: catalogue[actor].cosmetics[kind].items)
        )
        picked = participants[kind].astype("int64")
        assert all(item in pool for item, pool in zip(picked, items, strict=True)), kind
        default = picked == items.map(lambda pool: pool[0])
        assert abs(default.mean() - float(slots[kind].default_share)) < 0.02, kind
    usage = cosmetic_usage(archive, "mount", by="actor")
    assert len(usage) <= len(catalogue) * slots["mount"].items
