"""The recording proxy: an ASGI app that serves cassettes to any HTTP client, in any language.

``replay serve`` (:mod:`replay.tools.serve`) runs it on uvicorn, and clients use it as their
API base URL. Each request is converted here, at the edge, into an ``httpx.Request`` for the
upstream its path routes to, and handed to the same :class:`AsyncReplayTransport` that
in-process clients use: the key, redaction, normalization, modes, misses, recording and
replay are all theirs, so there is one record/replay path, not two::

    client --HTTP--> ReplayProxy --httpx.Request--> AsyncReplayTransport(cassette) --> upstream
           <-chunks-             <--httpx.Response (teed while recording, or replayed)--

- Routes: a path prefix maps to one upstream, and only configured upstreams are reached; a
  request no route takes (an absolute-form or CONNECT target included) is answered here and
  never forwarded. It is not an open proxy. ``..`` segments may not leave a route's prefix,
  also once the path is normalized as an upstream might read it (:func:`normalized_path`).
- Refused before anything is forwarded or recorded (:meth:`ReplayProxy._admitted`): a Host
  header naming neither this server nor an allowed name (DNS rebinding), a bad cassette name,
  a body cut short, a body larger than ``max_body`` (413, :data:`DEFAULT_MAX_BODY`). Targets
  are shown (logs, errors) with userinfo and secret values redacted.
- A replayed response no HTTP server may send (:mod:`replay._core.wire`) is answered as a
  cassette error naming its interaction, rather than dropping the connection.
- Cassettes: ``X-Replay-Cassette: NAME`` picks ``ROOT/NAME.json`` (see :class:`Shelf`);
  without it, the shelf's default.
- The answer goes back chunk by chunk: as it arrives while recording, with the recorded
  boundaries (and pace, with a replay speed) on replay. A client that hangs up mid-stream
  closes the upstream response, recorded as abandoned, as the transport does.
- A recorded answer is folded into its cassette file before the end of its body goes to the
  client; streams other clients are still reading are recorded when they end.
- WebSockets: the handshake is decided by its cassette as a ``GET`` to the upstream's
  ``ws(s)://`` URL, routed and refused like any request. Recording relays each message both
  ways through a :class:`SessionRecorder`, as the in-process websockets clients do; replay
  drives a :class:`SessionReplay` from the ASGI calls, and a client message not recorded closes
  the connection with 1008 (:func:`miss_close_reason`).
- Misses and other failures are JSON errors (:func:`error_body`) with ``x-should-retry:
  false``, which the Stainless-built SDKs (openai, anthropic, groq) obey.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

import anyio
import httpx
import orjson

from replay._adapters.httpx_transport import AsyncReplayTransport, ReplayedStream, to_model
from replay._adapters.patch import network_method
from replay._adapters.websocket_session import SessionRecorder, SessionReplay
from replay._cassette import Cassette, Record, Replay
from replay._core.errors import (
    CassetteError,
    CassetteMiss,
    ConfigError,
    FrameMiss,
    RefusedRequest,
    ReplayError,
    UnsendableResponse,
)
from replay._core.key import ROUTE_HEADER, shown_target
from replay._core.location import Location
from replay._core.model import Request
from replay._core.own_traffic import through_cassette
from replay._core.redact import Redactor, hidden_credentials, hide_userinfo
from replay._core.streams import decoded_request
from replay._core.wire import BODILESS_STATUSES, body_problem, head_problem

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

CASSETTE_HEADER = "x-replay-cassette"
DEFAULT_CASSETTE = "default"
MISS_STATUS = 404
"""A miss is "no recording for this request": a 4xx, which SDKs do not retry."""
REPLAY_ONLY_UPSTREAM = "http://replay-only.invalid"
"""The upstream of the catch-all route of a server in mode none (:meth:`Routes.replay_only`):
never reached, and the reserved top-level domain ``.invalid`` resolves nowhere. Never shown:
what is shown of a routed request is the path the client asked for (:func:`shown_target`)."""
MAX_NAME_PARTS = 32
MAX_NAME_PART_LENGTH = 200
"""Bounds on a cassette name: a file name has at most 255 bytes, and the lock and journal
files beside a cassette add to its name; thousands of folders deep would exhaust the stack
of ``os.makedirs``."""
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
DEFAULT_MAX_BODY = 512 * 2**20
"""The largest request body taken (512 MiB, the largest file OpenAI's Files API accepts);
a larger one is answered 413 before it is read on, neither forwarded nor recorded."""

log = logging.getLogger("replay.proxy")

_ROUTE = ROUTE_HEADER.encode()
_NOT_FORWARDED = frozenset(
    {
        b"host",  # httpx sets the upstream's
        b"content-length",  # httpx sets it from the body
        b"connection",
        b"keep-alive",
        b"proxy-connection",
        b"proxy-authorization",  # meant for a proxy, never for the API
        b"te",
        b"trailer",
        b"transfer-encoding",
        b"upgrade",
        b"expect",  # curl's 100-continue is answered here, by the server
        CASSETTE_HEADER.encode(),  # ours: not part of the request, nor of the cassette
        _ROUTE,  # ours, added below: a client's own is not trusted
    }
)
_NOT_RETURNED = frozenset({b"connection", b"keep-alive", b"transfer-encoding", b"content-length"})
_UPSTREAM_TIMEOUT = {"connect": 30.0, "read": None, "write": None, "pool": None}
"""Only connecting is bounded: the client owns its timeouts, and a slow answer is not cut here."""


# Routes.


@dataclass(frozen=True)
class Route:
    """Requests under ``prefix`` go to ``upstream``, the prefix replaced by the upstream's URL."""

    prefix: str
    upstream: str

    def __post_init__(self) -> None:
        where = f"upstream {self.prefix}={self.shown_upstream}"
        if not self.prefix.startswith("/") or (self.prefix != "/" and self.prefix.endswith("/")):
            raise ConfigError(where, self.prefix, "a prefix starts with / and does not end with /")
        parts = urlsplit(self.upstream)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(where, self.shown_upstream, "expected an http:// or https:// URL")
        if parts.query or parts.fragment or self.upstream.endswith("/"):
            raise ConfigError(where, self.shown_upstream, "no query, fragment or trailing slash")

    def rest_of(self, path: str) -> str | None:
        """What follows the prefix in ``path``; None when this route does not take ``path``."""
        if self.prefix == "/":
            return path if path.startswith("/") else None
        if path == self.prefix or path.startswith(self.prefix + "/"):
            return path[len(self.prefix) :]
        return None

    @property
    def shown_upstream(self) -> str:
        """The upstream as shown anywhere (start-up lines, logs, errors, cassettes): a user and
        password in its URL as ``***``."""
        return hidden_credentials(self.upstream)

    @property
    def header(self) -> str:
        """The value of ``ROUTE_HEADER`` for requests this route takes: its prefix, and its
        upstream with no credentials (the key uses only its path); nothing after ``=`` for the
        replay-only route, which reaches no upstream."""
        upstream = "" if self.upstream == REPLAY_ONLY_UPSTREAM else self.shown_upstream
        return f"{self.prefix}={upstream}"

    @property
    def shown(self) -> str:
        if self.upstream == REPLAY_ONLY_UPSTREAM:
            return f"{self.prefix} -> (replay only)"
        return f"{self.prefix} -> {self.shown_upstream}"


def without_dot_segments(rest: str) -> str | None:
    """``rest`` (a path, or nothing) with its ``.`` and ``..`` segments resolved, written
    plainly or percent-encoded (``%2e%2e``); None when a ``..`` climbs above its start. The
    upstream would resolve them itself, so ``/p/../admin`` would reach ``/admin`` there."""
    if not rest:
        return rest
    kept: list[str] = []
    segments = rest.split("/")[1:]
    for index, segment in enumerate(segments):
        dots = unquote(segment)
        if dots in (".", ".."):
            if dots == ".." and not kept:
                return None
            if dots == "..":
                kept.pop()
            if index == len(segments) - 1:
                kept.append("")  # "/a/.." is "/", a directory: its slash stays
            continue
        kept.append(segment)
    return "/" + "/".join(kept)


_SEPARATORS = ("%2f", "%2F", "%5c", "%5C", "\\")


def normalized_path(path: str) -> str:
    """``path`` as an upstream might read it, for the route checks only: an encoded slash or
    a backslash (``%2f``, ``%5c``, ``\\``) a separator, and path parameters (from ``;`` to
    the segment's end, as Java servers drop them) gone, so that ``..%2f``, ``..\\`` and
    ``..;`` are ``..`` segments. The path forwarded is the client's: an encoded slash in an id
    (a Bedrock ARN) must reach the upstream as it was sent."""
    for separator in _SEPARATORS:
        path = path.replace(separator, "/")
    if ";" not in path and "%3b" not in path.lower():
        return path
    segments = path.split("/")
    return "/".join(unquote(segment).partition(";")[0] for segment in segments)


class Routes:
    """Routes by path prefix, the longest prefix first."""

    def __init__(self, routes: Iterable[Route]) -> None:
        self.routes = tuple(sorted(routes, key=lambda route: len(route.prefix), reverse=True))
        if not self.routes:
            raise ConfigError("upstream", "", "at least one upstream is needed")
        prefixes = [route.prefix for route in self.routes]
        for prefix in prefixes:
            if prefixes.count(prefix) > 1:
                raise ConfigError("upstream", prefix, "two upstreams for one prefix")

    def replay_only(self) -> Routes:
        """These routes and a catch-all at ``/`` that reaches no upstream, for a server in mode
        none: a recording keys by the path the client asked for, so it replays whatever route
        (or none) recorded it. A configured ``/`` is kept."""
        if any(route.prefix == "/" for route in self.routes):
            return self
        return Routes([*self.routes, Route("/", REPLAY_ONLY_UPSTREAM)])

    def url_for(self, path: str, query: str) -> str | None:
        taken = self.target(path, query)
        return None if taken is None else taken[1]

    def route_of(self, path: str) -> tuple[Route, str] | None:
        """The route that takes ``path``, and what follows its prefix."""
        for route in self.routes:
            rest = route.rest_of(path)
            if rest is not None:
                return route, rest
        return None

    def target(self, path: str, query: str) -> tuple[Route, str] | None:
        """The route that takes ``path``, and the upstream URL it forwards to. A path whose
        ``..`` leaves the route's prefix, as written or once normalized
        (:func:`normalized_path`), is a :class:`RefusedRequest`, and so is one that the
        normalized path would give to another route."""
        taken = self.route_of(path)
        if taken is None:
            return None
        route, rest = taken
        resolved = without_dot_segments(rest)
        normal = normalized_path(path)
        seen = taken if normal == path else self.route_of(normal)
        if seen is not None and seen[0] is not route:
            reason = (
                f"read as {normal!r}, it goes to the route {seen[0].prefix}, not {route.prefix}"
            )
            raise RefusedRequest(400, "replay_bad_path", path, reason)
        if resolved is None or seen is None or without_dot_segments(seen[1]) is None:
            raise RefusedRequest(
                400, "replay_bad_path", path, f"'..' leaves the route {route.prefix}"
            )
        return route, route.upstream + resolved + (f"?{query}" if query else "")


# Cassettes.


class Shelf:
    """The cassettes a proxy serves, each opened on first use from the name a request gives.

    ``NAME`` (the ``X-Replay-Cassette`` header) is a relative path below ``root``, ``/``
    separating directories, ``.json`` added: no part of it may be empty or start with a dot
    (``..``, and hidden files such as lock files, are never reached).
    """

    def __init__(
        self,
        root: Location,
        open_cassette: Callable[[Location], Cassette],
        default: str = DEFAULT_CASSETTE,
        opened: Iterable[Cassette] = (),
    ) -> None:
        self.root = root
        self.default = default
        self._open = open_cassette
        self._cassettes: dict[Location, Cassette] = {c.path: c for c in opened}
        self._save_locks: dict[Location, anyio.Lock] = {}

    def path_for(self, name: str | None) -> Location:
        name = self.default if name is None else name.strip()
        parts = name.removesuffix(".json").split("/", MAX_NAME_PARTS)
        too_long = any(len(os.fsencode(part)) > MAX_NAME_PART_LENGTH for part in parts)
        if len(parts) > MAX_NAME_PARTS or too_long:
            raise ConfigError(
                "X-Replay-Cassette",
                name if len(name) <= 80 else name[:77] + "...",
                f"a cassette name has at most {MAX_NAME_PARTS} parts separated by /, each of "
                f"at most {MAX_NAME_PART_LENGTH} bytes",
            )
        bad = not name or "\\" in name or "\0" in name
        if bad or any(not part or part.startswith(".") for part in parts):
            raise ConfigError(
                "X-Replay-Cassette",
                name,
                "a cassette name is a relative path of non-empty parts separated by /, "
                "none starting with a dot (no '..')",
            )
        return self.root / "/".join([*parts[:-1], parts[-1] + ".json"])

    def cassette(self, name: str | None) -> Cassette:
        path = self.path_for(name)
        cassette = self._cassettes.get(path)
        if cassette is None:
            cassette = self._cassettes[path] = self._open(path)
        return cassette

    @property
    def cassettes(self) -> list[Cassette]:
        return list(self._cassettes.values())

    async def persist(self, cassette: Cassette) -> None:
        """Fold what ``cassette`` recorded into its file, off the event loop; one fold at a time
        per file, and a request whose recording an earlier fold already took waits for nothing
        more. A fold, not a save: another client's stream still open is not cut."""
        if not cassette.dirty:
            return
        lock = self._save_locks.setdefault(cassette.path, anyio.Lock())
        async with lock:
            if cassette.dirty:
                await anyio.to_thread.run_sync(cassette.fold)

    def save_all(self) -> list[ReplayError]:
        """Save every cassette, the streams still open as they stand (the server is stopping);
        what could not be saved is returned, the others still are."""
        errors: list[ReplayError] = []
        for cassette in self.cassettes:
            try:
                cassette.save(every_caller=True)
            except ReplayError as error:
                errors.append(error)
        return errors


# The network.


class NetworkTransport(httpx.AsyncHTTPTransport):
    """httpx's own transport, also while a ``use_cassette`` block (the pytest marker of a test
    that runs the proxy beside it) has the default transports routed through its cassette:
    the proxy records through cassettes of its own."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.headers.pop(ROUTE_HEADER, None)  # the cassette's, never the upstream's
        send = network_method(httpx.AsyncHTTPTransport, "handle_async_request")
        response: httpx.Response = await send(self, request)
        return response


# Errors as answers.


class StreamCut(Exception):
    """Ends a response whose body the upstream (or its recording) cut short: the server then
    closes the connection, so the client sees the body cut as it was."""


def error_body(kind: str, message: str, **facts: Any) -> dict[str, Any]:
    """The JSON of an error answered by the proxy itself, in the OpenAI error shape that most
    clients print: ``{"error": {"type", "message", ...facts}}``."""
    return {"error": {"type": kind, "message": message, **facts}}


def miss_body(miss: CassetteMiss) -> dict[str, Any]:
    closest = None
    if miss.closest_url is not None:
        closest = {
            "request": miss.closest_url,
            "differences": [
                {"field": d.field, "recorded": d.recorded, "requested": d.requested}
                for d in miss.differences
            ],
        }
    return error_body(
        "replay_cassette_miss",
        str(miss),
        cassette=str(miss.cassette),
        request={"method": miss.method, "url": miss.url},
        reason=miss.reason,
        closest=closest,
    )


async def _answer(send: Send, status: int, body: Mapping[str, Any]) -> None:
    payload = orjson.dumps(body, default=str)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"x-should-retry", b"false"),
        (b"x-replay-error", str(body["error"]["type"]).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload, "more_body": False})


def _header(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> str | None:
    for key, value in headers:
        if key.lower() == name:
            return value.decode("latin-1")
    return None


async def _request_body(receive: Receive, limit: int, shown: str) -> bytes | None:
    """The request's body; None when the client hung up before sending all of it (fewer bytes
    than its Content-Length): such a request is neither forwarded nor recorded. One beyond
    ``limit`` bytes is a :class:`RefusedRequest` (413) as soon as it is."""
    body = io.BytesIO()  # grown in place: the parts and their join would be two bodies at once
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        part = message.get("body", b"")
        if body.tell() + len(part) > limit:
            raise RefusedRequest(413, "replay_body_too_large", shown, _too_large(limit))
        body.write(part)
        if not message.get("more_body", False):
            return body.getvalue()  # its buffer itself, not a copy, once nothing else holds it


def _too_large(limit: int) -> str:
    return f"the body is larger than {limit:,} bytes (replay serve --max-body BYTES)"


async def _until_disconnected(
    receive: Receive, streaming: anyio.CancelScope, hung_up: anyio.Event
) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
    hung_up.set()
    streaming.cancel()


def _forwarded(
    scope: Scope, route: Route, not_forwarded: frozenset[bytes]
) -> list[tuple[bytes, bytes]]:
    """The client's headers to send upstream, and the route (``ROUTE_HEADER``) they came by."""
    headers = [(name, value) for name, value in scope["headers"] if name not in not_forwarded]
    headers.append((_ROUTE, route.header.encode()))
    return headers


