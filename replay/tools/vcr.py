"""Moving from vcrpy: convert its cassettes, and let vcrpy itself read and write ours.

``import_paths`` (the ``replay import-vcr`` command) turns vcrpy and
pytest-recording cassettes into this project's format beside them:
``test_x.yaml`` -> ``test_x.json``. It reads what vcrpy's serializers write
(YAML, vcrpy's JSON) and what LLM projects commonly plug into vcrpy: pydantic-ai's
serializer (JSON bodies kept parsed, as ``parsed_body``) and langchain's
(gzip-compressed YAML of vcrpy's ``requests`` and ``responses`` lists). The
interactions go through :meth:`Cassette.decide <replay._cassette.Cassette.decide>`
and :meth:`~replay._cassette.Cassette.add` as if they had been recorded here,
so they are redacted alike (and normalized only if asked: ids and times stay as
recorded); each keeps its place in vcrpy's list (``order``), and the cassette
remembers vcrpy's matching (``match_on``: method and URL), which replay then
follows for it; bodies are decoded
(``content-encoding``, YAML ``!!binary``, ``base64_string``) and stored as JSON
where they are JSON, and event streams are split into their events.

Nothing is dropped: a field or a body of a form the converter does not know
is an error naming the file, the interaction and the field, and nothing is
written for that file. A conversion is deterministic (same source, same
bytes), so converting again is a no-op, and it leaves nothing beside the
cassettes but the converted files (no usage record, no lock file).

For clients not built on httpx (requests, aiohttp), :func:`register` adds a
``"replay"`` serializer and a persister to a vcrpy ``VCR``, so that
``vcr.use_cassette(path, serializer="replay")`` reads and writes this format,
saved the way the transports save it: merged under the file lock, atomically.

PyYAML (and vcrpy, for :func:`register`) are the optional extra
``replay-llm[vcr]``, imported only when used.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import gzip
import json
import os
import tempfile
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from replay._cassette import Cassette, Record
from replay._core.errors import CassetteError, CassetteMiss, ConfigError
from replay._core.key import url_problem
from replay._core.model import (
    EVENTSTREAM_CONTENT_TYPE,
    STREAM_CONTENT_TYPES,
    Chunk,
    Headers,
    Request,
    Response,
    header_value,
    stored_headers,
)
from replay._core.modes import Mode
from replay._core.streams import BodyDecoder
from replay._store import cassette_file as store
from replay._store import usage

SERIALIZER_NAME = "replay"
VCRPY_MATCH_ON = ("method", "uri")
"""vcrpy's default ``match_on``, which converted cassettes keep."""


# vcrpy's cassette document -> our interactions.


@dataclass(frozen=True)
class Imported:
    source: Path
    target: Path
    interactions: int
    unchanged: bool = False
    """The target held this very conversion already: nothing was written."""


@dataclass(frozen=True)
class Skipped:
    """A file left as it is, with nothing to convert in it."""

    source: Path
    reason: str


VCRPY_SUFFIXES = (".yaml", ".yml", ".yaml.gz", ".yml.gz")
UNKNOWN_TIME = datetime(1970, 1, 1, tzinfo=UTC)
"""``recorded_at`` of an interaction when no response of its cassette has a ``Date``."""
GZIP_MAGIC = b"\x1f\x8b"


def import_paths(
    paths: Iterable[Path], *, delete: bool = False, force: bool = False, normalize: bool = False
) -> list[tuple[Path, Imported | Skipped | CassetteError]]:
    """Convert each file given, and each vcrpy-named file under each directory given, in order.

    A failure is returned with its file, not raised: the others still convert. A file
    that is not a vcrpy cassette is skipped when found in a directory (other tools keep
    their recordings beside vcrpy's), and a failure when named.
    """
    sources: list[tuple[Path, bool]] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and _is_vcrpy_name(p))
            sources.extend((source, False) for source in found)
        else:
            sources.append((path, True))
    results: list[tuple[Path, Imported | Skipped | CassetteError]] = []
    with tempfile.TemporaryDirectory(prefix="replay-import-vcr-") as scratch:
        for source, named in sources:
            result: Imported | Skipped | CassetteError
            try:
                result = import_cassette(
                    source, delete=delete, force=force, normalize=normalize, scratch=Path(scratch)
                )
            except _NotVcrpy as error:
                result = error if named else Skipped(source, error.reason)
            except CassetteError as error:
                result = error
            results.append((source, result))
    return results


