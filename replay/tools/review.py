"""Cassette changes for review: a diff's markdown summary, and a tree as it was at a git revision.

``replay diff --format markdown`` prints :func:`markdown`: what a reviewer reads
in a pull request comment (pairs by state, changes by kind, the token change,
and each changed answer folded in a ``<details>`` block). ``replay diff
--git-rev REV PATH`` compares ``PATH`` with :func:`at_revision` of it, so a CI
job can comment what a re-recording changed.
"""

from __future__ import annotations

import html
import io
import re
import subprocess
import tarfile
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from replay._core.answers import Answer, prompt_of
from replay._core.errors import ConfigError
from replay.tools.diff import Pair

COMMENT_LIMIT = 60_000
"""GitHub refuses comments over 65,536 characters: the folded answers stop before that."""
_STATE_TITLES = {"changed": "changed", "only_old": "only in OLD", "only_new": "only in NEW"}


def markdown(pairs: Sequence[Pair], summary: dict[str, Any], old: str, new: str) -> str:
    lines = [f"### replay diff: `{old}` → `{new}`", ""]
    lines.append(
        f"**{summary['pairs']} pairs**: {summary['unchanged']} unchanged, "
        f"{summary['changed']} changed, {summary['only_old']} only in OLD, "
        f"{summary['only_new']} only in NEW"
    )
    kinds = [(kind, n) for kind, n in summary["changed_by_kind"].items() if n]
    if kinds:
        lines += ["", "| changed | pairs |", "|---|---:|"]
        lines += [f"| {kind.replace('_', ' ')} | {n} |" for kind, n in kinds]
    tokens = summary["tokens"]
    change = tokens["change_percent"]
    lines += [
        "",
        f"**Tokens**: OLD {_tokens(tokens['old'])} → NEW {_tokens(tokens['new'])}"
        + ("" if change is None else f" ({change:+.1f}%)"),
    ]
    shown = [pair for pair in pairs if pair.state != "unchanged"]
    if shown:
        lines += ["", "#### Changes", ""]
    size = sum(len(line) + 1 for line in lines)
    for index, pair in enumerate(shown):
        block = _details(pair)
        if size + len(block) > COMMENT_LIMIT:
            rest = len(shown) - index
            lines.append(f"…and {rest} more (`replay diff --format json` lists them all)")
            break
        lines.append(block)
        size += len(block) + 1
    return "\n".join(lines) + "\n"


def _tokens(side: dict[str, Any]) -> str:
    return f"{side['total']} ({side['prompt']} prompt, {side['completion']} completion)"


def _details(pair: Pair) -> str:
    request = pair.either.interaction.request
    prompt = " ".join(prompt_of(request).split())
    prompt = prompt if len(prompt) <= 80 else prompt[:79] + "…"
    what = ", ".join(kind.replace("_", " ") for kind in pair.changes) or _STATE_TITLES[pair.state]
    where = f"<code>{html.escape(pair.file)}</code> " if pair.file else ""
    summary = (
        f"{where}<code>{pair.stored_keys()}</code> {html.escape(request.method)} "
        f"{html.escape(_path(request.url))}: <b>{html.escape(what)}</b>"
        + (f" — “{html.escape(prompt)}”" if prompt else "")
    )
    body: list[str] = []
    text_diff = pair.text_diff()
    if text_diff:
        body.append(_fenced(text_diff, "diff"))
    elif pair.old is None or pair.new is None:
        side = pair.either
        body.append(_fenced("\n".join(_answer_text(a) for a in side.answers), "text"))
    if pair.old is not None and pair.new is not None:
        facts = [
            f"- {label}: `{then}` → `{now}`"
            for before, after in zip(pair.old.answers, pair.new.answers, strict=False)
            for label, then, now in _facts(before, after)
        ]
        if "responses" in pair.changes:
            facts.append(f"- responses: {len(pair.old.answers)} → {len(pair.new.answers)}")
        body.extend(facts)
    return "\n".join(
        ["<details>", f"<summary>{summary}</summary>", "", *body, "", "</details>", ""]
    )


def _path(url: str) -> str:
    return re.sub(r"^[a-z]+://[^/]+", "", url) or "/"


def _answer_text(answer: Answer) -> str:
    if answer.error is not None:
        return f"error: {answer.error}"
    calls = [f"tool call {c.name}({c.arguments})" for c in answer.tool_calls]
    return "\n".join([answer.text, *calls] if answer.text else calls)


def _facts(before: Answer, after: Answer) -> list[tuple[str, object, object]]:
    found: list[tuple[str, object, object]] = []
    if before.status != after.status:
        found.append(("status", before.status, after.status))
    if before.finish_reason != after.finish_reason:
        found.append(("finish reason", before.finish_reason, after.finish_reason))
    if before.usage != after.usage:
        found.append(
            (
                "tokens in/out",
                f"{before.usage.prompt_tokens}/{before.usage.completion_tokens}",
                f"{after.usage.prompt_tokens}/{after.usage.completion_tokens}",
            )
        )
    if before.model != after.model:
        found.append(("model answering", before.model, after.model))
    return found


def _fenced(text: str, language: str) -> str:
    """A code block whose fence is longer than any run of backticks in ``text``."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


# A tree at a git revision.

Side = TypeVar("Side")


def side_at_revision(
    path: Path, revision: str, read: Callable[[Path], dict[str, Side]]
) -> tuple[Path, dict[str, Side]]:
    """``path`` as it was at ``revision``, named ``PATH@REV``, read by ``read`` from a copy
    that is removed afterwards; nothing when the revision did not have it."""
    with tempfile.TemporaryDirectory(prefix="replay-git-rev-") as scratch:
        copy = at_revision(path, revision, Path(scratch))
        return Path(f"{path}@{revision}"), read(copy) if copy is not None else {}


def at_revision(path: Path, revision: str, into: Path) -> Path | None:
    """Write ``path`` (a cassette or a directory of them) as it was at ``revision`` under
    ``into``; the path of that copy, None when the revision did not have it."""
    absolute = path.resolve()
    where = absolute if absolute.is_dir() else absolute.parent
    top = _git(where, revision, "rev-parse", "--show-toplevel").decode().strip()
    relative = absolute.relative_to(Path(top).resolve()).as_posix()
    _git(where, revision, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    listed = _git(Path(top), revision, "ls-tree", "-r", "--name-only", revision, "--", relative)
    if not listed.strip():
        return None
    archive = _git(Path(top), revision, "archive", "--format=tar", revision, "--", relative)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / relative


def _git(where: Path, revision: str, *arguments: str) -> bytes:
    try:
        done = subprocess.run(
            ["git", "-C", str(where), *arguments], capture_output=True, check=False, timeout=120
        )
    except FileNotFoundError:
        raise ConfigError("--git-rev", revision, "needs git, which is not installed") from None
    if done.returncode != 0:
        reason = done.stderr.decode(errors="replace").strip().splitlines()
        message = reason[-1] if reason else f"git {arguments[0]} failed"
        if arguments[:2] == ("rev-parse", "--verify"):
            message = f"no such revision in the repository of {where}"
        raise ConfigError("--git-rev", revision, message)
    return done.stdout
