"""``replay serve``: the proxy of :mod:`replay._adapters.proxy` on a real HTTP server (uvicorn).

    replay serve --upstream https://api.openai.com --cassettes cassettes/ [--mode once]
    replay serve --upstream https://api.openai.com --upstream /anthropic=https://api.anthropic.com

Where each setting comes from, the first that sets it winning:

- the mode: ``REPLAY_MODE``, ``--mode``, ``mode`` in ``[tool.replay]``, then ``once`` (``none``
  when ``CI`` is set), as everywhere else;
- the upstreams: every ``--upstream``, else ``upstreams`` in ``[tool.replay.serve]`` (a table of
  prefix to URL), else :data:`KNOWN_PROVIDERS` each under its own prefix; in mode none, a
  catch-all at ``/`` besides, reaching no upstream (:meth:`Routes.replay_only`);
- the host names accepted besides the server's own address: every ``--allow-host``, and
  ``allow_hosts`` in ``[tool.replay.serve]``;
- ``--cassettes``, ``--host``, ``--port``: the option, else ``[tool.replay.serve]``, else
  ``cassettes``, ``127.0.0.1`` and 8787;
- the cassettes' options (``ignore``, ``secrets``, ``replay_speed``...): ``[tool.replay]``,
  ``--replay-speed``, ``--allow-playback-repeats`` and ``--unused`` winning over theirs.
  Playback repeats are on unless turned off (:data:`SERVE_DEFAULTS`).

The first line printed holds the URL; then the routes, the environment variables to set and
how to choose a cassette. SIGINT and SIGTERM stop it gracefully: requests under way finish,
every cassette is saved, and it exits 0. :func:`running` serves in a thread instead, for the
pytest fixture ``replay_server``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from replay._adapters.proxy import ReplayProxy, Route, Routes, Shelf, StreamCut
from replay._cassette import Cassette
from replay._core.errors import ConfigError, ReplayError
from replay._core.key import ROUTE_HEADER
from replay._core.location import Location, location
from replay._core.modes import Mode
from replay.tools.config import (
    SERVE_TABLE,
    checked,
    merged,
    pyproject_options,
    pyproject_table,
    settings,
)

if TYPE_CHECKING:
    import uvicorn

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8787
DEFAULT_CASSETTES = Path("cassettes")
GRACE_SECONDS = 10
"""How long a stop waits for requests under way before cutting them (and saving)."""
HEADER_TIMEOUT = 10.0
"""Seconds a connection may take to send a request's head (and an idle one to start its next
request) before it is closed with 408: a client holding heads half-sent keeps no socket."""
MAX_HALF_OPEN = 256
"""Connections at most that wait for a request head at once; beyond it the longest waiting
is closed, so that the half-open ones can neither use up the process's file descriptors nor
keep clients that send whole requests out."""
SERVE_DEFAULTS: dict[str, object] = {"allow_playback_repeats": True}
"""A server outlives the test runs of its clients: a suite run twice against it gets the same
answers the second time, rather than misses (mode once) or new recordings (new_episodes)."""


@dataclass(frozen=True)
class KnownProvider:
    name: str
    prefix: str
    upstream: str
    variable: str | None
    """The environment variable its SDKs take their base URL from, where they have one."""
    client_path: str = ""
    """What the SDKs' base URL adds to the host (``/v1`` for OpenAI)."""


KNOWN_PROVIDERS = (
    KnownProvider("OpenAI", "/openai", "https://api.openai.com", "OPENAI_BASE_URL", "/v1"),
    KnownProvider("Anthropic", "/anthropic", "https://api.anthropic.com", "ANTHROPIC_BASE_URL"),
    KnownProvider("Groq", "/groq", "https://api.groq.com", "GROQ_BASE_URL"),
    KnownProvider("AI21", "/ai21", "https://api.ai21.com", "AI21_API_HOST"),
    KnownProvider("Mistral", "/mistral", "https://api.mistral.ai", None),
    KnownProvider("Gemini", "/gemini", "https://generativelanguage.googleapis.com", None),
    KnownProvider("Cohere", "/cohere", "https://api.cohere.com", None),
    KnownProvider("Together", "/together", "https://api.together.xyz", None, "/v1"),
)


def known_routes() -> dict[str, str]:
    return {provider.prefix: provider.upstream for provider in KNOWN_PROVIDERS}


def parse_upstream(text: str) -> tuple[str, str]:
    """``URL`` (served at ``/``) or ``PREFIX=URL`` as (prefix, URL)."""
    prefix, equals, url = text.partition("=")
    if not equals or not prefix.startswith("/"):
        prefix, url = "/", text
    return (prefix.rstrip("/") or "/"), url.strip().rstrip("/")


