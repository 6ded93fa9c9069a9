"""``usage.now`` keeps the last second's text: it must be the text of the clock's second."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from replay._store import usage

_MOMENTS = st.datetimes(min_value=datetime(1000, 1, 1), timezones=st.just(UTC))


def _now_at(moment: datetime) -> str:
    class Frozen(datetime):
        @classmethod
        def now(cls, tz: tzinfo | None = None) -> datetime:
            return moment

    with mock.patch.object(usage, "datetime", Frozen):
        return usage.now()


@given(st.lists(_MOMENTS, min_size=1, max_size=20))
def test_now_is_the_clock_second_whatever_the_order_the_clock_reads_in(
    clock: list[datetime],
) -> None:
    """The clock may step back, or read the same second of another minute, day or year."""
    assert [_now_at(moment) for moment in clock] == [usage.timestamp(m) for m in clock]


@given(_MOMENTS.filter(lambda m: m.year < 9999), st.integers(0, 999_999))
def test_now_changes_with_the_second_and_not_within_it(moment: datetime, micro: int) -> None:
    second = moment.replace(microsecond=0)
    later = second + timedelta(seconds=1)
    moments = [second.replace(microsecond=micro), second.replace(microsecond=999_999), later]
    moments += [later.replace(microsecond=micro), second, second + timedelta(minutes=1)]
    said = [_now_at(m) for m in moments]
    assert said == [usage.timestamp(m) for m in moments]
    assert said[0] == said[1] != said[2] == said[3] != said[5]


def test_now_reads_the_real_clock() -> None:
    before = usage.timestamp(datetime.now(UTC))
    said = usage.now()
    after = usage.timestamp(datetime.now(UTC))
    assert said in (before, after)
