from __future__ import annotations

import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from replay._core.model import Chunk
from replay._core.rewrite import GrowingTable, Rewriter


def rewriter(table: dict[bytes, bytes]) -> Rewriter:
    growing = GrowingTable()
    for key, value in table.items():
        growing.add(key, value)
    assert growing.rewriter is not None
    return growing.rewriter


def test_replaces_inside_single_chunks_and_keeps_boundaries() -> None:
    chunks = [b'data: {"id":"abc"}\n\n', b'data: {"id":"abc"}\n\n', b"data: [DONE]\n\n"]
    out = rewriter({b"abc": b"xyz12"}).apply_chunks(chunks)
    assert out == [b'data: {"id":"xyz12"}\n\n', b'data: {"id":"xyz12"}\n\n', b"data: [DONE]\n\n"]


def test_a_value_straddling_a_boundary_is_replaced_and_the_boundary_moves_after_it() -> None:
    out = rewriter({b"SECRET": b"R"}).apply_chunks([b"key=SEC", b"RET;", b"end"])
    assert b"".join(out) == b"key=R;end"
    assert out == [b"key=R", b";", b"end"]


def test_longer_keys_win() -> None:
    assert rewriter({b"ab": b"1", b"abc": b"2"}).apply(b"abcab") == b"21"


def test_digits_only_match_whole_numbers() -> None:
    # Not inside a longer number, nor inside a run of identifier characters (x1700).
    assert rewriter({b"1700": b"1000"}).apply(b"1700 -21700 1700.5 x1700 (1700)") == (
        b"1000 -21700 1700.5 x1700 (1000)"
    )


@pytest.mark.parametrize("other_keys", [{}, {b"a.b/c": b"x.y/z"}], ids=["runs", "pattern"])
def test_an_id_starting_with_a_digits_id_is_replaced_whole(other_keys: dict[bytes, bytes]) -> None:
    # Both found in one answer ("id" then "responseId"): the shorter used to win inside the
    # longer, so the stored value depended on whether this call's ids happened to overlap.
    table = {b"1234567890": b"7777777777", b"1234567890-0000": b"888888888888888", **other_keys}
    built = rewriter(table)
    assert built.apply(b'"1234567890" "1234567890-0000" 1234567890.5 0.1234567890') == (
        b'"7777777777" "888888888888888" 1234567890.5 0.1234567890'
    )


def test_chunk_times_are_kept() -> None:
    chunks = (Chunk(b"a b", 0.1), Chunk(b" c", 0.2))
    assert rewriter({b"b": b"BB"}).apply_to(chunks) == (Chunk(b"a BB", 0.1), Chunk(b" c", 0.2))


@given(
    st.lists(st.binary(max_size=12), min_size=1, max_size=8),
    st.binary(min_size=1, max_size=4),
    st.binary(max_size=6),
)
def test_joined_result_equals_rewriting_the_joined_body(
    chunks: list[bytes], needle: bytes, replacement: bytes
) -> None:
    built = rewriter({needle: replacement})
    out = built.apply_chunks(chunks)
    assert len(out) == len(chunks)
    assert b"".join(out) == built.apply(b"".join(chunks))


def test_identifiers_are_replaced_only_as_whole_runs() -> None:
    built = rewriter({b"chatcmpl-Ab12": b"chatcmpl-Zz99", b"resp_1234": b"resp_0000"})
    assert built.apply(b'"chatcmpl-Ab12" xchatcmpl-Ab12 resp_1234/') == (
        b'"chatcmpl-Zz99" xchatcmpl-Ab12 resp_0000/'
    )


def test_a_growing_table_keeps_earlier_keys() -> None:
    table = GrowingTable()
    for n in range(500):
        table.add(b"id_%06d" % n, b"id_X%05d" % n)
    assert table.rewriter is not None
    assert table.rewriter.apply(b"id_000007 id_000499") == b"id_X00007 id_X00499"


IDENTIFIER_CHARACTERS = st.sampled_from(b"aZ09_-xQ7")
identifiers = st.lists(IDENTIFIER_CHARACTERS, min_size=4, max_size=9).map(bytes)


def run_pattern_reference(table: dict[bytes, bytes], shortest: int) -> Rewriter:
    """What the table did before runs were found in C: a regex and a look-up per match."""
    pattern = re.compile(rb"[A-Za-z0-9_\-]{%d,}" % shortest)
    return Rewriter(pattern, lambda match: table.get(match.group(), match.group()))


