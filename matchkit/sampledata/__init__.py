"""The sample data set: its folder format, its game, and the telemetry of its matches.

What the writer (:mod:`matchkit.synth`) and the readers (the reference service, the embedded
client, :func:`matchkit.names.sample_names`) must agree on lives here, so that the service never
imports the generator:

- :mod:`.dataset`: the folder format (manifest, gzip JSON lines shards, catalogue file), read
  and written; :func:`sample_data_path` finds the committed set, in a checkout or a wheel;
- :mod:`.parameters`, :mod:`.catalogue`, :mod:`.sampling`: the numbers of the model, the game's
  vocabulary built from them, and the seeded draws both the generator and the renderer take;
- :mod:`.telemetry`: each match's telemetry file, rendered from its document on request.
"""

from __future__ import annotations

from matchkit.sampledata.dataset import (
    CATALOGUE_FILE,
    FORMAT,
    MANIFEST,
    Dataset,
    find_catalogue,
    open_dataset,
    sample_data_path,
    write_shard_file,
)

__all__ = [
    "CATALOGUE_FILE",
    "FORMAT",
    "MANIFEST",
    "Dataset",
    "find_catalogue",
    "open_dataset",
    "sample_data_path",
    "write_shard_file",
]
