"""When a recording is too old to trust: ``max_age`` and what to do then, ``on_expired``.

``max_age`` is a number of seconds, a :class:`~datetime.timedelta`, or text: a number and a
unit, ``s``, ``m``, ``h``, ``d`` or ``w`` (``"30d"``, ``"12h"``). A response recorded longer
ago than that is expired when a request would replay it; ``on_expired`` says what happens:

``warn``     replay it, with a warning naming the cassette, the request and its date
``fail``     a :class:`~replay._core.errors.CassetteMiss` saying how old it is
``rerecord`` record the request again (its responses replaced, dated now); in mode ``none``,
             which never records, it fails as ``fail`` does
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from replay._core.errors import ConfigError


class OnExpired(StrEnum):
    WARN = "warn"
    FAIL = "fail"
    RERECORD = "rerecord"


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_TEXT = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*")


def max_age(where: str, value: object) -> timedelta | None:
    """``value`` as a positive duration (None: recordings never expire); a ConfigError naming
    ``where`` otherwise."""
    if value is None or isinstance(value, timedelta):
        seconds = None if value is None else value.total_seconds()
    elif isinstance(value, int | float) and not isinstance(value, bool):
        seconds = float(value)
    elif isinstance(value, str) and (found := _TEXT.fullmatch(value)):
        seconds = float(found[1]) * _UNITS[found[2]]
    else:
        raise ConfigError(where, value, 'expected seconds, a timedelta, or text such as "30d"')
    if seconds is None:
        return None
    if not seconds > 0:
        raise ConfigError(where, value, "must be a positive duration")
    return timedelta(seconds=seconds)


def on_expired(where: str, value: object) -> OnExpired:
    try:
        return OnExpired(str(value))
    except ValueError:
        names = ", ".join(choice.value for choice in OnExpired)
        raise ConfigError(where, value, f"not a choice (one of {names})") from None


@dataclass(frozen=True, slots=True)
class Expiry:
    max_age: timedelta | None = None
    on_expired: OnExpired = OnExpired.WARN

    def age(self, recorded_at: str, now: datetime) -> timedelta | None:
        """How old a response recorded at ``recorded_at`` is, if more than ``max_age``; None
        when it is not expired (or its date is missing or unreadable: it is kept)."""
        if self.max_age is None:
            return None
        try:
            when = datetime.fromisoformat(recorded_at)
        except ValueError:
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        age = now - when
        return age if age > self.max_age else None


def describe(age: timedelta) -> str:
    """An age in the largest whole unit: ``31 days``, ``5 hours``."""
    seconds = int(age.total_seconds())
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} seconds"
