"""The key shapes' prefixes are sought only in data holding a run of word bytes
(:attr:`Rewriter.run_needles`): the redaction it skips would have changed nothing, and the run
is found as a regular expression finds it."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core import redact
from replay._core.rewrite import WORD_RUN, Rewriter, holds_word_run

RUN = re.compile(rb"[A-Za-z0-9_\-]{%d}" % WORD_RUN)

PIECES = st.sampled_from(
    [*redact._KEY_SHAPE_NEEDLES, b"ant-", b"proj-", b" ", b'"', b".", b"/", b"=", b"\xe9", b"\n"]
) | st.text("ABKSZaksz019_-", min_size=1, max_size=24).map(str.encode)
DATA = st.lists(PIECES, max_size=12).map(b"".join) | st.binary(max_size=80)


@settings(max_examples=500, deadline=None)
@given(data=DATA)
def test_a_word_run_is_found_where_the_pattern_finds_one(data: bytes) -> None:
    assert holds_word_run(data) is (RUN.search(data) is not None)


@settings(max_examples=1000, deadline=None)
@given(data=DATA, secret=st.sampled_from(["", "hunter2-is-long", "sk-bench-0123456789"]))
def test_data_left_as_it_is_holds_no_key_and_redacts_as_the_pattern_alone(
    data: bytes, secret: str
) -> None:
    scrubber = redact.Redactor(secrets=[secret] if secret else [], environ={}).known
    if scrubber.leaves(data):
        assert scrubber.pattern.search(data) is None
    assert scrubber.apply(data) == scrubber.pattern.sub(scrubber.replace, data)


def test_each_long_key_shape_at_its_shortest_is_redacted() -> None:
    """The shortest match of each shape whose needle is a run needle: a run of exactly
    :data:`WORD_RUN` word bytes where the shape has no more (an AWS key id)."""
    shortest = [
        b"sk-" + b"a" * 20,
        b"gsk_" + b"a" * 20,
        b"AIza" + b"a" * 35,
        b"xai-" + b"a" * 20,
        b"hf_" + b"a" * 20,
        b"ya29." + b"a" * 20,
        b"1//0" + b"a" * 20,
        b"AKIA" + b"A" * 16,
        b"ASIA" + b"0" * 16,
    ]
    scrubber = redact.Redactor(environ={}).known
    for key in shortest:
        text = b'{"note": "' + key + b'"}'
        assert not scrubber.leaves(text), key
        stand_in = next(p for p in redact.STAND_IN_PREFIXES if key.startswith(p)) + b"REDACTED"
        assert scrubber.apply(text) == b'{"note": "' + stand_in + b'"}', key


def test_without_run_needles_leaves_is_the_needle_search() -> None:
    rewriter = Rewriter(re.compile(b"x"), lambda match: b"y", (b"ab",))
    assert rewriter.leaves(b"x" * 40)
    assert not rewriter.leaves(b"ab")
