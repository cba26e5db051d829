"""Positions are in the map's centimetres, and the map's size is known from PUBG's
documentation (or honestly unknown)."""

from __future__ import annotations

import orjson
import pytest

from matchkit.telemetry.pubg import MAP_SIZES, map_size, to_pubg_telemetry_frames
from tests.conftest import shared_path
from tests.telemetry.pubg.files import EXCERPT, WHOLE, recorded


@pytest.mark.parametrize(("name", "map_id"), [(WHOLE, "Baltic_Main"), (EXCERPT, "Erangel_Main")])
def test_every_location_is_on_its_map(name: str, map_id: str) -> None:
    frames = to_pubg_telemetry_frames(recorded(name))
    assert frames.match_start.loc[0, "map_name"] == map_id
    size = map_size(map_id)
    assert size == 816_000
    for table, prefixes in {
        "positions": ["player"],
        "kills": ["killer", "victim"],
        "damage": ["victim"],
        "landings": ["player"],
    }.items():
        frame = frames.tables[table]
        for prefix in prefixes:
            for axis in ("x", "y"):
                values = frame[f"{prefix}_{axis}"].dropna()
                # (0, 0) stands for "nowhere" (a character not yet placed, LogMatchEnd).
                assert values.between(0, size).all(), (table, prefix, axis)


def test_the_maps_of_the_recorded_matches() -> None:
    names = {}
    for document in (
        "match-pubg-python-squad-fpp-baltic.json",
        "match-pubgkt-squad.json",
        "match-pubgkt-tdm.json",
    ):
        match = orjson.loads(shared_path("pubg", document).read_bytes())["data"]
        names[match["attributes"]["mapName"]] = map_size(match["attributes"]["mapName"])
    # Rondo (Neon_Main) is not in PUBG's documented list: unknown, not guessed.
    assert names == {"Baltic_Main": 816_000, "Neon_Main": None, "Tiger_Main": 816_000}


def test_the_documented_sizes() -> None:
    assert MAP_SIZES["Savage_Main"] == 408_000  # Sanhok
    assert MAP_SIZES["Chimera_Main"] == 306_000  # Paramo
    assert MAP_SIZES["Summerland_Main"] == MAP_SIZES["Range_Main"] == 204_000
    assert MAP_SIZES["Heaven_Main"] == 102_000  # Haven
    assert map_size("Unknown_Main") is None
