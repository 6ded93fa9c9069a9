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
transfer. A cassette that only replays (:meth:`S3Store.settled`) costs less still: the
first such read in a directory lists it once for the process (ListObjectsV2, one request
per 1,000 objects, ``/`` as delimiter so journals come back as one prefix each), which gives
every cassette's ETag and which ones have journal entries waiting; a cassette whose listed
ETag the cache holds, with no journal, is read from the cache with no request of its own.
A replay-only run thus sees the bucket as it was when it listed the directory, up to a minute
before (the next run sees any change, a long-lived process within a minute); what this process
writes updates its listing.

botocore, the core of boto3 (the ``replay-llm[s3]`` extra), is imported on the first use of an
``s3://`` location; its client is made once a process (boto3's own Session would cost 35 ms more).
Credentials, region and endpoint come from the standard AWS environment and configuration
(``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ``AWS_PROFILE``, ``~/.aws/config``...).

A replay-only read's listing, all a warm run sends, goes through obstore (Rust, in the extra)
when the environment alone decides what botocore would use (:func:`obstore_settings`): importing
botocore and making its client cost a process 0.35 s, and its exit 0.1 to 0.3 s more, against
about 30 ms for obstore, so such a run never imports boto3. The listing is the same
ListObjectsV2, so what the run trusts is unchanged. Everything else (reads that miss the cache,
every write, the conditional-write probe) stays on botocore, which reads every AWS configuration
(profiles, SSO, instance roles) and whose conditional writes the tests prove. obstore is skipped
for the rest of a process whose listing through it failed once (botocore then lists, or says
what is wrong), and in a child forked after it was used: its runtime's threads stay in the
parent, and a request from the child would wait forever.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import threading
import time
import weakref
from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from replay._core.errors import CassetteError, ConfigError
from replay._core.location import S3Location
from replay._core.own_traffic import through_cassette
from replay._store import cassette_file
from replay._store.backend import ENTRY_SUFFIX, Conflict
from replay._store.cassette_file import Loaded, Pieces

EXTRA = "replay-llm[s3]"
PROBE_PREFIX = ".replay-conditional-write-probe/"
DELETE_BATCH = 1000
"""The most keys one DeleteObjects request takes."""
_CONFLICTS = {"PreconditionFailed", "ConditionalRequestConflict", "412", "409"}
_NOT_MODIFIED = {"304", "NotModified"}
_MISSING = {"NoSuchKey", "404", "NotFound"}
JOURNAL_SUFFIX = ".journal"
LISTING_RETRIES = {"max_retries": 4, "retry_timeout": timedelta(seconds=20)}
"""obstore's retries for a listing: as botocore's five attempts, not obstore's three minutes."""
LISTING_LIFETIME = 60.0
"""Seconds a directory's listing is trusted by replay-only reads: a test run sees the bucket as
it started, a long-lived process (``replay serve``) sees changes within a minute."""


def cache_directory(environ: Mapping[str, str] = os.environ) -> Path:
    """Where fetched cassettes are kept by ETag: the user's cache, not the repository."""
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "replay" / "s3"


def journal_prefix(location: S3Location) -> str:
    return (location.parent / f".{location.name}{JOURNAL_SUFFIX}").prefix


