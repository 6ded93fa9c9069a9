"""Deterministic cassettes: unstable ids, timestamps and headers get stable stand-ins.

Re-recording a conversation whose answers did not change must leave the
cassette byte for byte identical, and two recordings of the same prompts must
differ only in what the model said. So before a response is stored:

- generated ids (``chatcmpl-…``, ``msg_…``, UUIDs, ``request_id``,
  ``feedback_token``) become placeholders of the same shape (same prefix, same
  length, same character classes) derived from the request key, the response's
  position and the id's order of appearance: distinct interactions keep
  distinct ids, and one stream's chunks all share one;
- timestamps and durations (``created``, ``duration_seconds``) become fixed
  numbers of the same width;
- volatile headers (``date``, request ids, rate-limit counters) become fixed
  values of the same shape.

Ids chain: a later request may send back an id a response gave (the Responses
API's ``previous_response_id``, file ids). The caller sees the real ids while
recording, so :class:`Normalizer` remembers each real id's placeholder and
puts the placeholder in the stored request too; on replay the caller gets the
placeholder, sends it back, and the request matches.

Replacement is textual (see :mod:`replay._core.rewrite`), so it works the same on a
JSON body, on server-sent events and on line-delimited JSON, and keeps chunk
boundaries.
"""

from __future__ import annotations

import hashlib
import re
import threading

from replay._core.key import multipart_boundary
from replay._core.model import Headers, Request, Response
from replay._core.providers import Provider
from replay._core.rewrite import GrowingTable, Rewriter

FIXED_DATE = "Mon, 01 Jan 2024 00:00:00 GMT"
MULTIPART_BOUNDARY = "replay-boundary"
VOLATILE_REQUEST_HEADERS = frozenset(
    {
        "content-length",
        "connection",
        "x-stainless-retry-count",
        "x-stainless-read-timeout",
        "x-stainless-timeout",
        "idempotency-key",
        "x-idempotency-key",
        "traceparent",
        "tracestate",
    }
)

_GENERATED_ID = re.compile(
    r"(?P<prefix>(?:[A-Za-z]+[-_])*)(?P<rest>[A-Za-z0-9_]{8,})"
    r"|(?P<uuid>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
)
_PREFIX = re.compile(r"(?:[A-Za-z]{1,16}[-_])*")
"""Short words before a separator: ``chatcmpl-``, ``fb_``; not a random run of letters."""
_ALPHABETS = (
    "0123456789abcdef",
    "0123456789ABCDEF",
    "0123456789abcdefghijklmnopqrstuvwxyz",
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
)
_QUANTITY = re.compile(r"(?:\d+(?:\.\d+)?(?:ms|s|m|h|d)?)+")
_DIGITS = re.compile(r"\d+(?:\.\d+)?")
_ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:?\d\d)?")
FIXED_ISO_TIME = "2024-01-01T00:00:00Z"
_NUMBER = rb"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"


def looks_generated(value: str) -> bool:
    """``chatcmpl-8oK8GnO4…`` and UUIDs do; ``gpt-4o-2024-08-06`` and ``claude-3-5`` do not."""
    match = _GENERATED_ID.fullmatch(value)
    if match is None:
        return False
    if match.group("uuid"):
        return True
    rest = match.group("rest")
    return any(c.isdigit() for c in rest) or (rest.lower() != rest and rest.upper() != rest)


def shaped_placeholder(original: str, seed: str) -> str:
    """A stand-in for ``original`` with its prefix, length, separators and kind of alphabet.

    The alphabet is chosen for the whole value (hex, one case, mixed case), never per
    character: real ids are random, and a placeholder that followed where their digits
    fell would change on every re-recording, and with it the keys of chained requests.
    """
    prefix = _PREFIX.match(original)
    keep = prefix.end() if prefix else 0
    rest = original[keep:]
    alnum = {c for c in rest if c.isascii() and c.isalnum()}
    alphabet = _alphabet_of(alnum)
    for attempt in range(64):
        stream = _digest_stream(f"{seed}/{attempt}" if attempt else seed, len(rest))
        out = "".join(
            alphabet[byte % len(alphabet)] if char in alnum else char
            for char, byte in zip(rest, stream, strict=False)
        )
        # A placeholder must be of its original's kind (a mixed-case one holding both cases),
        # or normalizing it again would give another: re-recording would change the file.
        if _alphabet_of({c for c in out if c.isascii() and c.isalnum()}) == alphabet:
            break
    return original[:keep] + out


def _alphabet_of(characters: set[str]) -> str:
    return next(a for a in _ALPHABETS if characters <= set(a))


def volatile_header_value(value: str, seed: str) -> str:
    """Counts, durations and reset times become fixed (their width varies); ids a placeholder."""
    if _QUANTITY.fullmatch(value):
        return _DIGITS.sub("0", value)
    if _ISO_TIME.fullmatch(value):
        return FIXED_ISO_TIME
    return shaped_placeholder(value, seed)


