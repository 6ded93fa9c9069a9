"""gRPC calls as a cassette sees them: a request to a ``grpc://`` URL, answered by a
:class:`~replay._core.model.GrpcCall`.

A call's request is ``POST`` to ``grpc://HOST:PORT/package.Service/Method`` (the channel's
target, then the method path), its headers the call's metadata, its body the request
message: its JSON view where the message's type is known, so a key reads it as canonical
JSON (field order does not count, ``ignore`` paths apply), else its bytes. A call whose
client streams has an empty body; its client messages are in the recorded answer, checked
one by one on replay as a WebSocket session's are (:class:`Playback`).
"""

from __future__ import annotations

from replay._core.key import KeyRules
from replay._core.location import Location
from replay._core.model import GrpcCall, WebSocketSession
from replay._core.websocket import Playback

OK = "OK"
DEFAULT_PORT = 443
"""The port gRPC connects to when a target names none."""
_RESOLVER_PREFIXES = ("dns:///", "dns:", "ipv4:", "ipv6:")


def call_url(target: str, method: str) -> str:
    """The URL a call to ``method`` (``/package.Service/Method``) over a channel to ``target``
    is keyed and stored by. A resolver's prefix (``dns:///``) is left out and gRPC's default
    port filled in; a Unix socket's target is ``localhost``, whatever its path."""
    host = target
    if host.startswith(("unix:", "unix-abstract:")):
        host = "localhost"
    for prefix in _RESOLVER_PREFIXES:
        if host.startswith(prefix):
            host = host[len(prefix) :]
            break
    host = host.rsplit("/", 1)[-1]  # dns://AUTHORITY/HOST
    if not _has_port(host):
        host = f"{host}:{DEFAULT_PORT}"
    return f"grpc://{host}{method if method.startswith('/') else '/' + method}"


def _has_port(host: str) -> bool:
    if host.startswith("["):  # [IPv6] or [IPv6]:PORT
        return "]:" in host
    return host.rpartition(":")[2].isdigit()


def playback(call: GrpcCall, cassette: str | Location, url: str, rules: KeyRules) -> Playback:
    """The replay of ``call``'s messages: each server message once the client sent those
    recorded before it, each client message checked against the recorded one."""
    return Playback(WebSocketSession(call.messages, call.recorded_at), cassette, url, rules, "POST")
