"""``replay verify``: every cassette loads and matches the format."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import click

from replay._core.errors import CassetteError
from replay._core.key import KEY_LENGTH
from replay._core.location import Location
from replay._core.model import Outcome
from replay._store import cassette_file as store
from replay.tools import inventory
from replay.tools.cli.output import _CASSETTES, _JSON, _output, progress
from replay.tools.inventory import CassetteFile
from replay.tools.wording import counted

# replay verify

NOT_A_CASSETTE = 'JSON that is not a cassette (no "interactions"), not checked'
"""Why a file found in a directory is passed over (a test's JSON fixture beside cassettes)."""


def verify_file(found: inventory.Found) -> tuple[CassetteFile | None, list[str]]:
    """The cassette (None when passed over or unreadable) and what is wrong with it."""
    try:
        cassette = inventory.read(found)
    except CassetteError as error:
        return None, [error.reason]
    if cassette is None:
        return None, []
    problems: list[str] = []
    for key, entry in sorted(cassette.entries.items()):
        if not re.fullmatch(f"[0-9a-f]{{{KEY_LENGTH}}}", key):
            problems.append(f"interaction {key!r}: a key is {KEY_LENGTH} hexadecimal digits")
        try:
            interaction = store.decode(cassette.path, key, entry)
        except CassetteError as error:
            problems.append(error.reason)
            continue
        if not interaction.outcomes:
            problems.append(f"interaction {key} has no responses")
        problems.extend(
            f"interaction {key} response {index + 1}: {problem}"
            for index, outcome in enumerate(interaction.outcomes)
            if (problem := _outcome_problem(outcome))
        )
    return cassette, problems


def _outcome_problem(outcome: Outcome) -> str | None:
    try:
        datetime.fromisoformat(outcome.recorded_at)
    except ValueError:
        return f"recorded_at {outcome.recorded_at!r} is not an ISO 8601 date"
    return None


@click.command("verify")
@_CASSETTES
@_JSON
def verify_command(paths: tuple[Location, ...], as_json: bool) -> None:
    """Check that every cassette loads and matches the format; exit status 1 otherwise."""
    output = _output(as_json)
    results: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    for path in paths:
        before = len(results)
        with progress(inventory.find([path]), "Verifying") as items:
            for found in items:
                cassette, problems = verify_file(found)
                if cassette is None and not problems:
                    skipped.append({"path": str(found.path), "reason": NOT_A_CASSETTE})
                    continue
                results.append(
                    {
                        "path": str(found.path),
                        "ok": not problems,
                        "interactions": len(cassette.entries) if cassette else None,
                        "problems": problems,
                    }
                )
        if len(results) == before:  # a mistyped path in CI must not pass for a clean one
            output.passed_over(f"no cassettes found under {path}")
    bad = [result for result in results if not result["ok"]]
    if as_json:
        output.document({"ok": not bad, "files": results, "skipped": skipped})
    else:
        for result in bad:
            output.line(output.style(result["path"], fg="red", bold=True))
            for problem in result["problems"]:
                output.line(f"  {problem}")
        for passed in skipped:
            output.line(f"skipped {passed['path']}: {passed['reason']}")
        valid, verb = len(results) - len(bad), "is" if len(results) == 1 else "are"
        also = f" ({counted(len(skipped), 'file')} skipped, named above)" if skipped else ""
        output.line(f"{valid} of {counted(len(results), 'cassette')} {verb} valid{also}")
    if bad:
        raise click.exceptions.Exit(1)
