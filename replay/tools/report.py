"""The regression report: one self-contained HTML page for a model upgrade.

``replay report OLD NEW -o report.html`` renders the pairs that ``replay diff``
computes (:mod:`replay.tools.diff`) as a page people look at and attach to a
pull request or a CI run:

- a summary: pairs compared, unchanged, changed by kind (text, tool calls,
  finish reason, model answered, errors, usage, number of responses), only in
  one side;
- charts, old against new: tokens in and out, estimated cost and recorded
  latency in total, and per pair as scatter plots (one point a pair, the
  diagonal where nothing changed); time to first chunk for streams;
- a table of pairs, sortable and filterable by change kind, each opening to
  both answers side by side with a word-level diff, tool calls as a diff of
  their arguments, and the request that produced them.

The page needs nothing from the network: styles, the charts (SVG drawn by
pygal, the ``report`` extra) and the small script for sorting and filtering are
inline. With JavaScript off, the summary, the charts and the whole table still
read; only sorting and filtering need it. Old and new are told apart by the
Okabe-Ito blue and orange, which colour-blind readers tell apart, and never by
colour alone (labels, strike-through and underline).

Pairs are compared by meaning, so ids and timestamps never show as changes.
Cost is what the provider reported (LightOn, WorkflowAI); for other answers it
is estimated only from prices the caller gives (:class:`Prices`), never
guessed. Latency is the recorded time of a streamed response's last chunk, and
time to first chunk its first chunk's: a body that is not a stream is stored
whole, without its timing.

Pure: pairs in, a ``str`` of HTML out.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from replay._core.answers import Answer, ToolCall, prompt_of
from replay._core.errors import ConfigError
from replay._core.model import Response
from replay.tools.diff import Pair, Side

OLD_COLOR = "#0072B2"
NEW_COLOR = "#E69F00"
"""Okabe-Ito blue and orange: distinct for the common kinds of colour blindness."""

KINDS: Mapping[str, str] = {
    "text": "text",
    "tool_calls": "tool calls",
    "finish_reason": "finish reason",
    "model": "model answered",
    "status": "errors",
    "usage": "usage",
    "responses": "number of responses",
}
"""The change kinds of :mod:`replay.tools.diff`, as the page names them."""
STATES: Mapping[str, str] = {
    "changed": "changed",
    "unchanged": "unchanged",
    "only_old": "only in OLD",
    "only_new": "only in NEW",
}

SHOWN_CHARACTERS = 6000
"""How much of an answer, or of a request body, the page shows; the rest is cut, and says so."""
DIFFED_WORDS = 4000
"""Word diffs beyond this many words per side fall back to showing both answers undiffed:
difflib is quadratic in the worst case, and a 1,000-pair page must render in seconds."""


@dataclass(frozen=True)
class Prices:
    """US dollars per million tokens, by model name, for answers whose provider reports no cost."""

    per_million: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    """``model -> (input price, output price)``."""

    @classmethod
    def parse(cls, specs: Iterable[str]) -> Prices:
        """From ``MODEL=IN:OUT`` strings, as ``--price`` takes them."""
        prices: dict[str, tuple[float, float]] = {}
        for spec in specs:
            model, _, pair = spec.partition("=")
            prompt, _, completion = pair.partition(":")
            try:
                prices[model.strip()] = (float(prompt), float(completion))
            except ValueError:
                raise ConfigError(
                    "price", spec, "MODEL=IN:OUT, US dollars per million tokens in and out"
                ) from None
            if not model.strip():
                raise ConfigError("price", spec, "a model name before '='")
        return cls(prices)

    def cost(self, answer: Answer) -> float | None:
        if answer.usage.cost_usd is not None:
            return answer.usage.cost_usd
        price = self.per_million.get(answer.model or "")
        if price is None:
            return None
        prompt, completion = answer.usage.prompt_tokens or 0, answer.usage.completion_tokens or 0
        return (prompt * price[0] + completion * price[1]) / 1_000_000


@dataclass(frozen=True)
class Figures:
    """The numbers of one side of a pair, over all its recorded responses."""

    tokens_in: int
    tokens_out: int
    cost: float | None
    latency: float | None
    """Seconds from the request to the last chunk, summed over the streamed responses; None:
    none streamed. A body that is not a stream is stored whole, without the time it took, so
    its latency is not known (0 would read as an instant answer)."""
    first_chunk: float | None
    """Seconds to the first chunk of the first streamed response; None: not streamed."""

    @classmethod
    def of(cls, side: Side, prices: Prices) -> Figures:
        responses = [o for o in side.interaction.outcomes if isinstance(o, Response)]
        costs = [prices.cost(answer) for answer in side.answers]
        known = [cost for cost in costs if cost is not None]
        streamed = [r for r in responses if r.streamed and r.chunks]
        return cls(
            tokens_in=sum(a.usage.prompt_tokens or 0 for a in side.answers),
            tokens_out=sum(a.usage.completion_tokens or 0 for a in side.answers),
            cost=sum(known) if known else None,
            latency=sum(r.chunks[-1].at for r in streamed) if streamed else None,
            first_chunk=streamed[0].chunks[0].at if streamed else None,
        )


@dataclass(frozen=True)
class Totals:
    pairs: int
    states: Mapping[str, int]
    kinds: Mapping[str, int]
    old: Mapping[str, float]
    new: Mapping[str, float]


def totals(
    pairs: Sequence[Pair], figures: Sequence[tuple[Figures | None, Figures | None]]
) -> Totals:
    """The summary: the same counts as ``replay diff --format json``'s ``summary``."""
    states = {state: sum(pair.state == state for pair in pairs) for state in STATES}
    kinds = {kind: sum(kind in pair.changes for pair in pairs) for kind in KINDS}
    sums: dict[str, dict[str, float]] = {"old": {}, "new": {}}
    for side_figures in figures:
        for name, found in zip(("old", "new"), side_figures, strict=True):
            if found is None:
                continue
            side = sums[name]
            side["tokens_in"] = side.get("tokens_in", 0) + found.tokens_in
            side["tokens_out"] = side.get("tokens_out", 0) + found.tokens_out
            for measure in ("cost", "latency"):
                value = getattr(found, measure)
                if value is not None:
                    side[measure] = side.get(measure, 0.0) + value
    return Totals(len(pairs), states, kinds, sums["old"], sums["new"])


