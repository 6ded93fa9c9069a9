"""replay: record and replay LLM API calls through httpx and httpx2.

    cassette = replay.Cassette("cassettes/test_chat.json", mode="once")
    client = httpx2.Client(transport=replay.ReplayTransport(cassette))
    session = aiohttp.ClientSession(middlewares=[replay.ReplayMiddleware(cassette)])

    with replay.use_cassette("cassettes/x.json", mode="none") as cassette:
        ...

The package is in layers; each imports only from the layers below it, and
``nox -s lint`` checks that (import-linter's layers contract in pyproject.toml):

    tools/        what people run: the ``replay`` command, the pytest plugin,
                  the vcrpy bridge, the fake LLM API, the demo
    _adapters/    an HTTP library's request in, its response out: httpx and
                  httpx2 transports, the aiohttp middleware, ``use_cassette``
                  patching, socket guard
    _cassette.py  one cassette: decides replay, record or miss, keeps what was
                  recorded, saves it through the store
    _store/       the Store interface and its local files: the cassette file
                  (format, atomic write, lock), its journal, the usage record
    _core/        pure functions over plain dataclasses, no I/O: key, redact,
                  normalize, modes, streams, answers, model, errors

A request flows down and its answer back up:

    client --httpx request--> _adapters --model.Request--> _cassette
        _cassette: key (_core.key) -> decide (_core.modes) ->
            Replay: stored outcome --> _adapters --httpx response--> client
            Record: upstream call --> redact, normalize (_core) --> _store

Everything a user needs is imported here; the underscored packages are
private and may change between versions.
"""

from __future__ import annotations

from importlib.metadata import version

from replay._adapters.httpx_transport import AsyncReplayTransport, ReplayTransport
from replay._adapters.patch import use_cassette
from replay._cassette import Cassette
from replay._core.errors import (
    CassetteError,
    CassetteMiss,
    CassetteVersionError,
    ConfigError,
    Difference,
    DroppedRequestBlocked,
    FrameMiss,
    NetworkBlocked,
    ReplayError,
    UndecodableSecret,
    UnroutedLibrary,
    UnusedRecordings,
    UnusedResponse,
)
from replay._core.modes import Mode
from replay._core.providers import Provider
from replay._store.usage import mark_incomplete

__version__ = version("replay-llm")


def __getattr__(name: str) -> object:
    """``ReplayMiddleware`` imports aiohttp, so only when asked for (the aiohttp extra)."""
    if name == "ReplayMiddleware":
        try:
            from replay._adapters.aiohttp_adapter import ReplayMiddleware
        except ModuleNotFoundError as error:
            if error.name != "aiohttp":
                raise
            raise ModuleNotFoundError(
                "replay.ReplayMiddleware needs aiohttp 3.12 or later: pip install aiohttp "
                "(or the extra: pip install 'replay-llm[aiohttp]')",
                name="aiohttp",
            ) from error
        return ReplayMiddleware
    raise AttributeError(f"module 'replay' has no attribute {name!r}")


__all__ = [
    "AsyncReplayTransport",
    "Cassette",
    "CassetteError",
    "CassetteMiss",
    "CassetteVersionError",
    "ConfigError",
    "Difference",
    "DroppedRequestBlocked",
    "FrameMiss",
    "Mode",
    "NetworkBlocked",
    "Provider",
    "ReplayError",
    "ReplayTransport",
    "UndecodableSecret",
    "UnroutedLibrary",
    "UnusedRecordings",
    "UnusedResponse",
    "__version__",
    "mark_incomplete",
    "use_cassette",
]
