"""The ``replay`` command: list, show, diff, prune, scan and verify cassettes; import-vcr.

``import-vcr`` converts vcrpy cassettes to this format (see :mod:`replay.tools.vcr`).

Exit codes, like diff(1): 0 when all is well, 1 when the answer is "there are
differences / problems", 2 for bad usage or a cassette that cannot be read
(with a message naming the file, never a traceback). Every command takes
``--json`` and then prints one JSON document on stdout; the field names are
documented in the README and kept stable.
"""

from __future__ import annotations

import math
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
import orjson

from replay._core.answers import Answer, Usage, answer_of, prompt_of
from replay._core.errors import CassetteError, ConfigError, ReplayError
from replay._core.key import KEY_LENGTH, KeyRules
from replay._core.location import Location
from replay._core.model import Interaction, Outcome, Response
from replay._core.providers import detect
from replay._core.redact import Redactor
from replay._core.reissue import model_requested
from replay._store import cassette_file as store
from replay._store.backend import journal_directory
from replay.tools import diff as semantic_diff
from replay.tools import fakellm, inventory, layout, prune, report, rerun, review, scan, sync
from replay.tools.config import LOCATION
from replay.tools.inventory import CassetteFile
from replay.tools.serve import serve_command
from replay.tools.wording import counted

PROGRESS_THRESHOLD = 20
"""Fewer files than this are quick enough not to need a progress bar."""
SIGPIPE_STATUS = 128 + 13
"""The status a shell reports for a process ended by SIGPIPE (signal 13)."""
T = TypeVar("T")


# Output.


def color_wanted(flag: bool | None, isatty: bool, environ: Mapping[str, str]) -> bool:
    """An explicit --color/--no-color wins; then NO_COLOR (https://no-color.org); then a tty."""
    if flag is not None:
        return flag
    if environ.get("NO_COLOR"):
        return False
    return isatty


@dataclass
class Output:
    color: bool
    as_json: bool = False
    width: int = field(default_factory=layout.terminal_width)
    """What human output is fitted to; --json is not."""
    unreadable: list[str] = field(default_factory=list)
    """Messages for the inputs passed over (unreadable cassettes, paths without any)."""

    def passed_over(self, message: str) -> None:
        """Say at once what could not be read, and go on: the command exits 2 at the end."""
        self.unreadable.append(message)
        click.echo(f"replay: {message}", err=True)

    def style(self, text: str, **styles: Any) -> str:
        return click.style(text, **styles) if self.color else text

    def line(self, text: str = "") -> None:
        click.echo(text, color=self.color)

    def document(self, value: Any) -> None:
        click.echo(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode())


@contextmanager
def progress(items: Sequence[T], label: str) -> Iterator[Iterable[T]]:
    """A progress bar on stderr for long work at a terminal; the bare items otherwise."""
    if len(items) >= PROGRESS_THRESHOLD and sys.stderr.isatty():
        with click.progressbar(items, label=label, file=sys.stderr) as bar:
            yield bar
    else:
        with nullcontext(items) as plain:
            yield plain


def fail(message: str) -> NoReturn:
    click.echo(f"replay: {message}", err=True)
    raise click.exceptions.Exit(2)


def reader_gone() -> NoReturn:
    """Stop quietly when the reader of stdout went away (``replay list | head -1``), like git.

    Python ignores SIGPIPE, so a write to a closed pipe raises instead of ending the
    process. stdout then points at devnull, or the interpreter's flush of what is still
    buffered would fail again at exit with a message of its own (see "Note on SIGPIPE"
    in the documentation of the signal module). The status is the shell's for a process
    ended by SIGPIPE, as git's would be.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise click.exceptions.Exit(SIGPIPE_STATUS)


def _prompt_line(prompt: str, width: int, indent: str = "  ") -> str:
    """``prompt: TEXT`` on one line of ``width``, the prompt cut to fit."""
    label = f"{indent}prompt: "
    return label + layout.cut(layout.flat(prompt), max(width - len(label), 20))


def size_text(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB"):
        if value < 1024:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


class _Group(click.Group):
    """Turns replay's own errors into one line on stderr and exit status 2.

    Inputs passed over (see :meth:`Output.passed_over`) make the status 2 too, once
    the command has done what it could with the rest.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
        except ReplayError as error:
            fail(str(error))
        except BrokenPipeError:
            reader_gone()
        except OSError as error:  # a file that vanished or cannot be written mid-command
            fail(f"{error.filename or ''}: {error.strerror or error}")
        except click.exceptions.Exit as stopped:
            if stopped.exit_code == 1:  # "differences found": passing over input outranks it
                _exit_if_passed_over(ctx)
            raise
        _exit_if_passed_over(ctx)
        return result


