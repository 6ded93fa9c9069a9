"""Whole public suites, paired: the figure a user feels when moving a suite to replay.

    python bench/real_suites.py SUITE [--rounds N]    # nox -s bench_suites runs every suite

Each suite of ``tests/real_suites`` (its source and license in ``SUITE/SOURCE.md``) is copied
three times and run by ``python -m pytest`` the three ways its users could run it:

- *vcrpy*: pytest-recording and vcrpy on the suite's own YAML cassettes, as its authors do;
- *cassetter*: cassetter's pytest plugin, its drop-in for pytest-recording, on the same YAML;
- *replay*: replay's plugin after ``replay import-vcr --delete`` over the cassette folders.

Only that tool's plugin is loaded in each process. Rounds alternate the tools; each process is
timed by the wall clock from its start to its exit (start-up, collection and every test) and
its peak resident memory is its own ``ru_maxrss``; a figure is the median of the rounds. The
tests each tool passed are counted too: a tool that fails tests is not faster for it.
Results are merged into ``bench/results/real_suites.{md,json}``, one entry per suite.

Needs the suite's pinned projects installed (``REAL_SUITES`` in noxfile.py), cassetter, and
pytest-recording installed apart in the folder ``REPLAY_PYTEST_RECORDING`` names, as ``nox -s
suites`` does: ``nox -s bench_suites`` sets all of this up.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from run import machine
from suite import RESULTS, measured

sys.path.insert(0, str(Path(__file__).parent.parent / "tests" / "real_suites"))

from suite_run import Suite, copy_suite, import_vcr, invocation, outcome
from test_real_suites import SUITES

TOOLS = ("vcrpy", "cassetter", "replay")
OTHER_PLUGINS = {
    "vcrpy": ("no:replay", "no:cassetter"),
    "cassetter": ("no:replay",),
    "replay": ("no:cassetter",),
}
"""The ``-p no:NAME`` of every plugin but the tool's own (pytest-recording is loaded only where
its folder is on the path, for vcrpy)."""


def prepared(suite: Suite, workdir: Path) -> dict[str, Path]:
    """The suite copied once per tool, replay's cassettes converted as the README says."""
    copies = {tool: copy_suite(suite, workdir / tool) for tool in TOOLS}
    import_vcr(copies["replay"], suite, "--delete")
    return copies


def one_run(suite: Suite, tool: str, copied: Path) -> dict[str, Any]:
    planned = invocation(
        copied, suite, pytest_recording=tool == "vcrpy", plugins=OTHER_PLUGINS[tool]
    )
    planned.report.unlink(missing_ok=True)
    result = measured(planned.arguments, cwd=copied, env=planned.environment)
    tests = outcome(suite, planned.report, result["stdout"] + result["stderr"])
    return {
        "wall_s": result["wall_s"],
        "peak_mb": result["peak_mb"],
        "passed": len(tests.passed),
        "failed": sorted(tests.failed),
        "skipped": len(tests.skipped),
    }


def measure(suite: Suite, rounds: int) -> dict[str, Any]:
    runs: dict[str, list[dict[str, Any]]] = {tool: [] for tool in TOOLS}
    with tempfile.TemporaryDirectory(prefix="replay-real-suite-") as temporary:
        copies = prepared(suite, Path(temporary))
        for tool in TOOLS:  # a first run of each, untimed: bytecode written, caches warm
            one_run(suite, tool, copies[tool])
        for index in range(rounds):
            for tool in TOOLS[index % len(TOOLS) :] + TOOLS[: index % len(TOOLS)]:
                print(f"  {suite.name}, round {index + 1}: {tool}", flush=True)
                runs[tool].append(one_run(suite, tool, copies[tool]))
    figure = {}
    for tool, tool_runs in runs.items():
        walls = [run["wall_s"] for run in tool_runs]
        last = tool_runs[-1]
        figure[tool] = {
            "wall_s": statistics.median(walls),
            "wall_range_s": [min(walls), max(walls)],
            "peak_mb": statistics.median(run["peak_mb"] for run in tool_runs),
            "passed": last["passed"],
            "failed": last["failed"],
            "skipped": last["skipped"],
        }
    return figure


def markdown(document: dict[str, Any]) -> str:
    lines = [
        "# Whole public suites, paired",
        "",
        "Each suite run by `python -m pytest` under each tool, rounds alternating; wall time "
        "from process start to exit (median of the rounds, range in brackets), peak RSS of "
        "that process, and the tests each tool passed. Method: `bench/real_suites.py`'s "
        "docstring. Reproduce: `nox -s bench_suites`.",
        "",
        "| suite | tests | vcrpy + pytest-recording | cassetter | replay | replay / vcrpy "
        "| peak RSS vcrpy / cassetter / replay | run |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, entry in sorted(document.items()):
        figure = entry["figure"]
        cells = []
        for tool in TOOLS:
            row = figure[tool]
            low, high = row["wall_range_s"]
            failed = f", {len(row['failed'])} failed" if row["failed"] else ""
            cells.append(
                f"{row['wall_s']:.2f} s ({low:.2f}-{high:.2f}), {row['passed']} passed{failed}"
            )
        ratio = figure["replay"]["wall_s"] / figure["vcrpy"]["wall_s"]
        memory = " / ".join(f"{figure[tool]['peak_mb']:.0f}" for tool in TOOLS)
        tests = figure["vcrpy"]["passed"] + len(figure["vcrpy"]["failed"])
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry["started"]))
        lines.append(
            f"| {name} | {tests} | {' | '.join(cells)} | {ratio:.2f}x | {memory} MB "
            f"| {when}, {entry['rounds']} rounds, load {entry['load_average']:.1f} |"
        )
    host = next(iter(document.values()))["machine"]
    lines += [
        "",
        f"Machine: {host['cores']} cores, {host['cpu']}, Python {host['python']}; "
        f"vcrpy {host['vcrpy']}, cassetter {host['cassetter']}, "
        f"pytest-recording {host['pytest-recording']} (each suite's own pins otherwise).",
        "",
    ]
    for name, entry in sorted(document.items()):
        for tool in TOOLS:
            for test in entry["figure"][tool]["failed"]:
                lines.append(f"- {name}, failed under {tool}: `{test}`")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", choices=[suite.name for suite in SUITES])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    suite = next(suite for suite in SUITES if suite.name == args.suite)
    started = time.time()
    figure = measure(suite, args.rounds)
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "real_suites.json"
    document = json.loads(path.read_text()) if path.exists() else {}
    document[suite.name] = {
        "started": started,
        "rounds": args.rounds,
        "load_average": os.getloadavg()[0],
        "machine": machine() | {"pytest-recording": _pytest_recording_version()},
        "figure": figure,
    }
    path.write_text(json.dumps(document, indent=2) + "\n")
    report = markdown(document)
    (RESULTS / "real_suites.md").write_text(report)
    print(report)


def _pytest_recording_version() -> str:
    folder = os.environ.get("REPLAY_PYTEST_RECORDING", "")
    found = list(metadata.distributions(name="pytest-recording", path=[folder]))
    return found[0].version if found else "?"


if __name__ == "__main__":
    main()
