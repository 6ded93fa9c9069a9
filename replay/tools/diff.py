"""The regression diff of two recordings: what the model said then, and what it says now.

Interactions are paired by request key, recomputed from the stored requests
with :class:`~replay._core.key.KeyRules`: ``ignore=("model",)`` pairs the same
prompts sent to two model names, which is how a model upgrade is compared.
Each pair is compared by meaning (see :mod:`replay._core.answers`): status, answer
text, tool calls and their arguments, finish reason and token usage. Ids and
timestamps are not compared, so they never show up as differences.

``ignore=("host",)`` leaves the scheme, host and port out of the key too, so
the same prompts sent to two providers or deployments (OpenAI and Azure, a
hosted model and a local vLLM) pair.

When ignoring fields makes two or more interactions of one cassette side share
a key, they pair in the order of their stored keys, which need not match them
up: :func:`collisions` finds these so the command line can warn.

Pure: it takes decoded interactions and returns data; the command line reads
the files and prints.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from replay._core.answers import Answer, Usage, answer_of, model_asked, prompt_of
from replay._core.key import KeyRules, request_key
from replay._core.model import Interaction, Request
from replay._core.reissue import model_requested

CHANGE_KINDS = ("status", "text", "tool_calls", "finish_reason", "usage", "responses", "model")
"""What can differ in a pair; ``responses``: a different number of recorded responses;
``model``: another model answered the same requested model (an alias moved)."""
HOST = "host"
"""The name ``ignore`` takes for the scheme, host and port of the URL."""


@dataclass(frozen=True)
class Side:
    key: str
    """The key the interaction is stored under."""
    interaction: Interaction
    answers: tuple[Answer, ...]

    @classmethod
    def of(cls, interaction: Interaction) -> Side:
        return cls(interaction.key, interaction, tuple(map(answer_of, interaction.outcomes)))

    def usage(self) -> Usage:
        total = Usage()
        for answer in self.answers:
            total = total + answer.usage
        return total


@dataclass(frozen=True)
class Pair:
    file: str
    key: str
    """The key both sides share under the diff's rules."""
    old: Side | None
    new: Side | None
    changes: tuple[str, ...]

    @property
    def state(self) -> str:
        if self.old is None:
            return "only_new"
        if self.new is None:
            return "only_old"
        return "changed" if self.changes else "unchanged"

    @property
    def either(self) -> Side:
        side = self.old or self.new
        assert side is not None, "a pair has at least one side"
        return side

    @property
    def paired(self) -> bool:
        return self.old is not None and self.new is not None

    def stored_keys(self, shown: int | None = None) -> str:
        """The keys as stored, which ``replay show --key`` finds: one when both sides share it.

        ``shown``: how many of their first digits to show (all by default).
        """
        if self.old is not None and self.new is not None and self.old.key != self.new.key:
            return f"old {self.old.key[:shown]} new {self.new.key[:shown]}"
        return self.either.key[:shown]

    def text_diff(self, shown: int | None = None) -> str:
        """A unified diff of the answers as text, tool calls included; empty when equal.

        ``shown``: how many digits of the keys its header lines show (all by default).
        """
        if self.old is None or self.new is None or not {"text", "tool_calls"} & set(self.changes):
            return ""
        old, new = rendered(self.old.answers), rendered(self.new.answers)
        lines = difflib.unified_diff(
            old,
            new,
            " ".join(filter(None, ("OLD", self.file, self.old.key[:shown]))),
            " ".join(filter(None, ("NEW", self.file, self.new.key[:shown]))),
            lineterm="",
        )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        request = self.either.interaction.request
        return {
            "file": self.file,
            "key": self.key,
            "old_key": self.old.key if self.old else None,
            "new_key": self.new.key if self.new else None,
            "method": request.method,
            "url": request.url,
            "prompt": prompt_of(request),
            "state": self.state,
            "changes": list(self.changes),
            "old": [a.to_json() for a in self.old.answers] if self.old else None,
            "new": [a.to_json() for a in self.new.answers] if self.new else None,
            "text_diff": self.text_diff(),
        }


@dataclass(frozen=True)
class Collision:
    """Interactions of one side of one cassette that share a key under the diff's rules."""

    file: str
    side: str
    """``old`` or ``new``."""
    key: str
    interactions: int


def collisions(pairs: Sequence[Pair]) -> list[Collision]:
    """Where several interactions of one side fell under one key, so their pairing is arbitrary."""
    counts: Counter[tuple[str, str, str]] = Counter()
    for pair in pairs:
        for side, present in (("old", pair.old), ("new", pair.new)):
            if present is not None:
                counts[pair.file, pair.key, side] += 1
    return [
        Collision(file, side, key, count)
        for (file, key, side), count in counts.items()
        if count > 1
    ]


def rendered(answers: Sequence[Answer]) -> list[str]:
    """The lines a text diff compares: each response's text, then its tool calls."""
    lines: list[str] = []
    for index, answer in enumerate(answers):
        if len(answers) > 1:
            lines.append(f"--- response {index + 1}")
        if answer.error is not None:
            lines.append(f"error: {answer.error}")
        lines.extend(answer.text.splitlines() or ([""] if not answer.tool_calls else []))
        lines.extend(f"tool call {call.name}({call.arguments})" for call in answer.tool_calls)
    return lines


