"""What one pytest run does with its cassettes, across pytest-xdist workers.

Two things need the whole run rather than one test:

- Whether a cassette existed when the run started. Mode ``once`` records into
  a cassette that does not exist yet; one created earlier in this run (by an
  earlier test sharing it, or by another worker) must go on taking
  recordings, and one that was there before must not. The first process to
  open a path in the run writes the answer down in the run's directory, which
  every worker shares; whoever looks later reads it.
- The tallies for the summary line: how many interactions were replayed and
  recorded, and which ones were used, per cassette. Workers export theirs at
  the end and the controller adds them up; "unused" is what ``replay prune``
  would remove after the run: what the cassettes of the directories the run
  used hold that no test of the run used, the cassettes of deleted tests included.
  A partial run (tests deselected or picked by node id, stopped early) counts none:
  prune does not go by it, and the tests left out would be counted as unused.

A failed test's report is written here too: what replay saw (misses, blocked
connections, an unreadable cassette) and where in the test the call was made.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import traceback
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replay._cassette import Cassette
from replay._core.errors import CassetteError, CassetteMiss, ReplayError
from replay._core.location import Location, location
from replay._core.modes import Mode
from replay._store import usage
from replay._store.backend import store_for
from replay.tools import inventory, prune
from replay.tools.config import Settings


@dataclass
class Tally:
    replayed: int = 0
    recorded: int = 0
    used: set[str] = field(default_factory=set)


class TestRun:
    """The cassettes of one pytest run; ``directory`` is shared by the run's processes."""

    __test__ = False  # not a test class, whatever its name

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.tallies: dict[Location, Tally] = {}
        self.incomplete: list[str] = []
        """Why the workers' parts of the run are incomplete (this process's: usage)."""
        self.started = usage.now()

    def existed_at_start(self, path: Location) -> bool:
        note = self.directory / hashlib.sha256(str(path.resolve()).encode()).hexdigest()
        if not note.exists():
            descriptor, draft = tempfile.mkstemp(dir=self.directory)
            with os.fdopen(descriptor, "w") as file:
                file.write("1" if store_for(path).exists(path) else "0")
            try:
                os.link(draft, note)  # atomic: the first process to look decides
            except FileExistsError:
                pass
            finally:
                os.unlink(draft)
        return note.read_text() == "1"

    def open(
        self, path: Location, settings: Settings, extra_cassettes: tuple[Location, ...] = ()
    ) -> Cassette:
        """The test's cassette at ``path``; ``extra_cassettes`` are read beside it, never
        written (several cassettes on pytest-recording's marker)."""
        cassette = Cassette(
            path, settings.mode, extra_cassettes=extra_cassettes, **settings.cassette_options()
        )
        cassette.mode = settings.mode  # --replay-mode wins over REPLAY_MODE, which Cassette reads
        if settings.mode is Mode.ONCE and not self.existed_at_start(path):
            cassette.mode = Mode.NEW_EPISODES
        return cassette

    def close(self, cassette: Cassette) -> None:
        """Save what the test recorded, and count what it did."""
        tally = self.tallies.setdefault(cassette.path.resolve(), Tally())
        tally.replayed += cassette.replayed
        tally.recorded += cassette.recorded
        tally.used |= cassette.used_keys
        cassette.save()

    def export(self) -> dict[str, Any]:
        """The tallies as plain data, to send from an xdist worker to the controller."""
        tallies = {
            str(path): {"replayed": t.replayed, "recorded": t.recorded, "used": sorted(t.used)}
            for path, t in self.tallies.items()
        }
        return {"tallies": tallies, "incomplete": list(usage.incomplete())}

    def absorb(self, exported: dict[str, Any]) -> None:
        self.incomplete += exported.get("incomplete", [])
        for path, counts in exported.get("tallies", {}).items():
            tally = self.tallies.setdefault(location(path), Tally())
            tally.replayed += counts["replayed"]
            tally.recorded += counts["recorded"]
            tally.used |= set(counts["used"])

    def summary(self) -> str | None:
        """One line for the end of the run, or None when no test used a cassette."""
        if not self.tallies:
            return None
        tallies = self.tallies.values()
        line = (
            f"replay: {_count(len(self.tallies), 'cassette')}, "
            f"{_count(sum(t.replayed for t in tallies), 'interaction')} replayed, "
            f"{sum(t.recorded for t in tallies)} recorded"
        )
        partial = [*usage.incomplete(), *self.incomplete]
        if partial:
            return f"{line}, unused not counted in a partial run ({partial[0]})"
        unused = 0
        unreadable = 0
        for directory in sorted({path.parent for path in self.tallies}, key=str):
            removed, unread = self._unused_in(directory)
            unused, unreadable = unused + removed, unreadable + unread
        line += f", {unused} unused"
        return line + (f" ({unreadable} unreadable)" if unreadable else "")

    def _unused_in(self, directory: Location) -> tuple[int, int]:
        """How many interactions ``replay prune`` would remove from ``directory`` if it went
        by this run, and how many cassettes there could not be read."""
        used = {path.name: frozenset(t.used) for path, t in self.tallies.items()
                if path.parent == directory}  # fmt: skip
        policy = prune.Policy(usage.Run("", self.started, "", True, (), 1, used), None)
        found = [item for item in inventory.find([directory]) if not item.named]
        removed = unreadable = 0
        for item in found:
            if item.path.parent != directory:
                continue  # a directory below has a usage record of its own
            try:
                cassette = inventory.read(item)
            except CassetteError:
                unreadable += 1
                continue
            if cassette is not None:
                removed += len(policy.reasons(item.path.name, cassette.entries))
        return removed, unreadable