FEW_PAIRS = 20
"""Up to this many pairs, the page shows the changed pairs first and folds its charts."""


def render(
    pairs: Sequence[Pair],
    *,
    old: str,
    new: str,
    models: Mapping[str, Sequence[str]],
    prices: Prices | None = None,
) -> str:
    """The whole page. ``old`` and ``new`` name the sides (paths); ``models`` answered on each."""
    prices = prices or Prices()
    figures = [
        (
            Figures.of(pair.old, prices) if pair.old else None,
            Figures.of(pair.new, prices) if pair.new else None,
        )
        for pair in pairs
    ]
    summary = totals(pairs, figures)
    title = f"replay report: {old} against {new}"
    if len(pairs) <= FEW_PAIRS:
        # The answers that changed are what a short page is read for: they come first, in
        # the pairs' order, and the charts (of a few points) follow, folded.
        ranked = sorted(range(len(pairs)), key=lambda i: pairs[i].state == "unchanged")
        pairs, figures = [pairs[i] for i in ranked], [figures[i] for i in ranked]
        sections = (_table(pairs, figures), _charts(summary, figures, folded=True))
    else:
        sections = (_charts(summary, figures, folded=False), _table(pairs, figures))
    body = "\n".join(
        (
            f"<header><h1>Regression report</h1>{_sides(old, new, models)}</header>",
            "<main>",
            _summary(summary),
            *sections,
            "</main>",
        )
    )
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{_STYLE}</style></head>\n<body>\n{body}\n<script>{_SCRIPT}</script>\n"
        "</body></html>\n"
    )


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _sides(old: str, new: str, models: Mapping[str, Sequence[str]]) -> str:
    rows = "".join(
        f'<tr><th scope="row"><span class="tag {side}">{side.upper()}</span></th>'
        f"<td><code>{_e(path)}</code></td>"
        f"<td>{_e(', '.join(models.get(side, ())) or 'no model named')}</td></tr>"
        for side, path in (("old", old), ("new", new))
    )
    return (
        f'<table class="sides"><tr><th></th><th>recordings</th><th>models</th></tr>{rows}</table>'
    )


