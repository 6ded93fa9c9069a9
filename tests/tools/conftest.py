"""Fixtures of the report's tests: the command-line tests' recordings, paired as ``diff`` does.

Used by test_report.py and test_report_browser.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from recorded import record_versions

from replay._core.key import KeyRules
from replay._core.model import Interaction
from replay._store import cassette_file as store
from replay.tools import diff, report


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("report")
    return record_versions(root, {"old": ("v1", "model-1"), "new": ("v2", "model-2")})


def read_tree(root: Path) -> dict[str, list[Interaction]]:
    tree = {}
    for path in sorted(root.rglob("*.json")):
        loaded = store.load(path)
        tree[path.relative_to(root).as_posix()] = [
            store.decode(path, key, entry) for key, entry in loaded.interactions.items()
        ]
    return tree


@pytest.fixture(scope="module")
def pairs(suites: dict[str, Path]) -> list[diff.Pair]:
    return diff.pair_trees(
        read_tree(suites["old"]), read_tree(suites["new"]), KeyRules(ignore=("model",))
    )


Render = Callable[[Sequence[diff.Pair]], str]


@pytest.fixture(scope="module")
def render() -> Render:
    """The report of some pairs, as ``replay report`` renders them."""

    def rendered(pairs: Sequence[diff.Pair]) -> str:
        models = {side: diff.models(pairs, side) for side in ("old", "new")}
        return report.render(pairs, old="OLD/", new="NEW/", models=models)

    return rendered


@pytest.fixture(scope="module")
def page_file(
    pairs: list[diff.Pair], render: Render, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    path = tmp_path_factory.mktemp("page") / "report.html"
    path.write_text(render(pairs), encoding="utf-8")
    return path
