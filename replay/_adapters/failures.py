"""Transport failures across libraries: a failure recorded by one replays in another.

A :class:`~replay._core.model.TransportFailure` keeps the class name of the
exception that was raised. Replaying it for a client of another library takes
that library's closest exception: a connection refused recorded through
aiohttp (``ClientConnectorError``) replays as ``ConnectError`` for httpx, and
back.
"""

from __future__ import annotations

_EQUIVALENT = (
    # (httpx and httpx2, aiohttp)
    ("ConnectError", "ClientConnectorError"),
    ("ConnectTimeout", "ConnectionTimeoutError"),
    ("ReadTimeout", "SocketTimeoutError"),
    ("RemoteProtocolError", "ServerDisconnectedError"),
    ("ReadError", "ClientPayloadError"),
    ("WriteError", "ClientOSError"),
)
_TO_HTTPX = {aiohttp: httpx for httpx, aiohttp in _EQUIVALENT} | {
    "ClientConnectorDNSError": "ConnectError",
    "ServerTimeoutError": "ReadTimeout",
}
_TO_AIOHTTP = {httpx: aiohttp for httpx, aiohttp in _EQUIVALENT} | {
    "PoolTimeout": "ConnectionTimeoutError",
    "WriteTimeout": "SocketTimeoutError",
}


def httpx_kind(kind: str) -> str:
    """The httpx (and httpx2) exception name for a failure recorded as ``kind``."""
    return _TO_HTTPX.get(kind, kind)


def aiohttp_kind(kind: str) -> str:
    """The aiohttp exception name for a failure recorded as ``kind``."""
    return _TO_AIOHTTP.get(kind, kind)
