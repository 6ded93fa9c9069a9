"""What ``diff``, ``report`` and ``rerun`` share: two recordings read and paired, the diff
of their pairs printed, and the page of ``replay report`` written.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from replay._core.answers import Answer, prompt_of
from replay._core.errors import CassetteError
from replay._core.key import KeyRules
from replay._core.location import Location
from replay._core.model import Interaction
from replay._core.reissue import model_requested
from replay._store import cassette_file as store
from replay.tools import diff as semantic_diff
from replay.tools import inventory, layout, report, review
from replay.tools.cli.output import Output, _decoded, _prompt_line, _read, fail
from replay.tools.wording import counted

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
    not_compared: dict[str, list[str]]
    """Side -> the files unreadable there (each named as passed over): left out of both
    sides, rather than counted as only on the other."""

    def models(self) -> dict[str, list[str]]:
        return {side: semantic_diff.models(self.pairs, side) for side in ("old", "new")}


def _compared(
    old: Location, new: Location | None, ignore: tuple[str, ...], git_rev: str | None
) -> _Compared:
    if (new is None) == (git_rev is None):
        raise click.UsageError("give OLD and NEW, or one PATH with --git-rev REV")
    failed: dict[str, set[str]] = {"old": set(), "new": set()}
    if new is None:
        if not isinstance(old, Path):
            raise click.UsageError(f"--git-rev compares a path in a git work tree, not {old}")
        new, (old, olds) = (
            old,
            review.side_at_revision(old, str(git_rev), lambda copy: _side(copy, failed["old"])),
        )
    else:
        if inventory.is_directory(old) != inventory.is_directory(new):
            raise click.UsageError(
                f"OLD {_kind(old)} and NEW {_kind(new)}: give two cassette files or two directories"
            )
        olds = _side(old, failed["old"])
    news = _side(new, failed["new"])
    for file in failed["old"] | failed["new"]:
        olds.pop(file, None)
        news.pop(file, None)
    pairs = semantic_diff.pair_trees(olds, news, KeyRules(ignore=ignore))
    return _Compared(old, new, olds, news, pairs, {s: sorted(f) for s, f in failed.items()})


def _kind(path: Location) -> str:
    """What ``path`` is, named, for a message: a name ending in ``.json`` may be a directory."""
    if not inventory.is_directory(path):
        return f"{path} is a cassette file"
    link = " (a symbolic link to one)" if isinstance(path, Path) and path.is_symlink() else ""
    return f"{path} is a directory{link}"


def _side(path: Location, failed: set[str]) -> dict[str, list[Interaction]]:
    """The interactions of each cassette by relative name; ``failed`` gets those unreadable."""
    files = list(_decoded(_read([path], f"Reading {path}", failed=failed), failed))
    if not inventory.is_directory(path):
        # Two single files compare with each other whatever their names.
        if failed:
            failed.clear()
            failed.add("")
        return {"": files[0][1]} if files else {}
    return {cassette.relative: interactions for cassette, interactions in files}


PAGE = click.Path(dir_okay=False, writable=True, path_type=Path)
"""The page's file, as ``report -o`` and ``rerun --report`` take it."""


def _in_a_folder(ctx: click.Context, param: click.Parameter, target: Path | None) -> Path | None:
    """Refused before any work is done, rather than after it (or a rerun's requests)."""
    if target is not None and not target.parent.is_dir():
        fail(f"{target}: the folder {target.parent} does not exist")
    return target


def write_page(
    target: Path,
    pairs: Sequence[semantic_diff.Pair],
    *,
    old: str,
    new: str,
    prices: report.Prices | None = None,
) -> None:
    """The report of ``pairs`` written to ``target`` whole, as ``report`` and ``rerun`` do."""
    models = {side: semantic_diff.models(pairs, side) for side in ("old", "new")}
    page = report.render(pairs, old=old, new=new, models=models, prices=prices)
    try:
        store.write_atomically(target, page.encode())
    except CassetteError as error:  # says "cassette": this is a page
        fail(f"{target}: {error.reason}")


def _print_side(output: Output, side: str, path: Location | str, models: Sequence[str]) -> None:
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
