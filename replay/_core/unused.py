"""What closing a cassette does about recorded responses no request asked for: ``unused``.

``allow``  nothing (the default)
``warn``   one warning, worded as the error below
``fail``   :class:`~replay._core.errors.UnusedRecordings` naming the cassette and each such
           response's request, raised where the cassette is closed (the end of a
           ``use_cassette`` block, of a ``with Cassette(...)`` block, of a pytest test that
           otherwise passed), unless another exception is already leaving it

A response counts as used once a request replayed it; each of several responses recorded for
one request counts on its own. A WebSocket session is one response, to its handshake: used once
replayed, however far its client went (the server's messages after the client's last are not
waited for). Only what the cassette held when it was read counts: a response recorded, or
recorded again, while it was open was asked for.
"""

from __future__ import annotations

from enum import StrEnum

from replay._core.errors import ConfigError


class Unused(StrEnum):
    ALLOW = "allow"
    WARN = "warn"
    FAIL = "fail"


def unused_choice(where: str, value: object) -> Unused:
    """``value`` as a choice of :class:`Unused`; a ConfigError naming ``where`` otherwise."""
    try:
        return Unused(str(value))
    except ValueError:
        names = ", ".join(choice.value for choice in Unused)
        raise ConfigError(where, value, f"not a choice (one of {names})") from None