def routes_of(upstreams: Mapping[str, str]) -> Routes:
    return Routes(
        Route(prefix.rstrip("/") or "/", url.rstrip("/")) for prefix, url in upstreams.items()
    )


def served_routes(routes: Routes, mode: Mode) -> Routes:
    """In mode none no upstream is reached, so every path is routed to the cassettes."""
    return routes.replay_only() if mode is Mode.NONE else routes


# Serving.


@dataclass(frozen=True)
class Served:
    """A running proxy: its URL, and the base URLs its clients use."""

    url: str
    routes: Routes

    def base_url(self, prefix: str = "/") -> str:
        return self.url + (prefix if prefix != "/" else "")

    def env(self, held: Iterable[str] = ()) -> dict[str, str]:
        """The base URL variables of the known providers' SDKs, for each route to one; the
        routes ``held`` (values of ``ROUTE_HEADER``, see :func:`held_routes`) first, for a
        server that replays any path: its clients must ask for the paths recorded."""
        recorded = [Route(*value.split("=", 1)) for value in held if _is_route(value)]
        routes = sorted(recorded, key=lambda route: len(route.prefix), reverse=True)
        variables: dict[str, str] = {}
        for route in [*reversed(routes), *reversed(self.routes.routes)]:  # shortest first
            provider = _provider_of(route.upstream)
            if provider is not None and provider.variable and provider.variable not in variables:
                variables[provider.variable] = self.base_url(route.prefix) + provider.client_path
        return variables


def _is_route(value: str) -> bool:
    """Whether a stored ``ROUTE_HEADER`` value names a route with an upstream."""
    prefix, equals, upstream = value.partition("=")
    try:
        Route(prefix, upstream)
    except ConfigError:
        return False
    return bool(equals)


_HELD_ROUTE = re.compile(rb'"' + ROUTE_HEADER.encode() + rb'"\s*:\s*"([^"]*)"')


def held_routes(root: Location) -> Counter[str]:
    """The routes the recordings in ``root`` came through (a value of ``ROUTE_HEADER``: a
    prefix, ``=``, its upstream), each with how many requests it took; a client replays them
    by asking for the same paths. Found in the files' bytes, not parsed: a directory of large
    cassettes is read at start-up in a moment. Nothing for cassettes in S3."""
    held: Counter[str] = Counter()
    if not isinstance(root, Path) or not root.is_dir():
        return held
    for path in root.rglob("*.json"):
        if path.name.startswith(".") or not path.is_file():
            continue
        with contextlib.suppress(OSError):
            for found in _HELD_ROUTE.finditer(path.read_bytes()):
                held[found.group(1).decode("utf-8", "replace")] += 1
    return held


def _provider_of(upstream: str) -> KnownProvider | None:
    host = urlsplit(upstream).hostname
    return next((p for p in KNOWN_PROVIDERS if urlsplit(p.upstream).hostname == host), None)


class _QuietCuts(logging.Filter):
    """Cuts are told in one line, so uvicorn's tracebacks of them are left out: a stream cut
    short is ended by raising :class:`StreamCut` (the only way to have the server drop the
    connection), logged by the proxy; a request still under way when a stop's grace period
    ends (a client still sending its body) is cancelled, logged by uvicorn ("Cancel N running
    task(s)")."""

    def filter(self, record: logging.LogRecord) -> bool:
        cut = (StreamCut, asyncio.CancelledError)
        return not (record.exc_info and isinstance(record.exc_info[1], cut))


class FaultLog(logging.Filter):
    """One log line per kind of fault, not a traceback per connection: the first of a kind
    (its message, and its exception's type) is logged in one line, the later ones counted
    (:attr:`counts`, which the command prints when it stops). On the server's loggers and
    asyncio's, which reports a failed ``accept`` (out of file descriptors) on every try."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: Counter[str] = Counter()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        kind = record.getMessage().strip().splitlines()[0] if record.getMessage() else "fault"
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            kind = f"{kind}: {type(error).__name__}: {error}"
        self.counts[kind] += 1
        if self.counts[kind] > 1:
            return False
        record.msg, record.args, record.exc_info, record.exc_text = kind, (), None, None
        record.msg += " (logged once: later faults of this kind are counted)"
        return True

    def note(self, kind: str) -> None:
        """A fault of the server's own (a connection closed): logged as the others are."""
        logging.getLogger("uvicorn.error").warning(kind)

    def summary(self) -> list[str]:
        return [f"{count} x {kind}" for kind, count in self.counts.items()]