def import_cassette(
    source: Path,
    *,
    delete: bool = False,
    force: bool = False,
    normalize: bool = False,
    scratch: Path | None = None,
) -> Imported | Skipped:
    """Convert one vcrpy cassette file; raises CassetteError naming it when it cannot.

    Nothing is written unless every interaction converts. The source stays unless
    ``delete``. A target holding this very conversion already is left as it is; one
    holding anything else is overwritten only if ``force``. A vcrpy JSON cassette,
    whose name ours would take, is converted to ``<name>.replay.json``, which then
    replaces it if ``delete``. ``scratch`` is a directory for the conversion's
    working file (a temporary one if None). ``normalize`` gives ids and times placeholders
    as recording does; by default they stay as vcrpy recorded them.
    """
    target = target_of(source)
    written = source.with_suffix(".replay.json") if target == source else target
    file = store.open_regular(source)
    if file is None:
        raise CassetteError(source, "does not exist")
    try:
        with file:
            data = file.read()
    except OSError as error:
        raise CassetteError(source, f"cannot read: {error.strerror or error}") from error
    document = _load_document(source, data)
    if isinstance(document, Skipped):
        return document
    pairs = _pairs(source, document)
    if not pairs:
        return Skipped(source, "has no interactions: nothing to convert, no file written")
    with contextlib.ExitStack() as stack:
        if scratch is None:
            scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="replay-")))
        converted = _converted(pairs, scratch, normalize=normalize, match_on=VCRPY_MATCH_ON)
    unchanged = _holds(written, converted)
    if not unchanged:
        if written.exists() and not force:
            raise CassetteError(
                source, f"{written} exists already, with other content (--force overwrites it)"
            )
        store.write_atomically(written, converted)
    if not delete:
        return Imported(source, written, len(pairs), unchanged)
    if written == target:
        source.unlink()
    else:
        os.replace(written, target)
    return Imported(source, target, len(pairs), unchanged)


def target_of(source: Path) -> Path:
    """``x.yaml``, ``x.yml``, ``x.yaml.gz`` -> ``x.json``; vcrpy's ``x.json`` stays ``x.json``."""
    name = source.name.removesuffix(".gz")
    for suffix in (".yaml", ".yml", ".json"):
        if name.endswith(suffix):
            return source.with_name(name.removesuffix(suffix) + ".json")
    return source.with_name(name + ".json")


def _is_vcrpy_name(path: Path) -> bool:
    return path.name.endswith(VCRPY_SUFFIXES)


def _holds(path: Path, data: bytes) -> bool:
    try:
        return path.read_bytes() == data
    except OSError:
        return False


class _NotVcrpy(CassetteError):
    """The file is some other tool's recording (or no recording): skipped in a directory."""


@dataclass(frozen=True)
class _Document:
    interactions: list[Any]


def _load_document(source: Path, data: bytes) -> _Document | Skipped:
    import yaml  # type: ignore[import-untyped, unused-ignore]  # the vcr extra: checked first

    if data.startswith(GZIP_MAGIC):  # langchain's serializer compresses its YAML
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise CassetteError(
                source, f"is gzip-compressed but does not decompress: {error}"
            ) from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CassetteError(source, f"is not UTF-8 text: {error}") from error
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        document = yaml.load(text, Loader=loader)  # JSON is YAML too
    except yaml.YAMLError as error:
        raise CassetteError(source, f"is neither YAML nor JSON: {error}") from error
    if not isinstance(document, dict):
        raise _NotVcrpy(source, "is not a vcrpy cassette (no list of interactions)")
    if isinstance(document.get("interactions"), dict):
        return Skipped(source, "is a replay cassette already")
    if "requests" in document and "responses" in document:
        return _Document(_paired(source, document))
    if "interactions" not in document:
        raise _NotVcrpy(source, "is not a vcrpy cassette (no list of interactions)")
    _only(source, document, ("version", "interactions", "metadata"), "")
    if document.get("version", 1) != 1:
        raise CassetteError(
            source, f"version: {document['version']!r} is not vcrpy's cassette format (1)"
        )
    _refuse_metadata(source, document)
    interactions = document["interactions"]
    if interactions is None:
        return _Document([])
    if not isinstance(interactions, list):
        raise _NotVcrpy(source, "is not a vcrpy cassette (no list of interactions)")
    if interactions and not any(_is_vcrpy_entry(entry) for entry in interactions):
        # pydantic-ai's xAI gRPC recordings reuse the name for request_sample/response_sample
        raise _NotVcrpy(
            source, "is not a vcrpy cassette (no interaction has a request or response)"
        )
    return _Document(interactions)


