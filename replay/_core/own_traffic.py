"""Which connections are replay's own: a cassette recording, or a store reaching its cassettes.

Both must go through untouched: not routed into a cassette again (an ``s3://`` store's
requests go through urllib3, which ``use_cassette`` routes), and not blocked by the network
guards, which let through what :func:`through_cassette` marks. A context variable, so the
mark follows a request into the asyncio task or thread-local call that makes it.
"""

from __future__ import annotations

import contextvars

_through_cassette = contextvars.ContextVar("replay_through_cassette", default=False)


class through_cassette:
    """Connections made inside the block are replay's own, and are allowed.

    A class named as the function it is used as, not a ``contextmanager`` generator:
    recording enters one per call, and a generator's setup is three times the cost of the
    mark itself (1.5 against 0.5 us)."""

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        self._token = _through_cassette.set(True)

    def __exit__(self, *exception: object) -> None:
        _through_cassette.reset(self._token)


def inside_cassette() -> bool:
    """Whether the request being made already passed through a cassette, which records it, or
    is a store's: another cassette (a ``use_cassette`` block around an explicit transport)
    must not take it."""
    return _through_cassette.get()