def _summary(summary: Totals) -> str:
    cards = [("pairs", "pairs compared", summary.pairs)]
    cards += [(state, label, summary.states[state]) for state, label in STATES.items()]
    kinds = "".join(
        f'<li><a href="#pairs" data-filter="{kind}">{_e(label)}</a>: '
        f'<strong data-summary="{kind}">{summary.kinds[kind]}</strong></li>'
        for kind, label in KINDS.items()
    )
    cells = "".join(
        f'<div class="card"><strong data-summary="{name}">{count}</strong>'
        f'<a href="#pairs" data-filter="{"" if name == "pairs" else name}">{_e(label)}</a></div>'
        for name, label, count in cards
    )
    return (
        f'<section id="summary" aria-labelledby="summary-title">'
        f'<h2 id="summary-title">Summary</h2><div class="cards">{cells}</div>'
        f'<h3>Changed pairs by kind</h3><ul class="kinds">{kinds}</ul>'
        f"{_totals_table(summary)}</section>"
    )


_MEASURES = (
    ("tokens_in", "tokens in", "{:,.0f}"),
    ("tokens_out", "tokens out", "{:,.0f}"),
    ("cost", "estimated cost (USD)", "{:.3g}"),
    ("latency", "recorded latency of streams (s)", "{:,.3f}"),
)


def _totals_table(summary: Totals) -> str:
    rows = []
    for name, label, shape in _MEASURES:
        before, after = summary.old.get(name), summary.new.get(name)
        if before is None and after is None:
            rows.append(f"<tr><th scope='row'>{label}</th><td colspan='3'>not recorded</td></tr>")
            continue
        change = _percent(before, after)
        rows.append(
            f"<tr><th scope='row'>{label}</th>"
            f"<td data-total='old-{name}'>{_number(before, shape)}</td>"
            f"<td data-total='new-{name}'>{_number(after, shape)}</td><td>{change}</td></tr>"
        )
    return (
        "<table class='totals'><caption>Totals</caption><tr><th></th>"
        "<th scope='col'>OLD</th><th scope='col'>NEW</th><th scope='col'>change</th></tr>"
        f"{''.join(rows)}</table>"
    )


def _number(value: float | None, shape: str) -> str:
    return "&mdash;" if value is None else shape.format(value)


def _percent(before: float | None, after: float | None) -> str:
    if not before or after is None:
        return ""
    return f"{(after - before) / before * 100:+.1f}%"


def _charts(
    summary: Totals, figures: Sequence[tuple[Figures | None, Figures | None]], folded: bool
) -> str:
    # Imported here: pygal is the `report` extra, and `replay diff` needs none of it.
    from replay.tools import charts

    drawn = [charts.totals("Tokens in and out", summary.old, summary.new, _MEASURES[:2])]
    for name, label, _ in _MEASURES[2:]:
        if name in summary.old or name in summary.new:
            title = label[0].upper() + label[1:]  # not capitalize(): it lowercases "USD"
            drawn.append(charts.totals(title, summary.old, summary.new, [(name, label, "")]))
    both = [(o, n) for o, n in figures if o is not None and n is not None]
    scatter: list[tuple[str, list[tuple[float, float]]]] = [
        ("Tokens out per pair", [(o.tokens_out, n.tokens_out) for o, n in both]),
        (
            "Latency per streamed pair (s)",
            [
                (o.latency, n.latency)
                for o, n in both
                if o.latency is not None and n.latency is not None
            ],
        ),
        (
            "Time to first chunk per streamed pair (s)",
            [
                (o.first_chunk, n.first_chunk)
                for o, n in both
                if o.first_chunk is not None and n.first_chunk is not None
            ],
        ),
    ]
    drawn += [charts.per_pair(label, points) for label, points in scatter if points]
    figures_html = "".join(f'<figure class="chart">{svg}</figure>' for svg in drawn)
    heading = '<h2 id="charts-title">Old against new</h2>'
    content = (
        f'<div class="charts">{figures_html}</div>'
        "<p class='note'>Per-pair charts: one point a pair, OLD across, NEW up; on the "
        "diagonal nothing changed.</p>"
    )
    if folded:
        content = f"<details class='charts-folded'><summary>{heading}</summary>{content}</details>"
    else:
        content = heading + content
    return f'<section id="charts" aria-labelledby="charts-title">{content}</section>'