def _is_vcrpy_entry(entry: Any) -> bool:
    """An entry of vcrpy's ``interactions`` list; a list with none is another tool's (one
    with some is vcrpy's, and its other entries are errors naming them)."""
    return isinstance(entry, Mapping) and ("request" in entry or "response" in entry)


def _refuse_metadata(source: Path, document: Mapping[str, Any]) -> None:
    if document.get("metadata"):
        raise CassetteError(
            source,
            "metadata: what the tests stored with vcrpy's Cassette.get_metadata has no "
            "place in a replay cassette",
        )


def _paired(source: Path, document: Mapping[str, Any]) -> list[Any]:
    """vcrpy's own cassette dict, as a persister that skips vcrpy's serialize (langchain's)
    writes it: a list of requests and a list of responses, in step."""
    _only(source, document, ("requests", "responses"), "")
    requests, responses = document["requests"] or [], document["responses"] or []
    if not isinstance(requests, list) or not isinstance(responses, list):
        raise _NotVcrpy(source, "is not a vcrpy cassette (requests and responses not lists)")
    if len(requests) != len(responses):
        raise CassetteError(source, f"has {len(requests)} requests but {len(responses)} responses")
    return [{"request": q, "response": r} for q, r in zip(requests, responses, strict=True)]


def _only(source: Path, mapping: Mapping[str, Any], known: Sequence[str], where: str) -> None:
    for name in mapping:
        if name not in known:
            field = f"{where}.{name}" if where else str(name)
            raise CassetteError(source, f"{field}: not a field vcrpy writes; not converted")


class _Unconvertible(Exception):
    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


def _pairs(source: Path, document: _Document) -> list[tuple[Request, Response]]:
    """Every interaction converted, or a CassetteError naming the first that cannot be."""
    converted: list[tuple[Request, _Answer]] = []
    for index, interaction in enumerate(document.interactions):
        try:
            converted.append(_interaction(interaction))
        except _Unconvertible as error:
            raise CassetteError(source, f"interaction {index}, {error}") from error
        except (TypeError, ValueError, OSError, EOFError, zlib.error) as error:
            raise CassetteError(source, f"interaction {index}: {error}") from error
    dates = _recording_dates([answer.date for _, answer in converted])
    return [
        (request, answer.response(recorded_at))
        for (request, answer), recorded_at in zip(converted, dates, strict=True)
    ]


@dataclass(frozen=True)
class _Answer:
    """A response but for its recording time, which depends on the other interactions."""

    status: int
    headers: Headers
    chunks: tuple[Chunk, ...]
    date: datetime | None

    def response(self, recorded_at: str) -> Response:
        return Response(self.status, self.headers, self.chunks, recorded_at)


def _interaction(entry: Any) -> tuple[Request, _Answer]:
    _fields(entry, "", ("request", "response"), required=("request", "response"))
    return _request(entry["request"]), _response(entry["response"])


def _fields(
    value: Any, where: str, known: Sequence[str], required: Sequence[str] = ()
) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _Unconvertible(where or "interaction", f"{_kind(value)} is not a mapping")
    for name in value:
        if name not in known:
            field = f"{where}.{name}" if where else str(name)
            raise _Unconvertible(field, "not a field vcrpy writes; not converted")
    for name in required:
        if name not in value:
            raise _Unconvertible(f"{where}.{name}" if where else name, "missing")
    return value


_REQUEST_FIELDS = ("method", "uri", "body", "headers", "parsed_body")
_RESPONSE_FIELDS = ("status", "headers", "body", "url", "parsed_body")
_HTTPX_BEFORE_5_FIELDS = ("status_code", "http_version", "headers", "content")
"""The httpx layout of vcrpy before 5.0."""


def _request(entry: Any) -> Request:
    _fields(entry, "request", _REQUEST_FIELDS, required=("method", "uri"))
    method, uri = entry["method"], entry["uri"]
    if not isinstance(method, str):
        raise _Unconvertible("request.method", f"{_kind(method)} is not an HTTP method")
    if not isinstance(uri, str):
        raise _Unconvertible("request.uri", f"{_kind(uri)} is not a URL")
    if (problem := url_problem(uri)) is not None:
        raise _Unconvertible("request.uri", f"{uri!r:.60}: {problem}")
    if "parsed_body" in entry:
        body = _parsed_body(entry, "request")
    else:
        body = _text_or_bytes(entry.get("body"), "request.body")
    return Request(method.upper(), uri, _headers(entry.get("headers"), "request.headers"), body)


