"""The JSON:API resource objects both shards' generators write (matchkit.synth.timeline)."""

from __future__ import annotations

import json

from matchkit.synth.population import Team
from matchkit.synth.timeline import ref, resource, team_resource


def test_a_resource_lists_its_members_in_wire_order():
    made = resource("roster", "r1", {"won": "true"}, {"team": {"data": ref("team", "t1")}})
    assert list(made) == ["type", "id", "attributes", "relationships"]
    assert made["relationships"]["team"]["data"] == {"type": "team", "id": "t1"}


def test_a_resource_without_relationships_has_no_relationships_member():
    made = resource("asset", "a1", {"name": "telemetry"})
    assert json.dumps(made) == '{"type": "asset", "id": "a1", "attributes": {"name": "telemetry"}}'


def test_a_team_is_written_the_same_on_both_shards_but_for_shard_and_title():
    team = Team(team_id="t9", name="Red Fox", members=(), league=3, division=2)
    made = team_resource(team, shard="na", title_id="title")
    assert made == {
        "type": "team",
        "id": "t9",
        "attributes": {
            "name": "Red Fox",
            "shardId": "na",
            "stats": {"division": 2, "league": 3},
            "titleId": "title",
        },
    }
    assert "relationships" not in made
