"""A real S3 API on 127.0.0.1 for the s3:// store's tests: moto's server, one request at a time.

moto 5 honours ``If-None-Match: *`` and ``If-Match`` with 412, but checks the condition and
stores the object in two steps, so two racing writers can both pass where real S3 (atomic)
lets one. Serving one request at a time (werkzeug's server, not threaded) makes each
conditional write atomic, as S3's are; the writers themselves still race, in their own
processes and threads.
"""

from __future__ import annotations

import threading
from types import TracebackType

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
        app = DomainDispatcherApplication(create_backend_app)
        self._server = make_server(
            "127.0.0.1", 0, app, threaded=False, request_handler=MotoRequestHandler
        )
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

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
