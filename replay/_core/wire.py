"""What an HTTP/1.1 server may send as the head of a response (RFC 9110, 9112).

A cassette written by hand or by another tool can hold what no server sends: the HTTP server
under ``replay serve`` would then raise and drop the connection. :func:`head_problem` says
what is wrong, so that the proxy answers an error naming the cassette instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

BODILESS_STATUSES = frozenset({204, 304})
"""Statuses whose responses have no body, whatever their headers say."""
_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_FIELD_VALUE = re.compile(rb"(?:[\x21-\x7e\x80-\xff](?:[ \t]*[\x21-\x7e\x80-\xff])*)?")
"""Visible characters (obs-text too: a value beyond Latin-1 is sent as UTF-8), spaces and
tabs only between them: no line break, NUL or other control character."""
_SHOWN = 60


def head_problem(status: int, headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """Why a response with ``status`` and ``headers`` cannot be sent, or None."""
    if not 200 <= status <= 599:
        return f"status {status} is not a final response status (200 to 599)"
    for name, value in headers:
        if not _TOKEN.fullmatch(name):
            return f"header name {_shown(name)} is not an HTTP token"
        if not _FIELD_VALUE.fullmatch(value):
            return (
                f"header {_shown(name)} has a value with a line break, control character or "
                f"space at an end: {_shown(value)}"
            )
    return None


def body_problem(status: int, body: bytes) -> str | None:
    """Why ``body`` cannot follow ``status``, or None."""
    if status in BODILESS_STATUSES and body:
        return f"status {status} has no body, and {len(body)} bytes are recorded"
    return None


def _shown(data: bytes) -> str:
    text = repr(data.decode("latin-1"))
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."
