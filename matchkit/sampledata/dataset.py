"""The on-disk format of a match data set: the committed sample set and what ``synth`` writes.

A data set is a folder::

    manifest.json       {"format": "matchkit-dataset/1", "as_of": ISO, "days": N, "seed": N,
                         "shards": {"global": {"path": "global.jsonl.gz", "matches": N,
                                               "sha256": <of the uncompressed lines>}, ...},
                         "parameters": {...the generator's parameters...}}
    global.jsonl.gz     one single-match JSON:API document a line, {"data": match, "included":
    na.jsonl.gz         [its rosters, participants, rounds, players, teams, assets]}, in the
                        shard's wire shape, ordered by (createdAt, id)

Gzip members are written with mtime 0 and no file name, so that the same lines give the same
bytes; ``sha256`` is taken over the uncompressed lines, which do not depend on the zlib build.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from matchkit.errors import InvalidArgumentError, StorageError
from matchkit.model.atomic import atomic_write
from matchkit.rules.windows import parse_time

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

FORMAT = "matchkit-dataset/1"
"""The format named in a data set's manifest."""
MANIFEST = "manifest.json"
"""The manifest's file name in a data-set folder."""
CATALOGUE_FILE = "catalogue.json"
"""The names catalogue's file name in a data-set folder."""


def sample_data_path() -> Path:
    """The folder of the committed sample data set.

    In a wheel it is packaged as ``matchkit/sample_data``; in a source checkout (editable
    install) it is the repository's ``data/`` folder.
    """
    package = Path(__file__).resolve().parents[1]  # matchkit/
    packaged = package / "sample_data"
    if (packaged / MANIFEST).exists():
        return packaged
    return package.parent / "data"


@dataclass(frozen=True)
class Dataset:
    """A data set folder and its manifest.

    Attributes:
        path: the folder.
        manifest: the parsed ``manifest.json``.
    """

    path: Path
    manifest: dict[str, Any]

    @property
    def as_of(self) -> datetime:
        """The moment the data set ends at; the service takes it as now by default."""
        return parse_time(self.manifest["as_of"], parameter="as_of")

    @property
    def shards(self) -> list[str]:
        return list(self.manifest["shards"])

    def match_count(self, shard: str) -> int:
        return int(self.manifest["shards"][shard]["matches"])

    def shard_file(self, shard: str) -> Path:
        try:
            return self.path / self.manifest["shards"][shard]["path"]
        except KeyError:
            raise InvalidArgumentError(
                f"data set {self.path} has no shard {shard!r}; it has {', '.join(self.shards)}",
                parameter="shard",
            ) from None

    def iter_lines(self, shard: str) -> Iterator[bytes]:
        """The raw JSON lines of a shard, one single-match document each.

        A shard read to its end is checked against the manifest (the SHA-256 of its lines and
        their count): a shard edited since it was written, even as valid gzip, fails there.

        Raises:
            StorageError: the shard file is missing, is not gzip or is damaged (gzip's own
                check), or is not the shard the manifest describes.
        """
        path = self.shard_file(shard)
        recorded = self.manifest["shards"][shard]
        digest = hashlib.sha256()
        count = 0
        try:
            with gzip.open(path, "rb") as lines:
                for line in lines:
                    digest.update(line)
                    line = line.rstrip(b"\n")
                    if line:
                        count += 1
                        yield line
        except FileNotFoundError:
            raise StorageError(f"{path} is missing: {_RESTORE}", path=path) from None
        except (OSError, EOFError, zlib.error) as error:
            raise StorageError(f"{path} is damaged ({error}): {_RESTORE}", path=path) from None
        if digest.hexdigest() != recorded.get("sha256") or count != recorded.get("matches"):
            raise StorageError(
                f"{path} is not the shard its manifest describes (its lines' SHA-256 or count "
                f"differ: {count} lines, the manifest says {recorded.get('matches')}): {_RESTORE}",
                path=path,
            )

    def iter_documents(self, shard: str) -> Iterator[dict[str, Any]]:
        """The single-match documents of a shard, parsed."""
        for line in self.iter_lines(shard):
            yield orjson.loads(line)

    def fingerprint(self) -> str:
        """A digest of the manifest and the shard files' sizes and times: changes when they do."""
        digest = hashlib.sha256((self.path / MANIFEST).read_bytes())
        for shard in self.shards:
            stat = self.shard_file(shard).stat()
            digest.update(f"{shard}:{stat.st_size}:{stat.st_mtime_ns}".encode())
        return digest.hexdigest()


_RESTORE = (
    "restore the data set (the sample set: `git checkout -- data/`) or write it again with "
    "`matchkit synth`"
)


def open_dataset(path: str | os.PathLike[str] | None = None) -> Dataset:
    """Open a data set folder (default: the committed sample set).

    Raises:
        StorageError: the folder has no readable manifest of this format.
    """
    folder = Path(path) if path is not None else sample_data_path()
    manifest_path = folder / MANIFEST
    try:
        manifest = orjson.loads(manifest_path.read_bytes())
    except (FileNotFoundError, NotADirectoryError):
        raise StorageError(
            f"{folder} is not a matchkit data set: {MANIFEST} is missing "
            "(write one with `matchkit synth --out DIR`)",
            path=manifest_path,
        ) from None
    except orjson.JSONDecodeError as error:
        raise StorageError(
            f"{manifest_path} is not valid JSON: {error}", path=manifest_path
        ) from None
    except OSError as error:
        raise StorageError(
            f"cannot read the data set manifest {manifest_path}: {error}", path=manifest_path
        ) from None
    found = manifest.get("format") if isinstance(manifest, dict) else None
    if found != FORMAT:
        raise StorageError(
            f"{manifest_path} has format {found!r}, not {FORMAT}", path=manifest_path
        )
    return Dataset(folder, manifest)


def find_catalogue(path: str | os.PathLike[str] | None = None) -> Path | None:
    """The catalogue of names of a data set folder (the sample set's by default), or None.

    Its file is the manifest's ``catalogue`` entry (``catalogue.json`` when the manifest names
    none or cannot be read); a name that leaves the folder is not followed.
    """
    folder = Path(path) if path is not None else sample_data_path()
    if not folder.is_dir():
        return None
    name = CATALOGUE_FILE
    try:
        manifest = orjson.loads((folder / MANIFEST).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        manifest = None
    if isinstance(manifest, dict) and isinstance(manifest.get("catalogue"), dict):
        name = str(manifest["catalogue"].get("path", CATALOGUE_FILE))
    found = folder / name
    return found if found.is_file() and found.parent == folder else None


def write_shard_file(path: Path, documents: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Write single-match documents as deterministic gzip JSON lines, atomically.

    Returns:
        ``{"path": file name, "matches": count, "sha256": digest of the uncompressed lines}``
        for the manifest.
    """
    digest = hashlib.sha256()
    count = 0

    def write(temporary: Path) -> None:
        nonlocal count
        with (
            open(temporary, "wb") as raw,
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as out,
        ):
            for document in documents:
                line = orjson.dumps(document) + b"\n"
                digest.update(line)
                out.write(line)
                count += 1

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, write)  # shared, as a data set is
    return {"path": path.name, "matches": count, "sha256": digest.hexdigest()}
