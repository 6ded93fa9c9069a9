"""How much memory a ``replay serve`` process takes to record one large upload.

A ``replay serve`` process (mode once) records one request of ``size`` bytes sent to an upstream
on 127.0.0.1 that reads the body in pieces and answers its length; its peak resident size
(``VmHWM``, reset just before the upload by writing 5 to ``/proc/PID/clear_refs``) less what it
held before the upload is what the upload cost. The client streams the body from a generator,
and the upstream reads it in pieces: neither is in the process measured, nor holds the body.

    python tests/upload_memory.py 256 500         # MiB; a binary and a JSON body of each size

Linux only (``/proc``).
"""

from __future__ import annotations

import http.client
import json
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from serving import Running

MiB = 2**20
PIECE = MiB


class _Counting(BaseHTTPRequestHandler):
    """Reads the body in pieces, keeping none, and answers how many bytes it read."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        left = int(self.headers.get("content-length") or 0)
        read = 0
        while left:
            piece = self.rfile.read(min(PIECE, left))
            if not piece:
                break
            read += len(piece)
            left -= len(piece)
        answer = json.dumps({"received": read}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


@contextmanager
def counting_upstream() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def pieces(size: int, kind: str, last: bytes = b"") -> Iterator[bytes]:
    """``size`` bytes of a body of ``kind``: ``binary`` (not UTF-8, as an audio or zip file
    is) or ``json`` (one JSON object, a long string in it, as a batch or an embedded file);
    its content ending in ``last`` (another body of the same size)."""
    if kind == "binary":
        piece = bytes(range(256)) * (PIECE // 256)
        head, tail = b"", b""
    else:
        piece = b"abcdefghijklmnopqrstuvwxyz012345" * (PIECE // 32)
        head, tail = b'{"model": "m", "input": "', b'"}'
    left = size - len(head) - len(tail) - len(last)
    yield head
    while left > 0:
        yield piece[: min(left, PIECE)]
        left -= PIECE
    yield last
    yield tail


def _status(pid: int) -> dict[str, int]:
    """The sizes in ``/proc/PID/status``, in bytes."""
    sizes = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if value.strip().endswith(" kB"):
            sizes[name] = int(value.split()[0]) * 1024
    return sizes


@dataclass(frozen=True)
class Measured:
    size: int
    kind: str
    before: int
    """Resident bytes before the upload (after a small request of the same kind)."""
    peak: int
    """The peak resident bytes while recording it (and folding it into the cassette)."""
    status: int

    @property
    def ratio(self) -> float:
        """What the upload cost, in bodies."""
        return (self.peak - self.before) / self.size

    def __str__(self) -> str:
        return (
            f"{self.size / MiB:6.0f} MiB {self.kind:6}  before {self.before / MiB:5.0f} MiB  "
            f"peak {self.peak / MiB:6.0f} MiB  +{(self.peak - self.before) / MiB:6.0f} MiB "
            f"= {self.ratio:.2f}x the body"
        )


def post(port: int, size: int, kind: str, last: bytes = b"") -> tuple[int, object]:
    """Upload a body of :func:`pieces` to the server at ``port``: the status and the JSON
    answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    content_type = "application/octet-stream" if kind == "binary" else "application/json"
    headers = {"content-type": content_type, "content-length": str(size)}
    connection.request("POST", "/v1/upload", body=pieces(size, kind, last), headers=headers)
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    return response.status, answer


def measure(size: int, kind: str, cassettes: Path) -> Measured:
    """Record one upload of ``size`` bytes through a ``replay serve`` process of its own, which
    is stopped (saving its cassette) before the peak is read."""
    with counting_upstream() as upstream:
        served = Running("--upstream", upstream, "--cassettes", str(cassettes), cwd=cassettes)
        pid = served.process.pid
        try:
            post(served.port, 1000, kind)  # imports done, buffers sized
            Path(f"/proc/{pid}/clear_refs").write_text("5")  # VmHWM is VmRSS from here
            before = _status(pid)["VmRSS"]
            status, answer = post(served.port, size, kind)
            peak = _status(pid)["VmHWM"]
            assert status != 200 or answer == {"received": size}, answer
        finally:
            code, _, err = served.stop()
        assert code == 0, err
    return Measured(size, kind, before, peak, status)


def main(sizes: list[str]) -> None:
    for size in sizes:
        for kind in ("binary", "json"):
            with tempfile.TemporaryDirectory() as directory:
                print(measure(int(float(size) * MiB), kind, Path(directory)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["256", "500"])
