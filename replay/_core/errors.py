"""Every error replay raises, under one base class.

    ReplayError
    ├── CassetteError            a cassette file cannot be read or written
    │   ├── CassetteVersionError     the file is a cassette of a format we do not know
    │   └── UnsendableResponse       a stored response no HTTP server could send as it is
    ├── CassetteMiss             a request has no recording and the mode forbids recording
    │   └── FrameMiss                a replayed WebSocket client sent a message not recorded
    ├── UndecodableSecret        a body replay cannot decode carries a secret: not recorded
    ├── ConfigError              an option has a value replay cannot use
    └── NetworkBlocked           a connection no cassette makes: blocked, in mode none or by
                                 --block-network

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
    """A replayed WebSocket client sent a message other than the one recorded at its place.

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
    ) -> None:
        self.position = position
        super().__init__(
            cassette,
            "GET",
            url,
            f"client message {position} {reason}",
            closest_url=f"client message {position} as recorded" if differences else None,
            differences=differences,
        )


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
        where = host if port is None else f"{host}:{port}"
        if cassette is None:
            message = (
                f"network access to {where} is blocked (replay --block-network); "
                "record a cassette for this request or add the host to --allow-hosts"
            )
        else:
            message = (
                f"connection to {where} made outside cassette {cassette}, which replays only "
                "(mode 'none'): the client making it does not go through replay (a library "
                "replay does not route, or a socket of its own). Record it with a client "
                "replay routes, add the host to ignore_hosts, or pass block_network=False"
            )
        super().__init__(message)


def _short(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
