"""The PUBG sample set's own catalogue of names: its maps, game modes, damage causers, items and
vehicles, ids to names.

Only what the set generates is named (PUBG's ``api-assets`` dictionaries are not copied: their
repository has no license); an id the catalogue does not know shows as its id
(:mod:`matchkit.names`). The double's second host serves it as PUBG publishes its own, one
dictionary a kind at the paths of ``api-assets`` (:mod:`matchkit.service.pubg.cdn`); here it is
in the catalogue format of the Gamelocker sample set
(``{"format": "matchkit-catalogue/1", "names": {kind: {id: name}}}``).
"""

from __future__ import annotations

from typing import Any

from matchkit.sampledata.pubg import parameters as p

__all__ = ["CATALOGUE_FORMAT", "catalogue"]

CATALOGUE_FORMAT = "matchkit-catalogue/1"


def catalogue() -> dict[str, Any]:
    """The catalogue, JSON-ready."""
    weapons = {f"Item_Weapon_{causer[4:]}": name for causer, name in p.DAMAGE_CAUSERS}
    return {
        "format": CATALOGUE_FORMAT,
        "names": {
            "map": {spec.id: spec.name for spec in p.MAPS},
            "game_mode": {mode.id: mode.name for mode in p.GAME_MODES},
            "damage_causer": dict([*p.DAMAGE_CAUSERS, p.ZONE_CAUSER]),
            "damage_type": {"Damage_Gun": "Gun Damage", "Damage_BlueZone": "Bluezone Damage"},
            "item": {**dict(p.ITEMS), **weapons, p.CARE_PACKAGE[0]: p.CARE_PACKAGE[1]},
            "vehicle": dict(p.VEHICLES),
        },
    }
