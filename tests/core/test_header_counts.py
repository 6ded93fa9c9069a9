"""A header value of digits alone (a ``content-length``) is made ``0`` at once by
:func:`normalize.stand_in`: what the rule for a count makes of it."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from replay._core import normalize

DECIMALS = st.text(st.characters(categories=["Nd"]), min_size=1, max_size=12)


@settings(max_examples=500, deadline=None)
@given(value=DECIMALS | st.text("0123456789", min_size=1, max_size=12))
def test_digits_alone_are_a_count_made_one_zero(value: str) -> None:
    assert normalize._ISO_TIME.fullmatch(value) is None
    assert normalize._QUANTITY.fullmatch(value) is not None
    assert normalize.stand_in(value, "seed") == normalize._DIGITS.sub("0", value) == "0"


@settings(max_examples=500, deadline=None)
@given(value=st.text("0123456789.:-TZsm ab", min_size=1, max_size=20))
def test_other_values_opening_with_a_digit_keep_their_rules(value: str) -> None:
    shown = normalize.stand_in(value, "seed")
    if normalize._ISO_TIME.fullmatch(value):
        assert shown == normalize.fixed_time(value)
    elif value[0].isdigit() and normalize._QUANTITY.fullmatch(value):
        assert shown == normalize._DIGITS.sub("0", value)


@settings(max_examples=1000, deadline=None)
@given(
    value=st.text("aZq09+/_-", min_size=1, max_size=24)
    | st.sampled_from(["REDACTED", "20ms", "req_0123456789abcdef", "1360"]),
    known=st.booleans(),
)
def test_a_value_of_one_run_is_shown_as_that_run_among_others(value: str, known: bool) -> None:
    """Given a space after it, a value is no longer one run and is substituted run by run:
    the run is shown the same, the space kept. (A count is a count before it is a known id,
    as a whole value: not as a run among others.)"""
    assume(not (known and value[:1].isdigit()))
    ids = {value: "placeholder"} if known else {}
    shown = normalize.stand_in(value, "seed", known=ids.get)
    assert normalize.stand_in(value + " ", "seed", known=ids.get) == shown + " "
