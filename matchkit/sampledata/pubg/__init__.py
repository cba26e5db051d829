"""The PUBG sample set: drawn when the PUBG double starts, deterministic from a seed.

- :mod:`.parameters`: every number of the model (maps, game modes, team sizes, bots, skills,
  placements, kills, samples); ``docs/pubg.md`` shows them;
- :mod:`.plan`: what is drawn at start (players, each match's lobby);
- :mod:`.outcome`: how a match goes, drawn from its own seed on first use;
- :mod:`.documents`: the match, player, sample and season documents, in the recorded shapes;
- :mod:`.telemetry`: each match's ``_T``/``_D`` event file, consistent with its document;
- :mod:`.catalogue`: the set's own names of maps, modes, causers, items and vehicles;
- :mod:`.sampleset`: :class:`PubgSampleSet`, what the double (:mod:`matchkit.service.pubg`) reads.
"""

from __future__ import annotations

from matchkit.sampledata.pubg.sampleset import PubgSampleSet

__all__ = ["PubgSampleSet"]