def changes(old: Sequence[Answer], new: Sequence[Answer]) -> tuple[str, ...]:
    found: set[str] = set()
    if len(old) != len(new):
        found.add("responses")
    for before, after in zip(old, new, strict=False):
        if (before.status, before.error) != (after.status, after.error):
            found.add("status")
        if before.text != after.text:
            found.add("text")
        if before.tool_calls != after.tool_calls:
            found.add("tool_calls")
        if before.finish_reason != after.finish_reason:
            found.add("finish_reason")
        if before.usage != after.usage:
            found.add("usage")
    return tuple(kind for kind in CHANGE_KINDS if kind in found)


def pair_changes(old: Side, new: Side) -> tuple[str, ...]:
    """What changed between two sides: their answers, and the model that answered when the
    same model was requested."""
    found = changes(old.answers, new.answers)
    if answered_model_moved(old, new):
        found = (*found, "model")
    return found


def answered_model_moved(old: Side, new: Side) -> bool:
    """The same model was requested and another one answered: how an alias moving shows."""
    requested = model_requested(old.interaction.request)
    if requested is None or requested != model_requested(new.interaction.request):
        return False  # another model asked for, or none (a GET of a stored object)
    before = {a.model for a in old.answers} - {None}
    after = {a.model for a in new.answers} - {None}
    return bool(before and after) and before != after


def pair_cassette(
    file: str, old: Sequence[Interaction], new: Sequence[Interaction], rules: KeyRules
) -> list[Pair]:
    """Pairs of one cassette; interactions sharing a key under ``rules`` pair in key order."""
    old_by_key = _by_key(old, rules)
    new_by_key = _by_key(new, rules)
    pairs: list[Pair] = []
    for key in sorted(old_by_key.keys() | new_by_key.keys()):
        befores, afters = old_by_key.get(key, []), new_by_key.get(key, [])
        for index in range(max(len(befores), len(afters))):
            before = Side.of(befores[index]) if index < len(befores) else None
            after = Side.of(afters[index]) if index < len(afters) else None
            found = pair_changes(before, after) if before and after else ()
            pairs.append(Pair(file, key, before, after, found))
    return pairs


def _by_key(interactions: Sequence[Interaction], rules: KeyRules) -> dict[str, list[Interaction]]:
    grouped: dict[str, list[Interaction]] = {}
    for interaction in sorted(interactions, key=lambda i: i.key):
        grouped.setdefault(pairing_key(interaction.request, rules), []).append(interaction)
    return grouped


def pairing_key(request: Request, rules: KeyRules) -> str:
    """The request's key under ``rules``; with ``host`` ignored, its origin does not count."""
    if HOST in rules.ignore:
        parts = urlsplit(request.url)
        request = replace(request, url=urlunsplit(("", "", parts.path, parts.query, "")))
    return request_key(request, rules)


def pair_trees(
    old: Mapping[str, Sequence[Interaction]],
    new: Mapping[str, Sequence[Interaction]],
    rules: KeyRules,
) -> list[Pair]:
    """Pairs of two sets of cassettes matched by relative path."""
    pairs: list[Pair] = []
    for file in sorted(old.keys() | new.keys()):
        pairs.extend(pair_cassette(file, old.get(file, ()), new.get(file, ()), rules))
    return pairs


def models(pairs: Sequence[Pair], side: str) -> list[str]:
    """The models that answered on one side (``old`` or ``new``), else those asked for."""
    found: set[str] = set()
    for pair in pairs:
        present: Side | None = getattr(pair, side)
        if present is None:
            continue
        asked = model_asked(present.interaction.request)
        found.update(model for a in present.answers if (model := a.model or asked))
    return sorted(found)


def matched(pairs: Sequence[Pair]) -> int:
    """How many pairs have both sides."""
    return sum(pair.paired for pair in pairs)


def summary(pairs: Sequence[Pair]) -> dict[str, Any]:
    states = [pair.state for pair in pairs]
    by_kind = {kind: sum(kind in pair.changes for pair in pairs) for kind in CHANGE_KINDS}
    old_usage, new_usage = Usage(), Usage()
    for pair in pairs:
        if pair.old:
            old_usage = old_usage + pair.old.usage()
        if pair.new:
            new_usage = new_usage + pair.new.usage()
    return {
        "pairs": len(pairs),
        "unchanged": states.count("unchanged"),
        "changed": states.count("changed"),
        "changed_by_kind": by_kind,
        "only_old": states.count("only_old"),
        "only_new": states.count("only_new"),
        "tokens": {
            "old": _tokens(old_usage),
            "new": _tokens(new_usage),
            "change_percent": percent_change(old_usage.total_tokens, new_usage.total_tokens),
        },
    }


def _tokens(usage: Usage) -> dict[str, Any]:
    return {
        "prompt": usage.prompt_tokens or 0,
        "completion": usage.completion_tokens or 0,
        "total": usage.total_tokens,
        "cost_usd": usage.cost_usd,
    }


def percent_change(old: float, new: float) -> float | None:
    """None when there is nothing to compare against."""
    if old == 0:
        return None
    return round((new - old) / old * 100, 1)
