"""The SDK compatibility matrix: every route in ``tests/sdk_routes.py``, each call kind (sync,
async, streamed, async-streamed), attached three ways (an explicit transport, ``use_cassette``
with the client made inside the block, a client made before it): the cells the route has.

For each route, every cell is recorded from its loopback server (the fake LLM API, or a fake
Bedrock or Realtime API) into a cassette of its own;
then the server is stopped and one new Python process replays all the route's cells with
every connection blocked (``tests/sdk_replay.py``). Each cell is then checked as a subtest
of its route's test (reported as ``SUBFAILED[openai-before-async_stream]``): it recorded,
what the SDK returned on replay is what it returned while recording (and what the server
answers), replay opened no connection, and no cassette byte holds the API key.

Which routes: the fast subset (``Route.fast``) by default; ``REPLAY_SDK_ROUTES=all`` (set by
``nox -s sdks``) or a comma-separated list of route names asks for others. A route whose
SDK is not installed fails its cells: asked for, it never silently vanishes.

One test per route, not per cell, because a route's cells share one replay process (its SDK
imported once) and xdist must not split them: ``--dist loadgroup`` cannot keep them together
today, since pytest 9.2 computes a node id from ``Item._id``, so pytest-xdist 3.8's
``@group`` suffix on ``Item._nodeid`` is lost and every test becomes a group of its own.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import subprocess
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
import pytest
from conftest import TEST_API_KEY, cassette_bytes, port_refuses
from sdk_routes import ROUTES, Route, prompt_of, run_cell

TESTS = Path(__file__).resolve().parent.parent
REPLAY_KEY = "sk-replay-dummy-000000000000"
"""The key the replaying process gives its clients: a recording needs no real key."""
SDK_KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GROQ_API_KEY", "AI21_API_KEY")


def selected_routes() -> list[str]:
    asked = os.environ.get("REPLAY_SDK_ROUTES", "").strip()
    if not asked:
        return [name for name, route in ROUTES.items() if route.fast]
    if asked == "all":
        return list(ROUTES)
    names = [name.strip() for name in asked.split(",") if name.strip()]
    unknown = sorted(set(names) - set(ROUTES))
    if unknown:
        raise pytest.UsageError(f"REPLAY_SDK_ROUTES names unknown routes: {unknown}")
    return names


@dataclass
class Cell:
    attach: str
    kind: str
    cassette: Path
    recorded: Any = None
    record_error: str | None = None
    requests_seen: int = 0
    """How many requests (or WebSocket handshakes) the server answered while this cell
    recorded."""
    replay: dict[str, Any] = field(default_factory=dict)
    """What the replaying process reported: value, error, blocked."""

    @property
    def id(self) -> str:
        return f"{self.attach}-{self.kind}"


@dataclass
class RouteRun:
    cells: dict[str, Cell]
    url: str = ""
    """The server's address, which the cassettes' requests name."""
    missing_sdk: str | None = None
    fake_touched_by_replay: bool = False


def record_and_replay(route: Route, directory: Path) -> RouteRun:
    """Every cell of ``route`` recorded from its server, then replayed in a new process with
    the server stopped."""
    cells = {
        cell.id: cell
        for cell in (
            Cell(attach, kind, directory / f"{attach}-{kind}" / "cassette.json")
            for attach in route.attachments
            for kind in route.kinds
        )
    }
    try:
        for module in route.modules:
            importlib.import_module(module)
    except ImportError as error:
        return RouteRun(cells, missing_sdk=f"{route.name}: {error}")
    with route.server(TEST_API_KEY) as server:
        with asyncio.Runner() as loop, pytest.MonkeyPatch.context() as environment:
            # An outer run's REPLAY_MODE would override the recording's "once".
            environment.delenv("REPLAY_MODE", raising=False)
            for cell in cells.values():
                before = server.answered()
                try:
                    cell.recorded = run_cell(
                        route,
                        cell.attach,
                        cell.kind,
                        (server.url, TEST_API_KEY),
                        cell.cassette,
                        "once",
                        loop,
                    )
                except Exception:
                    cell.record_error = traceback.format_exc()
                cell.requests_seen = server.answered() - before
    seen = server.answered()
    assert port_refuses(server.url)
    results = replay_elsewhere(route, server.url, cells, directory)
    for cell in cells.values():
        cell.replay = results.get(cell.id, {"error": "not replayed", "blocked": []})
    return RouteRun(cells, server.url, fake_touched_by_replay=server.answered() != seen)


def replay_elsewhere(
    route: Route, url: str, cells: dict[str, Cell], directory: Path
) -> dict[str, Any]:
    """Replays the recorded cells in a new process: {cell id: value, error, blocked}."""
    spec = {
        "route": route.name,
        "url": url,
        "api_key": REPLAY_KEY,
        "cells": [
            {"id": c.id, "attach": c.attach, "kind": c.kind, "cassette": str(c.cassette)}
            for c in cells.values()
            if c.record_error is None
        ],
    }
    spec_path = directory / "replay-spec.json"
    spec_path.parent.mkdir(parents=True, exist_ok=True)
    results_path = spec_path.with_name("replay-results.json")
    spec_path.write_text(json.dumps(spec))
    environment = {
        **{k: v for k, v in os.environ.items() if k != "REPLAY_MODE"},
        **dict.fromkeys(SDK_KEY_VARIABLES, REPLAY_KEY),
    }
    done = subprocess.run(
        [sys.executable, str(TESTS / "sdk_replay.py"), str(spec_path), str(results_path)],
        env=environment,
        cwd=spec_path.parent,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0 or not results_path.exists():
        failure = f"replay process exited {done.returncode}:\n{done.stderr[-4000:]}"
        return {c.id: {"error": failure, "blocked": []} for c in cells.values()}
    results: dict[str, Any] = json.loads(results_path.read_text())
    return results


def responses_stored(path: Path, url: str) -> int:
    """How many responses (or WebSocket sessions) from the server at ``url`` the cassette
    holds (an SDK may call other hosts too: huggingface-hub asks huggingface.co for its agent
    registry). By host and port: a WebSocket's URL is ``ws://`` where the server's is
    ``http://``."""
    interactions = orjson.loads(path.read_bytes())["interactions"].values()
    return sum(
        len(interaction["responses"])
        for interaction in interactions
        if urlsplit(interaction["request"]["url"]).netloc == urlsplit(url).netloc
    )


