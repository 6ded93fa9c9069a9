"""A request body whole, whatever form a client library takes it in (urllib3, http.client)."""

from __future__ import annotations

from typing import Any


def body_bytes(body: Any) -> bytes:
    """The whole body, whatever urllib3 and http.client accept: bytes, text, a file or an
    iterable of pieces.

    Read once here, and the bytes sent on: ``urlopen`` rewinds a file before a retry."""
    if body is None:
        return b""
    if isinstance(body, bytes | bytearray | memoryview):
        return bytes(body)
    if isinstance(body, str):
        return body.encode()  # as urllib3 sends text; these bytes are what is sent
    if hasattr(body, "read"):
        return _as_bytes(body.read())
    return b"".join(_as_bytes(piece) for piece in body)


def _as_bytes(piece: str | bytes) -> bytes:
    return piece.encode() if isinstance(piece, str) else bytes(piece)