def _server(
    proxy: ReplayProxy,
    header_timeout: float = HEADER_TIMEOUT,
    max_half_open: int = MAX_HALF_OPEN,
    faults: FaultLog | None = None,
) -> uvicorn.Server:
    import uvicorn  # the optional extra: imported when serving, not by every replay command

    faults = faults or FaultLog()

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            """SIGINT and SIGTERM stop the server gracefully, and then the command exits 0:
            uvicorn's own version raises the signal again once stopped, which ends the
            process by the signal (status 130 or 143)."""
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            handled = (signal.SIGINT, signal.SIGTERM)
            previous = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

    config = uvicorn.Config(
        proxy,
        http=_guarded_protocol(header_timeout, max_half_open, faults),
        log_config=None,
        access_log=False,  # its lines would show query strings, where some APIs put keys
        server_header=False,  # the recorded headers only
        date_header=False,
        lifespan="off",
        ws="auto",  # websockets' implementation: the serve extra installs it
        timeout_graceful_shutdown=GRACE_SECONDS,
    )
    for name in ("uvicorn.error", "asyncio"):
        logger = logging.getLogger(name)
        for installed in [f for f in logger.filters if isinstance(f, _QuietCuts | FaultLog)]:
            logger.removeFilter(installed)  # one server's filters at a time
        logger.addFilter(_QuietCuts())
        logger.addFilter(faults)
    return Server(config)