def _exit_if_passed_over(ctx: click.Context) -> None:
    output = ctx.find_object(Output)
    if output is not None and len(output.unreadable) > 1:
        fail(f"{counted(len(output.unreadable), 'input')} passed over (named above)")
    if output is not None and output.unreadable:
        raise click.exceptions.Exit(2)


def _merge_json(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    """``--json`` after the command, or before it (on the group)."""
    output = ctx.find_object(Output)
    return value or (output is not None and output.as_json)


def _set_color(ctx: click.Context, param: click.Parameter, value: bool | None) -> None:
    output = ctx.find_object(Output)
    if value is not None and output is not None:
        output.color = value


def _existing(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Every local path argument checked before anything is read or printed: a missing one is
    bad usage (exit status 2). A cassette whose recorder was killed before its first save is
    only its journal, and exists for this. An s3:// one is looked for when it is read."""
    for path in value if isinstance(value, tuple) else (value,):
        if not isinstance(path, Path):
            continue
        if not (os.path.lexists(path) or journal_directory(path).is_dir()):
            raise click.BadParameter(f"{path}: no such file or directory", ctx, param)
    return value


_CASSETTES = click.argument("paths", nargs=-1, required=True, callback=_existing, type=LOCATION)
"""Cassettes and directories of them, local or s3://."""
_LOCAL_CASSETTES = click.argument("paths", nargs=-1, required=True, callback=_existing,
                                  type=click.Path(path_type=Path))  # fmt: skip
"""For ``prune``, which goes by the usage record, kept locally."""
_JSON_HELP = "Print one JSON document."
_COLOR_HELP = "Force colors on or off (default: on at a terminal, off when NO_COLOR is set)."


def _JSON(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--json`` and ``--color/--no-color``, taken after the command as before it."""
    command = click.option("--json", "as_json", is_flag=True, callback=_merge_json,
                           help=_JSON_HELP)(command)  # fmt: skip
    return click.option("--color/--no-color", default=None, expose_value=False,
                        callback=_set_color, help=_COLOR_HELP)(command)  # fmt: skip


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="replay-llm", prog_name="replay")
@click.option("--color/--no-color", default=None, help=_COLOR_HELP)
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@click.pass_context
def main(ctx: click.Context, color: bool | None, as_json: bool) -> None:
    """Look after recorded LLM calls: list, show, diff, report, prune, scan, verify, rerun,
    sync and import cassettes; serve them to any client, or serve a fake LLM API to record from.

    --json and --color/--no-color are taken before the command or after it.

    \b
    Examples:
      replay list tests/cassettes
      replay show tests/cassettes/test_chat.json
      replay diff v1/ v2/ --ignore model
      replay report v1/ v2/ -o report.html
      replay rerun tests/cassettes --out v2/ --model gpt-4.1-mini
      replay serve --cassettes tests/cassettes --upstream https://api.openai.com
      replay fake-server --port 8000
      replay sync tests/cassettes s3://team-cassettes/suite
    """
    ctx.obj = Output(color_wanted(color, sys.stdout.isatty(), os.environ), as_json)


def _output(as_json: bool) -> Output:
    output: Output = click.get_current_context().find_object(Output) or Output(False)
    output.as_json = as_json
    return output


def _read(paths: Sequence[Location], label: str, required: bool = False) -> list[CassetteFile]:
    """The cassettes under ``paths``; each unreadable one is passed over, and said so.

    ``required``: a path with no cassette under it is passed over too, as a
    mistyped path in CI must not pass for a clean one.
    """
    output = _current()
    cassettes: list[CassetteFile] = []
    for path in paths:
        found = inventory.find([path])
        before, unreadable = len(cassettes), len(output.unreadable)
        with progress(found, label) as items:
            for item in items:
                try:
                    cassette = inventory.read(item)
                except CassetteError as error:
                    output.passed_over(str(error))
                    continue
                if cassette is not None:
                    cassettes.append(cassette)
        if required and len(cassettes) == before and len(output.unreadable) == unreadable:
            output.passed_over(f"no cassettes found under {path}")
    return cassettes


def _current() -> Output:
    output: Output = click.get_current_context().find_object(Output) or Output(False)
    return output


def _decoded(cassettes: Iterable[CassetteFile]) -> Iterator[tuple[CassetteFile, list[Interaction]]]:
    """Each cassette with its interactions; one with a malformed interaction is passed over."""
    for cassette in cassettes:
        try:
            yield cassette, list(cassette.interactions())
        except CassetteError as error:
            _current().passed_over(str(error))


# replay list


@dataclass
class Row:
    path: str
    interactions: int = 0
    responses: int = 0
    providers: set[str] = field(default_factory=set)
    models: set[str] = field(default_factory=set)
    streamed: int = 0
    errors: int = 0
    usage: Usage = field(default_factory=Usage)
    size: int = 0
    recorded: list[str] = field(default_factory=list)
    answered_as: set[tuple[str, str]] = field(default_factory=set)
    """(requested, answered) model names where another model answered than was asked."""

    def add(self, interaction: Interaction) -> None:
        self.interactions += 1
        asked = model_requested(interaction.request)
        for outcome in interaction.outcomes:
            self.responses += 1
            self.recorded.append(outcome.recorded_at)
            answer = answer_of(outcome)
            self.usage = self.usage + answer.usage
            self.streamed += answer.streamed
            self.errors += answer.status is None or answer.status >= 400
            if isinstance(outcome, Response):
                body = outcome.body
                self.providers.add(detect(interaction.request.url, body).name)
            model = answer.model or asked
            if model:
                self.models.add(model)
            if asked and answer.model and answer.model != asked:
                self.answered_as.add((asked, answer.model))

    def merge(self, other: Row) -> None:
        self.interactions += other.interactions
        self.responses += other.responses
        self.providers |= other.providers
        self.models |= other.models
        self.streamed += other.streamed
        self.errors += other.errors
        self.usage = self.usage + other.usage
        self.size += other.size
        self.recorded.extend(other.recorded)
        self.answered_as |= other.answered_as

    def to_json(self) -> dict[str, Any]:
        dates = sorted(date for date in self.recorded if date)
        return {
            "path": self.path,
            "interactions": self.interactions,
            "responses": self.responses,
            "providers": sorted(self.providers),
            "models": sorted(self.models),
            "streamed": self.streamed,
            "errors": self.errors,
            "prompt_tokens": self.usage.prompt_tokens or 0,
            "completion_tokens": self.usage.completion_tokens or 0,
            "cost_usd": self.usage.cost_usd,
            "size_bytes": self.size,
            "recorded_first": dates[0] if dates else None,
            "recorded_last": dates[-1] if dates else None,
            "answered_by_another_model": [
                {"requested": requested, "answered": answered}
                for requested, answered in sorted(self.answered_as)
            ],
        }


@main.command("list")
@_CASSETTES
@_JSON
def list_command(paths: tuple[Location, ...], as_json: bool) -> None:
    """One row per cassette: interactions, providers, models, tokens, size, age."""
    output = _output(as_json)
    rows = []
    for cassette, interactions in _decoded(_read(paths, "Reading cassettes")):
        row = Row(str(cassette.path), size=cassette.size)
        for interaction in interactions:
            row.add(interaction)
        rows.append(row)
    total = Row("total")
    for row in rows:
        total.merge(row)
    if as_json:
        output.document(
            {
                "cassettes": [row.to_json() for row in rows],
                "total": {**total.to_json(), "cassettes": len(rows)},
                "unreadable": output.unreadable,
            }
        )
        return
    cells = [_list_cells(row) for row in [*rows, total]]
    lines = layout.table(_LIST_COLUMNS, cells, output.width)
    for index, text in enumerate(lines):
        bold = index in (0, len(cells))  # the header and the total
        output.line(output.style(text, bold=bold))


_LIST_COLUMNS = (
    layout.Column("path", shrink_to=16, keep_end=True, keep=7),
    layout.Column("inter"),
    layout.Column("resp", drop=2),
    layout.Column("providers", shrink_to=9, drop=4),
    layout.Column("models", shrink_to=9, keep=6),
    layout.Column("stream", drop=3),
    layout.Column("err", drop=5),
    layout.Column("tokens in/out"),
    layout.Column("size"),
    layout.Column("recorded"),
)
"""In a narrow terminal: providers are cut first; then the responses, streamed, providers and
errors columns are left out, in that order; then models are cut, and paths last."""


def _list_cells(row: Row) -> tuple[str, ...]:
    data = row.to_json()
    tokens = f"{data['prompt_tokens']}/{data['completion_tokens']}"
    if data["cost_usd"] is not None:
        tokens += f" ${data['cost_usd']:.4g}"
    recorded = (data["recorded_last"] or "-")[:10]
    return (
        row.path,
        str(row.interactions),
        str(row.responses),
        ",".join(data["providers"]) or "-",
        _models_cell(row),
        str(row.streamed),
        str(row.errors),
        tokens,
        size_text(row.size),
        recorded,
    )


def _models_cell(row: Row) -> str:
    """The models, ``gpt-4o>gpt-4o-2024-11-20`` where a request for one was answered by another."""
    drifted = [f"{asked}>{answered}" for asked, answered in sorted(row.answered_as)]
    plain = sorted(row.models - {answered for _, answered in row.answered_as})
    return ",".join(drifted + plain) or "-"


# replay show


def _answer_lines(
    output: Output, index: int, answer: Answer, recorded_at: str, asked: str | None = None
) -> Iterator[str]:
    status = "transport failure" if answer.status is None else str(answer.status)
    color = "green" if answer.status is not None and answer.status < 400 else "red"
    # A transport failure has no body to speak of.
    kinds = [] if answer.status is None else ["stream" if answer.streamed else "body"]
    if not answer.complete:
        kinds.append("abandoned by the caller")
    kind = f" ({', '.join(kinds)})" if kinds else ""
    yield f"  response {index + 1}: {output.style(status, fg=color)}{kind} {recorded_at}"
    if answer.error is not None:
        yield f"    error: {answer.error}"
    for line in answer.text.splitlines():
        yield f"    | {line}"
    for call in answer.tool_calls:
        yield f"    tool call {call.name}({call.arguments})"
    facts = [f"finish {answer.finish_reason}"] if answer.finish_reason else []
    if answer.usage != Usage():
        facts.append(
            f"tokens {answer.usage.prompt_tokens or 0}/{answer.usage.completion_tokens or 0}"
        )
    if answer.model:
        moved = asked is not None and asked != answer.model
        facts.append(f"model {answer.model}" + (f" (requested {asked})" if moved else ""))
    if facts:
        yield "    " + ", ".join(facts)


@main.command("show")
@click.argument("cassette", callback=_existing, type=LOCATION)
@click.option("--key", "prefix", default="", help="Only interactions whose key starts so.")
@click.option("--raw", is_flag=True, help="Print the stored JSON of each interaction.")
@_JSON
def show_command(cassette: Location, prefix: str, raw: bool, as_json: bool) -> None:
    """The interactions of one cassette: request, prompt, answer, finish reason, usage."""
    output = _output(as_json)
    found = inventory.read(inventory.Found(cassette, cassette.name, named=True))
    assert found is not None, "a named file is read or raises"
    keys = [key for key in sorted(found.entries) if key.startswith(prefix)]
    if not keys:
        click.echo(f"replay: no interaction in {cassette} has a key starting {prefix!r}", err=True)
        raise click.exceptions.Exit(1)
    if raw:
        output.document({key: found.entries[key] for key in keys})
        return
    interactions = [store.decode(cassette, key, found.entries[key]) for key in keys]
    if as_json:
        output.document(
            {
                "path": str(cassette),
                "interactions": [_shown(interaction) for interaction in interactions],
            }
        )
        return
    for interaction in interactions:
        request = interaction.request
        output.line(output.style(interaction.key, fg="yellow") + f" {request.method} {request.url}")
        prompt = prompt_of(request)
        if prompt:
            output.line(_prompt_line(prompt, output.width))
        asked = model_requested(request)
        for index, outcome in enumerate(interaction.outcomes):
            answer = answer_of(outcome)
            for line in _answer_lines(output, index, answer, outcome.recorded_at, asked):
                output.line(line)


def _shown(interaction: Interaction) -> dict[str, Any]:
    return {
        "key": interaction.key,
        "method": interaction.request.method,
        "url": interaction.request.url,
        "prompt": prompt_of(interaction.request),
        "model_requested": model_requested(interaction.request),
        "responses": [
            {**answer_of(outcome).to_json(), "recorded_at": outcome.recorded_at}
            for outcome in interaction.outcomes
        ],
    }


# replay diff


_IGNORE_OPTION = click.option(
    "-i",
    "--ignore",
    multiple=True,
    metavar="FIELD",
    help="A JSON path of the request body or a query parameter left out when pairing; "
    "--ignore model pairs the same prompts sent to two model versions, --ignore host "
    "(scheme, host and port) the same prompts sent to two servers. Repeatable.",
)
_GIT_REV_OPTION = click.option(
    "--git-rev",
    metavar="REV",
    help="Compare the one PATH given with its state at the git revision REV.",
)


@dataclass
class _Compared:
    """Two recordings read and paired, as ``diff`` and ``report`` both start."""

    old: Location
    new: Location
    olds: dict[str, list[Interaction]]
    news: dict[str, list[Interaction]]
    pairs: list[semantic_diff.Pair]

    def models(self) -> dict[str, list[str]]:
        return {side: semantic_diff.models(self.pairs, side) for side in ("old", "new")}


def _compared(
    old: Location, new: Location | None, ignore: tuple[str, ...], git_rev: str | None
) -> _Compared:
    if (new is None) == (git_rev is None):
        raise click.UsageError("give OLD and NEW, or one PATH with --git-rev REV")
    if new is None:
        if not isinstance(old, Path):
            raise click.UsageError(f"--git-rev compares a path in a git work tree, not {old}")
        new, (old, olds) = old, review.side_at_revision(old, str(git_rev), _side)
    else:
        if inventory.is_directory(old) != inventory.is_directory(new):
            raise click.UsageError("OLD and NEW must both be cassette files or both directories")
        olds = _side(old)
    news = _side(new)
    return _Compared(
        old, new, olds, news, semantic_diff.pair_trees(olds, news, KeyRules(ignore=ignore))
    )


@main.command("diff")
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


@main.command("report")
@click.argument("old", callback=_existing, type=LOCATION)
@click.argument("new", required=False, callback=_existing, type=LOCATION)
@click.option(
    "-o",
    "--output",
    "target",
    required=True,
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
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
    output = _output(False)
    try:
        priced = report.Prices.parse(prices)
    except ConfigError as error:
        raise click.BadParameter(error.reason, param_hint=f"--price {error.value}") from None
    if not target.parent.is_dir():
        fail(f"{target}: the folder {target.parent} does not exist")
    compared = _compared(old, new, ignore, git_rev)
    page = report.render(
        compared.pairs,
        old=str(compared.old),
        new=str(compared.new),
        models=compared.models(),
        prices=priced,
    )
    try:
        store.write_atomically(target, page.encode())
    except CassetteError as error:  # says "cassette": this is a page
        fail(f"{target}: {error.reason}")
    summary = semantic_diff.summary(compared.pairs)
    output.line(
        f"wrote {target}: {counted(summary['pairs'], 'pair')}, {summary['changed']} changed, "
        f"{summary['only_old']} only in OLD, {summary['only_new']} only in NEW"
    )
    if output.unreadable:
        raise click.exceptions.Exit(2)


def _collision_message(collision: semantic_diff.Collision, sides: Mapping[str, Location]) -> str:
    side = sides[collision.side]
    path = side / collision.file if collision.file else side
    return (
        f"{path}: {collision.interactions} interactions share the key {collision.key} under "
        "the --ignore rules; they are paired in the order of their stored keys, which may "
        "pair the wrong ones"
    )


def _side(path: Location) -> dict[str, list[Interaction]]:
    files = list(_decoded(_read([path], f"Reading {path}")))
    if not inventory.is_directory(path):
        # Two single files compare with each other whatever their names.
        return {"": files[0][1]} if files else {}
    return {cassette.relative: interactions for cassette, interactions in files}


def _print_side(output: Output, side: str, path: Location, models: Sequence[str]) -> None:
    """``OLD path: models``, the path cut before the models."""
    named = ", ".join(models) or "no model named"
    room = max(output.width - len(f"OLD : {named}"), 20)
    text = f"{side.upper()} {layout.cut(str(path), room, keep_end=True)}: {named}"
    output.line(output.style(layout.cut(text, output.width), bold=True))


_STATE_MARKS = {"changed": ("~", "yellow"), "only_old": ("-", "red"), "only_new": ("+", "green")}


def _print_diff(
    output: Output, pairs: Sequence[semantic_diff.Pair], summary: dict[str, Any], verbose: bool
) -> None:
    width = output.width
    for pair in pairs:
        if pair.state == "unchanged" and not verbose:
            continue
        mark, color = _STATE_MARKS.get(pair.state, ("=", "white"))
        request = pair.either.interaction.request
        where = f"{pair.file} " if pair.file else ""
        title = f"{mark} {where}{request.method} "
        detail = f" [{', '.join(pair.changes)}]" if pair.changes else f" ({pair.state})"
        url = layout.cut_url(request.url, max(width - len(title) - len(detail), 16))
        output.line(output.style(title + url, fg=color, bold=True) + detail)
        keys = pair.stored_keys(layout.KEY_SHOWN)
        output.line(f"  {'keys' if ' ' in keys else 'key'}: {keys}")
        output.line(_prompt_line(prompt_of(request), width))
        if pair.old is None or pair.new is None:
            continue
        for line in pair.text_diff(layout.KEY_SHOWN).splitlines():
            colors = {"+": "green", "-": "red", "@": "cyan"}
            output.line("  " + output.style(line, fg=colors.get(line[:1])))
        compared = zip(pair.old.answers, pair.new.answers, strict=False)
        for index, (before, after) in enumerate(compared):
            for label, then, now in _field_changes(before, after):
                prefix = f"response {index + 1} " if len(pair.old.answers) > 1 else ""
                output.line(f"  {prefix}{label}: {then} -> {now}")
        if "responses" in pair.changes:
            output.line(f"  responses: {len(pair.old.answers)} -> {len(pair.new.answers)}")
        if "model" in pair.changes:
            output.line(f"  {_answered_models(pair.old, pair.new)}")
    _print_summary(output, summary)


def _answered_models(old: semantic_diff.Side, new: semantic_diff.Side) -> str:
    """The model that answered the same requested one, then and now."""
    requested = model_requested(old.interaction.request) or "the same model"

    def answered(side: semantic_diff.Side) -> str:
        return ",".join(sorted({a.model for a in side.answers if a.model}))

    return f"answered model for {requested}: {answered(old)} -> {answered(new)}"


def _field_changes(before: Answer, after: Answer) -> Iterator[tuple[str, object, object]]:
    if before.status != after.status:
        yield "status", before.status, after.status
    if before.error != after.error:
        yield "error", before.error, after.error
    if before.finish_reason != after.finish_reason:
        yield "finish reason", before.finish_reason, after.finish_reason
    if before.usage != after.usage:
        yield (
            "tokens in/out",
            f"{before.usage.prompt_tokens}/{before.usage.completion_tokens}",
            f"{after.usage.prompt_tokens}/{after.usage.completion_tokens}",
        )


def _print_summary(output: Output, summary: dict[str, Any]) -> None:
    kinds = ", ".join(f"{n} {kind}" for kind, n in summary["changed_by_kind"].items() if n)
    tokens = summary["tokens"]
    change = tokens["change_percent"]
    output.line(
        output.style(
            f"{counted(summary['pairs'], 'pair')}: {summary['unchanged']} unchanged, "
            f"{summary['changed']} changed, "
            f"{summary['only_old']} only in OLD, {summary['only_new']} only in NEW",
            bold=True,
        )
    )
    if kinds:
        output.line(f"changed: {kinds}")
    old, new = tokens["old"], tokens["new"]
    output.line(
        f"tokens in/out: OLD {old['prompt']}/{old['completion']} ({old['total']}), "
        f"NEW {new['prompt']}/{new['completion']} ({new['total']})"
        + ("" if change is None else f", {change:+.1f}%")
    )


main.add_command(rerun.rerun_command)


# replay prune (the planning is in replay.tools.prune)


def _days(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is not None and math.isnan(value):
        raise click.BadParameter("is not a number of days", ctx, param)
    return value


@main.command("prune")
@_LOCAL_CASSETTES
@click.option("--yes", is_flag=True, help="Remove them (without --yes, only show what would go).")
@click.option("--dry-run", is_flag=True, help="Only show what would be removed.")
@click.option(
    "--older-than",
    type=click.FloatRange(min=0),
    callback=_days,
    metavar="DAYS",
    help="Also remove interactions recorded more than DAYS ago.",
)
@_JSON
def prune_command(
    paths: tuple[Path, ...], yes: bool, dry_run: bool, older_than: float | None, as_json: bool
) -> None:
    """Remove the interactions, and cassettes, that the last complete test run did not use.

    Shows what it would remove, and removes it only with --yes. Exit status 1
    when something was left to remove or a directory has no usage record (or a stale one).
    """
    output = _output(as_json)
    cutoff = prune.cutoff(older_than, datetime.now(UTC))
    cassettes = [
        (cassette.path, cassette)  # local: prune's paths are
        for cassette in _read(paths, "Reading cassettes")
        if isinstance(cassette.path, Path)
    ]
    directories = prune.directories([path.parent for path, _ in cassettes])
    policies = {d.path: prune.Policy(d.run, cutoff) for d in directories}
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
    missing = any(directory.run is None for directory in directories) and cutoff is None
    if missing or (plans and not applied):
        raise click.exceptions.Exit(1)


def _print_prune(
    output: Output,
    directories: Sequence[prune.Directory],
    plans: Sequence[prune.Plan],
    applied: bool,
) -> None:
    for directory in directories:
        color = "yellow" if directory.run is None else None
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


@main.command("sync")
@click.argument("source", type=LOCATION)
@click.argument("destination", type=LOCATION)
@_JSON
def sync_command(source: Location, destination: Location, as_json: bool) -> None:
    """Copy the cassettes under SOURCE to DESTINATION, local or s3://BUCKET/PREFIX.

    Each is merged into the cassette of the same relative name (DESTINATION itself when
    SOURCE is one cassette): SOURCE's interactions are added, and replace DESTINATION's
    responses for the same request. Nothing in DESTINATION is removed. Exit status 2 when a
    cassette could not be read or written.

    \b
    Examples:
      replay sync cassettes s3://team-cassettes/llm-suite
      replay sync s3://team-cassettes/llm-suite cassettes
    """
    output = _output(as_json)
    synced: list[sync.Synced] = []
    found = inventory.find([source])
    with progress(found, "Syncing") as items:
        for item in items:
            try:
                cassette = inventory.read(item)
                if cassette is not None:
                    target = sync.target_of(cassette, item.named, destination)
                    synced.append(sync.merge_into(target, cassette))
            except CassetteError as error:
                output.passed_over(str(error))
    if as_json:
        output.document({"synced": [s.to_json() for s in synced], "unreadable": output.unreadable})
    else:
        for done in synced:
            output.line(f"{'copied' if done.changed else 'unchanged'}  {done.target}")
        written = sum(done.changed for done in synced)
        output.line(f"{counted(len(synced), 'cassette')} synced, {written} written")
    if output.unreadable:
        raise click.exceptions.Exit(2)


# replay scan (the search is in replay.tools.scan)


@main.command("scan")
@_CASSETTES
@_JSON
def scan_command(paths: tuple[Location, ...], as_json: bool) -> None:
    """Search cassettes for secrets that escaped redaction; exit status 1 if any is found.

    Looks for the API key shapes of the major providers, bearer tokens, and the
    values of this environment's *_KEY, *_TOKEN, *_SECRET and *API_KEY* variables.
    A stored body that cannot be decoded for the search is a problem too.
    """
    output = _output(as_json)
    pattern = Redactor().known.pattern
    cassettes = _read(paths, "Scanning", required=True)
    findings: list[scan.Finding] = []
    problems: list[scan.Problem] = []
    for cassette in cassettes:
        found, unreadable = scan.scan_cassette(cassette, pattern)
        findings.extend(found)
        problems.extend(unreadable)
    if as_json:
        output.document(
            {
                "files_scanned": len(cassettes),
                "findings": [finding.to_json() for finding in findings],
                "problems": [problem.to_json() for problem in problems],
                "unreadable": output.unreadable,
            }
        )
    else:
        for finding in findings:
            output.line(
                output.style(f"{finding.path}", fg="red")
                + f": interaction {finding.key}, {finding.field}"
            )
            output.line(f"  {finding.masked}: {finding.rule}")
        for problem in problems:
            where = f"interaction {problem.key}, {problem.field}: " if problem.field else ""
            output.line(output.style(f"{problem.path}", fg="yellow") + f": {where}{problem.reason}")
        undecoded = f", {counted(len(problems), 'problem')}" if problems else ""
        output.line(
            f"{counted(len(findings), 'secret')} found in "
            f"{counted(len(cassettes), 'cassette')}{undecoded}"
        )
    if findings or problems:
        raise click.exceptions.Exit(1)


# replay verify


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


@main.command("verify")
@_CASSETTES
@_JSON
def verify_command(paths: tuple[Location, ...], as_json: bool) -> None:
    """Check that every cassette loads and matches the format; exit status 1 otherwise."""
    output = _output(as_json)
    results: list[dict[str, Any]] = []
    for path in paths:
        before = len(results)
        with progress(inventory.find([path]), "Verifying") as items:
            for found in items:
                cassette, problems = verify_file(found)
                if cassette is None and not problems:
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
        output.document({"ok": not bad, "files": results})
    else:
        for result in bad:
            output.line(output.style(result["path"], fg="red", bold=True))
            for problem in result["problems"]:
                output.line(f"  {problem}")
        valid, verb = len(results) - len(bad), "is" if len(results) == 1 else "are"
        output.line(f"{valid} of {counted(len(results), 'cassette')} {verb} valid")
    if bad:
        raise click.exceptions.Exit(1)


# replay import-vcr (the conversion is in replay.tools.vcr)


@main.command("import-vcr")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--delete", is_flag=True, help="Remove each vcrpy cassette once converted.")
@click.option("--force", is_flag=True, help="Overwrite a converted file that differs.")
@click.option(
    "--normalize",
    is_flag=True,
    help="Give ids and times placeholders, as recording does (default: kept as recorded).",
)
@_JSON
def import_vcr_command(
    paths: tuple[Path, ...], delete: bool, force: bool, normalize: bool, as_json: bool
) -> None:
    """Convert vcrpy / pytest-recording cassettes (YAML, vcrpy's JSON, pydantic-ai's and
    langchain's serializers) to replay cassettes; exit status 1 if some could not be."""
    from replay.tools import vcr

    if (missing := vcr.missing_extra()) is not None:
        fail(f"import-vcr {missing}")
    output = _output(as_json)
    results = vcr.import_paths(paths, delete=delete, force=force, normalize=normalize)
    failed = [(source, error) for source, error in results if isinstance(error, CassetteError)]
    converted = [done for _, done in results if isinstance(done, vcr.Imported)]
    skipped = [skip for _, skip in results if isinstance(skip, vcr.Skipped)]
    if as_json:
        output.document(
            {
                "converted": [
                    {
                        "source": str(done.source),
                        "target": str(done.target),
                        "interactions": done.interactions,
                        "unchanged": done.unchanged,
                    }
                    for done in converted
                ],
                "skipped": [
                    {"source": str(skip.source), "reason": skip.reason} for skip in skipped
                ],
                "failed": [{"source": str(source), "reason": e.reason} for source, e in failed],
            }
        )
    else:
        for done in converted:
            verb = "already converted" if done.unchanged else "converted"
            output.line(
                f"{verb} {done.source} -> {done.target} "
                f"({counted(done.interactions, 'interaction')})"
            )
        for skip in skipped:
            output.line(output.style(f"{skip.source}: {skip.reason}, skipped", fg="yellow"))
        for source, error in failed:
            output.line(output.style(f"{source}: {error.reason}", fg="red"))
        fresh = sum(not done.unchanged for done in converted)
        output.line(
            f"{fresh} converted, {len(converted) - fresh} already converted, "
            f"{len(skipped)} skipped, {len(failed)} not converted"
        )
    if failed:
        raise click.exceptions.Exit(1)


main.add_command(serve_command)  # replay serve: replay.tools.serve


# replay fake-server (the server is replay.tools.fakellm)


@main.command("fake-server")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=fakellm.DEFAULT_PORT,
    show_default=True,
    help="The port to listen on (0: any free one). Keep it fixed: the port is part of the "
    "requests recorded against the server.",
)
@click.option("--api-key", default=fakellm.DEFAULT_API_KEY, show_default=True,
              help="The key the server accepts.")  # fmt: skip
@click.option("--model-version", default="v1", show_default=True,
              help="v2 answers some prompts differently, for trying replay diff.")  # fmt: skip
@click.option("--chunk-delay", type=click.FloatRange(min=0), default=0.02, show_default=True,
              help="Seconds between the chunks of a stream.")  # fmt: skip
def fake_server_command(
    host: str, port: int, api_key: str, model_version: str, chunk_delay: float
) -> None:
    """Serve a fake LLM API (OpenAI, Anthropic, Groq, AI21, Cohere, Ollama...) until Ctrl-C.

    For offline development and trying replay without a key: it prints its URL and
    the environment variables that point the SDKs at it. Also `python -m
    replay.tools.fakellm`.
    """
    server = fakellm.FakeLLMServer(
        api_key, model_version, host=host, port=port, chunk_delay=chunk_delay
    )
    try:
        server.start()
    except OSError as error:
        fail(f"fake-server cannot listen on {host}:{port}: {error.strerror or error}")
    click.echo(f"fake LLM API on {server.url} (model version {model_version}); Ctrl-C stops it")
    click.echo("Point the SDKs at it, in the shell that runs them:")
    for name, value in fakellm.environment(server).items():
        click.echo(f"  export {name}={value}")
    try:
        server.stopping.wait()
    except KeyboardInterrupt:
        click.echo("stopped")
    finally:
        server.stop()
