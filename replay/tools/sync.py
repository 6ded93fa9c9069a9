"""``replay sync SRC DST``: copy cassettes between places, local or ``s3://``.

Each cassette under SRC (a cassette, or a directory or prefix of them; a recorder's unfolded
journal included) is merged into the one at the same relative name under DST (for a named
cassette, DST itself): DST gains SRC's interactions, and where both recorded a request, SRC's
responses replace DST's. Nothing in DST is removed, so a recording DST received meanwhile is
kept. The merge is a fold of DST (:func:`replay._store.journal.fold`): under its lock
locally, by conditional writes in a bucket, so a sync running beside recorders loses
nothing of theirs. A cassette holding a malformed interaction is not copied, so that damage
never spreads to where others replay from.
"""

from __future__ import annotations

from dataclasses import dataclass

from replay._core.location import Location
from replay._store import journal
from replay._store.backend import store_for
from replay._store.cassette_file import Document
from replay.tools.inventory import CassetteFile


@dataclass(frozen=True)
class Synced:
    source: Location
    target: Location
    changed: bool
    """Whether DST was written: it lacked an interaction of SRC, or held other responses."""

    def to_json(self) -> dict[str, object]:
        return {"source": str(self.source), "target": str(self.target), "changed": self.changed}


def target_of(cassette: CassetteFile, named: bool, destination: Location) -> Location:
    return destination if named else destination / cassette.relative


def merge_into(target: Location, cassette: CassetteFile) -> Synced:
    """Fold ``cassette``'s interactions into ``target`` (see the module docstring); a
    malformed interaction is a CassetteError naming it, and nothing is written."""
    for _ in cassette.interactions():  # each decoded, as a replay would: checked, not kept
        pass
    changed = False

    def with_source(current: Document) -> Document:
        nonlocal changed
        changed = any(current.get(key) != entry for key, entry in cassette.entries.items())
        return {**current, **cassette.entries} if changed else current

    journal.fold(store_for(target), target, with_source)
    return Synced(cassette.path, target, changed)