def _response(entry: Any) -> _Answer:
    if isinstance(entry, Mapping) and "status_code" in entry:
        _fields(entry, "response", _HTTPX_BEFORE_5_FIELDS, required=("status_code",))
        status = _status_code(entry["status_code"], "response.status_code")
        data, decoded = _text_or_bytes(entry.get("content"), "response.content"), False
    else:
        _fields(entry, "response", _RESPONSE_FIELDS, required=("status",))
        status_entry = _fields(entry["status"], "response.status", ("code", "message"), ("code",))
        status = _status_code(status_entry["code"], "response.status.code")
        if "parsed_body" in entry:  # pydantic-ai's serializer: the JSON, decoded already
            data, decoded = _parsed_body(entry, "response"), True
        else:
            data, decoded = _response_body(entry.get("body", _MISSING)), False
    headers = _headers(entry.get("headers"), "response.headers")
    if not decoded:
        encoding = ", ".join(value for name, value in headers if name == "content-encoding")
        decoder = BodyDecoder(encoding)
        if decoder.active:
            try:
                data = decoder.decode(data)
            except (OSError, EOFError, zlib.error) as error:
                raise _Unconvertible(
                    "response.body", f"does not decode as {encoding!r}: {error}"
                ) from error
        decoded = decoder.decodes
    kept = stored_headers(headers, decoded)
    content_type = header_value(kept, "content-type") or ""
    return _Answer(status, kept, _chunks(data, content_type), _date(header_value(headers, "date")))


_MISSING = object()


def _response_body(body: Any) -> bytes:
    """A response body as vcrpy stores it: ``{string: text or !!binary}``, ``{base64_string}``,
    or ``{}`` (aiohttp, for no body)."""
    if body is _MISSING:
        raise _Unconvertible("response.body", "missing")
    _fields(body, "response.body", ("string", "base64_string"))
    if "string" in body and "base64_string" in body:
        raise _Unconvertible("response.body", "has both string and base64_string")
    if "base64_string" in body:
        encoded = body["base64_string"]
        if not isinstance(encoded, str):
            raise _Unconvertible("response.body.base64_string", f"{_kind(encoded)} is not text")
        try:
            return base64.b64decode(encoded, validate=True)
        except binascii.Error as error:
            raise _Unconvertible("response.body.base64_string", f"not base64: {error}") from error
    return _text_or_bytes(body.get("string"), "response.body.string")


def _parsed_body(entry: Mapping[str, Any], where: str) -> bytes:
    """pydantic-ai's serializer keeps a JSON body parsed, under ``parsed_body``; its own
    deserializer hands vcrpy ``json.dumps`` of it, so that is the body replayed."""
    if entry.get("body") is not None:
        raise _Unconvertible(f"{where}.parsed_body", f"{where} has both body and parsed_body")
    try:
        return json.dumps(entry["parsed_body"]).encode()
    except (TypeError, ValueError) as error:
        raise _Unconvertible(f"{where}.parsed_body", f"not JSON: {error}") from error


def _text_or_bytes(body: Any, where: str) -> bytes:
    if body is None:
        return b""
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, bytes | bytearray):
        return bytes(body)
    if isinstance(body, Mapping | list):  # a JSON body written as YAML structure (pydantic-ai's)
        try:
            return json.dumps(body, separators=(",", ":")).encode()
        except (TypeError, ValueError) as error:
            raise _Unconvertible(where, f"{_kind(body)} is not JSON: {error}") from error
    raise _Unconvertible(where, f"{_kind(body)} is not text, bytes or JSON")


def _status_code(code: Any, where: str) -> int:
    if isinstance(code, bool) or not isinstance(code, int) or not 100 <= code <= 999:
        raise _Unconvertible(where, f"{code!r} is not an HTTP status code")
    return code


def _headers(headers: Any, where: str) -> Headers:
    if headers is None:
        return ()
    if not isinstance(headers, Mapping):
        raise _Unconvertible(where, f"{_kind(headers)} is not a mapping of headers")
    pairs = []
    for name, values in headers.items():
        for value in values if isinstance(values, list | tuple) else [values]:
            if isinstance(value, bytes):  # botocore's, through vcrpy's stubs: !!binary in YAML
                value = value.decode("latin-1")  # one character a byte, as recording keeps them
            if isinstance(value, bool) or not isinstance(value, str | int | float):
                raise _Unconvertible(f"{where}.{name}", f"{_kind(value)} is not a header value")
            pairs.append((str(name).lower(), str(value)))
    return tuple(pairs)


