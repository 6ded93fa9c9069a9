"""``replay rerun``: the recorded requests sent again (see :mod:`replay.tools.rerun`),
the answers recorded under --out and diffed with the recordings."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click

from replay._core import reissue
from replay._core.location import Location
from replay._core.model import is_grpc
from replay._store import usage
from replay.tools import diff, extras
from replay.tools.cli.compare import PAGE, _in_a_folder, _print_diff, _print_side, write_page
from replay.tools.cli.output import _CASSETTES, _COLOR, _output, _read, fail
from replay.tools.config import LOCATION
from replay.tools.rerun import (
    CassettePlan,
    Changes,
    Group,
    Progress,
    Sender,
    _each,
    environment_keys,
    missing_keys,
    out_overlaps,
    overview,
    pairs,
    plan,
    run,
    within,
)


def _upstream(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
        raise click.BadParameter("is not an http(s)://host[:port][/path] URL", ctx, param)
    return value


def _directory(ctx: click.Context, param: click.Parameter, value: Location) -> Location:
    if isinstance(value, Path) and value.exists() and not value.is_dir():
        raise click.BadParameter(f"{value}: is a file, not a directory", ctx, param)
    return value


def _settings(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> tuple[tuple[str, Any], ...]:
    try:
        return tuple(reissue.parse_setting(value) for value in values)
    except ValueError as error:
        raise click.BadParameter(str(error), ctx, param) from None


@click.command("rerun")
@_COLOR
@_CASSETTES
@click.option(
    "--out",
    required=True,
    type=LOCATION,
    callback=_directory,
    help="The directory (or s3:// prefix) the new recordings go to; run again to continue.",
)
@click.option("--model", help="Send every request to this model (body, or URL path).")
@click.option("--upstream", metavar="URL", callback=_upstream, help="Send to this host instead.")
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="PATH=VALUE",
    callback=_settings,
    help="Set a JSON path of every request body (VALUE is JSON, else a string). Repeatable.",
)
@click.option(
    "--concurrency",
    type=click.IntRange(1, 64),
    default=4,
    show_default=True,
    help="How many requests are in flight at once.",
)
@click.option(
    "--max-requests", type=click.IntRange(min=0), metavar="N", help="Send at most N requests."
)
@click.option("--dry-run", is_flag=True, help="Only show what would be sent.")
@click.option("--yes", is_flag=True, help="Send without asking.")
@click.option(
    "--key-env",
    multiple=True,
    metavar="[PROVIDER=]VAR",
    help="Take the key from VAR (for PROVIDER's requests only, if named). Repeatable.",
)
@click.option("--no-diff", is_flag=True, help="Do not print the diff at the end.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option(
    "--report",
    "report_target",
    type=PAGE,
    callback=_in_a_folder,
    metavar="FILE",
    help="Also write the diff as the HTML page of `replay report`, its pairs as shown here.",
)
def rerun_command(
    paths: tuple[Location, ...],
    out: Location,
    model: str | None,
    upstream: str | None,
    settings: tuple[tuple[str, Any], ...],
    concurrency: int,
    max_requests: int | None,
    dry_run: bool,
    yes: bool,
    key_env: tuple[str, ...],
    no_diff: bool,
    as_json: bool,
    report_target: Path | None,
) -> None:
    """Send the recorded requests again (to --model, --upstream) and record the answers under
    --out; then show the diff with the recordings.

    Without --model it is a live verify: the same requests against today's API. The
    originals are never written. Exit status as diff's: 0 unchanged, 1 differences
    (or requests left unanswered), 2 bad usage or a missing key, before anything is sent.
    """
    if report_target is not None:
        extras.require("report", "rerun --report")
    output = _output(as_json)
    if (overlap := out_overlaps(out, paths)) is not None:
        raise click.UsageError(f"--out {out} overlaps {overlap}: the originals are never written")
    cassettes = _read(paths, "Reading cassettes")
    names: dict[str, Location] = {}
    for cassette in cassettes:
        if names.setdefault(cassette.relative, cassette.path) != cassette.path:
            fail(
                f"{cassette.path} and {names[cassette.relative]} would both be recorded as "
                f"{out / cassette.relative}: rerun them separately"
            )
    for cassette in cassettes:
        for interaction in cassette.interactions():
            if is_grpc(interaction.request.url):
                fail(
                    f"{cassette.path} holds a gRPC call ({interaction.request.url}): rerun sends "
                    "HTTP requests and cannot send it again; nothing was sent"
                )
    plans = plan(cassettes, out, Changes(model, settings, upstream), key_env)
    before = {id(p): len(p.new_keys) for p in plans}
    left_out = within(plans, max_requests)
    groups = overview(plans)
    missing = missing_keys(plans, os.environ)
    to_send = sum(planned.sends for planned in _each(plans))
    if not as_json:
        _print_plan(output, plans, groups, left_out, missing, out)
    if dry_run:
        if as_json:
            output.document(_plan_json(plans, groups, left_out, missing))
        return
    if missing and to_send:
        fail(
            "no key for "
            + "; ".join(
                f"{', '.join(sorted(providers))}: set {' or '.join(variables)}"
                for variables, providers in sorted(missing.items())
            )
            + " (or name the variable with --key-env); nothing was sent"
        )
    if to_send and not yes:
        if not sys.stdin.isatty():
            fail(f"not at a terminal: pass --yes to send {to_send} requests, or --dry-run")
        if not click.confirm(f"Send {to_send} requests?", err=True):
            click.echo("replay: nothing sent", err=True)
            raise click.exceptions.Exit(1)
    usage.mark_incomplete("replay rerun: the rerun records, it is not a test run")
    progress = Progress()
    stop = threading.Event()
    sender = Sender(environment_keys(plans, os.environ), progress, stop)

    def cassette_done(done: CassettePlan) -> None:
        if bar is None and to_send and not as_json:
            answered = len(done.new_keys) - before[id(done)]
            click.echo(f"{done.target}: {answered} answered", err=True)

    bar = None
    shown = 0
    try:
        with _progress_bar(to_send and not as_json, to_send) as bar:

            def tick() -> None:
                nonlocal shown
                if bar is not None:
                    bar.update(progress.sent - shown)
                    shown = progress.sent

            run(plans, sender, concurrency, cassette_done, tick)
    except KeyboardInterrupt:
        stop.set()
        for cassette_plan in plans:
            cassette_plan.out.save()
        click.echo(
            f"replay: interrupted after {progress.sent} answers, each recorded: run the same "
            "command again to continue",
            err=True,
        )
        raise click.exceptions.Exit(130) from None
    finally:
        sender.close()
        for cassette_plan in plans:
            cassette_plan.out.save()
    sources = ", ".join(map(str, paths))
    sides = (sources, str(out))
    page = None if report_target is None else (report_target, *sides)
    _finish(output, plans, progress, left_out, no_diff, as_json, sides, page)


def _finish(
    output: Any,
    plans: Sequence[CassettePlan],
    progress: Progress,
    left_out: int,
    no_diff: bool,
    as_json: bool,
    sides: tuple[str, str],
    page: tuple[Path, str, str] | None,
) -> None:
    """The diff of the recordings named by ``sides`` (old, new) shown, with the models on
    each side as ``replay diff`` names them (or the document), and written as a page to
    ``page``'s path, naming its sides as its second and third."""
    found = pairs(plans)
    summary = diff.summary(found)
    if page is not None:
        target, old, new = page
        write_page(target, found, old=old, new=new)
        click.echo(f"replay: wrote {target}", err=True)
    if as_json:
        output.document(
            {
                "answered": progress.sent,
                "retried": progress.retried,
                "failures": [failure.__dict__ for failure in progress.failures],
                "left_out": left_out,
                "pairs": [pair.to_json() for pair in found],
                "summary": summary,
            }
        )
    else:
        for failure in progress.failures:
            click.echo(f"replay: {failure.file} {failure.key}: {failure.reason}", err=True)
        if not no_diff:
            for side, named in zip(("old", "new"), sides, strict=True):
                _print_side(output, side, named, diff.models(found, side))
            _print_diff(output, found, summary, verbose=False)
        if progress.failures or left_out:
            click.echo(
                "replay: not every request was answered: run the same command again to send "
                "the rest",
                err=True,
            )
    if summary["changed"] or summary["only_old"] or summary["only_new"] or progress.failures:
        raise click.exceptions.Exit(1)


