"""A digest of every telemetry file the reference service serves for a data set (a tool).

Renders each served asset's file through the service's own store and file index (the path a
request takes), and prints the number of files, their total size and one SHA-256 over each
asset id and its plain body, in asset id order. Run it before and after a change of the
renderer or of the code it depends on: equal digests mean every served file is byte-identical.
(The gzip bodies are left out: they depend on the zlib build.)

    python -m tools.telemetry_digest [DATA_FOLDER]
"""

from __future__ import annotations

import hashlib
import sys
import tempfile

from matchkit.sampledata import sample_data_path
from matchkit.service.store import MatchStore
from matchkit.service.telemetry import TelemetryFiles


def digest(data: str | None = None) -> tuple[int, int, str]:
    """(files, bytes, SHA-256) of every telemetry file served for the data set ``data``."""
    with tempfile.TemporaryDirectory() as store_dir:
        store = MatchStore.open(data or sample_data_path(), store_dir=store_dir)
        files = TelemetryFiles(store, cache_size=0)
        assets = files._assets()  # the index a request is resolved through
        total = hashlib.sha256()
        size = 0
        for asset_id in sorted(assets):
            match_id, folder = assets[asset_id]
            if files.find(folder, asset_id) != match_id:
                raise SystemExit(f"asset {asset_id} is not found under its own folder {folder}")
            made = files.file(asset_id, match_id)
            if made is None:
                raise SystemExit(f"the match {match_id} of asset {asset_id} is gone")
            total.update(asset_id.encode() + b"\n" + made.body)
            size += len(made.body)
        return len(assets), size, total.hexdigest()


if __name__ == "__main__":
    count, size, hexdigest = digest(sys.argv[1] if len(sys.argv) > 1 else None)
    print(f"{count} files, {size} bytes, sha256 {hexdigest}")