class S3Store:
    """Cassettes as objects in S3 (see the module docstring)."""

    def __init__(self) -> None:
        self._client: Any = None
        self._lock = threading.Lock()
        self._checked_buckets: set[str] = set()
        self._listers: dict[str, Any] | None = {}
        """obstore's store for each bucket listed through it; None once obstore is not used in
        this process (see the module docstring)."""
        self._listings: dict[S3Location, _Listing] = {}
        """Directories listed by this process, for replay-only reads (:meth:`settled`)."""
        self._parsed: weakref.WeakValueDictionary[S3Location, Loaded] = (
            weakref.WeakValueDictionary()
        )
        """Each cassette's last version parsed, while a cassette holds it (a long suite's memory
        does not grow with every cassette it read; the disk cache spares the download)."""

    def forget_client(self) -> None:
        """In a forked child, clients of its own (a parent's connections are not shared); where
        the AWS environment changed, clients made for the new one."""
        self._client = None
        self._listers = {}
        self._lock = threading.Lock()

    def forget_listings(self) -> None:
        """The next replay-only read lists its directory again, as a new process would."""
        with self._lock:
            self._listings.clear()

    def _forget_after_fork(self) -> None:
        self.forget_client()
        self.forget_listings()

    def client(self, location: S3Location) -> Any:
        with self._lock:
            if self._client is None:
                _botocore_errors(location)  # botocore there, or an error naming the extra
                import botocore.session  # boto3's core: 35 ms less a process than boto3's Session

                self._client = botocore.session.get_session().create_client("s3")
            return self._client

    def _call(self, location: S3Location, doing: str, operation: str, **arguments: Any) -> Any:
        """``client.operation(**arguments)``; a failure is a CassetteError naming ``location``,
        but for conflicts, absent objects and 304s, which callers tell apart by code."""
        errors = _botocore_errors(location)

        try:
            with through_cassette():  # the store's own requests: never into a cassette
                return getattr(self.client(location), operation)(**arguments)
        except errors.ClientError as error:
            code = _code(error)
            if code in _CONFLICTS or code in _MISSING or code in _NOT_MODIFIED:
                raise
            message = error.response.get("Error", {}).get("Message") or code
            raise CassetteError(location, f"cannot {doing}: {message}") from None
        except errors.BotoCoreError as error:
            raise CassetteError(location, f"cannot {doing}: {error}") from None

    # The cassette.

    def read(self, path: S3Location) -> Loaded:
        errors = _botocore_errors(path)

        cached_etag, cached_data = _read_cache(path)
        conditions = {"IfNoneMatch": cached_etag} if cached_etag else {}
        try:
            answer = self._call(path, "read", "get_object", Bucket=path.bucket, Key=path.key,
                                **conditions)  # fmt: skip
        except errors.ClientError as error:
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

    def settled(self, path: S3Location) -> Loaded | None:
        """The cassette from the read cache, with no request of its own, when this process's
        listing of its directory shows it at the version the cache holds and no journal beside
        it; None otherwise (then :func:`replay._store.journal.view` reads it). Only for a
        cassette that will not record: the listing may be older than the cassette's last fold."""
        listing = self._listing(path.parent)
        listed_etag = listing.etags.get(path.name)
        if listed_etag is None or path.name in listing.journals:
            return None
        cached_etag, cached_data = _read_cache(path)
        if cached_etag != listed_etag or cached_data is None:
            return None
        return self._parse(path, listed_etag, cached_data)

    def _listing(self, directory: S3Location) -> _Listing:
        with self._lock:
            listing = self._listings.get(directory)
        if listing is not None and time.monotonic() - listing.taken < LISTING_LIFETIME:
            return listing
        taken = time.monotonic()
        listed = self._list_through_obstore(directory)
        if listed is None:
            pages = self._pages(directory, directory.prefix, delimiter="/")
            objects = [(item["Key"], item["ETag"]) for p in pages for item in p.get("Contents", ())]
            prefixes = [below["Prefix"] for p in pages for below in p.get("CommonPrefixes", ())]
            listed = objects, prefixes
        listing = _Listing({}, set(), taken)
        objects, prefixes = listed
        for key, etag in objects:
            listing.etags[key[len(directory.prefix) :]] = etag
        for prefix in prefixes:
            hidden = prefix[len(directory.prefix) :].rstrip("/")
            if hidden.startswith(".") and hidden.endswith(JOURNAL_SUFFIX):
                listing.journals.add(hidden[1 : -len(JOURNAL_SUFFIX)])
        with self._lock:
            self._listings[directory] = listing
        return listing

    def lister(self, location: S3Location) -> Any:
        """What lists ``location``'s bucket for a replay-only read: obstore's store for it, made
        once a process, when obstore can (see the module docstring); else botocore's client."""
        return self._obstore_lister(location.bucket) or self.client(location)

    def _obstore_lister(self, bucket: str) -> Any:
        with self._lock:
            if self._listers is None or OBSTORE_RUNTIME.left_in_parent:
                return None
            if bucket in self._listers:
                return self._listers[bucket]
        settings = obstore_settings()
        store_class = _obstore_s3_store() if settings is not None else None
        with self._lock:
            if store_class is None or settings is None or self._listers is None:
                self._listers = None
                return None
            try:
                lister = store_class(bucket, **settings, retry_config=LISTING_RETRIES)
            except _obstore_failures():
                # A setting obstore refuses and botocore may take (a CA bundle holding no PEM
                # certificate): botocore lists, or says what is wrong, as after a failed listing.
                self._listers = None
                return None
            self._listers[bucket] = lister
        return lister

    def _list_through_obstore(
        self, directory: S3Location
    ) -> tuple[list[tuple[str, str]], list[str]] | None:
        """The (key, ETag) of each object in ``directory`` and the prefixes one level below it,
        listed by obstore; None when obstore is not used, or failed (then botocore lists)."""
        lister = self._obstore_lister(directory.bucket)
        if lister is None:
            return None
        import obstore

        OBSTORE_RUNTIME.started = True
        try:
            found = obstore.list_with_delimiter(lister, directory.prefix or None)
        except _obstore_failures():
            # Any failure (refused credentials, a key obstore cannot parse, a certificate only
            # botocore's configuration names): botocore lists, and says what is wrong if it is.
            with self._lock:
                self._listers = None
            return None
        objects = [(o["path"], o["e_tag"]) for o in found["objects"] if o["e_tag"] is not None]
        return objects, list(found["common_prefixes"])

    def _listed_cassette(self, path: S3Location, etag: str | None) -> None:
        """A cassette this process wrote (None: deleted), in its listing if it has one: its
        own writes are never read stale."""
        with self._lock:
            listing = self._listings.get(path.parent)
            if listing is not None and etag is None:
                listing.etags.pop(path.name, None)
            elif listing is not None and etag is not None:
                listing.etags[path.name] = etag

    def _listed_journal(self, path: S3Location, pending: bool) -> None:
        """Entries this process added to a cassette's journal, or folded all of."""
        with self._lock:
            listing = self._listings.get(path.parent)
            if listing is not None and pending:
                listing.journals.add(path.name)
            elif listing is not None:
                listing.journals.discard(path.name)

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
        self,
        path: S3Location,
        interactions: Mapping[str, Any],
        folded: Iterable[str],
        expected: Any,
    ) -> Loaded:
        self._refuse_unconditional_store(path)
        folded = frozenset(folded)
        data = cassette_file.dump(interactions, folded)
        condition = {"IfNoneMatch": "*"} if expected is None else {"IfMatch": expected[0]}
        answer = self._conditional(path, "write", "put_object", Body=data, **condition)
        etag = answer["ETag"]
        _write_cache(path, etag, data)
        self._listed_cassette(path, etag)
        loaded = Loaded(dict(interactions), (etag, len(data)), folded)
        self._parsed[path] = loaded
        return loaded

    def delete(self, path: S3Location, expected: Any) -> None:
        if expected is None:
            return
        self._refuse_unconditional_store(path)
        self._conditional(path, "delete", "delete_object", IfMatch=expected[0])
        self._parsed.pop(path, None)
        self._listed_cassette(path, None)

    def _conditional(self, path: S3Location, doing: str, operation: str, **arguments: Any) -> Any:
        errors = _botocore_errors(path)

        try:
            return self._call(path, doing, operation, Bucket=path.bucket, Key=path.key,
                              **arguments)  # fmt: skip
        except errors.ClientError as error:
            code = _code(error)
            if code in _CONFLICTS:
                raise Conflict(str(path)) from None
            raise CassetteError(path, f"cannot {doing}: {code}") from None

    def _refuse_unconditional_store(self, path: S3Location) -> None:
        """Create a probe object twice with ``If-None-Match: *``, once per bucket and process:
        the second must fail, or conditional writes are ignored and recording could lose data."""
        errors = _botocore_errors(path)

        if path.bucket in self._checked_buckets:
            return
        probe = S3Location(path.bucket, f"{PROBE_PREFIX}{secrets.token_hex(8)}")
        arguments = {"Bucket": probe.bucket, "Key": probe.key, "Body": b"", "IfNoneMatch": "*"}
        self._call(path, "write", "put_object", **arguments)
        try:
            self._call(path, "write", "put_object", **arguments)
        except errors.ClientError as error:
            if _code(error) not in _CONFLICTS:
                raise CassetteError(path, f"cannot write: {_code(error)}") from None
            honoured = True
        else:
            honoured = False
        finally:
            with contextlib.suppress(CassetteError, errors.ClientError):
                self._call(path, "write", "delete_object", Bucket=probe.bucket, Key=probe.key)
        if not honoured:
            raise CassetteError(
                path,
                "its store ignores conditional writes (If-None-Match), so two recorders could "
                "overwrite each other's recordings: replay does not record into it",
            )
        self._checked_buckets.add(path.bucket)

    # The journal.

    def add_entry(self, path: S3Location, entry_id: str, data: bytes | Pieces) -> None:
        errors = _botocore_errors(path)
        if not isinstance(data, bytes):
            data = b"".join(data)  # an object is put whole

        key = f"{journal_prefix(path)}{entry_id}{ENTRY_SUFFIX}"
        self._refuse_unconditional_store(path)
        try:
            self._call(path, "write to its journal", "put_object",
                       Bucket=path.bucket, Key=key, Body=data, IfNoneMatch="*")  # fmt: skip
        except errors.ClientError as error:
            raise CassetteError(path, f"cannot write to its journal: {_code(error)}") from None
        self._listed_journal(path, pending=True)  # then a replay-only read here reads it

    def entry_ids(self, path: S3Location) -> list[str]:
        prefix = journal_prefix(path)
        names = (key[len(prefix) :] for key, _ in self._keys(path, prefix))
        return sorted(name[: -len(ENTRY_SUFFIX)] for name in names if name.endswith(ENTRY_SUFFIX))

    def entry_file(self, path: S3Location, entry_id: str) -> str:
        return str(S3Location(path.bucket, f"{journal_prefix(path)}{entry_id}{ENTRY_SUFFIX}"))

    def read_entry(self, path: S3Location, entry_id: str) -> bytes | None:
        errors = _botocore_errors(path)

        key = f"{journal_prefix(path)}{entry_id}{ENTRY_SUFFIX}"
        try:
            answer = self._call(path, "read its journal", "get_object",
                                Bucket=path.bucket, Key=key)  # fmt: skip
        except errors.ClientError as error:
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
        self._listed_journal(path, pending=False)  # as far as this run knows: it folded them

    def exists(self, path: S3Location) -> bool:
        errors = _botocore_errors(path)

        try:
            self._call(path, "read", "head_object", Bucket=path.bucket, Key=path.key)
        except errors.ClientError as error:
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
        return [
            (item["Key"], item["ETag"])
            for page in self._pages(location, prefix)
            for item in page.get("Contents", ())
        ]

    def _pages(self, location: S3Location, prefix: str, **delimiter: str) -> list[Any]:
        """The ListObjectsV2 pages of ``prefix`` (with ``delimiter="/"``: one level of it).
        Not boto3's paginator: making one costs a process 25 ms of reading its model."""
        errors = _botocore_errors(location)

        arguments = {"Bucket": location.bucket, "Prefix": prefix}
        arguments.update((name.capitalize(), value) for name, value in delimiter.items())
        try:
            pages = [self._call(location, "list", "list_objects_v2", **arguments)]
            while pages[-1].get("IsTruncated"):
                after = {"ContinuationToken": pages[-1]["NextContinuationToken"]}
                pages.append(self._call(location, "list", "list_objects_v2", **arguments, **after))
        except errors.ClientError as error:  # the codes _call leaves to its callers
            raise CassetteError(location, f"cannot list: {_code(error)}") from None
        return pages