@contextmanager
def _progress_bar(wanted: object, length: int) -> Iterator[Any]:
    if wanted and sys.stderr.isatty():
        with click.progressbar(length=length, label="Rerunning", file=sys.stderr) as bar:
            yield bar
    else:
        yield None


def _print_plan(
    output: Any,
    plans: Sequence[CassettePlan],
    groups: Sequence[Group],
    left_out: int,
    missing: Mapping[tuple[str, ...], set[str]],
    out: Location,
) -> None:
    to_send = sum(group.requests for group in groups)
    cassettes = sum(1 for p in plans if p.to_send)
    output.line(output.style(f"to send: {to_send} requests from {cassettes} cassettes", bold=True))
    rows = [("provider", "model", "requests", "recorded tokens in/out")]
    for group in groups:
        tokens = f"{group.usage.prompt_tokens or 0}/{group.usage.completion_tokens or 0}"
        if group.usage.cost_usd is not None:
            tokens += f" ${group.usage.cost_usd:.4g}"
        rows.append((group.provider, group.model, str(group.requests), tokens))
    if groups:
        widths = [max(len(row[i]) for row in rows) for i in range(4)]
        for row in rows:
            output.line("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    already = sum(len(p.new_keys) for p in plans)
    if already:
        output.line(f"already recorded in {out}: {already} interactions (not sent again)")
    same = sum(len(p.same_as) for p in plans)
    if same:
        output.line(f"made identical to another by --model/--set: {same} (sent once)")
    if left_out:
        output.line(f"over --max-requests: {left_out} requests left for a later run")
    for variables, providers in sorted(missing.items()):
        output.line(f"no key: set {' or '.join(variables)} for {', '.join(sorted(providers))}")


def _plan_json(
    plans: Sequence[CassettePlan],
    groups: Sequence[Group],
    left_out: int,
    missing: Mapping[tuple[str, ...], set[str]],
) -> dict[str, Any]:
    return {
        "to_send": [group.to_json() for group in groups],
        "requests": sum(group.requests for group in groups),
        "already_recorded": sum(len(p.new_keys) for p in plans),
        "left_out": left_out,
        "missing_keys": [
            {"variables": list(variables), "providers": sorted(providers)}
            for variables, providers in sorted(missing.items())
        ],
    }
