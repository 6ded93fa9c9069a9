"""The request key: a hash of the request in canonical form.

Two requests get the same key when they ask the same thing: same method,
scheme, host, port and path, the same query parameters in any order, and the
same body once put in canonical form (JSON re-serialized with sorted keys,
multipart parsed so its random boundary does not count). Headers only count
when named in :attr:`KeyRules.match_headers`, so the SDKs' retry counters,
timeouts, idempotency keys and user agents never change a key.

The key is a SHA-256 of orjson output: stable across processes, machines and
Python versions. ``tests/test_key_stability.py`` pins the keys of a fixed corpus, since
changing this function orphans every cassette users have recorded.

:func:`exact_digest` is the cheap companion replay looks up first: a hash of a
request's bytes as they are, with no parsing (see :meth:`replay.Cassette.key_for`).

:attr:`KeyRules.match_on` narrows the canonical form to some of its fields (vcrpy's
``match_on``): a cassette matches by such a key and keeps its own keys by the whole form.
"""

from __future__ import annotations

import base64
import codecs
import functools
import hashlib
import heapq
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import orjson

from replay._core import jsonpath
from replay._core.errors import ConfigError, Difference
from replay._core.model import Request, is_websocket
from replay._core.redact import hidden_credentials

KEY_LENGTH = 32
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "grpc": 443, "stdio": 0}
"""``stdio://NAME``: an MCP server's session over its pipes (``replay mcp``), which no port has."""
ROUTE_HEADER = "x-replay-route"
"""``PREFIX=UPSTREAM``: the ``replay serve`` route a request came by, stored with it. Such a
request is keyed by the path the client asked the proxy for (``PREFIX`` and what follows the
upstream's URL), not by the upstream's scheme, host and port, so its recording replays
whatever the upstream is."""
MAX_JSON_DEPTH = 200
"""A body nested deeper is not taken for JSON (it is keyed and stored as text): orjson writes
no more than 254 levels, a cassette stores a body 7 levels down, and the command line's
documents put it deeper still."""
_ORJSON_MAX_DEPTH = 254
MATCHABLE = ("method", "scheme", "host", "port", "path", "query", "body")
"""The fields of the canonical form that ``match_on`` may name."""
VCRPY_MATCHERS = {"uri": ("scheme", "host", "port", "path", "query"), "raw_body": ("body",)}
"""vcrpy's matchers that stand for several fields here, or for one by another name."""


def match_fields(match_on: Iterable[str]) -> tuple[str, ...]:
    """vcrpy's matcher names as fields of the canonical form; a ConfigError for any other."""
    names = list(match_on)
    fields: list[str] = []
    for name in names:
        if name == "headers":
            raise ConfigError(
                "match_on", names, "'headers': name the headers that count in match_headers=[...]"
            )
        for matched in VCRPY_MATCHERS.get(name, (name,)):
            if matched not in MATCHABLE:
                known = ", ".join([*MATCHABLE, *VCRPY_MATCHERS])
                raise ConfigError("match_on", names, f"{name!r} is not a matcher (one of {known})")
            if matched not in fields:
                fields.append(matched)
    return tuple(fields)


@dataclass(frozen=True)
class KeyRules:
    ignore: tuple[str, ...] = ()
    """JSON paths of the body and names of query parameters that do not count."""
    match_headers: tuple[str, ...] = ()
    """Headers that do count, lower-cased."""
    match_on: tuple[str, ...] | None = None
    """The fields of the canonical form that count (vcrpy's names taken); None: all of them."""

    ignored_paths: tuple[tuple[str | int, ...], ...] = field(init=False)
    """``ignore`` parsed once: the key of every request uses it."""

    def describe(self) -> str:
        described = f"ignore={list(self.ignore)!r}, match_headers={list(self.match_headers)!r}"
        if self.match_on is not None:
            described += f", match_on={list(self.match_on)!r}"
        return described

    def __post_init__(self) -> None:
        object.__setattr__(self, "match_headers", tuple(h.lower() for h in self.match_headers))
        if self.match_on is not None:
            object.__setattr__(self, "match_on", match_fields(self.match_on))
        try:
            object.__setattr__(self, "ignored_paths", tuple(map(jsonpath.parse, self.ignore)))
        except ValueError as error:
            raise ConfigError("ignore", list(self.ignore), str(error)) from None