def _kind(value: Any) -> str:
    return "null" if value is None else f"a {type(value).__name__}"


def _chunks(data: bytes, content_type: str) -> tuple[Chunk, ...]:
    """vcrpy keeps a stream as one body; its events (or lines) become the chunks again (an
    AWS event stream's frames are found by the cassette: they are binary, not lines)."""
    if not data:
        return ()
    if not content_type.startswith(STREAM_CONTENT_TYPES) or content_type.startswith(
        EVENTSTREAM_CONTENT_TYPE
    ):
        return (Chunk(data, 0.0),)
    separator = b"\n\n" if b"\n\n" in data else b"\n"
    pieces = data.split(separator)
    chunks = [piece + separator for piece in pieces[:-1]]
    if pieces[-1]:
        chunks.append(pieces[-1])
    return tuple(Chunk(piece, 0.0) for piece in chunks)


def _date(header: str | None) -> datetime | None:
    if not header:
        return None
    try:
        return parsedate_to_datetime(header)
    except (TypeError, ValueError):  # an unreadable date counts as none
        return None


def _recording_dates(dates: Sequence[datetime | None]) -> list[str]:
    """vcrpy keeps no recording time, so each interaction gets its response's ``Date``; else
    that of the nearest interaction before it that has one, else after it; else
    :data:`UNKNOWN_TIME`. Never the file's time: two checkouts must convert alike."""
    filled: list[datetime | None] = []
    previous: datetime | None = None
    for date in dates:
        previous = date or previous
        filled.append(previous)
    following: datetime | None = None
    for index in reversed(range(len(dates))):
        following = dates[index] or following
        filled[index] = filled[index] or following
    return [usage.timestamp(date or UNKNOWN_TIME) for date in filled]


def _converted(
    pairs: Sequence[tuple[Request, Response]],
    scratch: Path,
    *,
    normalize: bool = True,
    match_on: Sequence[str] | None = None,
) -> bytes:
    """The replay cassette of ``pairs``, as bytes, made in ``scratch`` (left empty)."""
    path = scratch / "cassette.json"
    _recorded_into(path, pairs, normalize=normalize, match_on=match_on)
    try:
        return path.read_bytes()
    except FileNotFoundError:  # no pairs: the cassette had nothing to save
        return store.dump({})
    finally:
        path.unlink(missing_ok=True)
        store.lock_path(path).unlink(missing_ok=True)


def _recorded_into(
    path: Path,
    pairs: Sequence[tuple[Request, Response]],
    *,
    normalize: bool = True,
    match_on: Sequence[str] | None = None,
) -> Cassette:
    """Feed ``pairs`` through a cassette at ``path`` as new recordings, then save it.

    What the file holds already is replayed, not added twice: vcrpy hands
    its persister every interaction of a cassette, old and new.
    """
    cassette = Cassette(path, match_on=match_on, normalize=normalize)
    cassette.mode = Mode.NEW_EPISODES  # whatever REPLAY_MODE says: vcrpy's mode has decided
    for request, response in pairs:
        decision = cassette.decide(request)
        if isinstance(decision, Record):
            cassette.add(decision, response)
    cassette.save()
    return cassette


# Our interactions -> vcrpy's cassette document, and the vcrpy hooks.


def _vcr_document(interactions: Sequence[Any]) -> dict[str, Any]:
    entries = []
    for interaction in interactions:
        request = interaction.request
        for outcome in interaction.outcomes:
            if not isinstance(outcome, Response):
                continue  # vcrpy has no way to replay a transport failure
            entries.append(
                {
                    "request": {
                        "method": request.method,
                        "uri": request.url,
                        "body": request.body or None,
                        "headers": _vcr_headers(request.headers),
                    },
                    "response": {
                        "status": {"code": outcome.status, "message": _phrase(outcome.status)},
                        "headers": _vcr_headers(outcome.headers),
                        "body": {"string": outcome.body},
                    },
                }
            )
    return {"version": 1, "interactions": entries}


