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
  the end and the controller adds them up; "unused" is what the cassettes hold
  that no test of the run used.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replay._cassette import Cassette
from replay._core.errors import ReplayError
from replay._core.modes import Mode
from replay._store import journal
from replay._store.backend import LOCAL
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
        self.tallies: dict[Path, Tally] = {}

    def existed_at_start(self, path: Path) -> bool:
        note = self.directory / hashlib.sha256(os.fsencode(path.resolve())).hexdigest()
        if not note.exists():
            descriptor, draft = tempfile.mkstemp(dir=self.directory)
            with os.fdopen(descriptor, "w") as file:
                file.write("1" if path.exists() else "0")
            try:
                os.link(draft, note)  # atomic: the first process to look decides
            except FileExistsError:
                pass
            finally:
                os.unlink(draft)
        return note.read_text() == "1"

    def open(self, path: Path, settings: Settings) -> Cassette:
        cassette = Cassette(path, settings.mode, **settings.cassette_options())
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
        return {
            str(path): {"replayed": t.replayed, "recorded": t.recorded, "used": sorted(t.used)}
            for path, t in self.tallies.items()
        }

    def absorb(self, exported: dict[str, Any]) -> None:
        for path, counts in exported.items():
            tally = self.tallies.setdefault(Path(path), Tally())
            tally.replayed += counts["replayed"]
            tally.recorded += counts["recorded"]
            tally.used |= set(counts["used"])

    def summary(self) -> str | None:
        """One line for the end of the run, or None when no test used a cassette."""
        if not self.tallies:
            return None
        unused = 0
        unreadable = 0
        for path, tally in self.tallies.items():
            try:
                unused += len(journal.view(LOCAL, path).interactions.keys() - tally.used)
            except ReplayError:
                unreadable += 1
        tallies = self.tallies.values()
        line = (
            f"replay: {_count(len(self.tallies), 'cassette')}, "
            f"{_count(sum(t.replayed for t in tallies), 'interaction')} replayed, "
            f"{sum(t.recorded for t in tallies)} recorded, {unused} unused"
        )
        return line + (f" ({unreadable} unreadable)" if unreadable else "")


def explain_failure(problems: Iterable[ReplayError], raised: BaseException | None) -> str | None:
    """The report of a test that failed after misses or blocked connections; None if none.

    Clients catch what a transport raises and fail in their own words
    (``APIConnectionError`` after retries), so the test's own traceback says
    little: the report leads with what replay saw, once per distinct message.
    """
    messages = list(dict.fromkeys(str(problem) for problem in problems))
    if not messages:
        return None
    text = "\n\n".join(messages)
    if raised is not None and str(raised) not in messages:
        text += f"\n\n(the test then failed with {type(raised).__qualname__}: {raised})"
    return text


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
