"""A real S3 API on 127.0.0.1 for the s3:// store's tests: moto's server, one request at a time.

moto 5 honours ``If-None-Match: *`` and ``If-Match`` with 412, but checks the condition and
stores the object in two steps, so two racing writers can both pass where real S3 (atomic)
lets one. Serving one request at a time (werkzeug's server, not threaded) makes each
conditional write atomic, as S3's are; the writers themselves still race, in their own
processes and threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import make_server

ACCESS_KEY = "testing-key-id"
SECRET_KEY = "testing-secret"


class S3Server:
    """moto's S3 on a free loopback port, serving one request at a time."""

    def __init__(self) -> None:
        self.received: list[tuple[str, str]] = []
        """Each request's S3 operation and bucket, in order, whichever client sent it."""
        app = DomainDispatcherApplication(create_backend_app)
        self._server = make_server(
            "127.0.0.1", 0, self._noting(app), threaded=False, request_handler=MotoRequestHandler
        )
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def _noting(self, app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
        def noted(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
            bucket, _, key = environ["PATH_INFO"].lstrip("/").partition("/")
            query = environ.get("QUERY_STRING", "")
            self.received.append((operation(environ["REQUEST_METHOD"], key, query), bucket))
            return app(environ, start_response)

        return noted

    def operations(self, bucket: str, since: int = 0) -> list[str]:
        """The S3 operations sent for ``bucket`` from request number ``since`` on."""
        return [name for name, to in self.received[since:] if to == bucket]

    def env(self) -> dict[str, str]:
        """What boto3 needs to find it: the standard AWS variables, dummy credentials."""
        return {
            "AWS_ENDPOINT_URL": self.url,
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
            "AWS_DEFAULT_REGION": "us-east-1",
        }

    def __enter__(self) -> S3Server:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def operation(method: str, key: str, query: str) -> str:
    """The S3 operation a path-style request is (of those replay sends), named as in the API."""
    if not key:
        if method == "GET":
            return "ListObjectsV2" if "list-type=2" in query else "ListObjects"
        return "DeleteObjects" if method == "POST" and "delete" in query else f"{method} bucket"
    named = {"GET": "GetObject", "HEAD": "HeadObject", "PUT": "PutObject", "DELETE": "DeleteObject"}
    return named.get(method, method)