@dataclass(frozen=True)
class Located:
    """Something replay saw go wrong in a test, and where in the test the call was made."""

    error: ReplayError
    where: str | None
    """``file:line`` and the line's code; None when the call was not made from the test file."""


class LocatedMisses(list[CassetteMiss]):
    """A cassette's ``misses`` that also note where in ``test_file`` each request was made."""

    def __init__(self, test_file: Path) -> None:
        super().__init__()
        self.test_file = test_file
        self.located: list[Located] = []

    def append(self, miss: CassetteMiss) -> None:
        super().append(miss)
        self.located.append(Located(miss, call_site(traceback.extract_stack(), self.test_file)))


def call_site(stack: Iterable[traceback.FrameSummary], test_file: Path) -> str | None:
    """The innermost frame of ``stack`` in ``test_file``: where the test made the call."""
    inside = [frame for frame in stack if Path(frame.filename) == test_file]
    if not inside:
        return None
    frame = inside[-1]
    try:
        shown = str(Path(frame.filename).relative_to(Path.cwd()))
    except ValueError:
        shown = frame.filename
    code = f"\n    {frame.line}" if frame.line else ""
    return f"{shown}:{frame.lineno}, in {frame.name}{code}"


def ci_note(cassette: Location, ci: str) -> str:
    """Why a test missed on CI and how to record what it asked: CI chose mode ``none``."""
    forced = f"CI is set (CI={ci}), so replay ran in mode 'none', which records nothing"
    if not store_for(cassette).exists(cassette):  # the miss said so; here, what CI changes
        return (
            f"{forced}.\nTo record it: run this test once where the API is reachable, with CI "
            "unset (or with --replay-mode once), and commit the cassette."
        )
    return (
        f"{forced}.\nTo record this request into {cassette}: run the test with CI unset "
        "and --replay-mode new_episodes, and commit the cassette."
    )


def chained(raised: BaseException | None) -> Iterator[BaseException]:
    """``raised`` and the exceptions it was raised from or while handling, outermost first."""
    seen: set[int] = set()
    while raised is not None and id(raised) not in seen:
        seen.add(id(raised))
        yield raised
        raised = raised.__cause__ or raised.__context__


def explain_failure(
    problems: Iterable[Located], raised: BaseException | None, notes: Iterable[str] = ()
) -> str | None:
    """The report of a test that failed after misses, blocked connections or an unreadable
    cassette; None if none.

    Clients catch what a transport raises and fail in their own words
    (``APIConnectionError`` after retries), so the test's own traceback says
    little: the report leads with what replay saw, once per distinct message and
    place, each with where the test made the call, then ``notes``.
    """
    parts: list[str] = []
    for problem in problems:
        text = str(problem.error)
        if isinstance(problem.error, CassetteError):
            text += (
                "\nThe file is left as it is: fix it (replay verify names what is wrong), "
                "restore it from version control, or delete it to record the test anew."
            )
        if problem.where is not None:
            text += f"\ncalled at {problem.where}"
        parts.append(text)
    parts = list(dict.fromkeys(parts))
    if not parts:
        return None
    text = "\n\n".join([*parts, *notes])
    messages = {str(problem.error) for problem in problems}
    if raised is not None and str(raised) not in messages:
        text += f"\n\n(the test then failed with {type(raised).__qualname__}: {raised})"
    return text


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
