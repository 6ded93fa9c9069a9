"""Run a vendored public suite the three ways its users would: under pytest-recording (the
baseline), under replay installed instead of pytest-recording, and beside it.

The suite is copied to a temporary folder first, so no run can change what is kept here; its
cassettes are converted there by ``replay import-vcr`` as the README's "Moving from vcrpy"
says. pytest-recording is not installed in the environment the runs start from: ``nox -s
suites`` installs it apart and names its folder in ``REPLAY_PYTEST_RECORDING``, and a run puts
that folder on ``PYTHONPATH`` when pytest-recording is to be there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

from click.testing import CliRunner

from replay.tools.cli import main

HERE = Path(__file__).parent
PYTEST_RECORDING_VARIABLE = "REPLAY_PYTEST_RECORDING"


@dataclass(frozen=True)
class Suite:
    """A vendored suite: ``name`` is its folder here, ``cassettes`` the folders of vcrpy
    cassettes in it to convert, ``pytest_args`` what its authors run pytest with."""

    name: str
    cassettes: tuple[str, ...]
    pytest_args: tuple[str, ...] = ()
    environment: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """What one pytest run of a suite gave, test by test."""

    passed: frozenset[str]
    failed: dict[str, str]
    skipped: frozenset[str]
    output: str

    def summary(self) -> str:
        failures = "".join(f"\n  {test}: {why[:400]}" for test, why in self.failed.items())
        return (
            f"{len(self.passed)} passed, {len(self.failed)} failed, "
            f"{len(self.skipped)} skipped{failures}\n--- output ---\n{self.output[-4000:]}"
        )


def pytest_recording_folder() -> str:
    """Where ``nox -s suites`` installed pytest-recording; a clear failure elsewhere."""
    folder = os.environ.get(PYTEST_RECORDING_VARIABLE)
    if not folder:
        raise AssertionError(
            f"{PYTEST_RECORDING_VARIABLE} is not set: run these tests with `nox -s suites`, "
            "which installs the suites' projects and pytest-recording"
        )
    return folder


def copy_suite(suite: Suite, destination: Path) -> Path:
    """The suite's files in ``destination``, this repository's files about it left out."""
    copied = destination / suite.name
    shutil.copytree(
        HERE / suite.name, copied, ignore=shutil.ignore_patterns("SOURCE.md", "__pycache__")
    )
    return copied


def import_vcr(copied: Path, suite: Suite, *options: str) -> None:
    """``replay import-vcr`` over the suite's cassette folders, as a user runs it."""
    folders = [str(copied / folder) for folder in suite.cassettes]
    result = CliRunner().invoke(main, ["import-vcr", *options, *folders])
    assert result.exit_code == 0, result.output


@dataclass(frozen=True)
class Invocation:
    """A pytest process over a copied suite: its command, environment and junit report."""

    arguments: list[str]
    environment: dict[str, str]
    report: Path


def invocation(
    copied: Path, suite: Suite, *, pytest_recording: bool, plugins: tuple[str, ...] = ()
) -> Invocation:
    """pytest over the copied suite, with or without pytest-recording importable; ``plugins``
    are extra ``-p`` arguments (``no:replay`` for the baseline)."""
    report = copied / "junit.xml"
    environment = {
        **os.environ,
        **suite.environment,
        "PYTHONPATH": pytest_recording_folder() if pytest_recording else "",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    for variable in ("CI", "REPLAY_MODE", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER"):
        environment.pop(variable, None)
    arguments = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        *[argument for plugin in plugins for argument in ("-p", plugin)],
        f"--junitxml={report}",
        "-o",
        "junit_family=xunit1",
        *suite.pytest_args,
    ]
    return Invocation(arguments, environment, report)


def run(
    copied: Path, suite: Suite, *, pytest_recording: bool, plugins: tuple[str, ...] = ()
) -> Outcome:
    """pytest over the copied suite in a process of its own (see :func:`invocation`)."""
    planned = invocation(copied, suite, pytest_recording=pytest_recording, plugins=plugins)
    completed = subprocess.run(
        planned.arguments,
        cwd=copied,
        env=planned.environment,
        capture_output=True,
        text=True,
        timeout=900,
    )
    return outcome(suite, planned.report, completed.stdout + completed.stderr)


def outcome(suite: Suite, report: Path, output: str) -> Outcome:
    """What a finished pytest run of ``suite`` gave, read from its junit report."""
    if not report.exists():
        raise AssertionError(f"pytest did not run the suite {suite.name}:\n{output[-4000:]}")
    return _outcome(report, output)


def _outcome(report: Path, output: str) -> Outcome:
    passed, skipped, failed = set(), set(), {}
    for case in ElementTree.parse(report).iter("testcase"):
        test = f"{case.get('classname')}::{case.get('name')}"
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if problem is not None:
            failed[test] = (problem.get("message") or "") + "\n" + (problem.text or "")
        elif case.find("skipped") is not None:
            skipped.add(test)
        else:
            passed.add(test)
    return Outcome(frozenset(passed), failed, frozenset(skipped), output)
