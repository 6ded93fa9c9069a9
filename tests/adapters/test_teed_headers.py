"""A recorded response's content type and encoding, read from its headers as Latin-1
(:func:`replay._adapters.httpx_transport._header`), are what httpx's and httpx2's own look-up
gives, whatever the headers' bytes, case and repeats."""

from __future__ import annotations

from types import ModuleType

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay._adapters.httpx_transport import LIBRARIES, _header
from replay._core import model

_NAMES = st.sampled_from(
    [b"content-type", b"Content-Type", b"CONTENT-ENCODING", b"content-encoding", b"x-a", b"\xc9t"]
)
_VALUES = st.one_of(
    st.sampled_from([b"application/json", b"gzip", b"text/event-stream; charset=utf-8", b""]),
    st.binary(max_size=6).filter(lambda value: b"\r" not in value and b"\n" not in value),
)
_RAW = st.lists(st.tuples(_NAMES, _VALUES), max_size=5)


@pytest.mark.parametrize("lib", LIBRARIES, ids=lambda lib: lib.__name__)
@settings(max_examples=400, deadline=None)
@given(raw=_RAW)
def test_a_header_is_httpxs_own_look_up(lib: ModuleType, raw: list[tuple[bytes, bytes]]) -> None:
    response = lib.Response(200, headers=raw)
    headers = model.headers_from_bytes(response.headers.raw)
    for name in ("content-type", "content-encoding"):
        assert _header(headers, name, response) == response.headers.get(name)


def test_a_repeated_name_is_joined_as_httpx_joins_it() -> None:
    response = httpx.Response(200, headers=[(b"content-type", b"a"), (b"Content-Type", b"b")])
    headers = model.headers_from_bytes(response.headers.raw)
    assert _header(headers, "content-type", response) == "a, b"
