"""A placeholder's alphabet, told by a few tests of an id's ASCII letters and digits, is the one
the set comparison it replaced chose: the narrowest alphabet holding every one of them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core import normalize


def _alphabet_by_sets(value: str) -> str | None:
    """The alphabet as it was chosen: the ASCII letters and digits of ``value`` as a set, then
    the first alphabet that holds it (None when there are none)."""
    alnum = frozenset(normalize._ALPHABETS[-1]).intersection(value)
    if not alnum:
        return None
    return next(a for a in normalize._ALPHABETS if alnum <= frozenset(a))


PIECES = st.text("0123456789abcdefgzABCDEFGZ-_é.", max_size=40)


@settings(max_examples=1000, deadline=None)
@given(value=PIECES | st.text(max_size=20))
def test_the_alphabet_is_the_narrowest_holding_the_value(value: str) -> None:
    alnum = value.encode().translate(None, normalize._NOT_ASCII_ALNUM)
    expected = _alphabet_by_sets(value)
    assert (normalize._alphabet_of(alnum) if alnum else None) == expected


@settings(max_examples=300, deadline=None)
@given(value=PIECES, widest=st.booleans())
def test_a_placeholder_keeps_the_alphabet_of_its_id(value: str, widest: bool) -> None:
    placeholder = normalize.shaped_placeholder(value, "seed", widest=widest)
    rest = value[len(normalize.word_prefix(value)) :]
    expected = _alphabet_by_sets(rest)
    if expected is None or normalize._UUID.fullmatch(rest):
        return
    drawn = placeholder[len(normalize.word_prefix(value)) :]
    alphabet = normalize._ALPHABETS[-1] if widest else expected
    if normalize.word_prefix(value) and alphabet == normalize._ALPHABETS[0]:
        alphabet = normalize._ALPHABETS[1]
    assert set(drawn) <= set(alphabet)
    assert len(drawn) == len(rest)