def canonical(request: Request, rules: KeyRules) -> dict[str, Any]:
    scheme, path, query, host, port = _url_form(request.url, rules.ignore)
    form: dict[str, Any] = {
        "method": request.method.upper(),
        "path": path,
        "query": list(query),
        "body": canonical_body(request.body, request.header("content-type"), rules),
    }
    route = request.header(ROUTE_HEADER)
    if route is not None:
        form["path"] = routed_path(route, request.url)
        if is_websocket(request.url):  # without a scheme, a GET at the same path is alike
            form["websocket"] = True
    else:
        form["scheme"] = scheme
        form["host"] = host
        form["port"] = port
    if rules.match_on is not None:  # a routed request has no scheme, host or port to match
        kept = [*rules.match_on, "websocket"]
        form = {name: form[name] for name in kept if name in form}
    if rules.match_headers:
        form["headers"] = {name: request.header(name) for name in rules.match_headers}
    return form


@functools.lru_cache(maxsize=1024)
def _url_form(
    url: str, ignore: tuple[str, ...]
) -> tuple[str, str, tuple[tuple[str, str], ...], str, int | None]:
    """What the canonical form takes of a URL: scheme, path, the query's pairs sorted (those
    named in ``ignore`` left out), host and port. Cached: a session's requests go to few URLs,
    and parsing one (its query, host and port) cost a sixth of a recorded request's key."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    ignored = set(ignore)
    query = sorted(
        (name, value)
        for name, value in parse_qsl(parts.query, keep_blank_values=True)
        if name not in ignored
    )
    host = (parts.hostname or "").lower()
    return scheme, parts.path or "/", tuple(query), host, parts.port or _DEFAULT_PORTS.get(scheme)


def routed_path(route: str, url: str) -> str:
    """The path a client asked ``replay serve`` for: the route's prefix, then what follows its
    upstream's URL in ``url`` (the upstream's own path, if any, left out)."""
    prefix, _, upstream = route.partition("=")
    path = urlsplit(url).path or "/"
    base = urlsplit(upstream).path
    if base and (path == base or path.startswith(base + "/")):
        path = path[len(base) :] or "/"
    return prefix.rstrip("/") + path if path != "/" else prefix or "/"


def shown_target(request: Request) -> str:
    """The URL of ``request`` as a miss names it. For one that came through ``replay serve``:
    the path (and query) the client asked for and its route, which the key compares, rather
    than the upstream's address, which it does not (that of a replay-only route is made up)."""
    route = request.header(ROUTE_HEADER)
    if route is None:
        return request.url
    prefix, _, upstream = route.partition("=")
    query = urlsplit(request.url).query
    target = routed_path(route, request.url) + (f"?{query}" if query else "")
    through = (
        f"{prefix} -> {hidden_credentials(upstream)}" if upstream else f"{prefix}, replay only"
    )
    return f"{target} (route {through})"


def request_key(request: Request, rules: KeyRules) -> str:
    return keyed_json(request, rules)[0]


def keyed_json(request: Request, rules: KeyRules) -> tuple[str, Any]:
    """:func:`request_key`, and the JSON value of the body as parsed for it (whole: none when
    ``rules`` ignore a part of it, or for a body not JSON): a recording stores that body,
    parsed, and need not parse it again (:func:`replay._store.cassette_file.encode_body`)."""
    content_type = request.header("content-type")
    if len(request.body) > LARGE_BODY and not (content_type or "").startswith("multipart/"):
        return _keyed_in_pieces(request, rules), NOT_JSON
    form = canonical(request, rules)
    encoded = orjson.dumps(form, option=orjson.OPT_SORT_KEYS)
    body = form.get("body")
    parsed = body.get("json", NOT_JSON) if isinstance(body, dict) and not rules.ignore else NOT_JSON
    return hashlib.sha256(encoded).hexdigest()[:KEY_LENGTH], parsed


