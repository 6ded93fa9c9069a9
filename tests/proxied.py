"""The recording proxy on a real uvicorn server on 127.0.0.1, for the proxy's tests.

``proxy(upstreams, root, mode)`` serves ``root``'s cassettes in a thread of the test process
and yields the running app with its URL; the block's end stops it and saves every cassette,
as ``replay serve`` does on Ctrl-C.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replay import Cassette
from replay._adapters.proxy import ReplayProxy, Shelf
from replay.tools import serve


@dataclass
class Proxy:
    url: str
    app: ReplayProxy
    served: serve.Served


@contextmanager
def proxy(
    upstreams: Mapping[str, str], root: Path, mode: str = "once", **options: Any
) -> Iterator[Proxy]:
    shelf = Shelf(root, lambda path: Cassette(path, mode, **options))
    app = ReplayProxy(serve.routes_of(upstreams), shelf)
    with serve.running(app) as served:
        yield Proxy(served.url, app, served)


def stored(path: Path) -> dict[str, Any]:
    """The interactions of a cassette file, by key."""
    interactions: dict[str, Any] = json.loads(path.read_bytes())["interactions"]
    return interactions


def without_times(path: Path) -> dict[str, Any]:
    """A cassette with what differs between two recordings of one conversation left out: when
    it was recorded, and when each chunk arrived."""
    document: dict[str, Any] = json.loads(path.read_bytes())
    for interaction in document["interactions"].values():
        for response in interaction["responses"]:
            response.pop("recorded_at")
            for chunk in response.get("chunks", ()):
                chunk.pop("at")
    return document
