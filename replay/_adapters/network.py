"""``--block-network``: no real connection from a test except through a cassette.

The guard replaces ``socket.socket.connect`` and ``connect_ex`` while it is
active, so every client is caught whatever it is built on: httpx and httpx2,
requests and urllib3, aiohttp and anything else on asyncio (whose event loops
connect through the same method). Unix sockets are always allowed, and so are
the hosts given to the guard (``--allow-hosts``, ``--allowed-hosts``): see
:class:`AllowedHosts`.

A cassette that records has to reach the network: the transports do that
inside :func:`through_cassette`, which the guard lets through.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

from replay._core.errors import ConfigError, NetworkBlocked
from replay._core.own_traffic import inside_cassette


def addresses_of(hosts: Iterable[str]) -> frozenset[str]:
    """The hosts as given, plus every address each resolves to."""
    found: set[str] = set()
    for host in hosts:
        found.add(host)
        try:
            resolved = socket.getaddrinfo(host, None)
        except (socket.gaierror, UnicodeError):
            continue  # an address, or a name that does not resolve here: kept as given
        found.update(str(info[4][0]) for info in resolved)
    return frozenset(found)


class AllowedHosts:
    """The hosts a guard lets through. Each entry is a regular expression matched at the
    start of the address a socket connects to, as pytest-recording matches its
    ``--allowed-hosts`` (``127\\.0\\.0\\.1``, ``10\\.``), or a host name, whose
    addresses are let through too (``localhost``), as replay's ``--allow-hosts`` has it."""

    def __init__(self, entries: Iterable[str], source: str = "--allow-hosts") -> None:
        hosts = [entry.strip() for entry in entries if entry.strip()]
        self.addresses = addresses_of(hosts)
        self._patterns = []
        for host in hosts:
            try:
                self._patterns.append(re.compile(host))
            except re.error as error:
                raise ConfigError(
                    source, host, f"not a host name or a regular expression ({error})"
                ) from None

    def __contains__(self, host: str) -> bool:
        return host in self.addresses or any(pattern.match(host) for pattern in self._patterns)


def check_connections(check: Callable[[object], None]) -> Callable[[], None]:
    """Make ``socket.socket.connect`` and ``connect_ex`` call ``check(address)`` first, for
    every client in the process; returns what puts the originals back."""
    connect, connect_ex = socket.socket.connect, socket.socket.connect_ex

    def checked_connect(sock: socket.socket, address: Any) -> None:
        check(address)
        connect(sock, address)

    def checked_connect_ex(sock: socket.socket, address: Any) -> int:
        check(address)
        return connect_ex(sock, address)

    socket.socket.connect = checked_connect  # type: ignore[method-assign, assignment]
    socket.socket.connect_ex = checked_connect_ex  # type: ignore[method-assign, assignment]

    def restore() -> None:
        socket.socket.connect = connect  # type: ignore[method-assign]
        socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]

    return restore


def host_and_port(address: object) -> tuple[str, int | None] | None:
    """The host and port of an internet address; None for a Unix socket path, always allowed."""
    if not isinstance(address, tuple):
        return None
    host, port = str(address[0]), address[1]
    return host, port if isinstance(port, int) else None


class NetworkGuard:
    """Blocks real connections inside its ``with`` block, except to ``allowed_hosts``.

    Each blocked attempt raises :class:`~replay._core.errors.NetworkBlocked` and is
    kept in :attr:`blocked`: a client that catches it and fails differently
    (an SDK's retry loop) still lets the test report say what happened.
    """

    def __init__(self, allowed_hosts: AllowedHosts | None = None) -> None:
        self.allowed = allowed_hosts if allowed_hosts is not None else AllowedHosts(())
        self.blocked: list[NetworkBlocked] = []
        """The attempts blocked since the block was last entered."""
        self._restore: Callable[[], None] | None = None

    def check(self, address: object) -> None:
        target = host_and_port(address)
        if inside_cassette() or target is None:
            return  # a Unix socket path, or a cassette recording
        if target[0] in self.allowed:
            return
        error = NetworkBlocked(*target)
        self.blocked.append(error)
        raise error

    def __enter__(self) -> NetworkGuard:
        self.blocked = []
        self._restore = check_connections(self.check)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._restore is not None:
            self._restore()
            self._restore = None