def _table(pairs: Sequence[Pair], figures: Sequence[tuple[Figures | None, Figures | None]]) -> str:
    options = "".join(
        f'<option value="{value}">{_e(label)}</option>'
        for value, label in (("", "every pair"), *STATES.items(), *KINDS.items())
    )
    controls = (
        '<div class="controls" hidden><label>Show <select id="filter">'
        f"{options}</select></label> <span id='shown' aria-live='polite'></span></div>"
    )
    headers = "".join(
        # Disabled until the script, which sorts, enables them: without it they read as text.
        f'<th scope="col"><button type="button" data-sort="{key}" disabled>{label}</button></th>'
        for key, label in (
            ("index", "#"),
            ("file", "cassette"),
            ("request", "request"),
            ("state", "changes"),
            ("tokens", "tokens out OLD → NEW"),
            ("latency", "stream latency OLD → NEW (s)"),
        )
    )
    bodies = "".join(
        _pair_rows(index, pair, found)
        for index, (pair, found) in enumerate(zip(pairs, figures, strict=True), 1)
    )
    return (
        '<section id="pairs" aria-labelledby="pairs-title"><h2 id="pairs-title">Pairs</h2>'
        f"{controls}<table class='pairs'><thead><tr>{headers}</tr></thead>{bodies}</table>"
        "</section>"
    )


def _pair_rows(index: int, pair: Pair, figures: tuple[Figures | None, Figures | None]) -> str:
    request = pair.either.interaction.request
    old, new = figures
    kinds = " ".join((pair.state, *pair.changes))
    badges = "".join(
        f'<span class="badge">{_e(KINDS.get(kind, STATES.get(kind, kind)))}</span>'
        for kind in (pair.changes or (pair.state,))
    )
    tokens_out = (old.tokens_out if old else None, new.tokens_out if new else None)
    latency = (old.latency if old else None, new.latency if new else None)
    where = re.sub(r"^[a-z]+://[^/]+", "", request.url) or "/"
    summary_row = (
        f'<tr class="summary-row">'
        f"<td data-value='{index}'>{index}</td>"
        f"<td data-value='{_e(pair.file)}'>{_e(pair.file or '—')}</td>"
        f"<td data-value='{_e(where)}'><code>{_e(request.method)} {_e(where)}</code>"
        f"<div class='prompt'>{_e(_cut(prompt_of(request), 160))}</div></td>"
        f"<td data-value='{_e(kinds)}'>{badges}</td>"
        f"<td data-value='{_sort_number(tokens_out)}'>{_arrow(tokens_out, '{:,.0f}')}</td>"
        f"<td data-value='{_sort_number(latency)}'>{_arrow(latency, '{:.3f}')}</td></tr>"
    )
    detail = f'<tr class="detail-row"><td colspan="6">{_detail(pair)}</td></tr>'
    return f'<tbody class="pair" data-kinds="{_e(kinds)}">{summary_row}{detail}</tbody>'


def _sort_number(values: tuple[float | None, float | None]) -> str:
    before, after = values
    if before is None or after is None:
        return "0"
    return repr(after - before)


def _arrow(values: tuple[float | None, float | None], shape: str) -> str:
    before, after = values
    return f"{_number(before, shape)} → {_number(after, shape)}"


