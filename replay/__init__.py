"""replay: record and replay LLM API calls through httpx and httpx2.

    cassette = replay.Cassette("cassettes/test_chat.json", mode="once")
    client = httpx2.Client(transport=replay.ReplayTransport(cassette))

    with replay.use_cassette("cassettes/x.json", mode="none") as cassette:
        ...

The layout follows the data: ``transport`` (the httpx/httpx2 adapters) turns
requests into ``model`` dataclasses; ``cassette`` decides replay, record or
miss using ``key``, ``redact``, ``normalize`` and ``providers``; ``store`` reads
and writes the file; ``streams`` tees and replays chunks.
"""

from __future__ import annotations

from replay.cassette import Cassette
from replay.errors import (
    CassetteError,
    CassetteMiss,
    CassetteVersionError,
    ConfigError,
    Difference,
    NetworkBlocked,
    ReplayError,
)
from replay.modes import Mode
from replay.patch import use_cassette
from replay.providers import Provider
from replay.transport import AsyncReplayTransport, ReplayTransport

__all__ = [
    "AsyncReplayTransport",
    "Cassette",
    "CassetteError",
    "CassetteMiss",
    "CassetteVersionError",
    "ConfigError",
    "Difference",
    "Mode",
    "NetworkBlocked",
    "Provider",
    "ReplayError",
    "ReplayTransport",
    "use_cassette",
]
