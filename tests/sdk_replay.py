"""Replays a route's cells of the SDK matrix in a process of its own, every connection blocked.

    python tests/sdk_replay.py SPEC.json RESULTS.json

SPEC names the route, the URL and key to give its clients, and the cells (attachment, kind,
cassette). For each cell RESULTS has what the SDK returned (or the traceback) and every
connection attempt that was blocked. One process replays all of a route's cells, so its
SDK is imported once (litellm's import alone takes seconds).
"""

from __future__ import annotations

import asyncio
import json
import sys
import traceback
from pathlib import Path
from typing import Any

from sdk_routes import ROUTES, run_cell

from replay._adapters.network import NetworkGuard


def replay_cells(spec: dict[str, Any]) -> dict[str, Any]:
    route = ROUTES[spec["route"]]
    results: dict[str, Any] = {}
    with asyncio.Runner() as loop:
        for cell in spec["cells"]:
            outcome: dict[str, Any] = {"value": None, "error": None}
            with NetworkGuard() as guard:
                try:
                    outcome["value"] = run_cell(
                        route,
                        cell["attach"],
                        cell["kind"],
                        (spec["url"], spec["api_key"]),
                        Path(cell["cassette"]),
                        "none",
                        loop,
                    )
                except Exception:
                    outcome["error"] = traceback.format_exc()
            outcome["blocked"] = [str(attempt) for attempt in guard.blocked]
            results[cell["id"]] = outcome
    return results


if __name__ == "__main__":
    spec_path, results_path = map(Path, sys.argv[1:3])
    results = replay_cells(json.loads(spec_path.read_text()))
    results_path.write_text(json.dumps(results, indent=1))