def _shown(method: str, url: str, route: str | None) -> str:
    """A request as logs name it: the path the client asked for and its route
    (:func:`shown_target`), ``url`` already redacted."""
    headers = () if route is None else ((ROUTE_HEADER, route),)
    return f"{method} {shown_target(Request(method, url, headers, b''))}"


def _host_and_port(host: str) -> tuple[str, int] | None:
    """The name (lowered, an IPv6 address without brackets) and port of a Host header; port 80
    when it names none. None when it is no host."""
    try:
        parts = urlsplit(f"//{host}")
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name or parts.username is not None or parts.path or parts.query:
        return None
    return name, 80 if port is None else port


# The app.


class ReplayProxy:
    """The ASGI app: each request routed, decided by its cassette and answered; see the module
    docstring. ``tally`` counts what was replayed, recorded, missed and failed."""

    def __init__(
        self,
        routes: Routes,
        shelf: Shelf,
        network: httpx.AsyncBaseTransport | None = None,
        allowed_hosts: Iterable[str] = (),
        max_body: int = DEFAULT_MAX_BODY,
    ) -> None:
        self.routes = routes
        self.max_body = max_body
        self.shelf = shelf
        self.allowed_hosts = frozenset(name.lower() for name in allowed_hosts)
        """Host names accepted besides this server's own address (see :meth:`_check_host`)."""
        self._network = network if network is not None else NetworkTransport()
        self._redactor = Redactor()  # for what is shown before a cassette is chosen
        self._transports: dict[Location, AsyncReplayTransport] = {}
        self.tally: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":  # lifespan is unused
            await self._websocket(scope, receive, send)

    async def aclose(self) -> list[ReplayError]:
        """Save every cassette and close the connections upstream; returns what failed to save."""
        errors = await anyio.to_thread.run_sync(self.shelf.save_all)
        await self._network.aclose()
        return errors

    def _transport(self, cassette: Cassette) -> AsyncReplayTransport:
        transport = self._transports.get(cassette.path)
        if transport is None:
            transport = AsyncReplayTransport(cassette, self._network)
            self._transports[cassette.path] = transport
        return transport

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        try:
            cassette, request = await self._admitted(scope, receive)
        except RefusedRequest as refused:
            self._failed(refused.kind.removeprefix("replay_").replace("_", " "), str(refused))
            body = error_body(refused.kind, str(refused), request=refused.target)
            await _answer(send, refused.status, body)
            return
        redactor = cassette.redactor
        scrub = redactor.with_secrets_of(to_model(request))
        shown_url = redactor.url(str(request.url), scrub)
        shown = _shown(request.method, shown_url, request.headers.get(ROUTE_HEADER))
        try:
            response = await self._send(cassette, request)
            if isinstance(response.stream, ReplayedStream):
                await _check_sendable(cassette, request, response, shown)
        except CassetteMiss as miss:
            self.tally["missed"] += 1
            log.warning("miss      %s [%s]\n%s", shown, cassette.path, miss)
            await _answer(send, MISS_STATUS, miss_body(miss))
            return
        except CassetteError as error:
            self._failed("cassette error", f"{shown}: {error}")
            facts: dict[str, Any] = {"cassette": str(error.path)}
            if isinstance(error, UnsendableResponse):
                facts["interaction"] = error.key
            await _answer(send, 500, error_body("replay_cassette_error", str(error), **facts))
            return
        except httpx.TransportError as error:  # recorded (unless never connected), or replayed
            await self.shelf.persist(cassette)
            message = redactor.text(f"{type(error).__name__}: {error}", scrub)
            self._failed("upstream failed", f"{shown}: {message}")
            body = error_body("replay_upstream_error", message, url=shown_url)
            await _answer(send, 502, body)
            return
        await self._relay(response, cassette, receive, send, f"{shown} [{cassette.path}]", started)

    async def _admitted(self, scope: Scope, receive: Receive) -> tuple[Cassette, httpx.Request]:
        """The request to answer and its cassette; a :class:`RefusedRequest` as
        :meth:`_routed` says, or for a body cut short."""
        cassette, shown, route, url = self._routed(scope)
        length = _header(scope["headers"], b"content-length")
        if length is not None and length.strip().isdigit() and int(length) > self.max_body:
            raise RefusedRequest(413, "replay_body_too_large", shown, _too_large(self.max_body))
        body = await _request_body(receive, self.max_body, shown)
        if body is None:
            reason = "the client hung up before sending the whole body: not forwarded"
            raise RefusedRequest(400, "replay_bad_request", shown, reason)
        try:
            request = httpx.Request(
                scope["method"],
                url,
                headers=_forwarded(scope, route, _NOT_FORWARDED),
                content=body or None,
                extensions={"timeout": _UPSTREAM_TIMEOUT},
            )
        except httpx.InvalidURL as error:
            raise RefusedRequest(400, "replay_bad_request", shown, str(error)) from None
        return cassette, request

    def _routed(self, scope: Scope) -> tuple[Cassette, str, Route, str]:
        """The cassette, the request as shown in logs and errors, its route and the upstream URL
        it goes to; a :class:`RefusedRequest` for one sent to another host name, naming a bad
        cassette, taken by no route or leaving its route."""
        method: str = scope.get("method", "GET")  # a WebSocket handshake is a GET
        headers: list[tuple[bytes, bytes]] = list(scope["headers"])
        path = (scope.get("raw_path") or scope["path"].encode()).decode("latin-1")
        query = scope.get("query_string", b"").decode("latin-1")
        shown = f"{method} {self._redactor.url(path + (f'?{query}' if query else ''))}"
        self._check_host(scope, _header(headers, b"host"), shown)
        try:
            cassette = self.shelf.cassette(_header(headers, CASSETTE_HEADER.encode()))
        except ConfigError as error:
            raise RefusedRequest(400, "replay_bad_cassette_name", shown, str(error)) from None
        try:
            target = self.routes.target(path, query)
        except RefusedRequest as refused:
            raise RefusedRequest(refused.status, refused.kind, shown, refused.reason) from None
        if target is None:
            routes = ", ".join(route.shown for route in self.routes.routes)
            reason = f"no upstream is configured for this path (routes: {routes})"
            raise RefusedRequest(404, "replay_no_route", shown, reason)
        route, url = target
        return cassette, shown, route, url

    def _check_host(self, scope: Scope, host: str | None, shown: str) -> None:
        """Refuse a Host header naming neither this server's address (``127.0.0.1:PORT``,
        ``localhost:PORT``, ``[::1]:PORT``, or the address a client reached it at) nor a name
        of :attr:`allowed_hosts`: a web page whose name an attacker has pointed at 127.0.0.1
        (DNS rebinding) sends its own name, and must not replay cassettes or record."""
        server = scope.get("server") or ("", 0)
        ours = {*LOOPBACK_NAMES, str(server[0]).lower()}
        named = _host_and_port(host) if host is not None else None
        if named is not None and (
            named[0] in self.allowed_hosts or (named[0] in ours and named[1] == server[1])
        ):
            return
        # userinfo, as in a URL, is never shown
        given = "no Host header" if host is None else f"Host {hide_userinfo(host)[:100]!r}"
        reason = (
            f"{given} does not name this server (127.0.0.1:{server[1]}, localhost:{server[1]}); "
            "replay serve --allow-host NAME accepts another name"
        )
        raise RefusedRequest(403, "replay_host_not_allowed", shown, reason)

    async def _send(self, cassette: Cassette, request: httpx.Request) -> httpx.Response:
        """The answer from ``cassette`` or the upstream. A request keyed by its route that
        finds nothing is looked up as an older ``replay serve`` recorded it, keyed by the
        upstream's address: such a cassette replays when served with the same upstreams."""
        transport = self._transport(cassette)
        try:
            answered: httpx.Response = await transport.handle_async_request(request)
            return answered
        except CassetteMiss:
            unrouted = httpx.Request(
                request.method,
                request.url,
                headers=[(n, v) for n, v in request.headers.raw if n.lower() != _ROUTE],
                content=request.content,
                extensions=request.extensions,
            )
            if not cassette.holds(to_model(unrouted)):
                raise
            response: httpx.Response = await transport.handle_async_request(unrouted)
            return response

    async def _relay(
        self,
        response: httpx.Response,
        cassette: Cassette,
        receive: Receive,
        send: Send,
        shown: str,
        started: float,
    ) -> None:
        verb = "replayed" if isinstance(response.stream, ReplayedStream) else "recorded"
        headers = _returned_headers(response)
        await send(
            {"type": "http.response.start", "status": response.status_code, "headers": headers}
        )
        cut: httpx.TransportError | None = None
        hung_up = anyio.Event()
        async with anyio.create_task_group() as watching:
            watching.start_soon(_until_disconnected, receive, watching.cancel_scope, hung_up)
            try:
                if not response.is_stream_consumed:  # a bodiless status's, read when checked
                    async for chunk in response.aiter_raw():
                        await send({"type": "http.response.body", "body": chunk, "more_body": True})
            except httpx.TransportError as error:
                cut = error
            finally:
                with anyio.CancelScope(shield=True):
                    await response.aclose()  # hands the recording to the cassette
            watching.cancel_scope.cancel()
        with anyio.CancelScope(shield=True):
            await self.shelf.persist(cassette)
        self.tally[verb] += 1
        took = f"{(time.monotonic() - started) * 1000:.0f} ms"
        if cut is not None:
            message = cassette.redactor.text(
                f"{type(cut).__name__}: {cut}", cassette.redactor.known
            )
            log.warning("%s  %d %s, cut: %s (%s)", verb, response.status_code, shown, message, took)
            raise StreamCut(message) from None
        ending = ", the client hung up" if hung_up.is_set() else ""
        log.info("%s  %d %s (%s%s)", verb, response.status_code, shown, took, ending)
        if not hung_up.is_set():
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    # WebSockets.

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A WebSocket connection: its handshake decided by its cassette as a ``GET`` to the
        upstream's ``ws://`` or ``wss://`` URL, then the session relayed and recorded, or
        replayed (see the module docstring)."""
        started = time.monotonic()
        await receive()  # websocket.connect
        try:
            cassette, shown, route, url = self._routed(scope)
        except RefusedRequest as refused:
            self._failed(refused.kind.removeprefix("replay_").replace("_", " "), str(refused))
            body = error_body(refused.kind, str(refused), request=refused.target)
            await _refuse_handshake(scope, send, refused.status, body)
            return
        headers = _forwarded(scope, route, _NOT_FORWARDED | _HANDSHAKE_HEADERS)
        request = Request(
            "GET",
            _websocket_url(url),
            tuple((name.decode("latin-1"), value.decode("latin-1")) for name, value in headers),
            b"",
        )
        scrub = cassette.redactor.with_secrets_of(request)
        shown_url = cassette.redactor.url(request.url, scrub)
        shown = f"WebSocket {shown_url} [{cassette.path}]"
        try:
            decision = cassette.decide(request)
        except CassetteMiss as miss:
            self.tally["missed"] += 1
            log.warning("miss      %s\n%s", shown, miss)
            await _refuse_handshake(scope, send, MISS_STATUS, miss_body(miss))
            return
        except CassetteError as error:
            self._failed("cassette error", f"{shown}: {error}")
            body = error_body("replay_cassette_error", str(error), cassette=str(error.path))
            await _refuse_handshake(scope, send, 500, body)
            return
        if isinstance(decision, Replay):
            playback = SessionReplay(cassette, shown_url, decision.session)
            verb, ending = "replayed", await self._replay_session(playback, receive, send, shown)
        else:
            recorded = await self._record_session(cassette, request, decision, scope, receive, send)
            if recorded is None:
                return
            verb, ending = "recorded", recorded
        if ending is not None:
            took = f"{(time.monotonic() - started) * 1000:.0f} ms"
            self.tally[verb] += 1
            log.info("%s  101 %s (%s, %s)", verb, shown, took, ending)

    async def _replay_session(
        self, replay: SessionReplay, receive: Receive, send: Send, shown: str
    ) -> str | None:
        """Play the recorded session to the client: each server message once the client sent
        those recorded before it, then a normal close once every recorded message crossed. A
        client message other than the recorded one closes with 1008, its reason naming the
        cassette and the message's place. How it ended; None for a miss."""
        await send({"type": "websocket.accept"})
        try:
            while True:
                while (frame := replay.next_due()) is not None:
                    await anyio.sleep(replay.wait_before(frame))
                    await send(_sent_message(frame.data, frame.text))
                if replay.done:
                    await send({"type": "websocket.close", "code": NORMAL_CLOSURE})
                    return "closed as recorded"
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return "the client closed"
                try:
                    replay.check(*_received_message(message))
                except FrameMiss as miss:
                    self.tally["missed"] += 1
                    log.warning("miss      %s\n%s", shown, miss)
                    reason = miss_close_reason(miss)
                    await send(
                        {"type": "websocket.close", "code": POLICY_VIOLATION, "reason": reason}
                    )
                    return None
        except OSError:  # uvicorn's ClientDisconnected: the client left while we sent
            return "the client hung up"

    async def _record_session(
        self,
        cassette: Cassette,
        request: Request,
        record: Record,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> str | None:
        """Connect upstream, accept the client and relay both ways, each message noted in the
        cassette's recording, which is folded into its file when either side closes. An
        upstream that refuses the handshake has its answer passed on, unrecorded (a session
        cannot hold it); one unreachable is a 502. How it ended; None when not connected."""
        from websockets.asyncio.client import connect  # the serve extra: only when recording
        from websockets.exceptions import InvalidStatus, WebSocketException

        scrub = cassette.redactor.with_secrets_of(request)
        headers = [(name, value) for name, value in request.headers if name != ROUTE_HEADER]
        try:
            with through_cassette():  # the proxy's own connection: no other cassette takes it
                upstream = await connect(
                    request.url,
                    additional_headers=headers,
                    user_agent_header=None,  # the client's, forwarded
                    open_timeout=_UPSTREAM_TIMEOUT["connect"],
                    max_size=None,  # the client's limits, not ours
                )
        except InvalidStatus as refused:
            answer = refused.response
            shown_url = cassette.redactor.url(request.url, scrub)
            self._failed(
                "refused", f"WebSocket {shown_url}: the upstream answered {answer.status_code}"
            )
            returned = [
                (name.lower().encode("latin-1"), value.encode("latin-1"))
                for name, value in answer.headers.raw_items()
                if name.lower().encode("latin-1") not in _NOT_RETURNED
            ]
            await _answer_handshake(
                scope, send, answer.status_code, returned, bytes(answer.body or b"")
            )
            return None
        except (OSError, TimeoutError, WebSocketException) as error:
            message = cassette.redactor.text(f"{type(error).__name__}: {error}", scrub)
            shown_url = cassette.redactor.url(request.url, scrub)
            self._failed("upstream failed", f"WebSocket {shown_url}: {message}")
            body = error_body("replay_upstream_error", message, url=shown_url)
            await _refuse_handshake(scope, send, 502, body)
            return None
        recorder = SessionRecorder(cassette, record)
        ending: str | None = None
        try:
            await send({"type": "websocket.accept"})
            async with anyio.create_task_group() as relaying:

                async def from_upstream() -> None:
                    nonlocal ending
                    await _upstream_to_client(upstream, recorder, send)
                    ending = ending or "the upstream closed"
                    relaying.cancel_scope.cancel()

                relaying.start_soon(from_upstream)
                code, reason = await _client_to_upstream(receive, upstream, recorder)
                ending = ending or "the client closed"
                await upstream.close(code, reason)
                relaying.cancel_scope.cancel()
        finally:
            with anyio.CancelScope(shield=True):
                await recorder.afinish()
                await upstream.close()
                await self.shelf.persist(cassette)
        return ending

    def _failed(self, what: str, detail: str) -> None:
        self.tally["failed"] += 1
        log.warning("%-9s %s", what, detail)


async def _check_sendable(
    cassette: Cassette, request: httpx.Request, response: httpx.Response, shown: str
) -> None:
    """Raise :class:`UnsendableResponse` for a replayed response the HTTP server could not
    send (see :mod:`replay._core.wire`), naming its cassette and interaction."""
    problem = head_problem(response.status_code, _returned_headers(response))
    if problem is None and response.status_code in BODILESS_STATUSES:
        problem = body_problem(response.status_code, await response.aread())
    if problem is not None:
        await response.aclose()
        key = cassette.key_for(decoded_request(to_model(request)))
        raise UnsendableResponse(cassette.path, key, shown, problem)


def _returned_headers(response: httpx.Response) -> list[tuple[bytes, bytes]]:
    return [
        (name, value)
        for name, value in ((n.lower(), v) for n, v in response.headers.raw)
        if name not in _NOT_RETURNED
    ]


# WebSocket messages.

NORMAL_CLOSURE = 1000
POLICY_VIOLATION = 1008
"""The close code of a replayed session whose client sent a message not recorded."""
INTERNAL_ERROR = 1011
MAX_CLOSE_REASON = 123
"""Bytes a close frame's reason may hold (RFC 6455, 5.5: 125 bytes of payload, 2 the code)."""
_UNSENDABLE_CLOSE_CODES = frozenset({1005, 1006, 1015})
"""Codes that say why a connection closed but may not be sent in a close frame."""
_HANDSHAKE_HEADERS = frozenset(
    {
        b"sec-websocket-key",  # each connection's, and the upstream connection has its own
        b"sec-websocket-version",
        b"sec-websocket-extensions",  # compression is negotiated on each side separately
        b"sec-websocket-protocol",  # subprotocols are not negotiated through the proxy
    }
)


def _websocket_url(url: str) -> str:
    """The upstream's ``http(s)://`` URL as the ``ws(s)://`` one its WebSocket is at."""
    scheme, rest = url.split(":", 1)
    return {"http": "ws", "https": "wss"}[scheme] + ":" + rest


def miss_close_reason(miss: FrameMiss) -> str:
    """The close reason of a replayed session's miss: the message's place and the cassette,
    the cassette's path shortened from its start to fit a close frame."""
    head = f"replay: client message {miss.position} not recorded in "
    cassette = str(miss.cassette)
    room = MAX_CLOSE_REASON - len(head.encode())
    while len(cassette.encode()) > room:
        cassette = "..." + cassette[4:]
    return head + cassette


def _sent_message(data: bytes, text: bool) -> Message:
    if text:
        return {"type": "websocket.send", "text": data.decode("utf-8")}
    return {"type": "websocket.send", "bytes": data}


def _received_message(message: Message) -> tuple[bytes, bool]:
    """A client message's bytes and whether it is text."""
    text = message.get("text")
    if text is not None:
        return text.encode("utf-8"), True
    return message.get("bytes") or b"", False


def _sendable_close(code: int | None) -> int:
    if code is None or code in _UNSENDABLE_CLOSE_CODES:
        return NORMAL_CLOSURE if code == 1005 else INTERNAL_ERROR
    return code


async def _client_to_upstream(
    receive: Receive, upstream: ClientConnection, recorder: SessionRecorder
) -> tuple[int, str]:
    """Relay the client's messages upstream until the client closes; its close code and
    reason, to close the upstream with."""
    from websockets.exceptions import ConnectionClosed

    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return _sendable_close(message.get("code")), message.get("reason") or ""
        data, text = _received_message(message)
        upstream_data = recorder.sent(data, text)
        with contextlib.suppress(ConnectionClosed):  # the upstream closed: the other relay ends
            await upstream.send(upstream_data, text=text)


async def _upstream_to_client(
    upstream: ClientConnection, recorder: SessionRecorder, send: Send
) -> None:
    """Relay the upstream's messages to the client until either closes, then close the client
    with the upstream's code."""
    from websockets.exceptions import ConnectionClosed

    try:
        async for message in upstream:
            await send(_sent_message(*recorder.received(message)))
    except ConnectionClosed:  # closed abnormally: the code says so
        pass
    except OSError:  # uvicorn's ClientDisconnected: the client left, nobody to tell
        return
    code = _sendable_close(upstream.close_code)
    with contextlib.suppress(OSError):
        await send({"type": "websocket.close", "code": code, "reason": upstream.close_reason or ""})


async def _answer_handshake(
    scope: Scope, send: Send, status: int, headers: list[tuple[bytes, bytes]], payload: bytes
) -> None:
    """Answer a WebSocket handshake with an HTTP response, where the server can
    (the ASGI extension ``websocket.http.response``); else refuse it (uvicorn sends 403)."""
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": POLICY_VIOLATION})
        return
    headers = [*headers, (b"content-length", str(len(payload)).encode())]
    await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
    await send({"type": "websocket.http.response.body", "body": payload})


async def _refuse_handshake(scope: Scope, send: Send, status: int, body: Mapping[str, Any]) -> None:
    """Refuse a WebSocket handshake with an error of the proxy's own (:func:`error_body`)."""
    headers = [
        (b"content-type", b"application/json"),
        (b"x-should-retry", b"false"),
        (b"x-replay-error", str(body["error"]["type"]).encode()),
    ]
    await _answer_handshake(scope, send, status, headers, orjson.dumps(body, default=str))