def _keyed_in_pieces(request: Request, rules: KeyRules) -> str:
    """:func:`request_key` of a large body's request, the same key, its canonical form hashed
    piece by piece (:func:`sorted_json_pieces`): neither a string of the body whole (its text
    or base64) nor the form's JSON whole is made. A JSON body is parsed, as for any key."""
    form = canonical(Request(request.method, request.url, request.headers, b""), rules)
    value = parse_json(request.body)
    if value is NOT_JSON:
        binary = not is_utf8(request.body)
        form["body"] = {"base64" if binary else "text": LargeString(request.body, binary)}
    else:
        form["body"] = {
            "json": jsonpath.without(value, rules.ignored_paths) if rules.ignore else value
        }
    digest = hashlib.sha256()
    for piece in sorted_json_pieces(form):
        digest.update(piece)
    return digest.hexdigest()[:KEY_LENGTH]


def exact_digest(request: Request, rules: KeyRules) -> str:
    """A SHA-256 of what the key reads, as bytes, unparsed: method, URL, content type, the
    matched headers, the body, and the rules themselves (other rules, other digest).

    Equal digests mean equal bytes, hence equal keys; unequal digests say nothing.
    """
    head: tuple[object, ...] = (
        rules.ignore,
        rules.match_headers,
        request.method,
        request.url,
        request.header("content-type"),
    )
    if rules.match_on is not None:
        head += (rules.match_on,)
    if rules.match_headers:
        head += tuple([request.header(name) for name in rules.match_headers])
    # The hash of the head, kept: a session's requests share a few (one per URL and content
    # type), and a copy of its state costs less than hashing its JSON again (replay's every
    # request, and recording's, ask this). Copies only: threads share the states unchanged.
    hashed = _HEADS_HASHED.get(head)
    if hashed is None:
        hashed = hashlib.sha256(orjson.dumps(head))
        if len(_HEADS_HASHED) >= _HEADS_KEPT:
            _HEADS_HASHED.clear()
        _HEADS_HASHED[head] = hashed
    digest = hashed.copy()
    digest.update(request.body)
    return digest.hexdigest()[:KEY_LENGTH]


_HEADS_HASHED: dict[tuple[object, ...], Any] = {}
"""What :func:`exact_digest` hashes before a body -> the SHA-256 state after it."""
_HEADS_KEPT = 256
"""Heads kept at most: all are forgotten when there are more."""


def canonical_body(body: bytes, content_type: str | None, rules: KeyRules) -> Any:
    if not body:
        return None
    if content_type and content_type.startswith("multipart/"):
        parts = _multipart(body, content_type)
        if parts is not None:
            return {"multipart": parts}
    value = parse_json(body)
    if value is not NOT_JSON:
        return {"json": jsonpath.without(value, rules.ignored_paths) if rules.ignore else value}
    return text_or_base64(body)


NOT_JSON = object()


def parse_json(body: bytes) -> Any:
    """The JSON value of a body, or ``NOT_JSON``; only bodies that look like documents."""
    if body[:1] not in (b"{", b"[") and body.lstrip()[:1] not in (b"{", b"["):
        return NOT_JSON
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError:
        return NOT_JSON
    return NOT_JSON if _deeper_than_allowed(value, body) else value


def _deeper_than_allowed(value: Any, body: bytes) -> bool:
    """Whether ``value`` nests more than :data:`MAX_JSON_DEPTH` levels.

    Counting brackets settles almost every body at C speed (each level opens one); a body
    with more is measured by orjson itself, writing it below as many levels as are spared.
    """
    if not _opens_beyond(body, MAX_JSON_DEPTH):
        return False
    wrapped = value
    for _ in range(_ORJSON_MAX_DEPTH - MAX_JSON_DEPTH):
        wrapped = [wrapped]
    try:
        orjson.dumps(wrapped)
    except orjson.JSONEncodeError:
        return True
    return False


def _opens_beyond(body: bytes, limit: int) -> bool:
    """Whether ``body`` holds more than ``limit`` of ``[`` and ``{``: found one by one, each by
    a ``memchr``, and no further than ``limit``. A JSON body has few, so this costs a tenth
    of two ``bytes.count``, which read every byte (25,000 instructions for 2 KB)."""
    found = 0
    for bracket in (b"[", b"{"):
        at = body.find(bracket)
        while at >= 0:
            found += 1
            if found > limit:
                return True
            at = body.find(bracket, at + 1)
    return False


