"""``replay list``: one row per cassette."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import click

from replay._core.answers import Usage, answer_of
from replay._core.audio import Audio, audio_of
from replay._core.location import Location
from replay._core.model import Interaction, Response, WebSocketSession
from replay._core.providers import detect
from replay._core.reissue import model_requested
from replay.tools import layout
from replay.tools.cli.output import _CASSETTES, _JSON, _decoded, _output, _read, size_text


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
    audio: Audio = field(default_factory=Audio)
    """The audio the WebSocket sessions carried, both ways."""

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
            elif isinstance(outcome, WebSocketSession):
                self.audio = self.audio + audio_of(outcome)
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
        self.audio = self.audio + other.audio

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
            "audio_messages": self.audio.messages,
            "audio_bytes": self.audio.size,
            "size_bytes": self.size,
            "recorded_first": dates[0] if dates else None,
            "recorded_last": dates[-1] if dates else None,
            "answered_by_another_model": [
                {"requested": requested, "answered": answered}
                for requested, answered in sorted(self.answered_as)
            ],
        }


@click.command("list")
@_CASSETTES
@_JSON
def list_command(paths: tuple[Location, ...], as_json: bool) -> None:
    """One row per cassette: interactions, providers, models, tokens, size, age."""
    output = _output(as_json)
    rows = []
    for cassette, interactions in _decoded(_read(paths, "Reading cassettes", required=True)):
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
    # The audio column only where there is audio: most suites have no WebSocket session.
    titles = (*_LIST_TITLES, "audio") if total.audio.messages else _LIST_TITLES
    cells = [_list_cells(row)[: len(titles)] for row in [*rows, total]]
    lines = layout.table(titles, cells, output.width)
    blocks = len(lines) != len(cells) + 1  # a table has a header line and a line per row
    emphasized = {0, len(cells)} if not blocks else set(range(_total_at(lines), len(lines)))
    for index, text in enumerate(lines):
        output.line(output.style(text, bold=index in emphasized))


_LIST_TITLES = (
    "path", "inter", "resp", "providers", "models", "stream", "err", "tokens in/out", "size",
    "recorded",
)  # fmt: skip


def _total_at(lines: list[str]) -> int:
    """Where the total's block starts: its first line, ``total``, the last not indented."""
    return max(i for i, line in enumerate(lines) if not line.startswith(layout.INDENT))


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
        f"{row.audio.messages} ({size_text(row.audio.size)})",
    )


def _models_cell(row: Row) -> str:
    """The models, ``gpt-4o>gpt-4o-2024-11-20`` where a request for one was answered by another."""
    drifted = [f"{asked}>{answered}" for asked, answered in sorted(row.answered_as)]
    plain = sorted(row.models - {answered for _, answered in row.answered_as})
    return ",".join(drifted + plain) or "-"
