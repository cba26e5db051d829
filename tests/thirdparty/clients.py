"""Runs INSIDE a venv holding pybattlerite 0.5.18 and python-gamelocker 0.5.0 (not matchkit).

Each client is used as published; only its base URL is redirected to the service under test,
by the attributes that hold it (pybattlerite's ``base_url`` and ``status_url``, gamelocker's
``_apiurl``). What the clients read is written as JSON to the output file (pybattlerite prints
each request's parameters on stdout, so stdout is not used).

python-gamelocker 0.5.0 was written for Python < 3.10: its janus module names
``collections.Callable``, which Python 3.10 moved to ``collections.abc`` only. The alias is
restored before it is imported; that is the interpreter's change, not the service's: its
requests and its reading of the answers are untouched.

Usage: python clients.py BASE_URL API_KEY OUT.json GLOBAL_ID GLOBAL_NAME OTHER_NAME NA_ID
"""

from __future__ import annotations

import collections
import collections.abc
import json
import sys

collections.Callable = collections.abc.Callable  # type: ignore[attr-defined]

import gamelocker  # noqa: E402
import pybattlerite  # noqa: E402


def _player(player) -> dict:
    return {
        "id": player.id,
        "name": player.name,
        "picture": player.picture,
        "title": player.title,
        "stats": player.stats,
    }


def main() -> None:
    base_url, key, out, global_id, global_name, other_name, na_id = sys.argv[1:8]
    read: dict[str, dict] = {"pybattlerite": {}, "gamelocker": {}}

    battlerite = pybattlerite.Client(key)
    battlerite.base_url = f"{base_url}/shards/global/"
    battlerite.status_url = f"{base_url}/status"
    seen = read["pybattlerite"]
    seen["status"] = list(battlerite.get_status())
    seen["player_by_id"] = _player(battlerite.player_by_id(global_id))
    seen["get_players_ids"] = [p.id for p in battlerite.get_players(playerids=[global_id])]
    by_name = battlerite.get_players(usernames=[global_name, other_name])
    seen["get_players_names"] = [[p.id, p.name] for p in by_name]
    seen["player_by_name"] = _player(battlerite.player_by_name(other_name))

    vainglory = gamelocker.Gamelocker(key).Vainglory()
    vainglory._apiurl = f"{base_url}/"
    seen = read["gamelocker"]
    seen["status"] = vainglory.status()["data"]["attributes"]
    player = vainglory.player(na_id)
    seen["player"] = {"id": player.id, "name": player.name, "stats": player.stats}

    with open(out, "w", encoding="utf-8") as handle:
        json.dump(read, handle, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
