"""The errors a user catches read as they import them: ``replay.CassetteError``."""

from __future__ import annotations

import traceback

import replay
from replay import CassetteError, Difference, ReplayError, UnusedResponse

PUBLIC_ERRORS = [
    value
    for name in replay.__all__
    if isinstance(value := getattr(replay, name), type) and issubclass(value, ReplayError)
]


def test_every_public_error_is_named_by_the_package_it_is_imported_from() -> None:
    assert len(PUBLIC_ERRORS) == 11
    for error in [*PUBLIC_ERRORS, Difference, UnusedResponse]:
        assert error.__module__ == "replay", error
        assert getattr(replay, error.__qualname__) is error


def test_a_traceback_names_the_public_class() -> None:
    try:
        raise CassetteError("c.json", "is broken")
    except CassetteError as error:
        shown = traceback.format_exception_only(error)
    assert shown == ["replay.CassetteError: cassette c.json: is broken\n"]