@functools.lru_cache(maxsize=4096)
def url_problem(url: str) -> str | None:
    """Why a key cannot be made of ``url`` (not an absolute http(s), ws(s), grpc or stdio URL
    with a valid host and port), or None. Cached: replay checks each stored URL it decodes, and a
    suite's cassettes hold few distinct ones."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- parsed on access: raises for a port out of range
    except ValueError as error:
        return str(error)
    if parts.scheme.lower() not in _DEFAULT_PORTS:
        return "not an http(s), ws(s), grpc or stdio URL"
    if not parts.hostname:
        return "has no host"
    return None


def is_json(value: Any) -> bool:
    return value is not NOT_JSON


PIECE = 1 << 20
"""How much of a large body is turned into JSON at a time."""
_FEW = 64
"""A JSON container of at most this many items is written item by item by
:func:`sorted_json_pieces` (a larger one whole, by orjson)."""


class LargeString:
    """A large body as a JSON string (its text, or its base64 when it is not UTF-8), made
    in pieces where it is written or hashed (:meth:`pieces`), never one string of it whole."""

    __slots__ = ("binary", "data")

    def __init__(self, data: bytes, binary: bool) -> None:
        self.data = data
        self.binary = binary
        """Written in base64 (it is not UTF-8), else as text."""

    def pieces(self) -> Iterator[bytes]:
        """Its JSON string, quotes included: each piece's escaped by orjson, which escapes
        character by character, so the same bytes as the whole's."""
        view = memoryview(self.data)
        yield b'"'
        if self.binary:
            for start in range(0, len(view), 3 * PIECE):  # 3 bytes to 4 characters
                yield base64.b64encode(view[start : start + 3 * PIECE])
        else:
            decoder = codecs.getincrementaldecoder("utf-8")()
            for start in range(0, len(view), PIECE):
                yield orjson.dumps(decoder.decode(view[start : start + PIECE]))[1:-1]
            decoder.decode(b"", final=True)
        yield b'"'


