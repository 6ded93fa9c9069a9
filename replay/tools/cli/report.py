"""``replay report``: the diff of two recordings as one HTML page."""

from __future__ import annotations

from pathlib import Path

import click

from replay._core.errors import ConfigError
from replay._core.location import Location
from replay.tools import diff as semantic_diff
from replay.tools import extras, report
from replay.tools.cli.compare import (
    _GIT_REV_OPTION,
    _IGNORE_OPTION,
    PAGE,
    _compared,
    _in_a_folder,
    write_page,
)
from replay.tools.cli.output import _COLOR, _existing, _output
from replay.tools.config import LOCATION
from replay.tools.wording import counted

# replay report


@click.command("report")
@_COLOR
@click.argument("old", callback=_existing, type=LOCATION)
@click.argument("new", required=False, callback=_existing, type=LOCATION)
@click.option(
    "-o",
    "--output",
    "target",
    required=True,
    type=PAGE,
    callback=_in_a_folder,
    help="The HTML file to write (replaced whole, never left half-written).",
)
@_IGNORE_OPTION
@_GIT_REV_OPTION
@click.option(
    "--price",
    "prices",
    multiple=True,
    metavar="MODEL=IN:OUT",
    help="US dollars per million tokens in and out, to estimate the cost of a model's "
    "answers where the provider reports none. Repeatable.",
)
def report_command(
    old: Location,
    new: Location | None,
    target: Path,
    ignore: tuple[str, ...],
    git_rev: str | None,
    prices: tuple[str, ...],
) -> None:
    """Write the regression diff of OLD and NEW (or PATH against --git-rev REV) as one HTML
    page: summary, charts of tokens, cost and latency, and every pair side by side.

    The page needs no network. Exit status 0 once it is written, whatever changed: gate on
    `replay diff`, keep the report as its artifact.

    \b
    Examples:
      replay report cassettes/v1 cassettes/v2 --ignore model -o report.html
      replay report cassettes --git-rev main -o report.html
    """
    extras.require("report", "report")
    output = _output(False)
    try:
        priced = report.Prices.parse(prices)
    except ConfigError as error:
        raise click.BadParameter(error.reason, param_hint=f"--price {error.value}") from None
    compared = _compared(old, new, ignore, git_rev)
    write_page(target, compared.pairs, old=str(compared.old), new=str(compared.new), prices=priced)
    summary = semantic_diff.summary(compared.pairs)
    output.line(
        f"wrote {target}: {counted(summary['pairs'], 'pair')}, {summary['changed']} changed, "
        f"{summary['only_old']} only in OLD, {summary['only_new']} only in NEW"
    )
    if output.unreadable:
        raise click.exceptions.Exit(2)