def _vcr_headers(headers: tuple[tuple[str, str], ...]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for name, value in headers:
        grouped.setdefault(name, []).append(value)
    return grouped


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


class ReplaySerializer:
    """vcrpy's serializer interface over this project's format (text in, text out).

    vcrpy hands a serializer the text, not the file: :class:`ReplayPersister`
    reads through one made for the file, so that errors name it.
    """

    def __init__(self, path: Path = Path("<vcrpy cassette>")) -> None:
        self.path = path

    def deserialize(self, text: str) -> dict[str, Any]:
        entries = store.parse(self.path, text.encode("utf-8"))
        interactions = [store.decode(self.path, key, entry) for key, entry in entries.items()]
        return _vcr_document(interactions)

    def serialize(self, document: dict[str, Any]) -> str:
        """Used when vcrpy writes the file itself (no :class:`ReplayPersister`)."""
        pairs = _new_recordings(self.path, document)
        with tempfile.TemporaryDirectory(prefix="replay-vcr-") as scratch:
            return _converted(pairs, Path(scratch)).decode()


SERIALIZER = ReplaySerializer()


def _new_recordings(path: Path, document: dict[str, Any]) -> list[tuple[Request, Response]]:
    """What vcrpy hands a serializer, as recordings made now (what the file holds already
    is replayed by :func:`_recorded_into`, keeping its own dates)."""
    _refuse_metadata(path, document)
    now = usage.timestamp(datetime.now(UTC))
    return [
        (request, replace(response, recorded_at=now))
        for request, response in _pairs(path, _Document(document["interactions"]))
    ]


class _Unchanged:
    """A vcrpy serializer that hands vcrpy's cassette document back as it is."""

    @staticmethod
    def serialize(document: dict[str, Any]) -> dict[str, Any]:
        return document


class ReplayPersister:
    """vcrpy's persister: this format saved merged and atomically; any other as vcrpy does."""

    @staticmethod
    def load_cassette(path: str | os.PathLike[str], serializer: Any) -> Any:
        from vcr.persisters.filesystem import FilesystemPersister  # type: ignore[import-untyped]

        if serializer is SERIALIZER:
            serializer = ReplaySerializer(Path(os.fspath(path)))
        return FilesystemPersister.load_cassette(path, serializer)

    @staticmethod
    def save_cassette(
        path: str | os.PathLike[str], cassette_dict: dict[str, Any], serializer: Any
    ) -> None:
        from vcr.persisters.filesystem import FilesystemPersister
        from vcr.serialize import serialize  # type: ignore[import-untyped]

        if serializer is not SERIALIZER:
            FilesystemPersister.save_cassette(path, cassette_dict, serializer=serializer)
            return
        document = serialize(cassette_dict, _Unchanged)
        target = Path(os.fspath(path))
        _recorded_into(target, _new_recordings(target, document))


def register(vcr: Any = None) -> Any:
    """Teach a vcrpy ``VCR`` (default: the one behind ``vcr.use_cassette``) this format."""
    if vcr is None:
        import vcr as vcrpy  # type: ignore[import-untyped]

        vcr = vcrpy.default_vcr
    vcr.register_serializer(SERIALIZER_NAME, SERIALIZER)
    vcr.register_persister(ReplayPersister)
    return vcr


# vcrpy's recording hooks, over vcrpy's shapes of a request and a response.


class VcrHeaders(MutableMapping[str, str]):
    """vcrpy's ``HeadersDict``: one value a name, names matched whatever their case, each kept
    as first set; a list set keeps its first value, as vcrpy's does."""

    def __init__(self, headers: Iterable[tuple[str, str]] | Mapping[str, Any] = ()) -> None:
        self._store: dict[str, tuple[str, str]] = {}
        pairs = headers.items() if isinstance(headers, Mapping) else headers
        for name, value in pairs:
            self[name] = value

    def __setitem__(self, name: str, value: Any) -> None:
        if isinstance(value, list | tuple):
            value = value[0]
        kept = self._store.get(name.lower())
        self._store[name.lower()] = (kept[0] if kept else name, value)

    def __getitem__(self, name: str) -> str:
        return self._store[name.lower()][1]

    def __delitem__(self, name: str) -> None:
        del self._store[name.lower()]

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self._store.values())

    def __len__(self) -> int:
        return len(self._store)

    def __repr__(self) -> str:
        return repr(dict(self.items()))