def _guarded_protocol(
    header_timeout: float, max_half_open: int, faults: FaultLog
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP/1.1 protocol (h11, chosen rather than httptools where both are installed,
    so that the guard knows the class it extends) with a header read timeout and a cap on the
    connections waiting for a request head (:data:`HEADER_TIMEOUT`, :data:`MAX_HALF_OPEN`)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    waiting: dict[Guarded, asyncio.TimerHandle] = {}  # in the order they started waiting

    class Guarded(H11Protocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._wait_for_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._head_arrived()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self._head_arrived()

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._head_arrived()
            super().handle_websocket_upgrade(event)

        def on_response_complete(self) -> None:
            if not self.transport.is_closing():
                self._wait_for_head()  # the next request's head, unless pipelined already
            super().on_response_complete()

        def _wait_for_head(self) -> None:
            self._head_arrived()
            waiting[self] = self.loop.call_later(header_timeout, self._drop, 408, "timeout")
            if len(waiting) > max_half_open:
                next(iter(waiting))._drop(503, "cap")

        def _head_arrived(self) -> None:
            timer = waiting.pop(self, None)
            if timer is not None:
                timer.cancel()

        def _drop(self, status: int, why: str) -> None:
            self._head_arrived()
            if self.transport.is_closing():
                return
            if why == "timeout":
                faults.note(f"closed a connection that sent no request head in {header_timeout} s")
            else:
                faults.note(
                    f"closed the longest waiting connection: more than {max_half_open} waited "
                    "for a request head"
                )
            reason = {408: b"Request Timeout", 503: b"Service Unavailable"}[status]
            self.transport.write(
                b"HTTP/1.1 %d %s\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
                % (status, reason)
            )
            self.transport.close()

    return Guarded


def listen(host: str, port: int) -> socket.socket:
    """A listening socket, bound before the server starts: the URL can be printed first, and
    a client that connects at once waits in the backlog rather than being refused.

    It is made with its protocol named (IPPROTO_TCP), as asyncio's own servers are: asyncio
    turns Nagle's algorithm off only for accepted sockets that say they are TCP, and with it
    on, a body written after its headers waits some 40 ms for the client's delayed ACK.
    """
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )[0]
        sock = socket.socket(family, kind, protocol)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(2048)
        except OSError:
            sock.close()
            raise
        return sock
    except OSError as error:
        reason = error.strerror or str(error)
        raise ConfigError("--host/--port", f"{host}:{port}", f"cannot listen: {reason}") from None


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


async def _serve(
    server: uvicorn.Server, sock: socket.socket, proxy: ReplayProxy
) -> list[ReplayError]:
    """Serve until told to stop, then cut what is still under way and save every cassette."""
    try:
        await server.serve(sockets=[sock])
    finally:
        under_way = list(server.server_state.tasks)
        for task in under_way:
            task.cancel()
        await asyncio.gather(*under_way, return_exceptions=True)
    return await proxy.aclose()


@contextlib.contextmanager
def running(
    proxy: ReplayProxy,
    host: str = DEFAULT_HOST,
    port: int = 0,
    header_timeout: float = HEADER_TIMEOUT,
    max_half_open: int = MAX_HALF_OPEN,
) -> Iterator[Served]:
    """Serve ``proxy`` in a thread of this process while the block runs; saved at its end."""
    sock = listen(host, port)
    server = _server(proxy, header_timeout, max_half_open)
    failures: list[BaseException] = []

    def serve() -> None:
        try:
            failures.extend(asyncio.run(_serve(server, sock, proxy)))
        except BaseException as error:  # reported by the block, not lost in the thread
            failures.append(error)

    thread = threading.Thread(target=serve, name="replay-serve", daemon=True)
    thread.start()
    while not server.started and thread.is_alive():
        time.sleep(0.005)
    try:
        yield Served(url_of(sock), proxy.routes)
    finally:
        server.should_exit = True
        thread.join()
        sock.close()
    if failures:
        raise failures[0]


def for_test(
    cassette: Cassette, open_cassette: Callable[[Location], Cassette], upstreams: Mapping[str, str]
) -> contextlib.AbstractContextManager[Served]:
    """The proxy of the pytest fixture ``replay_server``: the test's cassette is the default,
    ``X-Replay-Cassette`` names others beside it."""
    shelf = Shelf(cassette.path.parent, open_cassette, cassette.path.stem, opened=[cassette])
    return running(ReplayProxy(served_routes(routes_of(upstreams), cassette.mode), shelf))


# Configuration.


def serve_table(pyproject: Path) -> dict[str, object]:
    """``[tool.replay.serve]``, checked: ``upstreams``, ``cassettes``, ``host``, ``port``,
    ``allow_hosts``."""
    where = f"[tool.replay.{SERVE_TABLE}] of {pyproject}"
    table = pyproject_table(pyproject).get(SERVE_TABLE, {})
    if not isinstance(table, dict):
        raise ConfigError(where, table, "is not a table")
    expected: dict[str, Callable[[object], bool]] = {
        "upstreams": lambda v: isinstance(v, dict) and all(isinstance(u, str) for u in v.values()),
        "cassettes": lambda v: isinstance(v, str),
        "host": lambda v: isinstance(v, str),
        "port": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 65535,
        "allow_hosts": lambda v: isinstance(v, list) and all(isinstance(h, str) for h in v),
    }
    for name, value in table.items():
        if name not in expected:
            known = ", ".join(expected)
            raise ConfigError(f"{name} (in {where})", value, f"unknown option (known: {known})")
        if not expected[name](value):
            kind = {
                "upstreams": "a table of prefix to URL",
                "port": "a port number",
                "allow_hosts": "a list of host names",
            }
            raise ConfigError(f"{name} (in {where})", value, f"expected {kind.get(name, 'text')}")
    return table


def project_upstreams(pyproject: Path) -> dict[str, str]:
    """The upstreams of ``[tool.replay.serve]``, else the known providers."""
    upstreams = serve_table(pyproject).get("upstreams")
    return dict(upstreams) if isinstance(upstreams, dict) else known_routes()


@dataclass(frozen=True)
class Plan:
    routes: Routes
    cassettes: Location
    host: str
    port: int
    mode: Mode
    cassette_options: dict[str, Any]
    allowed_hosts: tuple[str, ...] = ()

    def open(self, path: Location) -> Cassette:
        return Cassette(path, self.mode, **self.cassette_options)


def plan(
    pyproject: Path,
    upstreams: tuple[str, ...],
    cassettes: Location | None,
    host: str | None,
    port: int | None,
    command_line: dict[str, object],
    environ: Mapping[str, str] = os.environ,
    allowed_hosts: tuple[str, ...] = (),
) -> Plan:
    """What to serve, from the command line, ``pyproject`` and the defaults (module docstring)."""
    table = serve_table(pyproject)
    options = merged(
        [checked("the command line", command_line), pyproject_options(pyproject), SERVE_DEFAULTS]
    )
    chosen = settings(options, None, environ)  # REPLAY_MODE, then the options, then the default
    given = [parse_upstream(text) for text in upstreams]
    if len({prefix for prefix, _ in given}) != len(given):
        raise ConfigError("--upstream", " ".join(upstreams), "two upstreams for one prefix")
    routes = routes_of(dict(given) if given else project_upstreams(pyproject))
    table_port = table.get("port")
    table_hosts = table.get("allow_hosts", [])
    assert isinstance(table_hosts, list)  # checked by serve_table
    return Plan(
        routes=served_routes(routes, chosen.mode),
        cassettes=cassettes or location(str(table.get("cassettes", DEFAULT_CASSETTES))),
        host=host or str(table.get("host", DEFAULT_HOST)),
        port=port if port is not None else table_port if isinstance(table_port, int) else 8787,
        mode=chosen.mode,
        cassette_options=chosen.cassette_options(),
        allowed_hosts=(*allowed_hosts, *(str(name) for name in table_hosts)),
    )
