"""The semantic diff of recordings made against two model versions of the fake server."""

from __future__ import annotations

from pathlib import Path

import pytest
from recorded import CHANGES, UNCHANGED, record_versions

from replay._core.answers import Answer, Usage, prompt_of
from replay._core.key import KeyRules, request_key
from replay._core.model import Interaction
from replay.tools import diff, inventory


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return record_versions(
        tmp_path_factory.mktemp("diff"),
        {"v1": ("v1", "model-1"), "v2": ("v2", "model-2"), "v1-again": ("v1", "model-1")},
    )


def tree(directory: Path) -> dict[str, list[Interaction]]:
    return {c.relative: list(c.interactions()) for c in inventory.read_all([directory])}


def states(pairs: list[diff.Pair]) -> dict[str, tuple[str, list[str]]]:
    return {prompt_of(p.either.interaction.request): (p.state, list(p.changes)) for p in pairs}


def test_ignoring_the_model_pairs_the_prompts_and_finds_exactly_the_changed_ones(
    suites: dict[str, Path],
) -> None:
    pairs = diff.pair_trees(tree(suites["v1"]), tree(suites["v2"]), KeyRules(ignore=("model",)))
    expected = {prompt: ("changed", kinds) for prompt, kinds in CHANGES.items()}
    expected |= {prompt: ("unchanged", []) for prompt in UNCHANGED}
    assert states(pairs) == expected
    assert {p.file for p in pairs} == {"chat.json", "other/providers.json"}
    summary = diff.summary(pairs)
    assert (summary["pairs"], summary["unchanged"], summary["changed"]) == (13, 7, 6)
    assert summary["changed_by_kind"] == {
        "status": 0,
        "text": 4,
        "tool_calls": 1,
        "finish_reason": 1,
        "usage": 5,
        "responses": 0,
        "model": 0,
    }
    old_total = sum(p.old.usage().total_tokens for p in pairs if p.old)
    new_total = sum(p.new.usage().total_tokens for p in pairs if p.new)
    assert new_total > old_total
    assert summary["tokens"]["old"]["total"] == old_total
    percent = round((new_total - old_total) / old_total * 100, 1)
    assert summary["tokens"]["change_percent"] == percent


def test_text_diff_shows_the_answers_and_tool_arguments(suites: dict[str, Path]) -> None:
    pairs = diff.pair_trees(tree(suites["v1"]), tree(suites["v2"]), KeyRules(ignore=("model",)))
    by_prompt = {prompt_of(p.either.interaction.request): p for p in pairs}
    poem = by_prompt["stream a poem please"].text_diff().splitlines()
    assert poem[3:] == ["-Answer to: stream a poem please", "+A poem about: stream a poem please"]
    weather = by_prompt["weather in Paris"].text_diff()
    assert '+tool call get_weather({"query":"weather in Paris","unit":"celsius"})' in weather
    assert by_prompt["a long essay on rivers"].text_diff() == ""
    assert by_prompt["hello there"].text_diff() == ""


def test_without_ignoring_the_model_only_model_free_requests_pair(
    suites: dict[str, Path],
) -> None:
    pairs = diff.pair_trees(tree(suites["v1"]), tree(suites["v2"]), KeyRules())
    paired = [p for p in pairs if p.state in ("changed", "unchanged")]
    # AI21 J2 names its model in the URL path, which --ignore model does not touch.
    assert states(paired) == {"These are a few of my favorite": ("unchanged", [])}
    summary = diff.summary(pairs)
    assert (summary["only_old"], summary["only_new"]) == (12, 12)


def test_rerecording_the_same_version_changes_nothing(suites: dict[str, Path]) -> None:
    """Ids, timestamps and chunk timings differ between the recordings; none of it counts."""
    pairs = diff.pair_trees(tree(suites["v1"]), tree(suites["v1-again"]), KeyRules())
    assert {p.state for p in pairs} == {"unchanged"} and len(pairs) == 13
    assert diff.summary(pairs)["tokens"]["change_percent"] == 0.0


def test_files_on_one_side_and_unequal_response_counts(suites: dict[str, Path]) -> None:
    old = tree(suites["v1"])
    new = {"chat.json": old["chat.json"][:2]}
    interaction = old["chat.json"][0]
    doubled = Interaction(interaction.key, interaction.request, interaction.outcomes * 2)
    new["chat.json"][0] = doubled
    pairs = diff.pair_trees(old, new, KeyRules())
    counted = {(p.file, p.state) for p in pairs}
    assert ("other/providers.json", "only_old") in counted
    assert pairs[0].changes == ("responses",)
    assert diff.summary(pairs)["only_old"] == 13 - 2


def test_collisions_name_each_side_whose_interactions_share_a_key(
    suites: dict[str, Path],
) -> None:
    old, new = tree(suites["v1"]), tree(suites["v2"])
    assert diff.collisions(diff.pair_trees(old, new, KeyRules(ignore=("model",)))) == []
    # Without their prompts, the plain chat completions of chat.json are one request, and so
    # are its two streamed ones; the other cassette's requests differ in more than that.
    blind = KeyRules(ignore=("model", "messages", "input"))
    found = diff.collisions(diff.pair_trees(old, {"chat.json": new["chat.json"]}, blind))
    assert sorted((c.file, c.side, c.interactions) for c in found) == [
        ("chat.json", "new", 2), ("chat.json", "new", 3),
        ("chat.json", "old", 2), ("chat.json", "old", 3),
    ]  # fmt: skip
    shared = {c.key for c in found}
    assert len(shared) == 2  # the two sides' collisions share their keys
    blind_keys = {request_key(i.request, blind) for i in old["chat.json"]}
    assert shared <= blind_keys


def test_changes_compares_meaning() -> None:
    base = Answer(200, "hi", finish_reason="stop", usage=Usage(1, 2))
    assert diff.changes([base], [base]) == ()
    assert diff.changes([base], [Answer(500, "hi", finish_reason="stop", usage=Usage(1, 2))]) == (
        "status",
    )
    assert diff.changes([base], [Answer(200, "ho", finish_reason="length")]) == (
        "text",
        "finish_reason",
        "usage",
    )
    assert diff.percent_change(0, 10) is None
    assert diff.percent_change(200, 150) == -25.0
