"""Public projects' pytest-recording suites pass under replay with no edits (issue 24).

For each suite in ``SUITES`` (its source, revision and license in ``<name>/SOURCE.md``): the
suite under pytest-recording and vcrpy on its YAML cassettes gives the baseline; then, after
``replay import-vcr`` over its cassette folders, the same tests pass with replay installed
*instead of* pytest-recording, and again with both installed, where each marker goes to its own
tool. Nothing answers at the providers' addresses (no network here, and replay's guard would
stop a request that escaped): a test that passes got its answers from a cassette.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from suite_run import Outcome, Suite, copy_suite, import_vcr, run

SUITES: list[Suite] = [
    Suite(name="llm_anthropic", cassettes=("tests/cassettes",)),
    Suite("llm_gemini", cassettes=("tests/cassettes",)),
    Suite(
        "pydantic_ai",
        cassettes=("tests/models/cassettes",),
        # pytest-asyncio comes with replay's test extra, not theirs: with their
        # filterwarnings = error its start-up warning stops pytest. What is deselected fails
        # under pytest-recording too here, or reads a .yaml cassette's path (SOURCE.md).
        pytest_args=(
            "-p",
            "no:asyncio",
            *(
                f"tests/models/test_{provider}.py"
                for provider in ("groq", "mistral", "openai", "deepseek", "cerebras", "openrouter")
            ),
            *(
                f"--deselect=tests/models/{test}"
                for test in (
                    "test_openai.py::test_multiple_agent_tool_calls",
                    "test_openai.py::test_strict_mode_cannot_infer_strict"
                    "[tool_with_decimal-None-expected_params3-expected_strict3]",
                    "test_openai.py::test_strict_mode_cannot_infer_strict"
                    "[tool_with_decimal-True-expected_params4-expected_strict4]",
                    "test_deepseek.py::test_deepseek_model_thinking_part",
                    "test_deepseek.py::test_deepseek_model_thinking_stream",
                    "test_openrouter.py::test_openrouter_web_search_tool_full_params",
                )
            ),
        ),
    ),
    Suite("openinference_anthropic", cassettes=("tests/openinference/anthropic/cassettes",)),
    Suite(
        "openinference_mistralai",
        cassettes=("tests/openinference/instrumentation/mistralai/cassettes",),
    ),
]


@pytest.fixture(scope="module", params=SUITES, ids=lambda suite: suite.name)
def suite(request: pytest.FixtureRequest) -> Suite:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def expected(suite: Suite, tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """The suite as its authors run it: pytest-recording, its YAML cassettes, no replay."""
    copied = copy_suite(suite, tmp_path_factory.mktemp("vcrpy"))
    outcome = run(copied, suite, pytest_recording=True, plugins=("no:replay",))
    assert outcome.passed and not outcome.failed, outcome.summary()
    return outcome


def test_the_suite_passes_with_replay_instead_of_pytest_recording(
    suite: Suite, expected: Outcome, tmp_path: Path
) -> None:
    copied = copy_suite(suite, tmp_path / "replay")
    import_vcr(copied, suite, "--delete")
    assert not [path for folder in suite.cassettes for path in (copied / folder).rglob("*.yaml")]
    outcome = run(copied, suite, pytest_recording=False)
    assert outcome.passed == expected.passed, outcome.summary()
    assert outcome.skipped == expected.skipped, outcome.summary()


def test_the_suite_passes_with_replay_beside_pytest_recording(
    suite: Suite, expected: Outcome, tmp_path: Path
) -> None:
    copied = copy_suite(suite, tmp_path / "both")
    import_vcr(copied, suite)
    outcome = run(copied, suite, pytest_recording=True)
    assert outcome.passed == expected.passed, outcome.summary()
    assert outcome.skipped == expected.skipped, outcome.summary()
