"""The secrets made of word bytes (a request's API key, the key shapes' prefixes) are sought in
an answer's runs of word bytes alone when the runs are kept from the ids' search
(:meth:`Rewriter.leaves`): the redaction is the same as the pattern's, secrets anywhere."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core import redact
from replay._core.model import Chunk, Response
from replay._core.rewrite import _RECENT_RUNS, WORD_RUN, Rewriter

CARRIED = [
    "sk-bench-0123456789abcdefghijklmnop",  # word bytes, a run of its own
    "tok_0123456789abcdef",  # exactly WORD_RUN word bytes
    "short_word_key1",  # word bytes, shorter than a run
    "pass/word+with=marks",  # not word bytes only
]
PIECES = st.sampled_from(
    [
        *(secret.encode() for secret in CARRIED),
        *redact._KEY_SHAPE_NEEDLES,
        b"sk-bench-0123456789",
        b"AKIA0123456789ABCDEF",  # a key id: a run of exactly WORD_RUN
        b"0123456789abcdefghij",
        b"chatcmpl-",
        b"ant-",
        b" ",
        b'"',
        b".",
        b"/",
        b"=",
        b"\\u0073",
        b"\xc3\xa9",
        b"\xe9",
        b"\n",
    ]
) | st.text("ABKSZaksz019_-", min_size=1, max_size=24).map(str.encode)
DATA = st.lists(PIECES, max_size=14).map(b"".join) | st.binary(max_size=80)


def _scrubber(carried: list[str]) -> Rewriter:
    return redact._scrubber(frozenset(carried))


def _searched_for_ids(data: bytes, shortest: int) -> None:
    """As the ids' search leaves the runs of ``data`` (kept only for data that long)."""
    _RECENT_RUNS.of(data, shortest)


@settings(max_examples=1500, deadline=None)
@given(
    data=DATA,
    carried=st.lists(st.sampled_from(CARRIED), max_size=3, unique=True),
    shortest=st.sampled_from([None, 4, 13, WORD_RUN, WORD_RUN + 1]),
    padding=st.sampled_from([b"", b" " * 256]),
)
def test_data_left_as_it_is_holds_no_secret(
    data: bytes, carried: list[str], shortest: int | None, padding: bytes
) -> None:
    data = padding + data  # long enough for its runs to be kept, or not
    scrubber = _scrubber(carried)
    if shortest is not None:
        _searched_for_ids(data, shortest)
    if scrubber.leaves(data):
        assert scrubber.pattern.search(data) is None
    assert scrubber.apply(data) == scrubber.pattern.sub(scrubber.replace, data)


@settings(max_examples=500, deadline=None)
@given(
    needles=st.lists(
        st.sampled_from([secret.encode() for secret in CARRIED]) | st.binary(max_size=24),
        max_size=4,
    ),
    data=DATA,
    shortest=st.sampled_from([None, 4, 13, WORD_RUN]),
)
def test_leaves_is_the_search_for_each_needle_with_the_runs_kept_or_not(
    needles: list[bytes], data: bytes, shortest: int | None
) -> None:
    """A needle of 20 word bytes sought within the runs is found exactly where it is."""
    data = b" " * 256 + data
    rewriter = Rewriter(re.compile(b"x"), lambda match: b"y", tuple(needles))
    if shortest is not None:
        _searched_for_ids(data, shortest)
    assert rewriter.leaves(data) is (bool(needles) and not any(n in data for n in needles))


@settings(max_examples=500, deadline=None)
@given(body=DATA, header=DATA, carried=st.lists(st.sampled_from(CARRIED), max_size=3))
def test_an_answer_is_redacted_as_by_the_pattern_alone(
    body: bytes, header: bytes, carried: list[str]
) -> None:
    """Secrets in the body (inside longer runs, at their edges, split, beside non-ASCII) and
    in headers: the answer redacted as by a rewriter of the same pattern that skips nothing."""
    body = b'{"id": "chatcmpl-0123456789abcdefghijkl", "text": "' + body + b'"}' + b" " * 256
    redactor = redact.Redactor(environ={})
    scrubber = _scrubber(carried)
    unfiltered = Rewriter(scrubber.pattern, scrubber.replace)
    response = Response(
        200,
        (("content-type", "application/json"), ("x-echo", header.decode("latin-1"))),
        (Chunk(body, 0.0),),
        "2024-01-01T00:00:00Z",
        True,
        None,
    )
    _searched_for_ids(body, 13)
    redacted = redactor.response(response, scrubber)
    assert redacted == redactor.response(response, unfiltered)


@settings(max_examples=500, deadline=None)
@given(
    body=DATA,
    header=DATA,
    secret_header=st.sampled_from([(), (("set-cookie", "session=abc123"),)]),
    carried=st.lists(st.sampled_from(CARRIED), max_size=2),
)
def test_an_answer_with_nothing_to_redact_is_given_back_as_it_came(
    body: bytes, header: bytes, secret_header: tuple[tuple[str, str], ...], carried: list[str]
) -> None:
    """The answer itself, when nothing in it is redacted; otherwise each header and the body
    redacted one by one, as the rule says."""
    redactor = redact.Redactor(environ={})
    scrubber = _scrubber(carried)
    headers = (("content-type", "application/json"), ("x-echo", header.decode("latin-1")))
    response = Response(200, (*headers, *secret_header), (Chunk(body, 0.0),), "2024", True, None)
    expected = Response(
        200,
        tuple(
            (
                name,
                redact.PLACEHOLDER
                if redactor.secret_headers[name]
                else scrubber.pattern.sub(scrubber.replace, value.encode()).decode(),
            )
            for name, value in response.headers
        ),
        (
            Chunk(
                scrubber.pattern.sub(
                    scrubber.replace, redact._escaped_keys(redact._without_secret_fields(body))
                ),
                0.0,
            ),
        ),
        "2024",
        True,
        None,
    )
    assert redactor.response(response, scrubber) == expected


def test_an_answer_with_nothing_to_redact_is_no_copy() -> None:
    redactor = redact.Redactor(environ={})
    headers = (("content-type", "application/json"), ("x-request-id", "req_0123"))
    response = Response(200, headers, (Chunk(b'{"id": "chatcmpl-1"}', 0.0),), "2024", True, None)
    assert redactor.response(response, redactor.known) is response
