"""``replay show``: the interactions of one cassette."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import click

from replay._core.answers import Answer, Usage, answer_of, prompt_of
from replay._core.location import Location
from replay._core.model import Interaction, McpSession
from replay._core.reissue import model_requested
from replay._store import cassette_file as store
from replay.tools import inventory
from replay.tools.cli.output import _JSON, Output, _existing, _output, _prompt_line
from replay.tools.config import LOCATION
from replay.tools.wording import counted

# replay show


def _answer_lines(
    output: Output,
    index: int,
    answer: Answer,
    recorded_at: str,
    asked: str | None = None,
    messages: int | None = None,
) -> Iterator[str]:
    """``messages``: the number of an MCP session's, which has no status, one line each."""
    status = "transport failure" if answer.status is None else str(answer.status)
    if messages is not None:
        status = f"MCP session, {counted(messages, 'message')}"
    color = "green" if answer.status is not None and answer.status < 400 else "red"
    # A transport failure has no body to speak of; an MCP session is one kind of thing.
    kinds = [] if answer.status is None or messages else ["stream" if answer.streamed else "body"]
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


@click.command("show")
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
            messages = len(outcome.frames) if isinstance(outcome, McpSession) else None
            for line in _answer_lines(output, index, answer, outcome.recorded_at, asked, messages):
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
