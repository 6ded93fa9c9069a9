"""Moving from vcrpy: convert its cassettes, and let vcrpy itself read and write ours.

``import_cassette(path)`` (the ``replay import-vcr`` command) turns a vcrpy or
pytest-recording cassette (YAML, or the output of vcrpy's JSON serializer)
into this project's format beside it: ``test_x.yaml`` -> ``test_x.json``. The
interactions go through :meth:`Cassette.decide <replay._cassette.Cassette.decide>`
and :meth:`~replay._cassette.Cassette.add` as if they had been recorded here,
so they are redacted and normalized alike; bodies are decoded
(``content-encoding``, YAML ``!!binary``, ``base64_string``) and stored as JSON
where they are JSON, and event streams are split into their events.

For clients not built on httpx (requests, aiohttp), :func:`register` adds a
``"replay"`` serializer and a persister to a vcrpy ``VCR``, so that
``vcr.use_cassette(path, serializer="replay")`` reads and writes this format,
saved the way the transports save it: merged under the file lock, atomically.

vcrpy and PyYAML are the optional extra ``replay-llm[vcr]``, imported only when used.
"""

from __future__ import annotations

import base64
import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any

from replay._cassette import Cassette, Record
from replay._core.errors import CassetteError
from replay._core.model import (
    STREAM_CONTENT_TYPES,
    Chunk,
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


# vcrpy's cassette document -> our interactions.


@dataclass(frozen=True)
class Imported:
    source: Path
    target: Path
    interactions: int


VCRPY_SUFFIXES = (".yaml", ".yml")


def import_paths(
    paths: Iterable[Path], *, delete: bool = False
) -> list[tuple[Path, Imported | CassetteError]]:
    """Convert each file given, and each YAML file under each directory given, in order.

    A failure is returned with its file, not raised: the others still convert.
    """
    usage.mark_incomplete("replay import-vcr converts cassettes, it runs no tests")
    sources: list[Path] = []
    for path in paths:
        if path.is_dir():
            sources.extend(sorted(p for p in path.rglob("*") if p.suffix in VCRPY_SUFFIXES))
        else:
            sources.append(path)
    results: list[tuple[Path, Imported | CassetteError]] = []
    for source in sources:
        try:
            results.append((source, import_cassette(source, delete=delete)))
        except CassetteError as error:
            results.append((source, error))
    return results


def import_cassette(source: Path, *, delete: bool = False) -> Imported:
    """Convert one vcrpy cassette file; raises CassetteError naming it when it cannot.

    Nothing is written unless every interaction converts. The source stays
    unless ``delete``. A vcrpy JSON cassette, whose name ours would take, is
    converted to ``<name>.replay.json``, which then replaces it if ``delete``.
    """
    target = source.with_suffix(".json")
    written = source.with_suffix(".replay.json") if target == source else target
    if written.exists():
        raise CassetteError(source, f"{written} exists already")
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CassetteError(source, f"cannot read: {error}") from error
    document = _load_document(source, text)
    fallback_time = datetime.fromtimestamp(source.stat().st_mtime, UTC)
    pairs = list(_pairs(source, document, fallback_time))
    _recorded_into(written, pairs)
    if not delete:
        return Imported(source, written, len(pairs))
    if written == target:
        source.unlink()
    else:
        os.replace(written, target)
    return Imported(source, target, len(pairs))


def missing_extra() -> str | None:
    """What to install when the ``vcr`` extra (PyYAML) is missing; None when it is there."""
    try:
        import yaml  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        return (
            "needs PyYAML: pip install PyYAML"
            " (the extra 'replay-llm[vcr]'; from a clone: pip install -e '.[vcr]')"
        )
    return None


def _load_document(source: Path, text: str) -> Any:
    import yaml  # the vcr extra, checked by missing_extra

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        document = yaml.load(text, Loader=loader)  # JSON is YAML too
    except yaml.YAMLError as error:
        raise CassetteError(source, f"is neither YAML nor JSON: {error}") from error
    if isinstance(document, dict) and isinstance(document.get("interactions"), dict):
        raise CassetteError(source, "is a replay cassette already")
    if not isinstance(document, dict) or not isinstance(document.get("interactions"), list):
        raise CassetteError(source, "is not a vcrpy cassette (no list of interactions)")
    return document


def _pairs(
    source: Path, document: Mapping[str, Any], fallback_time: datetime
) -> Iterator[tuple[Request, Response]]:
    for index, interaction in enumerate(document["interactions"]):
        try:
            yield (
                _request(interaction["request"]),
                _response(interaction["response"], fallback_time),
            )
        except (KeyError, TypeError, ValueError, AttributeError, OSError) as error:
            reason = f"missing field {error}" if isinstance(error, KeyError) else str(error)
            raise CassetteError(
                source, f"interaction {index} cannot be converted: {reason}"
            ) from error


def _request(entry: Mapping[str, Any]) -> Request:
    return Request(
        method=str(entry["method"]).upper(),
        url=str(entry["uri"]),
        headers=_headers(entry.get("headers") or {}),
        body=_bytes(entry.get("body")),
    )


def _response(entry: Mapping[str, Any], fallback_time: datetime) -> Response:
    if "status_code" in entry:  # the httpx layout of vcrpy before 5.0
        status, body = entry["status_code"], entry.get("content")
    else:
        status, body = entry["status"]["code"], entry.get("body")
    if isinstance(status, bool) or not isinstance(status, int):
        raise ValueError(f"status {status!r} is not an HTTP status code")
    headers = _headers(entry.get("headers") or {})
    data = _bytes(body)
    encoding = ", ".join(value for name, value in headers if name == "content-encoding")
    decoder = BodyDecoder(encoding)
    if decoder.active:
        data = decoder.decode(data)
    kept = stored_headers(headers, decoder.decodes)
    streamed = (header_value(kept, "content-type") or "").startswith(STREAM_CONTENT_TYPES)
    recorded_at = _recorded_at(header_value(headers, "date"), fallback_time)
    return Response(status, kept, _chunks(data, streamed), recorded_at)


def _headers(headers: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    pairs = []
    for name, values in headers.items():
        for value in values if isinstance(values, list | tuple) else [values]:
            pairs.append((str(name).lower(), str(value)))
    return tuple(pairs)


def _bytes(body: Any) -> bytes:
    """A body as vcrpy stores it: text, bytes (YAML ``!!binary``), or a dict of either."""
    if isinstance(body, Mapping):
        if "base64_string" in body:
            return base64.b64decode(body["base64_string"], validate=True)
        body = body.get("string")
    if body is None:
        return b""
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, bytes | bytearray):
        return bytes(body)
    raise TypeError(f"a body of type {type(body).__name__} is not text or bytes")


def _chunks(data: bytes, streamed: bool) -> tuple[Chunk, ...]:
    """vcrpy keeps a stream as one body; its events (or lines) become the chunks again."""
    if not data:
        return ()
    if not streamed:
        return (Chunk(data, 0.0),)
    separator = b"\n\n" if b"\n\n" in data else b"\n"
    pieces = data.split(separator)
    chunks = [piece + separator for piece in pieces[:-1]]
    if pieces[-1]:
        chunks.append(pieces[-1])
    return tuple(Chunk(piece, 0.0) for piece in chunks)


def _recorded_at(date: str | None, fallback: datetime) -> str:
    """vcrpy keeps no recording time: the response's Date header, else the file's mtime."""
    when = fallback
    if date:
        with contextlib.suppress(TypeError, ValueError):  # an unreadable date: the fallback
            when = parsedate_to_datetime(date)
    return usage.timestamp(when)


def _recorded_into(path: Path, pairs: Sequence[tuple[Request, Response]]) -> Cassette:
    """Feed ``pairs`` through a cassette at ``path`` as new recordings, then save it.

    What the file holds already is replayed, not added twice: vcrpy hands
    its persister every interaction of a cassette, old and new.
    """
    cassette = Cassette(path)
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
        pairs = list(_pairs(self.path, document, datetime.now(UTC)))
        with tempfile.TemporaryDirectory(prefix="replay-vcr-") as scratch:
            path = Path(scratch) / "cassette.json"
            _recorded_into(path, pairs)
            return path.read_text(encoding="utf-8") if path.exists() else store.dump({}).decode()


SERIALIZER = ReplaySerializer()


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
        _recorded_into(target, list(_pairs(target, document, datetime.now(UTC))))


def register(vcr: Any = None) -> Any:
    """Teach a vcrpy ``VCR`` (default: the one behind ``vcr.use_cassette``) this format."""
    if vcr is None:
        import vcr as vcrpy  # type: ignore[import-untyped]

        vcr = vcrpy.default_vcr
    vcr.register_serializer(SERIALIZER_NAME, SERIALIZER)
    vcr.register_persister(ReplayPersister)
    return vcr
