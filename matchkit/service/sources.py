"""The sources a store is built from: a data set folder, or a folder of JSON:API documents.

:func:`read_source` says what a folder holds (its fingerprint, its as-of when it has one) and
yields its single-match documents with their shard, for :class:`matchkit.service.store.MatchStore`
to build from. A folder of documents (``*.json``, ``*.json.gz``, ``*.jsonl``, ``*.jsonl.gz``,
e.g. pages a fetch wrote) is split into single matches, each with the shard its ``shardId``
names.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from matchkit.errors import DocumentError, InvalidArgumentError
from matchkit.sampledata.dataset import MANIFEST, open_dataset

__all__ = ["DOCUMENT_SUFFIXES", "Documents", "read_source"]

DOCUMENT_SUFFIXES = (".json", ".json.gz", ".jsonl", ".jsonl.gz")
Documents = Callable[[], Iterator[tuple[str | None, dict[str, Any]]]]
"""Yields a source's single-match documents, each with its shard (``None``: it names none)."""


def read_source(source: Path | None, *, schema: str) -> tuple[str, datetime | None, Documents]:
    """(fingerprint, as_of or None, its documents) of a source folder (``None``: the sample set).

    Args:
        schema: the store's format, part of the fingerprint (a new format rebuilds the store).

    Raises:
        InvalidArgumentError: the folder holds neither a data set nor documents.
        DocumentError: a file is not JSON.
    """
    if source is None or (source / MANIFEST).exists():
        dataset = open_dataset(source)

        def dataset_documents() -> Iterator[tuple[str, dict[str, Any]]]:
            for shard in dataset.shards:
                for document in dataset.iter_documents(shard):
                    yield shard, document

        fingerprint = hashlib.sha256(
            f"{schema}:{dataset.path.resolve()}:{dataset.fingerprint()}".encode()
        ).hexdigest()
        return fingerprint, dataset.as_of, dataset_documents
    files = sorted(
        path
        for path in source.rglob("*")
        if path.is_file() and path.name.endswith(DOCUMENT_SUFFIXES)
    )
    if not files:
        raise InvalidArgumentError(
            f"{source} holds neither a {MANIFEST} nor JSON:API documents "
            f"({', '.join(DOCUMENT_SUFFIXES)}); point --data at a data set or fetched pages",
            parameter="data",
        )
    digest = hashlib.sha256(f"{schema}:{source.resolve()}".encode())
    for path in files:
        stat = path.stat()
        digest.update(f"{path.relative_to(source)}:{stat.st_size}:{stat.st_mtime_ns}".encode())

    def folder_documents() -> Iterator[tuple[str, dict[str, Any]]]:
        from matchkit.rules.jsonapi import split_by_match

        for path in files:
            for document in _iter_file_documents(path):
                for single in split_by_match(document):
                    match = single.get("data")
                    if isinstance(match, list):
                        match = match[0] if match else None
                    shard = (match or {}).get("attributes", {}).get("shardId")
                    yield shard, single

    return digest.hexdigest(), None, folder_documents


def _iter_file_documents(path: Path) -> Iterator[dict[str, Any]]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rb") as handle:
        raw = handle.read()
    try:
        if ".jsonl" in path.name:
            for line in raw.splitlines():
                if line.strip():
                    yield orjson.loads(line)
        else:
            yield orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise DocumentError(f"{path} is not valid JSON: {error}") from None
