"""The request side's shortcuts give what the long way gives: a message's header look-up its
loop written out (:class:`replay._core.model._Headed`), the normalizer's URL search and
upstream request without the calls they skip, and the exact digest from a kept hash of its
head (:func:`replay._core.key.exact_digest`)."""

from __future__ import annotations

import hashlib
from unittest.mock import patch

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core import key
from replay._core.key import KEY_LENGTH, KeyRules
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


def _digest_hashed_whole(request: Request, rules: KeyRules) -> str:
    head: list[object] = [rules.ignore, rules.match_headers, request.method, request.url]
    head.append(request.header("content-type"))
    if rules.match_on is not None:
        head.append(rules.match_on)
    head += [request.header(name) for name in rules.match_headers]
    return hashlib.sha256(orjson.dumps(head) + request.body).hexdigest()[:KEY_LENGTH]


_RULES = st.sampled_from(
    [
        KeyRules(),
        KeyRules(ignore=("model",)),
        KeyRules(match_headers=("x-a",)),
        KeyRules(match_on=("path",)),
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    calls=st.lists(
        st.tuples(
            st.sampled_from(["GET", "POST"]),
            st.sampled_from(["http://x.invalid/a", "http://x.invalid/b?q=1"]),
            _HEADERS,
            st.binary(max_size=8),
            _RULES,
        ),
        min_size=1,
        max_size=8,
    ),
    kept=st.integers(min_value=1, max_value=3),
)
def test_the_exact_digest_from_a_kept_head_is_the_whole_hashed(
    calls: list[tuple[str, str, tuple[tuple[str, str], ...], bytes, KeyRules]], kept: int
) -> None:
    with patch.object(key, "_HEADS_KEPT", kept), patch.dict(key._HEADS_HASHED, clear=True):
        for method, url, headers, body, rules in calls + calls:  # each head again, kept or not
            request = Request(method, url, headers, body)
            assert key.exact_digest(request, rules) == _digest_hashed_whole(request, rules)
            assert len(key._HEADS_HASHED) <= kept