def fixed_number(original: bytes) -> bytes:
    """``1707004480`` -> ``1000000000``, ``2.34`` -> ``1.00``: same width, fixed value."""
    sign = b"-" if original.startswith(b"-") else b""
    digits = original[len(sign) :]
    out = bytearray()
    first = True
    for byte in digits:
        if 48 <= byte <= 57:
            out.append(49 if first else 48)
            first = False
        else:
            out.append(byte)
    return sign + bytes(out)


def _digest_stream(seed: str, length: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < length:
        out += hashlib.blake2b(f"{seed}/{counter}".encode(), digest_size=64).digest()
        counter += 1
    return out[:length]


class Normalizer:
    """The normalization of one recording session; it remembers real ids for chained requests."""

    def __init__(self) -> None:
        self._ids = GrowingTable()
        self._placeholders = self._ids.replacements
        self._rewriter: Rewriter | None = None
        self._lock = threading.Lock()

    def request(self, request: Request) -> Request:
        """The request as stored: real ids replaced, volatile headers and boundary made fixed."""
        headers = tuple(
            (name, value) for name, value in request.headers if name not in VOLATILE_REQUEST_HEADERS
        )
        body = request.body
        content_type = request.header("content-type") or ""
        boundary = (
            multipart_boundary(content_type) if content_type.startswith("multipart/") else None
        )
        if boundary:
            body = body.replace(boundary.encode(), MULTIPART_BOUNDARY.encode())
            headers = tuple(
                (
                    name,
                    value.replace(boundary, MULTIPART_BOUNDARY)
                    if name == "content-type"
                    else value,
                )
                for name, value in headers
            )
        return Request(request.method, self.ids_in_url(request.url), headers, self.ids_in(body))

    def ids_in(self, data: bytes) -> bytes:
        """``data`` with every real id seen so far replaced by its placeholder."""
        rewriter = self._rewriter
        return rewriter.apply(data) if rewriter is not None and data else data

    def ids_in_url(self, url: str) -> str:
        return self.ids_in(url.encode()).decode() if self._rewriter is not None else url

    def response(self, response: Response, provider: Provider, seed: str) -> Response:
        body = response.body
        with self._lock:
            fresh = 0
            for value in _discover_ids(body, provider):
                if value not in self._placeholders:
                    fake = shaped_placeholder(value.decode(), f"{seed}/{fresh}").encode()
                    self._ids.add(value, fake)
                    fresh += 1
            self._rewriter = self._ids.rewriter
        chunks = response.chunks
        if self._rewriter is not None:
            chunks = self._rewriter.apply_to(chunks)
        if provider.number_fields:
            chunks = _numbers_rewriter(provider.number_fields).apply_to(chunks)
        return Response(
            status=response.status,
            headers=self._headers(response.headers, provider, seed),
            chunks=chunks,
            recorded_at=response.recorded_at,
            complete=response.complete,
            failure=response.failure,
        )

    def _headers(self, headers: Headers, provider: Provider, seed: str) -> Headers:
        normalized = []
        for name, value in headers:
            if name == "date":
                value = FIXED_DATE
            elif provider.is_volatile_header(name):
                value = volatile_header_value(value, f"{seed}/header/{name}")
            else:
                value = self.ids_in(value.encode()).decode()
            normalized.append((name, value))
        return tuple(normalized)


def _discover_ids(body: bytes, provider: Provider) -> list[bytes]:
    """The generated ids of a response, in order of first appearance."""
    return list(dict.fromkeys(value for _, value in issued_ids(body, provider)))


def issued_ids(body: bytes, provider: Provider) -> list[tuple[str, bytes]]:
    """Each generated id of a response with the field that holds it, in order of appearance:
    a rerun pairs the ids of a recorded answer with those of its new answer by field."""
    found: list[tuple[str, bytes]] = []
    for match in _ids_pattern(provider.id_fields | provider.opaque_fields).finditer(body):
        name, value = match.group(1).decode(), match.group(2)
        if name in provider.opaque_fields or looks_generated(value.decode("utf-8", "replace")):
            found.append((name, value))
    return found


_patterns: dict[frozenset[str], re.Pattern[bytes]] = {}
_number_rewriters: dict[frozenset[str], Rewriter] = {}


def _ids_pattern(fields: frozenset[str]) -> re.Pattern[bytes]:
    pattern = _patterns.get(fields)
    if pattern is None:
        names = b"|".join(re.escape(name.encode()) for name in sorted(fields))
        pattern = re.compile(rb'"(' + names + rb')"\s*:\s*"([^"\\]{4,256})"')
        _patterns[fields] = pattern
    return pattern


def _numbers_rewriter(fields: frozenset[str]) -> Rewriter:
    rewriter = _number_rewriters.get(fields)
    if rewriter is None:
        names = b"|".join(re.escape(name.encode()) for name in sorted(fields))
        pattern = re.compile(rb'("(?:' + names + rb')"\s*:\s*)(' + _NUMBER + rb")")
        rewriter = Rewriter(pattern, lambda match: match.group(1) + fixed_number(match.group(2)))
        _number_rewriters[fields] = rewriter
    return rewriter
