"""Which requests a cassette leaves alone: ``ignore_hosts`` and ``ignore_localhost``.

An ignored request is none of the cassette's business (an SDK's telemetry, a
cost table fetched at import, a local database's HTTP API): it goes straight
to the network, is never recorded and never missed, and ``--block-network``
blocks it as it blocks any other connection.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

LOCALHOST = ("localhost", "127.0.0.1", "::1", "0.0.0.0")
"""What ``ignore_localhost`` adds to the ignored hosts (vcrpy's list, plus IPv6)."""


class IgnoredHosts:
    """Hosts matched by name, case-insensitively, whatever the port or scheme."""

    def __init__(self, hosts: Iterable[str] = (), localhost: bool = False) -> None:
        names = {host.strip().lower().strip("[]") for host in hosts if host.strip()}
        if localhost:
            names.update(LOCALHOST)
        self.names = frozenset(names)

    def __bool__(self) -> bool:
        return bool(self.names)

    def ignores(self, url: str) -> bool:
        if not self.names:
            return False
        return (urlsplit(url).hostname or "") in self.names