def is_utf8(data: bytes) -> bool:
    """Whether ``data`` is UTF-8, read a piece at a time: no string of it whole."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    try:
        for start in range(0, len(view), PIECE):
            decoder.decode(view[start : start + PIECE])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def sorted_json_pieces(value: Any) -> Iterator[bytes]:
    """The bytes of ``orjson.dumps(value, option=orjson.OPT_SORT_KEYS)``, in pieces: a long
    string (a :class:`LargeString`, or a ``str`` longer than :data:`PIECE`) a piece at a time,
    in containers of up to :data:`_FEW` items; anything else dumped whole by orjson."""
    if type(value) is LargeString:
        yield from value.pieces()
    elif type(value) is str and len(value) > PIECE:
        for start in range(0, len(value), PIECE):
            piece = orjson.dumps(value[start : start + PIECE])
            yield piece[: len(piece) - 1] if start == 0 else piece[1 : len(piece) - 1]
        yield b'"'
    elif type(value) is dict and len(value) <= _FEW:
        yield b"{"
        for index, key in enumerate(sorted(value)):
            yield (b"," if index else b"") + orjson.dumps(key) + b":"
            yield from sorted_json_pieces(value[key])
        yield b"}"
    elif type(value) is list and len(value) <= _FEW:
        yield b"["
        for index, item in enumerate(value):
            if index:
                yield b","
            yield from sorted_json_pieces(item)
        yield b"]"
    else:
        yield orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


LARGE_BODY = 8 << 20
"""A body larger than this (8 MiB: an upload, not a prompt) is stored as text or base64 alone,
never parsed to be stored as JSON too: its key still reads its JSON, but a cassette holding it
does not hold its parsed value, and it is written in pieces (no copy of it whole)."""


def text_or_base64(data: bytes) -> dict[str, str]:
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def multipart_boundary(content_type: str) -> str | None:
    for parameter in content_type.split(";")[1:]:
        name, _, value = parameter.strip().partition("=")
        if name.lower() == "boundary" and value:
            return value.strip('"')
    return None


def _multipart(body: bytes, content_type: str) -> list[dict[str, Any]] | None:
    boundary = multipart_boundary(content_type)
    if boundary is None:
        return None
    parts: list[dict[str, Any]] = []
    for raw in body.split(b"--" + boundary.encode())[1:]:
        if raw.startswith(b"--"):
            break
        raw = raw.removeprefix(b"\r\n").removesuffix(b"\r\n")
        head, _, content = raw.partition(b"\r\n\r\n")
        headers = sorted(line.decode("latin-1").lower() for line in head.split(b"\r\n") if line)
        parts.append({"headers": headers, "content": text_or_base64(content)})
    return parts


CLOSEST_COMPARED = 32
"""How many recorded requests a miss compares field by field with the one asked, at most: the
nearest by :func:`_unshared`, among those of its method and path first."""


def closest(
    asked: Request,
    recorded: Sequence[Request],
    rules: KeyRules,
    whole: Callable[[int], Request] | None = None,
    body: Callable[[int], bytes] | None = None,
) -> Request | None:
    """The recorded request most like ``asked``: the fewest differences in method, host and
    path, then the fewest differences of all (:func:`differences`), the first in ``recorded``
    on a tie.

    Bounded, so a miss on a cassette of thousands answers at once: the requests of the same
    method and path are searched (else those of the same path, else all), the
    :data:`CLOSEST_COMPARED` that share the most bytes of URL and body with ``asked`` compared
    field by field. ``whole(i)``, if given, is ``recorded[i]`` with what ranking them needs
    not (its headers): only those compared are made whole. ``body(i)``, if given, is the body
    of ``recorded[i]``, which ``recorded`` then leaves out: each is made as it is ranked and let
    go, so that a miss holds no copy of every recorded body at once."""
    route = (asked.method, urlsplit(asked.url).path)
    routes = [(request.method, urlsplit(request.url).path) for request in recorded]
    tier = [index for index, its in enumerate(routes) if its == route]
    if not tier:
        tier = [index for index, its in enumerate(routes) if its[1] == route[1]]
    url = asked.url.encode()
    body_of = body or (lambda index: recorded[index].body)
    ranked = heapq.nsmallest(
        CLOSEST_COMPARED,
        tier or range(len(recorded)),
        key=lambda index: (
            _unshared(recorded[index].url.encode(), url) + _unshared(body_of(index), asked.body)
        ),
    )
    nearest = [recorded[index] if whole is None else whole(index) for index in sorted(ranked)]

    def distance(request: Request) -> tuple[int, int]:
        found = differences(request, asked, rules)
        return sum(d.field in ("method", "host", "path") for d in found), len(found)

    return min(nearest, key=distance, default=None)


def _unshared(left: bytes, right: bytes) -> int:
    """How many bytes of the two are outside their longest common start and end: a measure
    made in C (slices compared), nothing parsed."""
    shortest = min(len(left), len(right))
    start = _common_length(shortest, lambda n: left[:n] == right[:n])
    rest = shortest - start
    end = _common_length(rest, lambda n: left[len(left) - n :] == right[len(right) - n :])
    return len(left) + len(right) - 2 * (start + end)


def _common_length(most: int, shared: Callable[[int], bool]) -> int:
    """The largest ``n`` up to ``most`` for which ``shared(n)`` holds (it holds for every
    smaller one), found by halving."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if shared(middle):
            low = middle
        else:
            high = middle - 1
    return low


def differences(recorded: Request, requested: Request, rules: KeyRules) -> list[Difference]:
    """The fields, down to JSON paths, in which ``requested`` differs from ``recorded``."""
    left, right = canonical(recorded, rules), canonical(requested, rules)
    found: list[Difference] = []
    for name in ("method", "scheme", "host", "port", "path"):
        if left.get(name) != right.get(name):
            found.append(Difference(name, left.get(name), right.get(name)))
    left_body, right_body = left.get("body"), right.get("body")
    if (
        isinstance(left_body, dict)
        and isinstance(right_body, dict)
        and "json" in left_body.keys() & right_body.keys()
    ):
        left_body, right_body = left_body["json"], right_body["json"]
    comparisons = (
        ("query", dict(left.get("query", ())), dict(right.get("query", ()))),
        ("body", left_body, right_body),
        ("headers", left.get("headers"), right.get("headers")),
    )
    for prefix, old_value, new_value in comparisons:
        found.extend(
            Difference(path, old, new)
            for path, old, new in jsonpath.differences(old_value, new_value, prefix)
        )
    return found