class VcrRequest:
    """A request as vcrpy's ``vcr.request.Request`` shows it to ``before_record_request``:
    ``method``, ``uri`` (``url``), ``body`` (bytes; text set is stored UTF-8), ``headers`` and
    what vcrpy reads off the URI (``scheme``, ``host``, ``port``, ``path``, ``query``)."""

    def __init__(self, method: str, uri: str, body: bytes | str | None, headers: Any) -> None:
        self.method = method
        self.uri = uri
        self.body = body
        self.headers = headers

    @property
    def headers(self) -> VcrHeaders:
        return self._headers

    @headers.setter
    def headers(self, value: Any) -> None:
        self._headers = value if isinstance(value, VcrHeaders) else VcrHeaders(value)

    @property
    def body(self) -> bytes:
        return self._body

    @body.setter
    def body(self, value: bytes | str | None) -> None:
        self._body = value.encode("utf-8") if isinstance(value, str) else bytes(value or b"")

    @property
    def url(self) -> str:
        return self.uri

    @property
    def scheme(self) -> str:
        return urlsplit(self.uri).scheme

    @property
    def host(self) -> str:
        return urlsplit(self.uri).hostname or ""

    @property
    def port(self) -> int:
        parts = urlsplit(self.uri)
        return parts.port or {"https": 443, "http": 80}.get(parts.scheme, 0)

    @property
    def path(self) -> str:
        return urlsplit(self.uri).path

    @property
    def query(self) -> list[tuple[str, str]]:
        return sorted(parse_qsl(urlsplit(self.uri).query, keep_blank_values=True))

    def add_header(self, name: str, value: str) -> None:
        self.headers[name] = value

    def __repr__(self) -> str:
        return f"<Request ({self.method}) {self.uri}>"


def request_hook(hook: Callable[[Any], Any], source: str) -> Callable[[Request], Request | None]:
    """vcrpy's ``before_record_request`` as :class:`~replay._cassette.Cassette` takes it: over
    a :class:`VcrRequest` made afresh for each call (vcrpy hands it a copy), its result, a
    vcrpy-shaped request or None, made replay's again (``source`` names it in errors)."""

    def hooked(request: Request) -> Request | None:
        returned = hook(VcrRequest(request.method, request.url, request.body, request.headers))
        if returned is None:
            return None
        try:
            return _asked(returned, like=request)
        except (AttributeError, TypeError) as error:
            raise ConfigError(
                source, returned, f"returned neither a vcrpy Request nor None ({error})"
            ) from error

    return hooked


def response_hook(hook: Callable[[Any], Any], source: str) -> Callable[[Response], Response | None]:
    """vcrpy's ``before_record_response`` as :class:`~replay._cassette.Cassette` takes it: over
    vcrpy's response dict (``status``, ``headers``, ``body.string``), made afresh for each
    call; what it returns, such a dict or None, made replay's again."""

    def hooked(response: Response) -> Response | None:
        returned = hook(_vcr_response(response))
        if returned is None:
            return None
        try:
            return _answered(returned, like=response)
        except _Unconvertible as error:
            raise ConfigError(source, returned, f"returned a response that {error}") from error

    return hooked


def _answered(returned: Any, like: Response) -> Response:
    """vcrpy's response dict, as a hook returns it, as replay's: what it left as it was (the
    headers, the body) keeps its recorded form (every header value, a stream's chunks)."""
    entry = _fields(returned, "response", ("status", "headers", "body"), ("status",))
    status = _fields(entry["status"], "response.status", ("code", "message"), ("code",))
    code = _status_code(status["code"], "response.status.code")
    headers = like.headers
    if entry.get("headers") != _vcr_headers(like.headers):
        headers = _headers(entry.get("headers"), "response.headers")
    chunks = like.chunks
    body = _response_body(entry.get("body", _MISSING))
    if body != like.body:
        chunks = _chunks(body, header_value(headers, "content-type") or "")
    return replace(like, status=code, headers=headers, chunks=chunks)


# What a pytest-recording suite reads of its ``vcr`` fixture.


@dataclass(frozen=True)
class RecordedRequest:
    """A recorded request as vcrpy's ``Request`` shows it."""

    method: str
    uri: str
    body: bytes
    headers: dict[str, str]

    @property
    def url(self) -> str:
        return self.uri