@dataclass(slots=True)
class _Listing:
    """One directory as listed once: its objects' ETags by name, and the names of cassettes
    with a journal (a ``.NAME.journal/`` prefix) beside them."""

    etags: dict[str, str]
    journals: set[str]
    taken: float
    """When, by :func:`time.monotonic`."""


_OBSTORE_ONLY_VARIABLES = (
    "AWS_ENDPOINT",
    "AWS_ALLOW_INVALID_CERTIFICATES",
    "AWS_PROXY_URL",
    "AWS_SKIP_SIGNATURE",
    "AWS_VIRTUAL_HOSTED_STYLE_REQUEST",
    "AWS_S3_EXPRESS",
)
"""Variables obstore reads from the environment whatever it is given, and botocore ignores:
where or how the listing is sent (AWS_ENDPOINT names another server than botocore's)."""


def obstore_settings(environ: Mapping[str, str] = os.environ) -> dict[str, Any] | None:
    """What obstore needs to list the bucket botocore would, as the identity botocore would,
    when the environment alone decides them: the access key (which botocore takes before any
    profile), the region, the endpoint and the CA bundle. None when botocore could find any of
    them elsewhere (a profile in a configuration file, SSO, an instance role)."""
    key_id, secret = environ.get("AWS_ACCESS_KEY_ID"), environ.get("AWS_SECRET_ACCESS_KEY")
    ignores_endpoints = environ.get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "").lower() == "true"
    if not key_id or not secret or ignores_endpoints:
        return None
    if any(environ.get(name) for name in _OBSTORE_ONLY_VARIABLES):
        return None  # obstore would take it, and list elsewhere or otherwise than botocore
    endpoint = environ.get("AWS_ENDPOINT_URL_S3") or environ.get("AWS_ENDPOINT_URL")
    region = environ.get("AWS_DEFAULT_REGION")
    configuration = environ.get("AWS_CONFIG_FILE") or os.path.join(
        os.path.expanduser("~"), ".aws", "config"
    )
    if (endpoint is None or region is None) and os.path.isfile(configuration):
        return None  # a profile there may name them
    # Given whole, so that obstore's reading of the environment changes none of them (AWS_REGION).
    settings: dict[str, Any] = {
        "access_key_id": key_id,
        "secret_access_key": secret,
        "region": region or "us-east-1",  # botocore's when none is configured
    }
    token = environ.get("AWS_SESSION_TOKEN") or environ.get("AWS_SECURITY_TOKEN")
    if token:
        settings["session_token"] = token
    if endpoint is not None:
        settings["endpoint"] = endpoint
    if endpoint is not None and endpoint.startswith("http://"):
        settings["client_options"] = {"allow_http": True}
    elif environ.get("AWS_CA_BUNDLE"):
        try:  # botocore trusts it instead of the system's; obstore beside them
            settings["client_options"] = {
                "root_certificate": Path(environ["AWS_CA_BUNDLE"]).read_bytes()
            }
        except OSError:
            return None  # botocore says what is wrong with it
    return settings


