"""The ``mcp`` SDK's client over one MCP session, printing what it got as one JSON line.

``python tests/mcp_client.py http URL [CASSETTE]``: Streamable HTTP inside
``replay.use_cassette(CASSETTE)``, or straight to URL (a ``replay serve`` proxy).
``python tests/mcp_client.py sessions URL CASSETTE``: two sessions one after the other inside
one ``use_cassette(CASSETTE)``, each calling ``tick`` twice, the second call after the SDK
has had time to reopen its server-event stream; prints the ticks and the cassette's misses.
``python tests/mcp_client.py stdio CASSETTE [MODE] -- COMMAND...``: stdio, the server's
command run through ``python -m replay mcp``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

import anyio
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CreateMessageResult, TextContent

import replay

PASSED = ("REPLAY_MODE", "WEATHER_API_KEY")


async def conversation(session: ClientSession) -> dict[str, Any]:
    await session.initialize()
    tools = await session.list_tools()
    added = await session.call_tool("add", {"a": 1, "b": 2})
    weather = await session.call_tool("weather", {"city": "Paris"})
    failed = await session.call_tool("fail", {"reason": "no such city"})
    readme = await session.read_resource("notes://readme")
    return {
        "tools": sorted(tool.name for tool in tools.tools),
        "added": [block.text for block in added.content if isinstance(block, TextContent)],
        "weather": weather.structured_content,
        "failed": [
            failed.is_error,
            *(b.text for b in failed.content if isinstance(b, TextContent)),
        ],
        "readme": [getattr(content, "text", None) for content in readme.contents],
    }


async def over_http(url: str, cassette: str | None) -> dict[str, Any]:
    """Through ``use_cassette``; with no cassette, straight to ``url`` (``replay serve``)."""
    with replay.use_cassette(cassette) if cassette else contextlib.nullcontext():
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write) as session:
                return await conversation(session)


REOPENED_AFTER = 1.5
"""Seconds a session waits between its calls: the SDK reopens its GET stream a second after
it ends, which a replayed one does at once."""


async def sessions(url: str, cassette: str) -> dict[str, Any]:
    ticks: list[str] = []
    with replay.use_cassette(cassette) as recordings:
        for _ in range(2):
            async with streamable_http_client(url) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    for wait in (0, REOPENED_AFTER):
                        await anyio.sleep(wait)
                        ticked = await session.call_tool("tick", {})
                        ticks.extend(b.text for b in ticked.content if isinstance(b, TextContent))
    return {"ticks": ticks, "misses": [str(miss) for miss in recordings.misses]}


async def sampled(context: Any, params: Any) -> CreateMessageResult:
    asked = params.messages[0].content.text
    return CreateMessageResult(
        role="assistant", content=TextContent(type="text", text=f"{asked}: sunny"), model="m"
    )


async def over_stdio(arguments: list[str]) -> dict[str, Any]:
    # The SDK gives the server a few variables alone (PATH, HOME, ...): what replay and the
    # server need is passed on by name, as a user's MCP configuration would.
    passed = {name: os.environ[name] for name in PASSED if name in os.environ}
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "replay", "mcp", *arguments], env=passed
    )
    logged: list[Any] = []

    async def log(params: Any) -> None:
        logged.append(params.data)

    async with stdio_client(parameters) as (read, write):
        async with ClientSession(
            read, write, sampling_callback=sampled, logging_callback=log
        ) as session:
            got = await conversation(session)
            forecast = await session.call_tool("forecast", {"city": "Oslo"})
            got["forecast"] = [b.text for b in forecast.content if isinstance(b, TextContent)]
            if "--miss" not in sys.argv:
                got["account"] = [
                    b.text
                    for b in (await session.call_tool("account", {})).content
                    if isinstance(b, TextContent)
                ]
            else:
                try:
                    await session.call_tool("add", {"a": 1, "b": 3})
                except MCPError as error:
                    got["missed"] = str(error)
            got["logged"] = logged
    return got


def main() -> None:
    if sys.argv[1] == "http":
        result = anyio.run(over_http, sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    elif sys.argv[1] == "sessions":
        result = anyio.run(sessions, sys.argv[2], sys.argv[3])
    else:
        result = anyio.run(over_stdio, [a for a in sys.argv[2:] if a != "--miss"])
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