def _detail(pair: Pair) -> str:
    request = pair.either.interaction.request
    parts = [_answers(pair.old, pair.new)]
    body = _pretty_body(request.body)
    parts.append(
        "<details class='request'><summary>The request</summary>"
        f"<p><code>{_e(request.method)} {_e(request.url)}</code></p>"
        f"<pre>{_e(body)}</pre></details>"
    )
    return f"<details><summary>Answers side by side</summary>{''.join(parts)}</details>"


def _pretty_body(body: bytes) -> str:
    try:
        text = orjson.dumps(orjson.loads(body), option=orjson.OPT_INDENT_2).decode()
    except (orjson.JSONDecodeError, TypeError):
        text = body.decode("utf-8", "replace")
    return _cut(text, SHOWN_CHARACTERS)


def _answers(old: Side | None, new: Side | None) -> str:
    olds = old.answers if old else ()
    news = new.answers if new else ()
    blocks = []
    for position in range(max(len(olds), len(news))):
        before = olds[position] if position < len(olds) else None
        after = news[position] if position < len(news) else None
        heading = f"<h4>response {position + 1}</h4>" if max(len(olds), len(news)) > 1 else ""
        if before is not None and after is not None and _answer_text(before) == _answer_text(after):
            # The same text on both sides is shown once: a page of 1,000 mostly unchanged
            # pairs would otherwise carry every answer twice.
            metas = f"<h5>{_tags('old')}{_meta(before)}</h5><h5>{_tags('new')}{_meta(after)}</h5>"
            text = _plain(_answer_text(before), before)
            blocks.append(
                f"{heading}<div class='answer same'>{metas}<p class='note'>The same text on "
                f"both sides:</p>{text}</div>{_tool_calls(before, after)}"
            )
            continue
        old_html, new_html = _texts(before, after)
        blocks.append(
            f"{heading}<div class='side-by-side'>{_column('old', before, old_html)}"
            f"{_column('new', after, new_html)}</div>{_tool_calls(before, after)}"
        )
    if not blocks:
        return "<p>No recorded response on either side.</p>"
    return "".join(blocks)


def _tags(*sides: str) -> str:
    return "".join(f"<span class='tag {side}'>{side.upper()}</span>" for side in sides)


def _column(side: str, answer: Answer | None, text: str) -> str:
    return f"<div class='answer {side}'><h5>{_tags(side)}{_meta(answer)}</h5>{text}</div>"


def _meta(answer: Answer | None) -> str:
    if answer is None:
        return " <small>no response</small>"
    facts = [f"status {answer.status}" if answer.status is not None else "transport failure"]
    if answer.model:
        facts.append(answer.model)
    if answer.finish_reason:
        facts.append(f"finish: {answer.finish_reason}")
    if answer.usage.prompt_tokens is not None or answer.usage.completion_tokens is not None:
        facts.append(
            f"tokens {answer.usage.prompt_tokens or 0}/{answer.usage.completion_tokens or 0}"
        )
    return f" <small>{_e(', '.join(facts))}</small>"


_WORDS = re.compile(r"\w+\s*|[^\w\s]\s*|\s+")
"""Words and punctuation, each with the spaces after it, so a change of several words marks
them as one run rather than word by word around unchanged spaces."""


def _texts(before: Answer | None, after: Answer | None) -> tuple[str, str]:
    """Both answers' text, deletions marked in the old and insertions in the new."""
    old_text = _answer_text(before)
    new_text = _answer_text(after)
    if before is None or after is None or old_text == new_text:
        return _plain(old_text, before), _plain(new_text, after)
    old_words = _WORDS.findall(_cut(old_text, SHOWN_CHARACTERS))
    new_words = _WORDS.findall(_cut(new_text, SHOWN_CHARACTERS))
    if max(len(old_words), len(new_words)) > DIFFED_WORDS:
        return _plain(old_text, before), _plain(new_text, after)
    old_html: list[str] = []
    new_html: list[str] = []
    matcher = difflib.SequenceMatcher(None, old_words, new_words, autojunk=False)
    for operation, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        removed = _e("".join(old_words[old_start:old_end]))
        added = _e("".join(new_words[new_start:new_end]))
        if operation == "equal":
            old_html.append(removed)
            new_html.append(added)
            continue
        if removed:
            old_html.append(f"<del>{removed}</del>")
        if added:
            new_html.append(f"<ins>{added}</ins>")
    return (
        f"<div class='text'>{''.join(old_html)}</div>",
        f"<div class='text'>{''.join(new_html)}</div>",
    )


