"""``replay prune``: which interactions the last complete test run did not use, and removing them.

Per directory of cassettes, the run to go by is the last complete run of its
usage record (see :mod:`replay._store.usage`). A run notes only the directories
whose cassettes it used, so a directory whose tests were all deleted keeps
its last old run forever: when a newer complete run is seen in another
directory given, and this directory's run is older, its record is *stale*
and nothing is removed there for lack of use (only ``--older-than`` applies).
A directory in the pytest plugin's default layout whose test module is gone is
*orphaned* instead, and all its cassettes go (:func:`missing_test_module`).
An s3:// prefix has no usage record (it is kept locally, per local directory):
only ``--older-than`` applies there.

A plan is made from the files as read, to show; applying makes it again from
each file as it is under its lock, so an interaction re-recorded in between
(recorded at or after the run started) is kept.

Pure but for :func:`apply`, which rewrites or deletes a cassette; the command
line reads the files and prints.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from replay._core.answers import prompt_of
from replay._core.errors import CassetteError
from replay._core.location import Location, S3Location
from replay._store import cassette_file as store
from replay._store import journal, usage
from replay._store.backend import store_for
from replay.tools.wording import counted

OLDEST = datetime.min.replace(tzinfo=UTC)

_TEST_MODULE = re.compile(r"test_.*|.*_test")
"""The stem of a test module by pytest's default ``python_files``."""


def cutoff(days: float | None, now: datetime) -> datetime | None:
    """``days`` before ``now``; further back than dates go is the oldest date."""
    if days is None:
        return None
    try:
        return now - timedelta(days=days)
    except OverflowError:
        return OLDEST


@dataclass(frozen=True)
class Directory:
    """One directory of cassettes and the run prune goes by there, if any."""

    path: Location
    record: Mapping[str, usage.Run] | None
    """The runs of its usage record; None when it has none."""
    last_complete: usage.Run | None
    newer_elsewhere: usage.Run | None = None
    """A complete run newer than ``last_complete`` that did not use this directory."""
    missing_module: Path | None = None
    """The deleted test module whose cassettes these are (:func:`missing_test_module`)."""

    @property
    def stale(self) -> bool:
        return self.newer_elsewhere is not None

    @property
    def decided(self) -> bool:
        """Whether prune knows what goes here for lack of use."""
        return self.run is not None or self.missing_module is not None

    @property
    def run(self) -> usage.Run | None:
        """The run whose usage decides here; None when none can be trusted."""
        return None if self.stale else self.last_complete

    @property
    def message(self) -> str:
        if self.missing_module is not None:
            return (
                f"orphaned: its test module {self.missing_module} no longer exists, "
                "so all its cassettes go"
            )
        last = self.last_complete
        if self.newer_elsewhere is not None and last is not None:
            newer = self.newer_elsewhere
            return (
                f"stale usage record: its last complete run, {last.id} (ended {last.ended}), "
                f"is older than run {newer.id} (ended {newer.ended}), which used no cassette "
                "here; nothing is removed here for lack of use (if these tests are gone, "
                "delete their cassettes, or prune this directory on its own)"
            )
        if last is not None:
            processes = counted(last.processes, "process", "processes")
            return f"going by run {last.id}, ended {last.ended} ({processes})"
        if isinstance(self.path, S3Location):
            return "no usage record in an object store: only --older-than applies here"
        if self.record is None:
            return (
                f"no usage record ({usage.record_path(self.path)}): run the whole test suite once, "
                "then prune; nothing is removed here for lack of use"
            )
        runs = sorted(self.record.values(), key=lambda r: r.ended)
        if not runs:
            return "no complete run recorded: the usage record holds no run"
        return (
            f"no complete run recorded; the last, {runs[-1].id}, "
            f"was incomplete: {'; '.join(runs[-1].incomplete) or 'unknown reason'}"
        )

    def to_json(self) -> dict[str, Any]:
        run, missing = self.run, self.missing_module
        return {
            "directory": str(self.path),
            "usage_record": self.record is not None,
            "run": None if run is None else _run_json(run),
            "stale": self.stale,
            "missing_test_module": None if missing is None else str(missing),
            "message": self.message,
        }


def _run_json(run: usage.Run) -> dict[str, Any]:
    return {"id": run.id, "started": run.started, "ended": run.ended, "processes": run.processes}


def directories(paths: Sequence[Location]) -> list[Directory]:
    """Each directory's usage record read, and judged against the newest complete run of all."""
    found = []
    for path in sorted(set(paths), key=str):
        record = usage.read(path) if isinstance(path, Path) else None
        found.append((path, record, usage.last_complete_run(record) if record else None))
    newest = max((run for _, _, run in found if run), key=lambda r: r.ended, default=None)
    judged = []
    for path, record, run in found:
        # Runs are compared by id, not end time alone: the processes of one run end apart.
        newer = None
        if newest is not None and run is not None and run.id != newest.id:
            newer = newest if run.ended < newest.ended else None
        orphaned = missing_test_module(path) if isinstance(path, Path) else None
        judged.append(Directory(path, record, run, newer, orphaned))
    return judged


