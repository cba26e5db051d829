"""PUBG's maps: each map id's size in centimetres, the range of its telemetry coordinates.

Telemetry locations are in centimetres, (0, 0) at the map's top left, x to the right and y
down; PUBG documents each map's range (``rst/telemetry-objects.rst`` lines 188-194 of
pubg/api-documentation-content at 1037d54, 2025-05-19), by the map's name. The map ids the
files carry (``LogMatchStart.mapName``, ``matches.map_name``) are named in PUBG's api-assets
``dictionaries/telemetry/mapName.json`` (at 32b13b5), which is not copied here (its terms are
PUBG's): this table holds only the facts, an id and a number per map.

``Neon_Main`` (Rondo) is not in the documentation's list: its size is not known here, and
:func:`map_size` says so with ``None`` rather than a guess. (chicken-dinner uses 819,200 for the
8 km maps, a power of two; PUBG documents 816,000.)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["MAP_SIZES", "map_size"]

_EIGHT_KM = 816_000  # "Erangel, Miramar, Taego, Vikendi and Deston"

MAP_SIZES: Mapping[str, int] = MappingProxyType(
    {
        "Baltic_Main": _EIGHT_KM,  # Erangel (remastered)
        "Erangel_Main": _EIGHT_KM,  # Erangel
        "Desert_Main": _EIGHT_KM,  # Miramar
        "Tiger_Main": _EIGHT_KM,  # Taego
        "DihorOtok_Main": _EIGHT_KM,  # Vikendi
        "Kiki_Main": _EIGHT_KM,  # Deston
        "Savage_Main": 408_000,  # Sanhok
        "Chimera_Main": 306_000,  # Paramo
        "Summerland_Main": 204_000,  # Karakin
        "Range_Main": 204_000,  # Camp Jackal (the training range)
        "Heaven_Main": 102_000,  # Haven
    }
)
"""Map id -> the range of its x and y coordinates, centimetres (square maps)."""


def map_size(map_id: str) -> int | None:
    """The size of a map in centimetres (its coordinates run from 0 to it), ``None`` when PUBG
    does not document it (a new map, or Rondo)."""
    return MAP_SIZES.get(map_id)