def _answer_text(answer: Answer | None) -> str:
    if answer is None:
        return ""
    if answer.error is not None:
        return f"error: {answer.error}"
    return answer.text


def _plain(text: str, answer: Answer | None) -> str:
    if answer is None:
        return "<p class='none'>not recorded on this side</p>"
    if not text:
        return "<p class='none'>no text</p>"
    return f"<div class='text'>{_e(_cut(text, SHOWN_CHARACTERS))}</div>"


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters not shown)"


def _tool_calls(before: Answer | None, after: Answer | None) -> str:
    olds = before.tool_calls if before else ()
    news = after.tool_calls if after else ()
    if not olds and not news:
        return ""
    rows = []
    for position in range(max(len(olds), len(news))):
        old_call = olds[position] if position < len(olds) else None
        new_call = news[position] if position < len(news) else None
        rows.extend(_call_rows(position + 1, old_call, new_call))
    return (
        "<table class='tool-calls'><caption>Tool calls</caption><tr><th scope='col'>call</th>"
        "<th scope='col'>field</th><th scope='col'>OLD</th><th scope='col'>NEW</th></tr>"
        f"{''.join(rows)}</table>"
    )


def _call_rows(number: int, old: ToolCall | None, new: ToolCall | None) -> list[str]:
    """One row for the name, then one per argument, changed rows marked."""
    fields: list[tuple[str, Any, Any]] = [
        ("name", old.name if old else None, new.name if new else None)
    ]
    old_arguments, new_arguments = _arguments(old), _arguments(new)
    if isinstance(old_arguments, dict) and isinstance(new_arguments, dict):
        for name in sorted(old_arguments.keys() | new_arguments.keys()):
            fields.append(
                (
                    f"arguments.{name}",
                    old_arguments.get(name, _ABSENT),
                    new_arguments.get(name, _ABSENT),
                )
            )
    else:
        fields.append(("arguments", old_arguments, new_arguments))
    rows = []
    for name, before, after in fields:
        changed = " class='changed'" if before != after else ""
        mark = " <span class='mark'>changed</span>" if before != after else ""
        rows.append(
            f"<tr{changed}><td>{number}</td><td><code>{_e(name)}</code>{mark}</td>"
            f"<td>{_value(before)}</td><td>{_value(after)}</td></tr>"
        )
    return rows


class _Absent:
    def __repr__(self) -> str:
        return "absent"


_ABSENT = _Absent()


def _arguments(call: ToolCall | None) -> Any:
    if call is None:
        return _ABSENT
    try:
        return orjson.loads(call.arguments)
    except orjson.JSONDecodeError:
        return call.arguments


def _value(value: Any) -> str:
    if value is _ABSENT or value is None:
        return "<span class='none'>absent</span>"
    if isinstance(value, str):
        return f"<code>{_e(_cut(value, 500))}</code>"
    return f"<code>{_e(_cut(orjson.dumps(value).decode(), 500))}</code>"