def missing_test_module(directory: Path) -> Path | None:
    """``<dir>/<stem>.py`` when ``directory`` is ``<dir>/cassettes/<stem>`` and that module is gone.

    Only where the plugin's default layout is evident: the stem is a test module's name and
    other test modules are still beside ``cassettes/``. A custom cassette directory cannot be
    told from the default one by its path, so anything less certain is left to the usage record.
    """
    directory = directory.resolve()
    cassettes, tests = directory.parent, directory.parent.parent
    if cassettes.name != "cassettes" or not _TEST_MODULE.fullmatch(directory.name):
        return None
    module = tests / f"{directory.name}.py"
    if module.exists():
        return None
    if not any(_TEST_MODULE.fullmatch(sibling.stem) for sibling in tests.glob("*.py")):
        return None
    return module


@dataclass(frozen=True)
class Policy:
    """What goes: keys the run did not use, recorded before it started; or older than a date;
    or everything, when the directory's test module is gone."""

    run: usage.Run | None
    older_than: datetime | None
    missing_module: Path | None = None

    def reasons(self, name: str, entries: store.Document) -> dict[str, str]:
        """Key -> why it goes, for the cassette ``name`` of the run's directory."""
        if self.missing_module is not None:
            why = f"test module {self.missing_module.name} no longer exists"
            return dict.fromkeys(entries, why)
        run = self.run
        started = usage.parse_time(run.started) if run else OLDEST
        used = run.cassettes.get(name, frozenset()) if run else frozenset()
        reasons: dict[str, str] = {}
        for key, entry in entries.items():
            recorded = newest_recording(entry)
            if recorded is None:
                continue  # no readable date: never guess
            if run is not None and key not in used and recorded < started:
                reasons[key] = f"not used by run {run.id}"
            elif self.older_than is not None and recorded < self.older_than:
                reasons[key] = f"recorded {recorded:%Y-%m-%d}"
        return reasons


def newest_recording(entry: Any) -> datetime | None:
    """When the interaction was last recorded; None when no date can be read."""
    responses = entry.get("responses") if isinstance(entry, dict) else None
    if not isinstance(responses, list):
        return None
    dates = []
    for response in responses:
        try:
            date = datetime.fromisoformat(str(response.get("recorded_at")))
        except (ValueError, AttributeError):
            return None
        dates.append(date if date.tzinfo else date.replace(tzinfo=UTC))
    return max(dates, default=None)


@dataclass(frozen=True)
class Plan:
    path: Location
    stored: int
    """How many interactions the file holds."""
    reasons: dict[str, str]
    """Key -> why it goes."""
    prompts: dict[str, str]
    """Key -> the prompt of what goes, so a person can judge it ("" when there is none)."""

    @property
    def delete_file(self) -> bool:
        return len(self.reasons) == self.stored

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "delete_file": self.delete_file,
            "remove": [
                {"key": key, "reason": why, "prompt": self.prompts.get(key, "")}
                for key, why in sorted(self.reasons.items())
            ],
            "kept": self.stored - len(self.reasons),
        }


def plan(path: Location, entries: store.Document, policy: Policy) -> Plan:
    reasons = policy.reasons(path.name, entries)
    prompts = {key: _prompt(path, key, entries[key]) for key in reasons}
    return Plan(path, len(entries), reasons, prompts)


def _prompt(path: Location, key: str, entry: Any) -> str:
    try:
        return prompt_of(store.decode(path, key, entry).request)
    except CassetteError:
        return ""  # a malformed interaction shows no prompt, and goes all the same


def apply(path: Location, policy: Policy) -> Plan:
    """Plan again on the file as it is under its lock (in S3: as read, written only if it
    is still that version), and remove that: what was removed.

    A local cassette deleted takes its lock file with it, so nothing is left behind.
    """
    planned: list[Plan] = []

    def without_planned(current: store.Document) -> store.Document | None:
        done = plan(path, current, policy)
        planned.append(done)
        if not done.reasons:
            return current
        if done.delete_file:
            return None
        return {k: v for k, v in current.items() if k not in done.reasons}

    journal.fold(store_for(path), path, without_planned)
    done = planned[-1]
    if done.reasons and done.delete_file and isinstance(path, Path):
        # Once released: an open lock file cannot be deleted on Windows.
        store.lock_path(path).unlink(missing_ok=True)
    return done
