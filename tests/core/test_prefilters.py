"""The cheap checks that let a request's redaction and key skip a scan give what the scan
gives: a needle search by rarest byte (:meth:`Rewriter.leaves`), the look for a secret field's
closing quote before the field pattern, the backslash before escaped keys, and the bracket
count bounded at the depth limit."""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st
from secret_samples import GENERIC_FIELD_NAMES, SECRET_FIELD_NAMES

from replay._core import key, redact
from replay._core.rewrite import Rewriter
from replay._store import usage

BYTES = st.binary(max_size=60) | st.text('ABJKSaesk-_/9x."\\u0{[}]: ', max_size=80).map(str.encode)
NEEDLES = st.lists(
    st.sampled_from([*redact._KEY_SHAPE_NEEDLES, b"sk-bench-0123", b"\\u0073", b"", b"A", b'en"'])
    | st.binary(min_size=1, max_size=4),
    max_size=12,
)


@settings(max_examples=500, deadline=None)
@given(needles=NEEDLES, data=BYTES)
def test_leaves_is_true_exactly_when_no_needle_is_in_the_data(
    needles: list[bytes], data: bytes
) -> None:
    rewriter = Rewriter(re.compile(b"x"), lambda match: b"y", tuple(needles))
    expected = bool(needles) and not any(needle in data for needle in needles)
    assert rewriter.leaves(data) is expected


NAMES = [*SECRET_FIELD_NAMES, *GENERIC_FIELD_NAMES, "model", "hidden", "Key"]
PIECES = st.one_of(
    st.sampled_from(['"', '\\"', ":", " ", ",", "{", "}", "[", "]", "\\", "\\u00", "\\u0073"]),
    st.sampled_from(NAMES).map(lambda name: f'"{name}"'),
    st.sampled_from(NAMES).map(lambda name: f'"{name}" : '),
    st.text("abcXYZ0123456789_-+/=.", max_size=30).map(lambda text: f'"{text}"'),
    st.from_regex(r"-?[0-9][0-9.eE+\-]{0,12}", fullmatch=True),
    st.sampled_from(["sk-proj-Ab3dEf6hIj9kLm2nOp5q", "\\u0073\\u006b-proj-Ab3dEf6hIj9kLm2nO"]),
    st.sampled_from(NAMES).map(lambda name: f"{name}="),
    st.sampled_from(["&", "?", "#", "%3D", "%26", "\\u0026", "=", "Ab3dEf6hIj9kLm2nOp5q"]),
    st.sampled_from(["my token", "api key", "Secret Key", "a token of", "key", " = ", ": ", "\t"]),
)


@settings(max_examples=500, deadline=None)
@given(pieces=st.lists(PIECES, max_size=40))
def test_a_body_with_no_hint_of_a_name_has_no_value_named_like_a_secret(pieces: list[str]) -> None:
    body = "".join(pieces).encode()
    if not redact.hinted(body):
        for rewriter in redact.NAMED:
            assert not any(rewriter.spans(body))


@settings(max_examples=500, deadline=None)
@given(pieces=st.lists(PIECES, max_size=40))
def test_the_look_for_a_name_before_a_sign_finds_every_name_of_free_text(
    pieces: list[str],
) -> None:
    body = "".join(pieces).encode()
    if not redact.names_in_text(body):
        assert redact._TEXT_PAIR.search(body) is None


@settings(max_examples=500, deadline=None)
@given(pieces=st.lists(PIECES, max_size=40))
def test_escaped_keys_are_replaced_as_the_pattern_alone_replaces_them(pieces: list[str]) -> None:
    body = "".join(pieces).encode()
    alone = redact.ESCAPED_KEYS.apply(body) if redact._ASCII_ESCAPE.search(body) else body
    assert redact._escaped_keys(body) == alone


@settings(max_examples=300, deadline=None)
@given(
    body=st.text('[{}]a" ', max_size=300).map(str.encode), limit=st.integers(0, key.MAX_JSON_DEPTH)
)
def test_brackets_beyond_a_limit_are_counted_as_bytes_count_counts_them(
    body: bytes, limit: int
) -> None:
    assert key._opens_beyond(body, limit) is (body.count(b"[") + body.count(b"{") > limit)


@settings(max_examples=300, deadline=None)
@given(when=st.datetimes(min_value=datetime(1000, 1, 1), timezones=st.just(UTC)))
def test_now_is_written_as_timestamp_writes_it(when: datetime) -> None:
    class Frozen(datetime):
        @classmethod
        def now(cls, tz: tzinfo | None = None) -> datetime:
            return when

    with patch.object(usage, "datetime", Frozen):
        assert usage.now() == usage.timestamp(when)