_STYLE = """
:root{--old:#0072B2;--new:#E69F00;--ink:#1a1a1a;--muted:#5a5a5a;--line:#d0d0d0}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);
margin:0 auto;max-width:1200px;padding:1rem 1.5rem}
h1{margin:.2rem 0 .6rem}h2{margin-top:2rem;border-bottom:1px solid var(--line)}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;padding:.5rem}
table{border-collapse:collapse}th,td{padding:.3rem .5rem;text-align:left;vertical-align:top}
.sides td,.sides th,.totals td,.totals th{border-bottom:1px solid var(--line)}
.tag{display:inline-block;padding:0 .4rem;margin-right:.3rem;border-radius:3px;color:#fff;
font-weight:700;font-size:.8em}
.tag.old{background:var(--old)}.tag.new{background:var(--new);color:#000}
.cards{display:flex;flex-wrap:wrap;gap:.6rem}
.card{border:1px solid var(--line);border-radius:6px;padding:.5rem .9rem;min-width:8rem}
.card strong{display:block;font-size:1.6rem}.card a,.kinds a{color:inherit}
.kinds{columns:2;max-width:36rem}
.charts{display:flex;flex-wrap:wrap;gap:1rem}.chart{margin:0}
.charts-folded>summary{cursor:pointer}.charts-folded>summary h2{display:inline}
.chart svg{max-width:100%;height:auto}
.note{color:var(--muted);font-size:.9em}
.pairs{width:100%}.pairs thead th{border-bottom:2px solid var(--ink)}
.pairs thead button{font:inherit;font-weight:700;background:none;border:0;padding:0;cursor:pointer;
color:inherit}.pairs thead button:disabled{cursor:auto}
.pair{border-bottom:1px solid var(--line)}.pair .prompt{color:var(--muted);font-size:.9em}
.badge{display:inline-block;border:1px solid var(--muted);border-radius:9px;padding:0 .45rem;
margin:0 .2rem .2rem 0;font-size:.8em}
.side-by-side{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.answer{border-top:4px solid var(--line);padding-top:.3rem;min-width:0}
.answer.old{border-top-color:var(--old)}.answer.same{border-top-color:#999}.answer.new{border-top-color:var(--new)}
.answer h5{margin:.2rem 0;font-size:.95em}.text{white-space:pre-wrap;word-break:break-word}
del{background:#d3e5f2;text-decoration:line-through}ins{background:#fae6bf;text-decoration:underline}
.none{color:var(--muted);font-style:italic}
.tool-calls{margin-top:.6rem}.tool-calls td,.tool-calls th{border:1px solid var(--line)}
.tool-calls tr.changed{background:#fff4d6}.mark{font-size:.75em;font-weight:700}
.controls{margin:.5rem 0}[hidden]{display:none!important}
@media print{.controls{display:none!important}body{max-width:none}
details>summary{list-style:none}details::details-content{content-visibility:visible;display:contents}
.pair{break-inside:avoid-page}}
"""

_SCRIPT = """
(function(){
var filter=document.getElementById('filter'),shown=document.getElementById('shown');
var bodies=Array.prototype.slice.call(document.querySelectorAll('tbody.pair'));
document.querySelector('.controls').hidden=false;
function apply(kind){var n=0;bodies.forEach(function(b){
var on=!kind||b.dataset.kinds.split(' ').indexOf(kind)>=0;b.hidden=!on;if(on)n++;});
shown.textContent=n+' of '+bodies.length+' pairs shown';}
filter.addEventListener('change',function(){apply(filter.value);});
document.querySelectorAll('[data-filter]').forEach(function(a){a.addEventListener('click',
function(){filter.value=a.dataset.filter;apply(filter.value);});});
var column={index:0,file:1,request:2,state:3,tokens:4,latency:5},direction={};
var numeric={index:1,tokens:1,latency:1};
document.querySelectorAll('[data-sort]').forEach(function(button){button.disabled=false;
button.addEventListener('click',function(){var key=button.dataset.sort,at=column[key];
direction[key]=-(direction[key]||-1);var sign=direction[key];
bodies.sort(function(a,b){var x=a.rows[0].cells[at].dataset.value,
y=b.rows[0].cells[at].dataset.value;
return sign*(numeric[key]?parseFloat(x)-parseFloat(y):x.localeCompare(y));});
var table=document.querySelector('table.pairs');
bodies.forEach(function(b){table.appendChild(b);});});});
window.addEventListener('beforeprint',function(){
document.querySelectorAll('details').forEach(function(d){d.open=true;});});
apply('');
})();
"""