@given(
    st.dictionaries(identifiers, identifiers, min_size=1, max_size=5),
    st.lists(
        st.lists(st.one_of(IDENTIFIER_CHARACTERS, st.sampled_from(b' ."\n:/')), max_size=30),
        min_size=1,
        max_size=5,
    ),
)
def test_runs_found_in_c_replace_as_the_run_pattern_does(
    table: dict[bytes, bytes], pieces: list[list[int]]
) -> None:
    table = {key: value for key, value in table.items() if not key.isdigit()}
    assume(table)
    growing = GrowingTable()
    for key, value in table.items():
        growing.add(key, value)
    chunks = [bytes(piece) for piece in pieces]
    # Keys planted in the data too, or the table would rarely find anything.
    chunks[0] += b" " + b" ".join(table) + b" "
    assert growing.rewriter is not None
    reference = run_pattern_reference(table, min(map(len, table)))
    joined = b"".join(chunks)
    assert growing.rewriter.apply(joined) == reference.apply(joined)
    assert growing.rewriter.apply_chunks(chunks) == reference.apply_chunks(chunks)


@given(
    tables=st.lists(
        st.dictionaries(identifiers, identifiers, min_size=1, max_size=3), min_size=1, max_size=4
    ),
    bodies=st.lists(
        st.lists(st.one_of(IDENTIFIER_CHARACTERS, st.sampled_from(b' ."\n:/')), max_size=40),
        min_size=1,
        max_size=3,
    ),
    order=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2), st.booleans()), max_size=12),
)
def test_runs_kept_for_the_same_bytes_replace_as_a_search_afresh(
    tables: list[dict[bytes, bytes]], bodies: list[list[int]], order: list[tuple[int, int, bool]]
) -> None:
    """Tables of other shortest keys searching the same bytes (the same object or a copy) in
    any order, short and long, get what the run pattern gets."""
    rewriters = []
    for table in tables:
        table = {key: value for key, value in table.items() if not key.isdigit()}
        assume(table)
        growing = GrowingTable()
        for key, value in table.items():
            growing.add(key, value)
        assert growing.rewriter is not None
        rewriters.append((growing.rewriter, run_pattern_reference(table, min(map(len, table)))))
    keys = b" ".join(key for table in tables for key in table)
    datas = [bytes(body) + b" " * 300 + keys for body in bodies]  # long enough to be kept
    for table_index, body_index, copied in order:
        rewriter, reference = rewriters[table_index % len(rewriters)]
        data = datas[body_index % len(datas)]
        data = bytes(bytearray(data)) if copied else data
        assert rewriter.apply(data) == reference.apply(data)


_NEEDLE_BYTES = st.sampled_from(b"ab-_kKJ\\/ \x00\xe9")


@given(
    needles=st.lists(
        st.binary(max_size=4).map(bytes) | st.lists(_NEEDLE_BYTES, max_size=4).map(bytes),
        max_size=6,
    ),
    data=st.lists(_NEEDLE_BYTES, max_size=40).map(bytes) | st.binary(max_size=40),
)
def test_leaves_answers_as_a_search_for_each_needle(needles: list[bytes], data: bytes) -> None:
    """The rarest-byte anchors and the needles dropped for containing others change no answer."""
    rewriter = Rewriter(re.compile(b"x"), lambda match: b"y", tuple(needles))
    assert rewriter.leaves(data) == (bool(needles) and not any(n in data for n in needles))


@given(
    table=st.dictionaries(st.binary(min_size=1, max_size=4), st.binary(max_size=5), max_size=4),
    data=st.binary(max_size=40),
    at=st.floats(0, 10),
)
def test_a_single_chunk_is_rewritten_as_the_chunks_path_does(
    table: dict[bytes, bytes], data: bytes, at: float
) -> None:
    # apply_to takes a body in one chunk by apply alone; the general path cuts the joined
    # body at the boundaries: both give the same chunk, and the same object when unchanged.
    assume(table)
    built = rewriter(table)
    chunks = (Chunk(data, at),)
    (expected,) = built.apply_chunks([data])
    out = built.apply_to(chunks)
    assert out == (Chunk(expected, at),)
    assert (out is chunks) == (expected is data)
