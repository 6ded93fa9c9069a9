"""``replay rerun``: the recorded requests as a regression suite against a new model or today's API.

Every stored request of the given cassettes is sent again (changed as
:mod:`replay._core.reissue` says: ``--model``, ``--set``, ``--upstream``, and the
real key from the environment where redaction left a placeholder) and its
answer recorded into a new tree under ``--out``, through a
:class:`~replay.Cassette` like any recording: redacted and normalized. The
originals are only read.

Order and conversations: each cassette's interactions go in recorded order,
grouped into conversations (:func:`replay._core.reissue.conversations`); a
conversation's requests go one after another, sending the ids the rerun's own
earlier answers issued, and conversations run ``--concurrency`` at a time.

Resuming: every answer is saved before the next request of its conversation.
A second run with the same ``--out`` skips each conversation whose requests are
all recorded there; one cut short is sent again from its start (its later
requests need the ids its earlier answers issue, which only a live answer
gives), replacing what the first run recorded of it.

The diff at the end pairs each new answer with the recorded request it came
from, whatever ``--model`` or ``--upstream`` changed in its key.
"""

from __future__ import annotations

import email.utils
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from replay._adapters.httpx_transport import teed
from replay._cassette import Cassette, Record
from replay._core import reissue
from replay._core.answers import Usage, answer_of
from replay._core.location import Location, S3Location
from replay._core.model import Interaction, Request, Response
from replay._core.modes import Mode
from replay._core.providers import detect
from replay._store import usage
from replay.tools import diff
from replay.tools.inventory import CassetteFile