class RecordedCassette:
    """A replay cassette seen as vcrpy's ``Cassette``, for the ``vcr`` fixture: requests and
    responses (vcrpy's dicts) in recorded order, and what was played, with vcrpy's meanings
    (its ``vcr/cassette.py``): ``play_counts`` counts the replays of each by its place."""

    def __init__(self, cassette: Cassette) -> None:
        self.cassette = cassette

    def _answered(self) -> list[tuple[Request, Response, int]]:
        return [
            (request, outcome, replays)
            for request, outcome, replays in self.cassette.in_recorded_order()
            if isinstance(outcome, Response)  # vcrpy has no way to replay a transport failure
        ]

    @property
    def requests(self) -> list[RecordedRequest]:
        return [
            RecordedRequest(r.method, r.url, r.body, dict(r.headers))
            for r, _, _ in self._answered()
        ]

    @property
    def responses(self) -> list[dict[str, Any]]:
        return [_vcr_response(response) for _, response, _ in self._answered()]

    @property
    def data(self) -> list[tuple[RecordedRequest, dict[str, Any]]]:
        """vcrpy's list of (request, response) pairs."""
        return list(zip(self.requests, self.responses, strict=True))

    @property
    def play_counts(self) -> Counter[int]:
        """How often each recorded response was replayed, by its place in recorded order;
        those never replayed are absent, as in vcrpy."""
        return Counter(
            {place: replays for place, (_, _, replays) in enumerate(self._answered()) if replays}
        )

    @property
    def play_count(self) -> int:
        return sum(self.play_counts.values())

    @property
    def all_played(self) -> bool:
        """Whether every recorded response was replayed at least once."""
        return len(self.play_counts) == len(self)

    @property
    def rewound(self) -> bool:
        """vcrpy's name for: the cassette file was there to be read."""
        return self.cassette.file_existed

    @property
    def write_protected(self) -> bool:
        """Whether nothing may be recorded: mode none, or mode once with the file there."""
        mode = self.cassette.mode
        return mode is Mode.NONE or (mode is Mode.ONCE and self.rewound)

    @property
    def record_mode(self) -> str:
        """The cassette's mode in vcrpy's words (which equal its ``RecordMode`` values)."""
        return self.cassette.mode.value

    def responses_of(self, request: Any) -> list[dict[str, Any]]:
        """The responses recorded for ``request`` (vcrpy's ``Request``, or one of
        :attr:`requests`), matched as replay matches it; raises :class:`CassetteMiss` for
        none, where vcrpy raises ``UnhandledHTTPRequestError``."""
        return [
            _vcr_response(outcome)
            for outcome, _ in self.cassette.answers_for(_asked(request))
            if isinstance(outcome, Response)
        ]

    def __contains__(self, request: Any) -> bool:
        """Whether a response recorded for ``request`` is left to replay, as in vcrpy."""
        try:
            answers = self.cassette.answers_for(_asked(request))
        except CassetteMiss:
            return False
        repeats = self.cassette.allow_playback_repeats
        return any(repeats or not replays for _, replays in answers)

    def __len__(self) -> int:
        return len(self._answered())

    @property
    def allow_playback_repeats(self) -> bool:
        return self.cassette.allow_playback_repeats

    @property
    def dirty(self) -> bool:
        """Whether something recorded is not yet in the cassette file."""
        return self.cassette.dirty

    def __getattr__(self, name: str) -> Any:
        """vcrpy's other attributes are not replay's: the error names what to use instead."""
        instead = _INSTEAD_OF_VCRPY.get(name, "the replay_cassette fixture: the replay.Cassette")
        raise AttributeError(
            f"the vcr fixture of replay has no {name!r} (it has vcrpy's requests, responses, "
            "data, play_counts, play_count, all_played, rewound, write_protected, "
            f"record_mode, responses_of(request), `in` and len()); instead: {instead}"
        )


_INSTEAD_OF_VCRPY = {
    "rewind": "replay plays each test's cassette from its first response; "
    "allow_playback_repeats=True in vcr_config replays the last response again",
    "play_response": "send the request through the client: replay_cassette.replayed counts it",
    "can_play_response_for": "`request in vcr`",
    "find_requests_with_most_matches": "a miss (replay.CassetteMiss) names the closest "
    "recorded request and how it differs",
    "append": "replay records what the test's client sends, in a recording mode",
    "match_on": "replay_cassette.match_rules",
}
"""What replay offers for the vcrpy ``Cassette`` attributes it has not."""


def _vcr_response(response: Response) -> dict[str, Any]:
    """A response as vcrpy's cassette holds it."""
    return {
        "status": {"code": response.status, "message": _phrase(response.status)},
        "headers": _vcr_headers(response.headers),
        "body": {"string": response.body},
    }


def _asked(request: Any, like: Request | None = None) -> Request:
    """A vcrpy ``Request`` (or a :class:`RecordedRequest`) as replay's; the headers of ``like``
    where they are the same ones (vcrpy's keep one value a name: ``like``'s keep them all)."""
    body = request.body or b""
    headers = tuple((str(name).lower(), str(value)) for name, value in request.headers.items())
    if like is not None and VcrHeaders(headers) == VcrHeaders(like.headers):
        headers = like.headers
    return Request(
        request.method, request.uri, headers, body.encode() if isinstance(body, str) else body
    )
