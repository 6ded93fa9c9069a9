"""Cassettes in an S3 bucket (AWS S3, MinIO, R2...): ``s3://BUCKET/KEY``.

The :class:`~replay._store.backend.Store` interface on an object store, with no locks::

    KEY                                   the cassette, one object written whole
    PARENT/.NAME.journal/ID.entry         one write-once object per recorded interaction

Every write is conditional: a cassette is created with ``If-None-Match: *`` and replaced with
``If-Match: ETAG`` (the ETag it was read with), so a writer that lost a race gets 412 (or 409,
S3's answer to two conditional writes at once), raised as :class:`Conflict`, and
:func:`replay._store.journal.fold` reads, merges and tries again. Journal entries are created
with ``If-None-Match: *`` too. ``exclusive`` does nothing.

A store that ignores conditional headers would let two writers both replace the cassette,
one losing the other's recordings. So before this process first writes to a bucket it
creates a probe object twice, conditionally: a second create that succeeds means the store
ignores ``If-None-Match``, and recording into it is refused (:class:`CassetteError`).

Reading goes through a cache of cassettes by ETag in the user's cache directory
(``$XDG_CACHE_HOME/replay/s3``, else ``~/.cache/replay/s3``; never beside the tests): a
cassette read before is fetched with ``If-None-Match: ETAG``, and a 304 answer costs no
transfer. A replay-only run therefore reads each cassette once (two small requests with its
journal listing), and again only when it changed.

boto3 is imported on the first use of an ``s3://`` location (the ``replay-llm[s3]`` extra).
Credentials, region and endpoint come from the standard AWS environment and configuration
(``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ``AWS_PROFILE``, ``~/.aws/config``...).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import threading
import weakref
from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from replay._core.errors import CassetteError, ConfigError
from replay._core.location import S3Location
from replay._core.own_traffic import through_cassette
from replay._store import cassette_file
from replay._store.backend import ENTRY_SUFFIX, Conflict
from replay._store.cassette_file import Loaded

EXTRA = "replay-llm[s3]"
PROBE_PREFIX = ".replay-conditional-write-probe/"
DELETE_BATCH = 1000
"""The most keys one DeleteObjects request takes."""
_CONFLICTS = {"PreconditionFailed", "ConditionalRequestConflict", "412", "409"}
_NOT_MODIFIED = {"304", "NotModified"}
_MISSING = {"NoSuchKey", "404", "NotFound"}


def cache_directory(environ: Mapping[str, str] = os.environ) -> Path:
    """Where fetched cassettes are kept by ETag: the user's cache, not the repository."""
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "replay" / "s3"


def journal_prefix(location: S3Location) -> str:
    return (location.parent / f".{location.name}.journal").prefix


