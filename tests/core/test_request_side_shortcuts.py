"""The request side's shortcuts give what the long way gives: a message's header look-up its
loop written out (:class:`replay._core.model._Headed`), and the normalizer's URL search and
upstream request without the calls they skip."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core.model import Request, Response, header_value
from replay._core.normalize import Normalizer

_NAMES = st.sampled_from(["content-type", "content-encoding", "x-a", "authorization", ""])
_HEADERS = st.lists(st.tuples(_NAMES, st.text(max_size=5)), max_size=6).map(tuple)


@settings(max_examples=300, deadline=None)
@given(headers=_HEADERS, name=_NAMES)
def test_a_messages_header_is_the_first_of_that_name(
    headers: tuple[tuple[str, str], ...], name: str
) -> None:
    request = Request("GET", "http://x.invalid/", headers, b"")
    response = Response(200, headers, (), "2024")
    assert request.header(name) == header_value(headers, name)
    assert response.header(name) == header_value(headers, name)


_IDS = st.sampled_from([b"chatcmpl-abcdefghijkl0123", b"call_abcdefghijklmnop4567", b"resp_1"])
_PIECES = st.one_of(_IDS, st.sampled_from([b"/", b"?id=", b" ", b'"', b"x"]))


def _long_way_upstream(normalizer: Normalizer, request: Request) -> Request | None:
    url = normalizer.real_ids_in(request.url.encode()).decode()
    body = request.body
    if request.header("content-encoding") is None:
        body = normalizer.real_ids_in(body)
    if url == request.url and body == request.body:
        return None
    return Request(request.method, url, request.headers, body)


@settings(max_examples=300, deadline=None)
@given(
    issued=st.lists(_IDS, max_size=3),
    path=st.lists(_PIECES, max_size=6).map(b"".join),
    body=st.lists(_PIECES, max_size=8).map(b"".join),
    encoded=st.booleans(),
)
def test_the_normalizers_request_side_is_the_long_way(
    issued: list[bytes], path: bytes, body: bytes, encoded: bool
) -> None:
    normalizer = Normalizer()
    for number, real in enumerate(issued):  # as _learn_ids adds them
        fake = b"placeholder_" + str(number).encode() * 14
        normalizer._ids.add(real, fake)
        normalizer._real_ids.add(fake, real)
        normalizer._rewriter = normalizer._ids.rewriter
    url = "http://x.invalid/" + path.decode()
    headers = (("content-encoding", "gzip"),) if encoded else ()
    request = Request("POST", url, headers, body + b" placeholder_" + b"0" * 14)
    assert normalizer.upstream(request) == _long_way_upstream(normalizer, request)
    expected = normalizer.ids_in(url.encode()).decode() if normalizer._rewriter else url
    assert normalizer.ids_in_url(url) == expected
    assert normalizer.ids_in_url("") == ""
