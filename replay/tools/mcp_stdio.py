"""``replay mcp``: an MCP server's stdio session, recorded through a relay or replayed with
no server at all.

A client starts ``replay mcp CASSETTE -- COMMAND...`` in place of the server's command.
Recording, it spawns COMMAND and relays every line (one JSON-RPC message each) both ways
unchanged, noting each with its side and time; the server's stderr is this process's. The
session is added to the cassette when the server's stdout ends (it exited, or closed it), or
as it stands, incomplete, when this process is told to stop first. Replaying, nothing is
spawned: :class:`replay._core.mcp.McpPlayback` matches each client message to a recorded one
and says which server messages go out.

The session is one interaction: the request ``GET stdio://NAME`` (``NAME`` is ``mcp`` unless
``--name`` says, for two servers in one cassette), its command line kept, redacted, in a
``command`` header that no match reads: a path that differs on another machine finds the
recording all the same.

The cassette is opened with the options of ``[tool.replay]`` (``replay mcp`` reads them), but
for ``unused``: this process replays one session of a cassette that may hold others (one per
``--name``), which are not its to use; a message with no recording already fails it.
"""

from __future__ import annotations

import shlex
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, BinaryIO

from replay._adapters.websocket_session import SessionRecorder
from replay._cassette import Cassette, Record, Replay
from replay._core.errors import CassetteError
from replay._core.mcp import McpPlayback
from replay._core.model import MCP_STDIO_SCHEME, McpSession, Request, WebSocketSession
from replay._core.modes import Mode
from replay._core.redact import argument_secrets
from replay._core.unused import Unused

DEFAULT_NAME = "mcp"


def run(
    cassette_path: Path,
    mode: Mode | str,
    command: Sequence[str],
    name: str = DEFAULT_NAME,
    options: Mapping[str, Any] | None = None,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int:
    """Record or replay one session, the cassette opened with ``options`` (those of
    :class:`~replay._cassette.Cassette`); the exit status: the server's when recorded, 1 when
    a replayed client sent a message with no recording, else 0."""
    reading = stdin or sys.stdin.buffer
    writing = stdout or sys.stdout.buffer
    url = MCP_STDIO_SCHEME + name
    given = dict(options or {})
    secrets = (*given.pop("secrets", ()), *argument_secrets(command))
    given["unused"] = Unused.ALLOW
    with Cassette(cassette_path, mode, **given, secrets=secrets) as cassette:
        request = Request("GET", url, (("command", shlex.join(command)),), b"")
        decision = cassette.decide(request)
        if isinstance(decision, Replay):
            return _replay(cassette, url, decision.session, reading, writing)
        return _record(cassette, decision, command, reading, writing)


def _replay(
    cassette: Cassette, url: str, session: WebSocketSession, stdin: BinaryIO, stdout: BinaryIO
) -> int:
    if not isinstance(session, McpSession):  # the file allows none other under stdio://
        raise CassetteError(cassette.path, f"{url} holds a WebSocket session, not an MCP one")
    playback = McpPlayback(session, cassette.path, url)
    _write(stdout, playback.due())
    for line in iter(stdin.readline, b""):
        message = line.rstrip(b"\r\n")
        if not message:
            continue
        error = playback.received(cassette.keyed_message(message))
        if error is not None:
            _write(stdout, [error])
        _write(stdout, playback.due())
    cassette.misses.extend(playback.misses)
    for miss in playback.misses:
        print(f"replay mcp: {miss}", file=sys.stderr)
    return 1 if playback.misses else 0


def _record(
    cassette: Cassette, record: Record, command: Sequence[str], stdin: BinaryIO, stdout: BinaryIO
) -> int:
    # Started first: a command that cannot start records nothing (the error names it).
    server = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    recorder = SessionRecorder(cassette, record, McpSession)
    assert server.stdin is not None and server.stdout is not None
    order = threading.Lock()  # a message is noted and relayed before the next one crosses

    def relay(source: BinaryIO, sink: BinaryIO, from_client: bool) -> None:
        try:
            for line in iter(source.readline, b""):
                with order:
                    message = line.rstrip(b"\r\n")
                    if message:
                        recorder.note(message, True, from_client)
                    sink.write(line)
                    sink.flush()
        except (BrokenPipeError, ValueError):  # the other side is gone, or its pipe closed
            pass
        finally:
            if from_client:
                server.stdin.close()  # type: ignore[union-attr]  # asserted above

    previous = signal.signal(signal.SIGTERM, _stop)
    to_server = threading.Thread(
        target=relay, args=(stdin, server.stdin, True), name="replay-mcp-client", daemon=True
    )
    to_server.start()
    ended = False
    try:
        relay(server.stdout, stdout, from_client=False)  # type: ignore[arg-type]
        ended = True
        return server.wait()
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
        signal.signal(signal.SIGTERM, previous)
        recorder.finish(complete=ended)


def _stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM (a client stopping its server): end as on Ctrl-C, the session saved."""
    raise KeyboardInterrupt


def _write(stdout: BinaryIO, messages: list[bytes]) -> None:
    for message in messages:
        stdout.write(message + b"\n")
    if messages:
        stdout.flush()
