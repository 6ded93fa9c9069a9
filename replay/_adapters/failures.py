"""Transport failures across libraries: a failure recorded by one replays in another.

A :class:`~replay._core.model.TransportFailure` keeps the class name of the
exception that was raised. Replaying it for a client of another library takes
that library's closest exception: a connection refused recorded through
aiohttp (``ClientConnectorError``) replays as ``ConnectError`` for httpx, and
back; one recorded through urllib3 (``NewConnectionError``) likewise.
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
_URLLIB3 = (
    # (httpx and httpx2, urllib3)
    ("ConnectError", "NewConnectionError"),
    ("ConnectTimeout", "ConnectTimeoutError"),
    ("ReadTimeout", "ReadTimeoutError"),
    ("RemoteProtocolError", "ProtocolError"),
)
_URLLIB3_TO_HTTPX = {urllib3: httpx for httpx, urllib3 in _URLLIB3} | {
    "NameResolutionError": "ConnectError",
    "RemoteDisconnected": "RemoteProtocolError",  # http.client's, under urllib3
}
_TO_HTTPX = (
    {aiohttp: httpx for httpx, aiohttp in _EQUIVALENT}
    | _URLLIB3_TO_HTTPX
    | {"ClientConnectorDNSError": "ConnectError", "ServerTimeoutError": "ReadTimeout"}
)
_TO_AIOHTTP = {httpx: aiohttp for httpx, aiohttp in _EQUIVALENT} | {
    "PoolTimeout": "ConnectionTimeoutError",
    "WriteTimeout": "SocketTimeoutError",
}
_TO_URLLIB3 = {httpx: urllib3 for httpx, urllib3 in _URLLIB3} | {
    "ReadError": "ProtocolError",
    "WriteError": "ProtocolError",
    "PoolTimeout": "ConnectTimeoutError",
    "WriteTimeout": "ReadTimeoutError",
}


def httpx_kind(kind: str) -> str:
    """The httpx (and httpx2) exception name for a failure recorded as ``kind``."""
    return _TO_HTTPX.get(kind, kind)


def aiohttp_kind(kind: str) -> str:
    """The aiohttp exception name for a failure recorded as ``kind``."""
    httpx = _URLLIB3_TO_HTTPX.get(kind, kind)
    return _TO_AIOHTTP.get(httpx, httpx)


def urllib3_kind(kind: str) -> str:
    """The urllib3 exception name for a failure recorded as ``kind``."""
    return _TO_URLLIB3.get(httpx_kind(kind), kind)
