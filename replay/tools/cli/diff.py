"""``replay diff``: two recordings compared by meaning."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import asdict

import click

from replay._core.key import KeyRules
from replay._core.location import Location
from replay.tools import diff as semantic_diff
from replay.tools import extras, report, review
from replay.tools.cli.compare import (
    _GIT_REV_OPTION,
    _IGNORE_OPTION,
    _compared,
    _print_diff,
    _print_side,
)
from replay.tools.cli.output import _JSON, _existing, _output
from replay.tools.config import LOCATION
from replay.tools.wording import counted

# replay diff


@click.command("diff")
@click.argument("old", callback=_existing, type=LOCATION)
@click.argument("new", required=False, callback=_existing, type=LOCATION)
@_IGNORE_OPTION
@click.option("-v", "--verbose", is_flag=True, help="List the unchanged pairs too.")
@click.option(
    "--format",
    "shape",
    type=click.Choice(["text", "json", "markdown", "html"]),
    default="text",
    help="markdown: a summary for a pull request comment. json: as --json. html: the page "
    "of `replay report`, on standard output.",
)
@_GIT_REV_OPTION
@_JSON
def diff_command(
    old: Location,
    new: Location | None,
    ignore: tuple[str, ...],
    verbose: bool,
    shape: str,
    git_rev: str | None,
    as_json: bool,
) -> None:
    """Compare two recordings (files, or directories matched by relative path) by meaning:
    OLD NEW, or PATH with --git-rev REV (PATH now against PATH at REV).

    Exit status 1 when any pair changed or is only on one side.
    """
    if shape == "html":
        extras.require("report", "diff --format html")
    as_json = as_json or shape == "json"
    output = _output(as_json)
    compared = _compared(old, new, ignore, git_rev)
    old, new, olds, news, pairs = (
        compared.old,
        compared.new,
        compared.olds,
        compared.news,
        compared.pairs,
    )
    summary = semantic_diff.summary(pairs)
    sides = {"old": old, "new": new}
    warnings = [
        {**asdict(collision), "message": _collision_message(collision, sides)}
        for collision in semantic_diff.collisions(pairs)
    ]
    models = compared.models()
    if as_json:
        output.document(
            {
                "old": str(old),
                "new": str(new),
                "ignore": list(ignore),
                "models": models,
                "pairs": [pair.to_json() for pair in pairs],
                "summary": summary,
                "warnings": warnings,
                "unreadable": output.unreadable,
                "not_compared": compared.not_compared,
            }
        )
    elif shape == "markdown":
        output.line(review.markdown(pairs, summary, str(old), str(new)).rstrip("\n"))
    elif shape == "html":
        click.echo(report.render(pairs, old=str(old), new=str(new), models=models), nl=False)
    else:
        for warning in warnings:
            click.echo(f"replay: warning: {warning['message']}", err=True)
        for side, path in sides.items():
            _print_side(output, side, path, models[side])
        for side, files in compared.not_compared.items():
            for file in files:
                shown = sides[side] / file if file else sides[side]
                output.line(f"? {shown}: unreadable in {side.upper()} (said above), not compared")
        _print_diff(output, pairs, summary, verbose)
        if summary["only_old"] and summary["only_new"] and "model" not in ignore:
            with_model = semantic_diff.pair_trees(olds, news, KeyRules(ignore=(*ignore, "model")))
            gained = semantic_diff.matched(with_model) - semantic_diff.matched(pairs)
            if gained > 0:
                hint = (
                    f"hint: --ignore model pairs {counted(gained, 'more interaction')} (the "
                    "same requests sent to another model): add it to compare two model versions"
                )
                output.line(textwrap.fill(hint, output.width, subsequent_indent="  "))
    if summary["changed"] or summary["only_old"] or summary["only_new"]:
        raise click.exceptions.Exit(1)


def _collision_message(collision: semantic_diff.Collision, sides: Mapping[str, Location]) -> str:
    side = sides[collision.side]
    path = side / collision.file if collision.file else side
    return (
        f"{path}: {collision.interactions} interactions share the key {collision.key} under "
        "the --ignore rules; they are paired in the order of their stored keys, which may "
        "pair the wrong ones"
    )
