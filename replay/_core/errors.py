"""Every error replay raises, under one base class.

    ReplayError
    ├── CassetteError            a cassette file cannot be read or written
    │   ├── CassetteVersionError     the file is a cassette of a format we do not know
    │   └── UnsendableResponse       a stored response no HTTP server could send as it is
    ├── CassetteMiss             a request has no recording and the mode forbids recording
    │   ├── FrameMiss                a replayed WebSocket client sent a message not recorded
    │   └── McpMiss                  a replayed MCP client sent a message not recorded
    ├── UndecodableSecret        a body replay cannot decode carries a secret: not recorded
    ├── ConfigError              an option has a value replay cannot use
    ├── UnusedRecordings         a cassette closed with recorded responses nobody asked for
    │                            (``unused="fail"``)
    ├── NetworkBlocked           a connection no cassette makes: blocked, in mode none or by
    │   │                        --block-network
    │   └── DroppedRequestBlocked    a request before_record_request dropped, in mode none
    └── UnroutedLibrary          a warning: a library whose version replay cannot route

Each error keeps the facts it was built from as attributes and builds its
message from them, so a caller can react to ``error.path`` or
``error.differences`` without parsing text. Those ``replay`` exports say
``__module__ = "replay"``: a traceback names them as they are imported,
``replay.CassetteError``, not by this private module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from replay._core import location as locations


class ReplayError(Exception):
    """Base class of every error raised by replay."""

    __module__ = "replay"


class CassetteError(ReplayError):
    """A cassette file that cannot be read or written. The file is left as it was."""

    __module__ = "replay"

    def __init__(self, path: str | Path | locations.S3Location, reason: str) -> None:
        self.path = locations.location(path)
        self.reason = reason
        super().__init__(f"cassette {self.path}: {reason}")


class CassetteVersionError(CassetteError):
    __module__ = "replay"

    def __init__(
        self, path: str | Path | locations.S3Location, found: object, supported: int
    ) -> None:
        self.found = found
        self.supported = supported
        super().__init__(
            path, f"unknown format version {found!r} (this replay reads version {supported})"
        )


@dataclass(frozen=True)
class Difference:
    """One field in which a request differs from a recorded one."""

    __module__ = "replay"

    field: str  # "method", "url", "query.limit", "body.messages[0].content", ...
    recorded: object
    requested: object

    def __str__(self) -> str:
        return f"{self.field}: recorded {_short(self.recorded)}, requested {_short(self.requested)}"


class CassetteMiss(ReplayError):
    """A request with no recording, in a mode that forbids recording.

    A miss never falls through to the network.
    """

    __module__ = "replay"

    def __init__(
        self,
        cassette: str | Path | locations.S3Location,
        method: str,
        url: str,
        reason: str,
        closest_url: str | None = None,
        differences: Sequence[Difference] = (),
    ) -> None:
        self.cassette = locations.location(cassette)
        self.method = method
        self.url = url
        self.reason = reason
        self.closest_url = closest_url
        self.differences = tuple(differences)
        lines = [f"no recording for {method} {url} in cassette {self.cassette}: {reason}"]
        if closest_url is not None and self.differences:
            lines.append(f"closest recorded request: {closest_url}, which differs in")
            lines.extend(f"  {difference}" for difference in self.differences)
        elif closest_url is not None:
            lines.append(
                f"closest recorded request: {closest_url}; no difference can be shown: the two "
                "are equal in all that the current matching rules compare, so the recorded "
                "one was keyed otherwise (edited by hand, or written by another version)"
            )
        super().__init__("\n".join(lines))


class FrameMiss(CassetteMiss):
    """A replayed WebSocket client (or gRPC client stream) sent a message other than the one
    recorded at its place.

    ``position`` counts the client's messages from 1; ``differences`` are those from the
    recorded message (JSON paths under ``frame``), empty when the recording has no message
    there at all.
    """

    __module__ = "replay"

    def __init__(
        self,
        cassette: str | Path | locations.S3Location,
        url: str,
        position: int,
        reason: str,
        differences: Sequence[Difference] = (),
        method: str = "GET",
    ) -> None:
        self.position = position
        super().__init__(
            cassette,
            method,
            url,
            f"client message {position} {reason}",
            closest_url=f"client message {position} as recorded" if differences else None,
            differences=differences,
        )


class McpMiss(CassetteMiss):
    """A replayed MCP client (``replay mcp``) sent a message no recorded one matches.

    ``message`` is the JSON-RPC method (``"response"`` for the client's answer to a server's
    request); ``closest`` names the recorded client message nearest to it, ``differences``
    are those from it (JSON paths under ``params``), empty when none was near.
    """

    def __init__(
        self,
        cassette: str | Path | locations.S3Location,
        url: str,
        message: str,
        reason: str,
        closest: str | None = None,
        differences: Sequence[Difference] = (),
    ) -> None:
        self.message = message
        self.closest = closest
        super().__init__(cassette, message, url, reason, closest, differences)


class UndecodableSecret(ReplayError):
    """A body in a content encoding replay cannot undo holds a secret the request carried.

    Stored encoded, it would keep that secret on disk out of redaction's sight; so it is not
    recorded at all. A request body is refused before it is sent.
    """

    __module__ = "replay"

    def __init__(self, method: str, url: str, part: str, encoding: str) -> None:
        self.method = method
        self.url = url
        self.part = part
        self.encoding = encoding
        super().__init__(
            f"{method} {url}: the {part} body is in content-encoding {encoding!r}, which replay "
            "cannot decode, and it holds a secret the request carried; it is not recorded "
            "(install the module that decodes it: brotli for br, zstandard for zstd)"
        )


class UnsendableResponse(CassetteError):
    """A recorded response no HTTP server may send: a status outside 200-599, a header name
    that is not a token, a value with a line break or control character, a body on a 204 or
    304. A cassette edited by hand or written by another tool can hold one; ``replay serve``
    answers this error rather than break the connection."""

    def __init__(
        self, path: str | Path | locations.S3Location, key: str, request: str, problem: str
    ) -> None:
        self.key = key
        self.request = request
        self.problem = problem
        super().__init__(path, f"interaction {key} ({request}) cannot be sent: {problem}")


class RefusedRequest(ReplayError):
    """A request ``replay serve`` refuses before it reaches a cassette or an upstream: its
    ``status`` and ``kind`` make the JSON error answered, ``target`` is the request as shown
    (secrets redacted)."""

    def __init__(self, status: int, kind: str, target: str, reason: str) -> None:
        self.status = status
        self.kind = kind
        self.target = target
        self.reason = reason
        super().__init__(f"{target}: {reason}")


class ConfigError(ReplayError):
    __module__ = "replay"

    def __init__(self, option: str, value: object, reason: str) -> None:
        self.option = option
        self.value = value
        self.reason = reason
        super().__init__(f"{option}={value!r}: {reason}")


class NetworkBlocked(ReplayError):
    """A connection that no cassette records: blocked by ``--block-network``, or made inside a
    replay-only cassette (``cassette`` is then its path) by a client replay does not route."""

    __module__ = "replay"

    def __init__(
        self, host: str, port: int | None, cassette: Path | locations.S3Location | None = None
    ) -> None:
        self.host = host
        self.port = port
        self.cassette = cassette
        super().__init__(self._message(host if port is None else f"{host}:{port}"))

    def _message(self, where: str) -> str:
        if self.cassette is None:
            return (
                f"network access to {where} is blocked (replay --block-network); "
                "record a cassette for this request or add the host to --allow-hosts"
            )
        return (
            f"connection to {where} made outside cassette {self.cassette}, which replays only "
            "(mode 'none'): the client making it does not go through replay (a library "
            "replay does not route, or a socket of its own). Record it with a client "
            "replay routes, add the host to ignore_hosts, or pass block_network=False"
        )


class DroppedRequestBlocked(NetworkBlocked):
    """A request the cassette's ``before_record_request`` hook dropped, in a cassette that
    replays only: it would go to the network unrecorded, as vcrpy sends it, so it is blocked."""

    __module__ = "replay"

    def _message(self, where: str) -> str:
        return (
            f"request to {where} dropped by before_record_request in cassette {self.cassette}, "
            "which replays only (mode 'none'): a dropped request is neither recorded nor "
            "replayed, and would reach the network. Keep it in the hook, add the host to "
            "ignore_hosts, or pass block_network=False"
        )


@dataclass(frozen=True)
class UnusedResponse:
    """One recorded response no request asked for: its request's ``method`` and ``url`` (as
    stored: secrets redacted), and its place among the ``recorded`` responses of that request
    (``position`` from 1). A WebSocket session is the response to its handshake, a GET."""

    __module__ = "replay"

    method: str
    url: str
    position: int = 1
    recorded: int = 1

    def __str__(self) -> str:
        place = f" (response {self.position} of {self.recorded})" if self.recorded > 1 else ""
        return f"{self.method} {self.url}{place}"


class UnusedRecordings(ReplayError):
    """A cassette closed with recorded responses that no request asked for (``unused="fail"``):
    the test no longer makes calls it was recorded making, or makes fewer of them."""

    __module__ = "replay"

    def __init__(
        self, cassette: str | Path | locations.S3Location, unused: Sequence[UnusedResponse]
    ) -> None:
        self.cassette = locations.location(cassette)
        self.unused = tuple(unused)
        count = len(self.unused)
        lines = [
            f"cassette {self.cassette}: {count} recorded response{'' if count == 1 else 's'} "
            f"{'was' if count == 1 else 'were'} never used",
            *(f"  {response}" for response in self.unused),
            "The test no longer makes these calls as recorded: delete the cassette and record "
            "it again.",
        ]
        super().__init__("\n".join(lines))


class UnroutedLibrary(ReplayError, UserWarning):
    """A warning, once a process: an installed library that replay routes in other versions
    (``library`` at ``version``), left unrouted since ``reason``: what replay wraps in it is not
    there, or is not what replay knows. The other libraries are routed as ever."""

    __module__ = "replay"

    def __init__(self, library: str, version: str, reason: str) -> None:
        self.library = library
        self.version = version
        self.reason = reason
        super().__init__(
            f"replay does not route {library} {version} ({reason}): in a replay-only cassette "
            f"(mode 'none') its connections raise NetworkBlocked, and recording, its calls are "
            f"not recorded. Install a version of {library} that replay supports (docs/clients.md)"
        )


def _short(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
