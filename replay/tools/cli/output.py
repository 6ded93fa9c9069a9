"""What every command shares: the output (text or one JSON document, color, the terminal's
width), the arguments naming cassettes, and the cassettes read with the unreadable ones
passed over.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
import orjson

from replay._core.errors import CassetteError
from replay._core.location import Location
from replay._core.model import Interaction
from replay._store.backend import journal_directory
from replay.tools import inventory, layout
from replay.tools.config import LOCATION
from replay.tools.inventory import CassetteFile

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
_JSON_HELP = "Print one JSON document."
_COLOR_HELP = "Force colors on or off (default: on at a terminal, off when NO_COLOR is set)."


def _COLOR(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--color/--no-color``, taken after the command as before it: on every command."""
    return click.option("--color/--no-color", default=None, expose_value=False,
                        callback=_set_color, help=_COLOR_HELP)(command)  # fmt: skip


def _JSON(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--json`` and ``--color/--no-color``, taken after the command as before it."""
    command = click.option("--json", "as_json", is_flag=True, callback=_merge_json,
                           help=_JSON_HELP)(command)  # fmt: skip
    return _COLOR(command)


def _output(as_json: bool) -> Output:
    output: Output = click.get_current_context().find_object(Output) or Output(False)
    output.as_json = as_json
    return output


def _read(
    paths: Sequence[Location],
    label: str,
    required: bool = False,
    failed: set[str] | None = None,
) -> list[CassetteFile]:
    """The cassettes under ``paths``; each unreadable one is passed over, and said so.

    ``required``: a path with no cassette under it is passed over too, as a
    mistyped path in CI must not pass for a clean one. ``failed`` gets the relative name
    of each one passed over (a diff then leaves its counterpart out, rather than count it
    as only on the other side).
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
                    if failed is not None:
                        failed.add(item.relative)
                    continue
                if cassette is not None:
                    cassettes.append(cassette)
        if required and len(cassettes) == before and len(output.unreadable) == unreadable:
            output.passed_over(f"no cassettes found under {path}")
    return cassettes


def _current() -> Output:
    output: Output = click.get_current_context().find_object(Output) or Output(False)
    return output


def _decoded(
    cassettes: Iterable[CassetteFile], failed: set[str] | None = None
) -> Iterator[tuple[CassetteFile, list[Interaction]]]:
    """Each cassette with its interactions; one with a malformed interaction is passed over
    (its relative name added to ``failed``, as :func:`_read` does)."""
    for cassette in cassettes:
        try:
            yield cassette, list(cassette.interactions())
        except CassetteError as error:
            _current().passed_over(str(error))
            if failed is not None:
                failed.add(cassette.relative)


# replay list