@dataclass(slots=True)
class _ObstoreRuntime:
    """obstore's runtime, one a process, started by its first request: its threads stay in
    the parent when the process forks, and a child's request through it would wait forever."""

    started: bool = False
    left_in_parent: bool = False


OBSTORE_RUNTIME = _ObstoreRuntime()


def _obstore_failures() -> tuple[type[Exception], ...]:
    """What obstore raises when it cannot make its store or list; only once it is installed."""
    import obstore.exceptions

    return (obstore.exceptions.BaseError, OSError, ValueError)


def _obstore_s3_store() -> Any:
    """obstore's S3Store class, or None when obstore is not installed."""
    try:
        from obstore.store import S3Store as ObstoreS3Store
    except ImportError:
        return None
    return ObstoreS3Store


def _botocore_errors(location: S3Location) -> Any:
    """botocore's exceptions module, imported on the first use of an s3:// location; when
    boto3 (and so botocore) is not installed, a ConfigError that names the extra."""
    try:
        from botocore import exceptions
    except ImportError:
        raise ConfigError(
            "cassette location", str(location), f"s3:// cassettes need boto3: pip install '{EXTRA}'"
        ) from None
    return exceptions


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


def _after_fork_in_child() -> None:
    OBSTORE_RUNTIME.left_in_parent = OBSTORE_RUNTIME.started
    STORE._forget_after_fork()


STORE = S3Store()
os.register_at_fork(after_in_child=_after_fork_in_child)