@pytest.mark.parametrize("route", selected_routes())
def test_sdk_route_records_and_replays_in_a_new_process(
    route: str, tmp_path: Path, subtests: pytest.Subtests
) -> None:
    run = record_and_replay(ROUTES[route], tmp_path)
    assert run.missing_sdk is None, (
        f"the SDK of a route asked for is not installed: {run.missing_sdk}"
    )
    assert not run.fake_touched_by_replay
    for cell in run.cells.values():
        with subtests.test(msg=f"{route}-{cell.id}"):
            check_cell(ROUTES[route], cell, run.url)


def check_cell(route: Route, cell: Cell, url: str) -> None:
    assert cell.record_error is None, f"recording failed:\n{cell.record_error}"
    # Everything the server answered went through the cassette, and nothing else did.
    assert cell.requests_seen >= 1
    assert responses_stored(cell.cassette, url) == cell.requests_seen
    assert TEST_API_KEY.encode() not in cassette_bytes(cell.cassette)

    replayed = cell.replay
    assert replayed["error"] is None, f"replay failed:\n{replayed['error']}"
    assert replayed["blocked"] == [], "replay tried to open a connection"
    assert replayed["value"] == cell.recorded

    expected = f"Answer to: {prompt_of(route, cell.kind)}"
    if cell.kind.endswith("stream"):
        assert "".join(cell.recorded) == expected
        assert len(cell.recorded) > 1, "the answer came in one piece: not streamed"
    else:
        assert cell.recorded == expected
