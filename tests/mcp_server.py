"""A real MCP server (the ``mcp`` SDK's MCPServer, formerly FastMCP) for the MCP tests.

``python tests/mcp_server.py`` serves it over stdio; ``python tests/mcp_server.py http [PORT]``
over Streamable HTTP on 127.0.0.1 at PORT (else a free port), its URL printed as the first line
of its output. Other arguments are ignored: a test passes one that must not reach the cassette.
"""

from __future__ import annotations

import os
import socket
import sys

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import SamplingMessage, TextContent
from pydantic import BaseModel

server = MCPServer("weather-desk")


class Weather(BaseModel):
    city: str
    celsius: float


@server.tool()
def add(a: int, b: int) -> str:
    """Add two numbers."""
    return str(a + b)


@server.tool()
def weather(city: str) -> Weather:
    """The weather in a city, as structured content."""
    return Weather(city=city, celsius=21.5)


@server.tool()
def fail(reason: str) -> str:
    """Always fails: an error result."""
    raise ValueError(reason)


@server.tool()
def account() -> str:
    """Says which key it holds, as a careless server would."""
    return f"using key {os.environ.get('WEATHER_API_KEY', 'none')}"


@server.tool()
async def forecast(city: str, ctx: Context) -> str:
    """Logs, then asks the client's model (sampling) to write the forecast."""
    await ctx.info(f"forecasting {city}")
    answer = await ctx.session.create_message(
        [SamplingMessage(role="user", content=TextContent(type="text", text=f"Forecast {city}"))],
        max_tokens=50,
    )
    content = answer.content
    return content.text if isinstance(content, TextContent) else "?"


ticks = 0


@server.tool()
def tick() -> str:
    """Counts its calls: the same call answered differently each time."""
    global ticks
    ticks += 1
    return str(ticks)


@server.resource("notes://readme")
def readme() -> str:
    return "Ask for the weather in any city."


def serve_http(port: int) -> None:
    import uvicorn

    listening = socket.socket()
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", port))
    print(f"http://127.0.0.1:{listening.getsockname()[1]}/mcp", flush=True)
    config = uvicorn.Config(server.streamable_http_app(), log_level="warning")
    uvicorn.Server(config).run(sockets=[listening])


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        serve_http(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    else:
        server.run()