KEY_VARIABLES: Mapping[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY",),
    "openai-compatible": ("OPENAI_API_KEY",),
    "azure-openai": ("AZURE_OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "ai21": ("AI21_API_KEY",),
    "lighton": ("LIGHTON_API_KEY",),
    "workflowai": ("WORKFLOWAI_API_KEY",),
    "groq": ("GROQ_API_KEY",),
    "mistral": ("MISTRAL_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
}
"""The variables each provider's own SDK reads its key from, first found wins."""
RETRIED_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
"""Rate limits, overload (Anthropic's 529) and server errors: answered again after a wait."""
MAX_ATTEMPTS = 6
MAX_TRANSPORT_ATTEMPTS = 3
"""A host that refuses connections is more likely wrong than busy: fewer tries."""
MAX_WAIT_SECONDS = 60.0
TIMEOUTS = {"connect": 30.0, "read": 600.0, "write": 60.0, "pool": 60.0}
"""A long generation may take minutes to finish; a connection should not."""


# What is sent.


@dataclass(frozen=True)
class Changes:
    """What ``--model``, ``--set`` and ``--upstream`` change in every request."""

    model: str | None = None
    settings: tuple[tuple[str, Any], ...] = ()
    upstream: str | None = None

    def apply(self, request: Request) -> Request:
        if self.model is not None:
            request = reissue.with_model(request, self.model)
        for path, value in self.settings:
            request = reissue.with_setting(request, path, value)
        if self.upstream is not None:
            request = reissue.with_upstream(request, self.upstream)
        return request


def provider_name(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    if host.endswith(".openai.azure.com"):
        return "azure-openai"
    return detect(url, b"").name


def key_variables(provider: str, key_env: Sequence[str]) -> tuple[str, ...]:
    """Where the key of ``provider`` comes from: ``--key-env PROVIDER=VAR``, ``--key-env VAR``,
    else the provider's usual variables."""
    for choice in key_env:
        named, sep, variable = choice.partition("=")
        if sep and named == provider:
            return (variable,)
    general = [choice for choice in key_env if "=" not in choice]
    if general:
        return (general[-1],)
    return KEY_VARIABLES.get(provider, ("OPENAI_API_KEY",))


@dataclass
class Planned:
    """One recorded interaction to send again."""

    file: str
    original: Interaction
    request: Request
    """Changed as asked; ids issued by earlier answers still the recorded ones."""
    provider: str
    variables: tuple[str, ...]
    """Where its key comes from; empty when the recording held no credential."""

    @property
    def sends(self) -> int:
        """A request recorded with N responses was sent N times: it is sent N times again."""
        return len(self.original.outcomes)


@dataclass
class CassettePlan:
    file: str
    source: Location
    target: Location
    out: Cassette
    conversations: list[list[Planned]]
    to_send: list[list[Planned]] = field(default_factory=list)
    new_keys: dict[str, str] = field(default_factory=dict)
    """Original key -> the key of its new recording in ``target``."""
    same_as: dict[str, str] = field(default_factory=dict)
    """Original key -> an earlier original that became the same request: sent once."""

    @property
    def already(self) -> int:
        return sum(p.sends for c in self.conversations for p in c) - sum(
            p.sends for c in self.to_send for p in c
        )


def plan(
    cassettes: Sequence[CassetteFile], out: Location, changes: Changes, key_env: Sequence[str]
) -> list[CassettePlan]:
    """What to send for each cassette, after what ``out`` already holds from an earlier run."""
    plans = []
    for cassette in cassettes:
        target = out / cassette.relative
        recording = Cassette(target, mode=Mode.ALL)
        recording.mode = Mode.ALL  # whatever REPLAY_MODE says: a rerun records
        groups = reissue.conversations(cassette.interactions())
        conversations = [
            [_planned(cassette.relative, i, changes, key_env) for i in g if i.outcomes]
            for g in groups
        ]
        cassette_plan = CassettePlan(
            cassette.relative, cassette.path, target, recording, [c for c in conversations if c]
        )
        _resume(cassette_plan)
        plans.append(cassette_plan)
    return plans


def _planned(
    file: str, interaction: Interaction, changes: Changes, key_env: Sequence[str]
) -> Planned:
    request = changes.apply(interaction.request)
    provider = provider_name(interaction.request.url)
    needed = reissue.needs_credential(interaction.request)
    return Planned(
        file, interaction, request, provider, key_variables(provider, key_env) if needed else ()
    )


def _resume(plan: CassettePlan) -> None:
    """Sort the conversations into recorded by an earlier run and still to send."""
    stored = {interaction.key: interaction for interaction in plan.out.interactions}
    seen: dict[str, str] = {}
    for conversation in plan.conversations:
        if len(conversation) == 1:
            only = conversation[0]
            key = plan.out.key_of(only.request)
            if key in seen:  # --model or --set made it the same as an earlier request
                plan.same_as[only.original.key] = seen[key]
                continue
            seen[key] = only.original.key
        found = _recorded(plan, conversation, stored)
        if found is None:
            plan.to_send.append(conversation)
        else:
            plan.new_keys.update(found)


def _recorded(
    plan: CassettePlan, conversation: Sequence[Planned], stored: Mapping[str, Interaction]
) -> dict[str, str] | None:
    """The new keys of a conversation wholly recorded in ``out``; None if any is missing."""
    table: dict[bytes, bytes] = {}
    keys = {}
    for planned in conversation:
        key = plan.out.key_of(reissue.translated(planned.request, table))
        recorded = stored.get(key)
        if recorded is None or len(recorded.outcomes) < planned.sends:
            return None
        keys[planned.original.key] = key
        first = recorded.outcomes[0]
        if isinstance(first, Response):
            table.update(reissue.issued_pairs(planned.original, first.body))
    return keys


def within(plans: Sequence[CassettePlan], max_requests: int | None) -> int:
    """Keep in ``to_send`` the conversations that fit in ``max_requests``, in order; the number
    of requests left out."""
    if max_requests is None:
        return 0
    budget, left_out = max_requests, 0
    for cassette_plan in plans:
        kept = []
        for conversation in cassette_plan.to_send:
            cost = sum(planned.sends for planned in conversation)
            if cost <= budget:
                kept.append(conversation)
                budget -= cost
            else:
                budget = 0  # in order: nothing after the first that does not fit
                left_out += cost
        cassette_plan.to_send = kept
    return left_out


# The overview shown before anything is spent.


@dataclass
class Group:
    provider: str
    model: str
    requests: int = 0
    usage: Usage = field(default_factory=Usage)

    def to_json(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "model": self.model,
            "requests": self.requests,
            "recorded_prompt_tokens": self.usage.prompt_tokens or 0,
            "recorded_completion_tokens": self.usage.completion_tokens or 0,
            "recorded_cost_usd": self.usage.cost_usd,
        }


def overview(plans: Sequence[CassettePlan]) -> list[Group]:
    """Requests to send per provider and model (``old -> new`` when it changes), with the tokens
    their recordings used."""
    groups: dict[tuple[str, str], Group] = {}
    for cassette_plan in plans:
        for conversation in cassette_plan.to_send:
            for planned in conversation:
                before = reissue.model_requested(planned.original.request) or "-"
                after = reissue.model_requested(planned.request) or "-"
                model = before if before == after else f"{before} -> {after}"
                group = groups.setdefault((planned.provider, model), Group(planned.provider, model))
                group.requests += planned.sends
                for outcome in planned.original.outcomes:
                    group.usage = group.usage + answer_of(outcome).usage
    return sorted(groups.values(), key=lambda g: (g.provider, g.model))


def missing_keys(
    plans: Sequence[CassettePlan], environ: Mapping[str, str]
) -> dict[tuple[str, ...], set[str]]:
    """The key variables none of which is set, with the providers that need them."""
    missing: dict[tuple[str, ...], set[str]] = {}
    for planned in _each(plans):
        if planned.variables and not any(environ.get(v) for v in planned.variables):
            missing.setdefault(planned.variables, set()).add(planned.provider)
    return missing


def _each(plans: Iterable[CassettePlan]) -> Iterable[Planned]:
    for cassette_plan in plans:
        for conversation in cassette_plan.to_send:
            yield from conversation


# Sending.


def retry_wait(headers: httpx.Headers, attempt: int, now: datetime | None = None) -> float:
    """Seconds to wait before attempt ``attempt + 1``: what the provider asked (``retry-after-ms``,
    ``retry-after`` in seconds or as a date), else an exponential backoff; at most a minute."""
    milliseconds = headers.get("retry-after-ms")
    if milliseconds is not None:
        try:
            return min(max(float(milliseconds) / 1000, 0.0), MAX_WAIT_SECONDS)
        except ValueError:
            pass
    after = headers.get("retry-after")
    if after is not None:
        try:
            return min(max(float(after), 0.0), MAX_WAIT_SECONDS)
        except ValueError:
            pass
        try:
            when: datetime | None = email.utils.parsedate_to_datetime(after)
        except (TypeError, ValueError):
            when = None
        if when is not None:
            seconds = (when - (now or datetime.now(UTC))).total_seconds()
            return min(max(seconds, 0.0), MAX_WAIT_SECONDS)
    return min(0.5 * 2.0**attempt, MAX_WAIT_SECONDS)


@dataclass(frozen=True)
class Failure:
    file: str
    key: str
    """The original interaction's key."""
    reason: str


@dataclass
class Progress:
    """Counts updated by the workers, read by the command's loop."""

    sent: int = 0
    retried: int = 0
    failures: list[Failure] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, sent: int = 0, retried: int = 0, failure: Failure | None = None) -> None:
        with self.lock:
            self.sent += sent
            self.retried += retried
            if failure is not None:
                self.failures.append(failure)


class Sender:
    """Sends conversations, each answer recorded and saved before the next request."""

    def __init__(
        self,
        keys: Mapping[str, str],
        progress: Progress,
        stop: threading.Event,
        sleep: Callable[[float], object] | None = None,
    ) -> None:
        self._keys = keys
        self._progress = progress
        self._stop = stop
        self._sleep = sleep or stop.wait
        self._transport = httpx.HTTPTransport()

    def close(self) -> None:
        self._transport.close()

    def conversation(self, plan: CassettePlan, conversation: Sequence[Planned]) -> None:
        table: dict[bytes, bytes] = {}
        for position, planned in enumerate(conversation):
            request = reissue.translated(planned.request, table)
            key = next((self._keys[v] for v in planned.variables if v in self._keys), None)
            for _ in range(planned.sends):
                if self._stop.is_set():
                    return
                answered = self._send(plan, planned, reissue.with_credential(request, key))
                if answered is None:
                    return  # not answered: a later request would send an id it never got
                record, status, body = answered
                plan.new_keys[planned.original.key] = record.key
                table.update(reissue.issued_pairs(planned.original, body))
                if status >= 400 and position < len(conversation) - 1:
                    later = len(conversation) - 1 - position
                    self._progress.count(
                        failure=Failure(
                            plan.file,
                            planned.original.key,
                            f"answered {status}: the {later} later requests of its "
                            "conversation were not sent",
                        )
                    )
                    return

    def _send(
        self, plan: CassettePlan, planned: Planned, request: Request
    ) -> tuple[Record, int, bytes] | None:
        record = plan.out.decide(request)
        assert isinstance(record, Record), "a cassette in mode all always records"
        sent = record.upstream or request  # placeholders this rerun was shown: the real ids
        outgoing = httpx.Request(
            sent.method,
            sent.url,
            headers=[(name, value) for name, value in sent.headers if name != "content-length"],
            content=sent.body or None,
            extensions={"timeout": TIMEOUTS},
        )
        for attempt in range(MAX_ATTEMPTS):
            last = attempt == MAX_ATTEMPTS - 1
            started, recorded_at = time.monotonic(), usage.now()
            try:
                response = self._transport.handle_request(outgoing)
            except httpx.TransportError as error:
                if attempt + 1 >= MAX_TRANSPORT_ATTEMPTS or self._stop.is_set():
                    self._fail(planned, f"{type(error).__name__}: {error}")
                    return None
                self._retry(retry_wait(httpx.Headers(), attempt))
                continue
            if response.status_code in RETRIED_STATUSES and not last:
                response.read()
                response.close()
                if self._stop.is_set():
                    self._fail(planned, f"answered {response.status_code}")
                    return None
                self._retry(retry_wait(response.headers, attempt))
                continue
            if response.status_code in RETRIED_STATUSES:
                response.close()
                self._fail(planned, f"answered {response.status_code} {MAX_ATTEMPTS} times")
                return None
            recorded = teed(plan.out, record, outgoing, response, started, recorded_at)
            try:
                body = recorded.read()
            except httpx.TransportError:
                body = b""  # recorded with the transport failure that cut it short
            finally:
                recorded.close()  # the answer is in the cassette's journal now: on disk
            self._progress.count(sent=1)
            return record, response.status_code, body
        raise AssertionError("the last attempt returns")  # pragma: no cover

    def _retry(self, seconds: float) -> None:
        self._progress.count(retried=1)
        self._sleep(seconds)

    def _fail(self, planned: Planned, reason: str) -> None:
        """Note a request left unrecorded, so that a second run sends it again."""
        self._progress.count(
            failure=Failure(planned.file, planned.original.key, f"not recorded: {reason}")
        )


def run(
    plans: Sequence[CassettePlan],
    sender: Sender,
    concurrency: int,
    on_cassette_done: Callable[[CassettePlan], None],
    tick: Callable[[], None],
) -> None:
    """Send every conversation of ``plans``, ``concurrency`` at a time; ``tick`` is called
    on this thread a few times a second, ``on_cassette_done`` as each cassette is finished."""
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="rerun") as pool:
        pending: dict[Future[None], CassettePlan] = {}
        left = {id(p): len(p.to_send) for p in plans}
        for cassette_plan in plans:
            if not cassette_plan.to_send:
                on_cassette_done(cassette_plan)
            for conversation in cassette_plan.to_send:
                future = pool.submit(sender.conversation, cassette_plan, conversation)
                pending[future] = cassette_plan
        while pending:
            done, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            tick()
            for future in done:
                cassette_plan = pending.pop(future)
                future.result()
                left[id(cassette_plan)] -= 1
                if left[id(cassette_plan)] == 0:
                    cassette_plan.out.save()
                    on_cassette_done(cassette_plan)


# The diff.


def pairs(plans: Sequence[CassettePlan]) -> list[diff.Pair]:
    """Each recorded interaction with the new recording of its request, by file."""
    found: list[diff.Pair] = []
    for cassette_plan in plans:
        stored = {i.key: i for i in cassette_plan.out.interactions}
        new_keys = dict(cassette_plan.new_keys)
        for original, earlier in cassette_plan.same_as.items():
            if earlier in new_keys:
                new_keys[original] = new_keys[earlier]
        for conversation in cassette_plan.conversations:
            for planned in conversation:
                new_key = new_keys.get(planned.original.key)
                new = stored.get(new_key) if new_key else None
                old_side = diff.Side.of(planned.original)
                new_side = diff.Side.of(new) if new is not None else None
                changed = diff.pair_changes(old_side, new_side) if new_side else ()
                found.append(
                    diff.Pair(cassette_plan.file, planned.original.key, old_side, new_side, changed)
                )
    return found


def environment_keys(plans: Sequence[CassettePlan], environ: Mapping[str, str]) -> dict[str, str]:
    return {
        variable: environ[variable]
        for planned in _each(plans)
        for variable in planned.variables
        if environ.get(variable)
    }


def out_overlaps(out: Location, sources: Iterable[Location]) -> Location | None:
    """A source that ``out`` is, is inside, or contains: the rerun would write an original."""
    for source in sources:
        if _within(out, source) or _within(source, out):
            return source
    return None


def _within(inner: Location, outer: Location) -> bool:
    """Whether ``inner`` is ``outer`` or below it (a local path and an s3:// one never are)."""
    if isinstance(inner, S3Location) and isinstance(outer, S3Location):
        return inner.bucket == outer.bucket and (
            inner.key == outer.key or inner.key.startswith(outer.prefix)
        )
    if isinstance(inner, Path) and isinstance(outer, Path):
        inner, outer = Path(os.path.abspath(inner)), Path(os.path.abspath(outer))
        return inner == outer or outer in inner.parents
    return False
