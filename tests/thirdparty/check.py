"""Check that pybattlerite and python-gamelocker read `matchkit serve`'s player answers.

A recorded check, not a pytest test: the two clients are old (python-gamelocker needs an alias
Python 3.10 removed; pybattlerite reads its localisation with ``ConfigParser.readfp``, gone in
Python 3.12), so they live in a venv of their own rather than in the project's dev extra. This
script starts `matchkit serve` (the sample set, its default rate limit of 10 a minute, a
generated key) from the project's environment, runs ``clients.py`` with that venv's Python,
and holds what the clients read against the sample set's documents:

- pybattlerite (global): ``get_status``, ``player_by_id``, ``get_players(playerids=...)``,
  ``get_players(usernames=...)`` and ``player_by_name``: the ids, the current names (a renamed
  player and the player who took the name they gave up), ``picture``, ``title`` and the stats it
  names (2 Wins, 3 Losses, 26 AccountLevel) of each player's latest snapshot;
- python-gamelocker (na): ``status`` and ``player``: the renamed na player's id, current name and
  stats.

Usage (from the repository root; any folder for the clients' venv):
    python3.11 -m venv CLIENTS && CLIENTS/bin/pip install pybattlerite==0.5.18 \
        python-gamelocker==0.5.0
    PYTHONPATH=$PWD .venv/bin/python -m tests.thirdparty.check --venv CLIENTS

It prints what each client read and "OK", or raises AssertionError naming the difference.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

from matchkit.sampledata.dataset import open_dataset
from tests.serve_process import started_serve

HERE = Path(__file__).resolve().parent


def latest_snapshots(shard: str) -> dict[str, dict]:
    """Player id -> the snapshot included with their latest match (documents in time order)."""
    found: dict[str, dict] = {}
    for document in open_dataset().iter_documents(shard):
        for item in document["included"]:
            if item["type"] == "player":
                found[item["id"]] = item
    return found


def expected() -> dict:
    renames = open_dataset().manifest["renames"]
    first, second = renames["global"]
    global_players = latest_snapshots("global")
    na_rename = renames["na"][0]
    na_player = latest_snapshots("na")[na_rename["player_id"]]
    return {
        "arguments": [
            first["player_id"],
            first["to"],
            second["to"],
            na_rename["player_id"],
        ],
        "global": {pid: global_players[pid] for pid in (first["player_id"], second["player_id"])},
        "first": first,
        "second": second,
        "na": na_player,
    }


def check(read: dict, wanted: dict) -> None:
    first, second = wanted["first"], wanted["second"]
    battlerite = read["pybattlerite"]
    assert battlerite["status"][0] == "2026-10-31T00:00:00Z", battlerite["status"]
    for name, player in (("player_by_id", first), ("player_by_name", second)):
        got = battlerite[name]
        snapshot = wanted["global"][player["player_id"]]["attributes"]
        assert (got["id"], got["name"]) == (player["player_id"], player["to"]), (name, got)
        assert (got["picture"], got["title"]) == (
            snapshot["stats"]["picture"],
            snapshot["stats"]["title"],
        ), (name, got)
        named = {key: value["localized_name"] for key, value in got["stats"].items()}
        assert named == {"2": "Wins", "3": "Losses", "26": "AccountLevel"}, named
        for key in ("2", "3", "26"):
            assert got["stats"][key]["xp"] == snapshot["stats"][key], (name, key)
    assert battlerite["get_players_ids"] == [first["player_id"]]
    assert battlerite["get_players_names"] == [
        [first["player_id"], first["to"]],
        [second["player_id"], second["to"]],  # the name `first` gave up, now `second`'s
    ]
    assert second["to"] == first["from"]
    vainglory = read["gamelocker"]
    assert vainglory["status"]["releasedAt"] == "2026-10-31T00:00:00Z"
    na = wanted["na"]
    assert vainglory["player"] == {
        "id": na["id"],
        "name": na["attributes"]["name"],
        "stats": na["attributes"]["stats"],
    }, vainglory["player"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--venv", required=True, type=Path, help="the third-party clients' venv")
    options = parser.parse_args()
    wanted = expected()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "read.json"
        with started_serve(cache_dir=Path(folder) / "cache") as served:
            run = subprocess.run(
                [
                    str(options.venv / "bin" / "python"),
                    str(HERE / "clients.py"),
                    served.base_url,
                    served.api_key,
                    str(out),
                    *wanted["arguments"],
                ],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
        if run.returncode != 0:
            raise AssertionError(f"the clients failed:\n{run.stdout}\n{run.stderr}")
        read = json.loads(out.read_text(encoding="utf-8"))
    print(json.dumps(read, indent=1, sort_keys=True))
    check(read, wanted)
    requests = [line for line in served.stdout.splitlines() if '"GET ' in line]
    print(f"OK: {len(requests)} requests answered by matchkit serve, all read as expected")


if __name__ == "__main__":
    main()
