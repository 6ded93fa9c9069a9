"""``usage.now`` keeps the last second's text: it must be the text of the clock's second."""

from __future__ import annotations

import time
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from replay._store import usage

_TIMES = st.floats(min_value=0, max_value=253_402_300_799, allow_nan=False)
"""From 1970 to the last second of year 9999, as ``time.time()`` may read."""


@given(st.lists(_TIMES, min_size=1, max_size=20).flatmap(lambda ts: st.permutations(ts)))
def test_now_is_the_clock_second_in_the_time_format(clock: list[float]) -> None:
    """Whatever the order the clock reads in (it may step back) and however close the reads."""
    for reading in clock:
        with mock.patch.object(usage.time, "time", return_value=reading):
            said = usage.now()
        assert said == time.strftime(usage.TIME_FORMAT, time.gmtime(reading))


@given(st.integers(min_value=0, max_value=253_402_300_798), st.floats(0, 0.999))
def test_now_changes_with_the_second_and_not_within_it(second: int, within: float) -> None:
    readings = [second + within, second + 0.9999, second + 1, second + 1 + within, second]
    said = []
    for reading in readings:
        with mock.patch.object(usage.time, "time", return_value=reading):
            said.append(usage.now())
    expected = [time.strftime(usage.TIME_FORMAT, time.gmtime(r)) for r in readings]
    assert said == expected
    assert said[0] == said[1] != said[2] == said[3]


def test_now_reads_the_real_clock() -> None:
    before = time.strftime(usage.TIME_FORMAT, time.gmtime())
    said = usage.now()
    after = time.strftime(usage.TIME_FORMAT, time.gmtime())
    assert said in (before, after)