class S3Store:
    """Cassettes as objects in S3 (see the module docstring)."""

    def __init__(self) -> None:
        self._client: Any = None
        self._lock = threading.Lock()
        self._checked_buckets: set[str] = set()
        self._parsed: weakref.WeakValueDictionary[S3Location, Loaded] = (
            weakref.WeakValueDictionary()
        )
        """Each cassette's last version parsed, while a cassette holds it (a long suite's memory
        does not grow with every cassette it read; the disk cache spares the download)."""

    def forget_client(self) -> None:
        """In a forked child: a client of its own (a parent's connections are not shared)."""
        self._client = None
        self._lock = threading.Lock()

    def client(self, location: S3Location) -> Any:
        with self._lock:
            if self._client is None:
                try:
                    import boto3
                except ImportError:
                    raise ConfigError(
                        "cassette location",
                        str(location),
                        f"s3:// cassettes need boto3: pip install '{EXTRA}'",
                    ) from None
                self._client = boto3.session.Session().client("s3")
            return self._client

    def _call(self, location: S3Location, doing: str, operation: str, **arguments: Any) -> Any:
        """``client.operation(**arguments)``; a failure is a CassetteError naming ``location``,
        but for conflicts, absent objects and 304s, which callers tell apart by code."""
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            with through_cassette():  # the store's own requests: never into a cassette
                return getattr(self.client(location), operation)(**arguments)
        except ClientError as error:
            code = _code(error)
            if code in _CONFLICTS or code in _MISSING or code in _NOT_MODIFIED:
                raise
            message = error.response.get("Error", {}).get("Message") or code
            raise CassetteError(location, f"cannot {doing}: {message}") from None
        except BotoCoreError as error:
            raise CassetteError(location, f"cannot {doing}: {error}") from None

    # The cassette.

    def read(self, path: S3Location) -> Loaded:
        from botocore.exceptions import ClientError

        cached_etag, cached_data = _read_cache(path)
        conditions = {"IfNoneMatch": cached_etag} if cached_etag else {}
        try:
            answer = self._call(path, "read", "get_object", Bucket=path.bucket, Key=path.key,
                                **conditions)  # fmt: skip
        except ClientError as error:
            code = _code(error)
            if code in _MISSING:
                return Loaded({}, None)
            if code in _NOT_MODIFIED and cached_etag is not None and cached_data is not None:
                return self._parse(path, cached_etag, cached_data)
            raise CassetteError(path, f"cannot read: {code}") from None
        size = answer.get("ContentLength", 0)
        if size > cassette_file.MAX_CASSETTE_BYTES:
            raise CassetteError(
                path, f"is {size} bytes, more than the {cassette_file.MAX_CASSETTE_BYTES} allowed"
            )
        data = answer["Body"].read()
        etag = answer["ETag"]
        _write_cache(path, etag, data)
        return self._parse(path, etag, data)

    def _parse(self, path: S3Location, etag: str, data: bytes) -> Loaded:
        parsed = self._parsed.get(path)
        if parsed is not None and parsed.signature == (etag, len(data)):
            return parsed
        document = cassette_file.parse_document(path, data)
        folded = cassette_file.folded_entries(path, document)
        loaded = Loaded(document["interactions"], (etag, len(data)), folded)
        self._parsed[path] = loaded
        return loaded

    def write(
        self, path: S3Location, interactions: dict[str, Any], folded: Iterable[str], expected: Any
    ) -> Loaded:
        self._refuse_unconditional_store(path)
        folded = frozenset(folded)
        data = cassette_file.dump(interactions, folded)
        condition = {"IfNoneMatch": "*"} if expected is None else {"IfMatch": expected[0]}
        answer = self._conditional(path, "write", "put_object", Body=data, **condition)
        etag = answer["ETag"]
        _write_cache(path, etag, data)
        loaded = Loaded(dict(interactions), (etag, len(data)), folded)
        self._parsed[path] = loaded
        return loaded

    def delete(self, path: S3Location, expected: Any) -> None:
        if expected is None:
            return
        self._refuse_unconditional_store(path)
        self._conditional(path, "delete", "delete_object", IfMatch=expected[0])
        self._parsed.pop(path, None)

    def _conditional(self, path: S3Location, doing: str, operation: str, **arguments: Any) -> Any:
        from botocore.exceptions import ClientError

        try:
            return self._call(path, doing, operation, Bucket=path.bucket, Key=path.key,
                              **arguments)  # fmt: skip
        except ClientError as error:
            code = _code(error)
            if code in _CONFLICTS:
                raise Conflict(str(path)) from None
            raise CassetteError(path, f"cannot {doing}: {code}") from None

    def _refuse_unconditional_store(self, path: S3Location) -> None:
        """Create a probe object twice with ``If-None-Match: *``, once per bucket and process:
        the second must fail, or conditional writes are ignored and recording could lose data."""
        from botocore.exceptions import ClientError

        if path.bucket in self._checked_buckets:
            return
        probe = S3Location(path.bucket, f"{PROBE_PREFIX}{secrets.token_hex(8)}")
        arguments = {"Bucket": probe.bucket, "Key": probe.key, "Body": b"", "IfNoneMatch": "*"}
        self._call(path, "write", "put_object", **arguments)
        try:
            self._call(path, "write", "put_object", **arguments)
        except ClientError as error:
            if _code(error) not in _CONFLICTS:
                raise CassetteError(path, f"cannot write: {_code(error)}") from None
            honoured = True
        else:
            honoured = False
        finally:
            with contextlib.suppress(CassetteError, ClientError):
                self._call(path, "write", "delete_object", Bucket=probe.bucket, Key=probe.key)
        if not honoured:
            raise CassetteError(
                path,
                "its store ignores conditional writes (If-None-Match), so two recorders could "
                "overwrite each other's recordings: replay does not record into it",
            )
        self._checked_buckets.add(path.bucket)

    # The journal.

    def add_entry(self, path: S3Location, entry_id: str, data: bytes) -> None:
        from botocore.exceptions import ClientError

        key = f"{journal_prefix(path)}{entry_id}{ENTRY_SUFFIX}"
        self._refuse_unconditional_store(path)
        try:
            self._call(path, "write to its journal", "put_object",
                       Bucket=path.bucket, Key=key, Body=data, IfNoneMatch="*")  # fmt: skip
        except ClientError as error:
            raise CassetteError(path, f"cannot write to its journal: {_code(error)}") from None

    def entry_ids(self, path: S3Location) -> list[str]:
        prefix = journal_prefix(path)
        names = (key[len(prefix) :] for key, _ in self._keys(path, prefix))
        return sorted(name[: -len(ENTRY_SUFFIX)] for name in names if name.endswith(ENTRY_SUFFIX))

    def read_entry(self, path: S3Location, entry_id: str) -> bytes | None:
        from botocore.exceptions import ClientError

        key = f"{journal_prefix(path)}{entry_id}{ENTRY_SUFFIX}"
        try:
            answer = self._call(path, "read its journal", "get_object",
                                Bucket=path.bucket, Key=key)  # fmt: skip
        except ClientError as error:
            if _code(error) in _MISSING:
                return None
            raise CassetteError(path, f"cannot read its journal: {_code(error)}") from None
        data: bytes = answer["Body"].read()
        return data

    def remove_entries(self, path: S3Location, entry_ids: Iterable[str]) -> None:
        prefix = journal_prefix(path)
        keys = [{"Key": f"{prefix}{entry_id}{ENTRY_SUFFIX}"} for entry_id in entry_ids]
        for start in range(0, len(keys), DELETE_BATCH):
            batch = {"Objects": keys[start : start + DELETE_BATCH], "Quiet": True}
            answer = self._call(path, "remove folded journal entries", "delete_objects",
                                Bucket=path.bucket, Delete=batch)  # fmt: skip
            if answer.get("Errors"):
                failed = answer["Errors"][0]
                raise CassetteError(
                    path, f"cannot remove folded journal entries: {failed.get('Message')}"
                )

    def exists(self, path: S3Location) -> bool:
        from botocore.exceptions import ClientError

        try:
            self._call(path, "read", "head_object", Bucket=path.bucket, Key=path.key)
        except ClientError as error:
            if _code(error) in _MISSING:
                return False
            raise CassetteError(path, f"cannot read: {_code(error)}") from None
        return True

    def exclusive(self, path: S3Location) -> AbstractContextManager[None]:
        return contextlib.nullcontext()  # conditional writes instead: see the module docstring

    # Directories.

    def cassettes_in(self, directory: S3Location) -> list[tuple[S3Location, str]] | None:
        """The ``*.json`` objects below the prefix, and the journals without one (a killed
        recorder's); None when ``directory`` is itself an object or nothing is below it."""
        below = [key[len(directory.prefix) :] for key, _ in self._keys(directory, directory.prefix)]
        if not below:
            return None
        names = {name for name in below if name.endswith(".json")}
        for name in below:
            folder, _, entry = name.rpartition("/")
            parent, _, hidden = folder.rpartition("/")
            if hidden.startswith(".") and hidden.endswith(".json.journal") and entry:
                names.add(f"{parent}/{hidden[1 : -len('.journal')]}".lstrip("/"))
        shown = sorted(n for n in names if not any(p.startswith(".") for p in n.split("/")))
        return [(directory / name, name) for name in shown]

    def _keys(self, location: S3Location, prefix: str) -> list[tuple[str, str]]:
        """(key, ETag) of every object whose key starts with ``prefix``."""
        pages = self.client(location).get_paginator("list_objects_v2")
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            with through_cassette():  # the store's own requests: never into a cassette
                return [
                    (item["Key"], item["ETag"])
                    for page in pages.paginate(Bucket=location.bucket, Prefix=prefix)
                    for item in page.get("Contents", ())
                ]
        except (ClientError, BotoCoreError) as error:
            raise CassetteError(location, f"cannot list: {error}") from None


def _code(error: Any) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def _cache_file(location: S3Location) -> Path:
    return cache_directory() / hashlib.sha256(str(location).encode()).hexdigest()


def _read_cache(location: S3Location) -> tuple[str | None, bytes | None]:
    """The ETag and bytes this machine last fetched for ``location``; (None, None) if none."""
    try:
        etag, _, data = _cache_file(location).read_bytes().partition(b"\n")
    except OSError:
        return None, None
    return etag.decode("ascii", "replace"), data


def _write_cache(location: S3Location, etag: str, data: bytes) -> None:
    """Best effort: a cache that cannot be written costs a download next time, nothing else."""
    target = _cache_file(location)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(etag.encode("ascii") + b"\n" + data)
        os.replace(temporary, target)
    except OSError:
        temporary.unlink(missing_ok=True)


STORE = S3Store()
os.register_at_fork(after_in_child=STORE.forget_client)
