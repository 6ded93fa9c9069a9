"""What recording's request side keeps between searches gives what searching again gives:
the ids table's last answers (:meth:`GrowingTable.apply`) and the forms of carried secrets a
body is searched for (:meth:`Redactor.body_from`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core.redact import Redactor, _scrubber
from replay._core.rewrite import GrowingTable, Rewrites

_KEYS = st.sampled_from(
    [
        b"chatcmpl-abcdefghijkl",
        b"chatcmpl-abcdefghijklmnop",
        b"fp_0123456789",
        b"call_XYZ",
        b"123456789",
        b"a.b@c",
        b"resp_0001",
    ]
)
_DATA = st.lists(
    st.one_of(_KEYS, st.sampled_from([b" ", b'"', b".", b"x", b"-0000", b'{"id":"', b"\n"])),
    max_size=12,
).map(b"".join)
_STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("add"), _KEYS),
        st.tuples(st.just("apply"), _DATA),
        st.tuples(st.just("again"), st.just(b"")),
    ),
    min_size=1,
    max_size=20,
)


@settings(max_examples=400, deadline=None)
@given(steps=_STEPS)
def test_the_ids_tables_kept_answers_are_those_searched_again(
    steps: list[tuple[str, bytes]],
) -> None:
    """Keys added between two searches of the same bytes (a longer key keeps the rewriter,
    which grows in place), searches by a rewriter the table made before it grew, and the same
    bytes searched twice in a row, or with other bytes between."""
    table = GrowingTable()
    rewriters: list[Rewrites] = []
    searched: list[bytes] = []
    for step, value in steps:
        if step == "add":
            table.add(value, value.upper() + b"0")
            if table.rewriter is not None and table.rewriter not in rewriters:
                rewriters.append(table.rewriter)
            continue
        if step == "apply":
            searched.append(value)
        for data in searched[-3:]:
            for rewriter in rewriters:
                assert table.apply(rewriter, data) == rewriter.apply(data)


def test_an_answer_kept_before_the_table_grew_is_not_given_after() -> None:
    table = GrowingTable()
    table.add(b"chatcmpl-abcdefghijkl", b"chatcmpl-000000000000")
    rewriter = table.rewriter
    assert rewriter is not None
    data = b'{"id":"chatcmpl-abcdefghijklmnop"}'
    assert table.apply(rewriter, data) == data
    table.add(b"chatcmpl-abcdefghijklmnop", b"chatcmpl-0000000000000000")
    assert table.rewriter is rewriter  # grown in place: its identity says nothing
    assert table.apply(rewriter, data) == b'{"id":"chatcmpl-0000000000000000"}'


KEY = "sk-proj-abcdefghijklmnopqrstuvwx"
_PIECES = st.sampled_from(
    [
        b'{"a": "',
        b'"}',
        b" ",
        KEY.encode(),
        KEY.replace("-", "\\u002d").encode(),
        "".join(f"\\u{ord(c):04x}" for c in KEY).encode(),
        "".join(f"\\u{ord(c):04X}" for c in KEY).encode(),
        b"hunter2hunter2",
        b"hunter2%2Bhunter2",
        b"\\",
        b"token",
        b"k-",
    ]
)
_SECRETS = st.sampled_from(
    [
        frozenset({KEY}),
        frozenset({"hunter2+hunter2"}),
        frozenset({KEY, "hunter2hunter2"}),
        frozenset({"hunter2hunter2"}),
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    bodies=st.lists(st.lists(_PIECES, max_size=10).map(b"".join), min_size=1, max_size=4),
    carried=st.lists(_SECRETS, min_size=1, max_size=3),
    known=st.sampled_from([(), ("hunter2hunter2",), (KEY,)]),
)
def test_a_body_stored_from_the_kept_forms_is_the_body_redacted_whole(
    bodies: list[bytes], carried: list[frozenset[str]], known: tuple[str, ...]
) -> None:
    redactor = Redactor(secrets=known, environ={})
    rewriters = [redactor.known, *(_scrubber(redactor.secrets | secrets) for secrets in carried)]
    for _ in range(2):  # the second time from what was kept
        for body in bodies:
            redacted = redactor.redacted_body(body, "application/json")
            for rewriter in rewriters:
                whole = redactor.body(body, "application/json", rewriter)
                assert redactor.body_from(redacted, rewriter) == whole
