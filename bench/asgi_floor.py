"""The floor of ``replay serve``'s figure: a bare ASGI app on the same uvicorn settings that
answers each workload request from a dict keyed by a hash of its body, as the in-process floor
does. Run as a process of its own; prints its URL on the first line.

    python bench/asgi_floor.py N
"""

from __future__ import annotations

import socket
import sys
from typing import Any

import uvicorn
import workload as w


def app_for(n: int) -> Any:
    answers = {w.body_hash(call.body): call.answer for call in w.calls(n)}
    headers = [(name.encode(), value.encode()) for name, value in w.RESPONSE_HEADERS]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": answers[w.body_hash(body)]})

    return app


def main() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # see serve.listen
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    print(f"http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(
        app_for(int(sys.argv[1])),
        log_config=None,
        access_log=False,
        server_header=False,
        date_header=False,
        lifespan="off",
        ws="none",
    )
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
