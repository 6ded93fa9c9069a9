"""``replay prune``: what the last test run did not use, removed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import click

from replay._core.location import Location, S3Location
from replay.tools import layout, prune
from replay.tools.cli.output import _CASSETTES, _JSON, Output, _output, _prompt_line, _read
from replay.tools.wording import counted

# replay prune (the planning is in replay.tools.prune)


class Days(click.ParamType):  # type: ignore[type-arg]
    """A number of days, 0 or more (``30``, ``0.5`` for twelve hours)."""

    name = "days"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        try:
            days = float(value)
        except (TypeError, ValueError):
            days = math.nan
        if not days >= 0:  # NaN too; inf is allowed: nothing is that old
            self.fail(
                f"{value!r} is not a number of days (30, or 0.5 for twelve hours)", param, ctx
            )
        return days


@click.command("prune")
@_CASSETTES
@click.option("--yes", is_flag=True, help="Remove them (without --yes, only show what would go).")
@click.option("--dry-run", is_flag=True, help="Only show what would be removed.")
@click.option(
    "--older-than",
    type=Days(),
    metavar="DAYS",
    help="Also remove interactions recorded more than DAYS ago.",
)
@_JSON
def prune_command(
    paths: tuple[Location, ...], yes: bool, dry_run: bool, older_than: float | None, as_json: bool
) -> None:
    """Remove the interactions, and cassettes, that the last complete test run did not use.

    Also all the cassettes of a deleted test module, in the pytest plugin's default layout.
    Shows what it would remove, and removes it only with --yes. Exit status 1
    when something was left to remove or a directory has no usage record (or a stale one).
    An s3:// prefix has no usage record: there only --older-than applies, and it is required.
    """
    remote = next((path for path in paths if isinstance(path, S3Location)), None)
    if remote is not None and older_than is None:
        raise click.UsageError(
            f"{remote}: an object store has no usage record, so prune goes by age alone "
            "there: give --older-than DAYS"
        )
    output = _output(as_json)
    cutoff = prune.cutoff(older_than, datetime.now(UTC))
    cassettes = [(cassette.path, cassette) for cassette in _read(paths, "Reading cassettes")]
    directories = prune.directories([path.parent for path, _ in cassettes])
    policies = {d.path: prune.Policy(d.run, cutoff, d.missing_module) for d in directories}
    plans = [prune.plan(path, c.entries, policies[path.parent]) for path, c in cassettes]
    plans = [plan for plan in plans if plan.reasons]
    applied = yes and not dry_run and bool(plans)
    if applied:
        done = [prune.apply(plan.path, policies[plan.path.parent]) for plan in plans]
        plans = [plan for plan in done if plan.reasons]
    if as_json:
        output.document(
            {
                "applied": applied,
                "directories": [directory.to_json() for directory in directories],
                "files": [plan.to_json() for plan in plans],
                "unreadable": output.unreadable,
                "interactions_removed": sum(len(p.reasons) for p in plans) if applied else 0,
                "files_removed": sum(p.delete_file for p in plans) if applied else 0,
            }
        )
    else:
        _print_prune(output, directories, plans, applied)
    missing = not all(directory.decided for directory in directories) and cutoff is None
    if missing or (plans and not applied):
        raise click.exceptions.Exit(1)


def _print_prune(
    output: Output,
    directories: Sequence[prune.Directory],
    plans: Sequence[prune.Plan],
    applied: bool,
) -> None:
    for directory in directories:
        color = None if directory.decided else "yellow"
        output.line(output.style(f"{directory.path}: {directory.message}", fg=color))
    for plan in plans:
        verb = "removed" if applied else "would remove"
        if plan.delete_file:
            output.line(output.style(f"{plan.path}: {verb} the file", fg="red"))
        else:
            output.line(f"{plan.path}: {verb} {counted(len(plan.reasons), 'interaction')}")
        for key, why in sorted(plan.reasons.items()):
            output.line(f"  - {layout.short_key(key)} ({why})")
            if plan.prompts.get(key):
                output.line(_prompt_line(plan.prompts[key], output.width, indent="    "))
    if not plans:
        output.line("nothing to prune")
    elif not applied:
        output.line("run with --yes to remove these")
