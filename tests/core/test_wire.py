"""What the proxy's HTTP server may send: the checks of :mod:`replay._core.wire`, pure."""

from __future__ import annotations

import pytest

from replay._core.wire import body_problem, head_problem


@pytest.mark.parametrize(
    ("status", "headers", "problem"),
    [
        (200, [(b"content-type", b"application/json")], None),
        (599, [(b"x-empty", b""), (b"x-inner", b"a \t b"), (b"x-utf8", "☃".encode())], None),
        (199, [], "status 199"),
        (600, [], "status 600"),
        (200, [(b"x-a", b"one\r\ntwo")], "line break"),
        (200, [(b"x-a", b"one\ntwo")], "line break"),
        (200, [(b"x-a", b" padded")], "space at an end"),
        (200, [(b"x-a", b"bell\x07")], "control character"),
        (200, [(b"x a", b"v")], "not an HTTP token"),
        (200, [(b"", b"v")], "not an HTTP token"),
        (200, [(b"x:a", b"v")], "not an HTTP token"),
    ],
)
def test_head_problem(status: int, headers: list[tuple[bytes, bytes]], problem: str | None) -> None:
    found = head_problem(status, headers)
    assert found is None if problem is None else problem in (found or "")


def test_body_problem_only_for_bodiless_statuses() -> None:
    assert body_problem(204, b"") is None and body_problem(200, b"x") is None
    assert body_problem(304, b"abc") == "status 304 has no body, and 3 bytes are recorded"
