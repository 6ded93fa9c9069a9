"""Suite-level benchmark: a public project's committed vcrpy cassettes, replayed whole.

    python bench/suite.py           # 5 rounds of each figure, ~3 minutes on 2 cores
    python bench/suite.py --quick   # 1 round, 20 pytest tests: checks the script itself

The cassettes are pydantic-ai's (``bench/cassettes/pydantic-ai/``, see its README). They are
converted by ``replay import-vcr`` into a temporary directory; then, for replay, vcrpy and
cassetter on the same files in the same run, each through its own public API and replaying
through httpx:

- *load and replay*: one fresh process per tool and round opens every cassette and sends
  every recorded request once (in recorded order, matching on method and URL as the cassettes
  were recorded under), checking each answer's status and body against the recording;
- *pytest*: ``python -m pytest`` on 200 generated tests, each replaying the first call of its
  own cassette under ``@pytest.mark.vcr``, with only that tool's plugin loaded (replay serves
  pytest-recording's marker; cassetter is a drop-in for it).

Each process is timed by the wall clock from its start to its exit (interpreter start-up,
imports and, for pytest, plugin loading and collection included), and its peak resident
memory is its own ``ru_maxrss`` (``os.wait4``). Rounds alternate the tools; a figure is the
median of the rounds. Results go to ``bench/results/suite.{md,json}``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from run import machine

HERE = Path(__file__).parent
SOURCE = HERE / "cassettes" / "pydantic-ai"
RESULTS = HERE / "results"
TOOLS = ("replay", "vcrpy", "cassetter")
PLUGINS = {"replay": "replay", "vcrpy": "recording", "cassetter": "cassetter"}
"""Each tool's pytest plugin (its ``pytest11`` entry point name); the others are disabled."""
PYTEST_TESTS = 200
VCR_MATCH_ON = ("method", "scheme", "host", "port", "path", "query")
"""vcrpy's default, which pydantic-ai records under; cassetter's ``uri`` is the same fields."""


@dataclass(frozen=True)
class Call:
    method: str
    uri: str
    headers: dict[str, str]
    body: bytes
    status: int
    answer: bytes


# The recordings, read as pydantic-ai's own serializer reads them.


def deserialize(cassette_string: str) -> dict[str, Any]:
    """pydantic-ai's ``tests/json_body_serializer.deserialize`` (MIT): JSON bodies are kept
    parsed as ``parsed_body`` and replayed as their ``json.dumps``."""
    import yaml

    cassette = yaml.load(cassette_string, Loader=yaml.CSafeLoader)
    for interaction in cassette["interactions"]:
        for kind, data in interaction.items():
            parsed_body = data.pop("parsed_body", None)
            if parsed_body is not None:
                dumped = json.dumps(parsed_body)
                data["body"] = {"string": dumped} if kind == "response" else dumped
    return cassette  # type: ignore[no-any-return]


class PydanticAiSerializer:
    """vcrpy's serializer interface over :func:`deserialize`; replaying never serializes."""

    deserialize = staticmethod(deserialize)

    @staticmethod
    def serialize(cassette_dict: dict[str, Any]) -> str:
        raise RuntimeError("the benchmark replays only")


def _bytes(value: Any) -> bytes:
    if value is None:
        return b""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    return json.dumps(value).encode()  # a body written as YAML structure by hand


def recorded_calls(path: Path) -> list[Call]:
    calls = []
    for interaction in deserialize(path.read_text())["interactions"]:
        request, response = interaction["request"], interaction["response"]
        content_type = request.get("headers", {}).get("content-type", [])
        calls.append(
            Call(
                request["method"],
                request["uri"],
                {"content-type": _bytes(content_type[0]).decode("latin-1")} if content_type else {},
                _bytes(request.get("body")),
                response["status"]["code"],
                _bytes(response["body"]["string"]),
            )
        )
    return calls


def same_answer(call: Call, status: int, content: bytes) -> str | None:
    """Why the replayed answer is not the recorded one, or None: JSON compared as values
    (replay stores JSON bodies as JSON, so their bytes are re-serialized), a value that
    replay's redaction replaced counting as the same (``access_token`` and its kind are
    ``REDACTED`` by design), the rest as bytes."""
    if status != call.status:
        return f"status {status}, recorded {call.status}"
    if content == call.answer:
        return None
    try:
        if redacted_equal(json.loads(content), json.loads(call.answer)):
            return None
    except ValueError:
        pass
    return f"body of {len(content)} bytes differs from the recorded {len(call.answer)} bytes"


def redacted_equal(replayed: Any, recorded: Any) -> bool:
    if replayed == recorded or replayed == "REDACTED":
        return True
    if isinstance(replayed, dict) and isinstance(recorded, dict):
        return replayed.keys() == recorded.keys() and all(
            redacted_equal(replayed[key], recorded[key]) for key in replayed
        )
    if isinstance(replayed, list) and isinstance(recorded, list):
        return len(replayed) == len(recorded) and all(map(redacted_equal, replayed, recorded))
    return False


def calls_as_json(calls: list[Call]) -> list[dict[str, Any]]:
    """Bodies as Latin-1 text: any bytes, exactly, in JSON."""
    return [
        {
            **call.__dict__,
            "body": call.body.decode("latin-1"),
            "answer": call.answer.decode("latin-1"),
        }
        for call in calls
    ]


def calls_from_json(rows: list[dict[str, Any]]) -> list[Call]:
    return [
        Call(
            **{
                **row,
                "body": row["body"].encode("latin-1"),
                "answer": row["answer"].encode("latin-1"),
            }
        )
        for row in rows
    ]


# One process per tool and round: load every cassette, replay every interaction once.


def open_cassette(tool: str, vcr_path: Path, replay_path: Path) -> Any:
    """The tool's cassette as the context manager that patches httpx while it is open; the
    same client, made once, replays through each."""
    if tool == "replay":
        import replay

        return replay.use_cassette(replay_path, "none")
    if tool == "vcrpy":
        import vcr

        config = vcr.VCR(record_mode="none", match_on=VCR_MATCH_ON)
        config.register_serializer("pydantic-ai", PydanticAiSerializer)
        return config.use_cassette(str(vcr_path), serializer="pydantic-ai")
    import cassetter

    return cassetter.use_cassette(
        str(vcr_path), record_mode="none", match_on=["method", "uri"], intercept=["httpx"]
    )


def replay_child(tool: str, workdir: Path) -> None:
    """Runs in a fresh process: replays every converted cassette; prints what it did."""
    import httpx

    plan = json.loads((workdir / "plan.json").read_text())
    workload = {source: calls_from_json(rows) for source, rows in plan["calls"].items()}
    # One client for every cassette, as a suite's SDK client would be; making an httpx
    # client builds an SSL context (~10 ms), which is no tool's cost.
    client = httpx.Client()
    started = time.perf_counter()
    replayed, failures = 0, {}
    for relative, calls in workload.items():
        vcr_path = workdir / "vcr" / relative
        replay_path = workdir / "replay" / plan["files"][relative]
        try:
            with open_cassette(tool, vcr_path, replay_path):
                for index, call in enumerate(calls):
                    response = client.request(
                        call.method, call.uri, content=call.body, headers=call.headers
                    )
                    wrong = same_answer(call, response.status_code, response.content)
                    if wrong:
                        raise AssertionError(f"interaction {index}: {wrong}")
        except Exception as error:  # any tool's failure is a finding to report
            failures[relative] = f"{type(error).__name__}: {str(error)[:300]}"
            continue
        replayed += len(calls)
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "replayed": replayed, "failures": failures}))


def measured(
    command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Runs ``command``; its wall time start to exit, its own peak RSS, and its output."""
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=errors)
        # wait4 reports this child's own rusage (RUSAGE_CHILDREN keeps the largest so far);
        # stdout is drained first and stderr goes to a file, so no full pipe blocks the child.
        out = process.stdout.read()  # type: ignore[union-attr]
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        err = errors.read()
    return {
        "wall_s": time.perf_counter() - started,
        "peak_mb": usage.ru_maxrss / 1024,
        "returncode": process.returncode,
        "stdout": out.decode(errors="replace"),
        "stderr": err.decode(errors="replace"),
    }


# Setting up: conversion, the plan, the generated pytest suites.


def convert(workdir: Path) -> dict[str, Any]:
    """Copies the cassettes twice (vcrpy's and cassetter's untouched, replay's converted in
    place by ``replay import-vcr``); maps each converted source to its target."""
    shutil.copytree(SOURCE, workdir / "vcr", ignore=shutil.ignore_patterns("*.md", "LICENSE"))
    shutil.copytree(workdir / "vcr", workdir / "replay")
    command = [sys.executable, "-m", "replay", "import-vcr", str(workdir / "replay"), "--json"]
    run = measured(command)
    if run["returncode"] not in (0, 1):  # 1: some files not converted, reported below
        raise RuntimeError(f"replay import-vcr failed: {run['stderr']}")
    report = json.loads(run["stdout"])
    root = workdir / "replay"

    def relative(path: str) -> str:
        return str(Path(path).relative_to(root))

    return {
        "files": {relative(c["source"]): relative(c["target"]) for c in report["converted"]},
        "not_converted": {relative(f["source"]): f["reason"] for f in report["failed"]},
        "skipped": {relative(s["source"]): s["reason"] for s in report["skipped"]},
        "seconds": run["wall_s"],
    }


CONFTEST = '''"""Generated by bench/suite.py: pydantic-ai's serializer for pytest-recording (as
pydantic-ai's own conftest registers it); replay and cassetter do not call this hook."""

import json

import pytest
import yaml


def _deserialize(cassette_string):
    cassette = yaml.load(cassette_string, Loader=yaml.CSafeLoader)
    for interaction in cassette["interactions"]:
        for kind, data in interaction.items():
            parsed_body = data.pop("parsed_body", None)
            if parsed_body is not None:
                dumped = json.dumps(parsed_body)
                data["body"] = {"string": dumped} if kind == "response" else dumped
    return cassette


class _Serializer:
    deserialize = staticmethod(_deserialize)
    serialize = staticmethod(yaml.dump)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-recording's, unknown to the others
def pytest_recording_configure(config, vcr):
    vcr.register_serializer("yaml", _Serializer)


@pytest.fixture(scope="module")
def vcr_config():
    return {"record_mode": "none"}
'''

TEST_MODULE = '''"""Generated by bench/suite.py: a test replays the first call of its cassette."""

import json
import pathlib

import httpx
import pytest

CALLS = json.loads((pathlib.Path(__file__).parent / "calls.json").read_text())


def replay_call(index):
    call = CALLS[index]
    with httpx.Client() as client:
        response = client.request(
            call["method"],
            call["uri"],
            content=call["body"].encode("latin-1"),
            headers=call["headers"],
        )
    assert response.status_code == call["status"]
'''


def write_pytest_suite(workdir: Path, plan: dict[str, Any], picks: list[str]) -> Path:
    """One test module for every tool; the cassettes each tool reads beside it, named as
    pytest-recording names them (``cassettes/<module>/<test>.yaml``, replay's ``.json``)."""
    suite = workdir / f"pytest-{len(picks)}"
    cassettes = suite / "cassettes" / "test_suite"
    cassettes.mkdir(parents=True)
    calls, tests = [], [TEST_MODULE]
    for index, relative in enumerate(picks):
        name = f"test_call_{index:03d}"
        shutil.copy(workdir / "vcr" / relative, cassettes / f"{name}.yaml")
        shutil.copy(workdir / "replay" / plan["files"][relative], cassettes / f"{name}.json")
        first = calls_as_json(recorded_calls(workdir / "vcr" / relative))[0]
        calls.append(
            {field: first[field] for field in ("method", "uri", "headers", "body", "status")}
        )
        tests.append(f"\n\n@pytest.mark.vcr\ndef {name}():\n    replay_call({index})\n")
    (suite / "calls.json").write_text(json.dumps(calls))
    (suite / "test_suite.py").write_text("".join(tests))
    (suite / "conftest.py").write_text(CONFTEST)
    return suite


def pytest_command(tool: str) -> list[str]:
    others = [f"-p no:{PLUGINS[other]}" for other in TOOLS if other != tool]
    flags = [part for option in others for part in option.split()]
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *flags]


# Rounds, figures, report.


def rounds(count: int, run: Any) -> dict[str, list[dict[str, Any]]]:
    """``run(tool)`` for every tool, ``count`` times, the order rotated round by round."""
    runs: dict[str, list[dict[str, Any]]] = {tool: [] for tool in TOOLS}
    for index in range(count):
        order = TOOLS[index % len(TOOLS) :] + TOOLS[: index % len(TOOLS)]
        for tool in order:
            runs[tool].append(run(tool))
    return runs


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    walls = [run["wall_s"] for run in runs]
    return {
        "wall_s": statistics.median(walls),
        "wall_range_s": [min(walls), max(walls)],
        "peak_mb": statistics.median(run["peak_mb"] for run in runs),
    }


def load_and_replay(workdir: Path, plan: dict[str, Any], count: int) -> dict[str, Any]:
    def run(tool: str) -> dict[str, Any]:
        print(f"  load and replay: {tool}", flush=True)
        result = measured([sys.executable, __file__, "--child", tool, str(workdir)])
        if result["returncode"] != 0:
            raise RuntimeError(f"{tool} replay process failed:\n{result['stderr']}")
        result.update(json.loads(result.pop("stdout")))
        return result

    runs = rounds(count, run)
    figure = {}
    for tool in TOOLS:
        last = runs[tool][-1]
        figure[tool] = summary(runs[tool]) | {
            "in_process_s": statistics.median(r["seconds"] for r in runs[tool]),
            "interactions_replayed": last["replayed"],
            "cassettes_replayed": len(plan["files"]) - len(last["failures"]),
            "failures": last["failures"],
        }
    return figure


def pytest_run(suite: Path, count: int, tests: int) -> dict[str, Any]:
    def run(tool: str) -> dict[str, Any]:
        print(f"  pytest: {tool}", flush=True)
        result = measured(pytest_command(tool), cwd=suite)
        if result["returncode"] != 0 or f"{tests} passed" not in result["stdout"]:
            tail = (result["stdout"] + result["stderr"])[-3000:]
            raise RuntimeError(f"pytest under {tool} did not pass {tests} tests:\n{tail}")
        return result

    runs = rounds(count, run)
    return {tool: summary(runs[tool]) for tool in TOOLS}


def markdown(document: dict[str, Any]) -> str:
    host, plan = document["machine"], document["conversion"]
    replay_figure, pytest_figure = document["load_and_replay"], document["pytest"]
    lines = [
        "# Suite benchmark: pydantic-ai's vcrpy cassettes",
        "",
        f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(document['started']))}, "
        f"{host['cores']} cores, Python {host['python']}, {host['cpu']}; vcrpy {host['vcrpy']}, "
        f"cassetter {host['cassetter']}, pytest-recording {host['pytest-recording']}. "
        f"Load average {document['load_average']['start']:.1f} at the start and "
        f"{document['load_average']['end']:.1f} at the end: wall times carry the machine's load; "
        f"the range of the {document['rounds']} rounds shows how much.",
        "",
        f"Cassettes: {document['cassettes']} files of `bench/cassettes/pydantic-ai/` "
        f"({document['interactions']} interactions). `replay import-vcr` converted "
        f"{len(plan['files'])} in {plan['seconds']:.2f} s and refused "
        f"{len(plan['not_converted'])}; those are left out of every tool's figures.",
        "",
        "## Load every cassette and replay every interaction once (one process per tool)",
        "",
        "| tool | wall, process start to exit (median, range) | of it in the replay loop "
        "| peak RSS | cassettes replayed | interactions replayed |",
        "|---|---|---|---|---|---|",
    ]
    for tool in TOOLS:
        row = replay_figure[tool]
        low, high = row["wall_range_s"]
        lines.append(
            f"| {tool} | {row['wall_s']:.2f} s ({low:.2f}-{high:.2f}) "
            f"| {row['in_process_s']:.2f} s "
            f"| {row['peak_mb']:.0f} MB | {row['cassettes_replayed']} of {len(plan['files'])} "
            f"| {row['interactions_replayed']} |"
        )
    lines += [
        "",
        f"## `python -m pytest` on {document['pytest_tests']} tests, each replaying one call "
        "from its own cassette",
        "",
        "| tool | wall, process start to exit (median, range) | each test more "
        "| the tenth of the tests | peak RSS |",
        "|---|---|---|---|---|",
    ]
    for tool in TOOLS:
        row = pytest_figure[tool]
        low, high = row["wall_range_s"]
        lines.append(
            f"| {tool} | {row['wall_s']:.2f} s ({low:.2f}-{high:.2f}) "
            f"| {row['per_test_ms']:.1f} ms | {row['few_tests_wall_s']:.2f} s "
            f"| {row['peak_mb']:.0f} MB |"
        )
    lines += [
        "",
        "Each test more: the difference between this run and one of a tenth of the same tests, "
        "over the tests between them: what the tool costs a test once pytest has started. Most "
        "of the wall time is pytest's start-up and each test's own client, the same for all.",
    ]
    lines += ["", "## Cassettes a tool could not replay", ""]
    for source, reason in sorted(plan["not_converted"].items()):
        lines.append(f"- replay (`import-vcr` refused it): `{source}`: {reason}")
    for tool in TOOLS:
        for source, reason in sorted(replay_figure[tool]["failures"].items()):
            lines.append(f"- {tool}: `{source}`: {reason}")
    lines += ["", "Method: `bench/suite.py`'s docstring. Reproduce: `nox -s bench`.", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round, 20 pytest tests")
    parser.add_argument("--child", nargs=2, metavar=("TOOL", "WORKDIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        replay_child(args.child[0], Path(args.child[1]))
        return
    count, tests = (1, 20) if args.quick else (5, PYTEST_TESTS)
    started = time.time()
    load_at_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="replay-suite-") as temporary:
        workdir = Path(temporary)
        print("converting ...", flush=True)
        plan = convert(workdir)
        sources = sorted(str(p.relative_to(SOURCE)) for p in SOURCE.rglob("*.yaml"))
        interactions = sum(len(recorded_calls(SOURCE / s)) for s in sources)
        # The requests to send, read once here: no tool's figures include reading them.
        calls = {source: calls_as_json(recorded_calls(SOURCE / source)) for source in plan["files"]}
        (workdir / "plan.json").write_text(json.dumps(plan | {"calls": calls}))
        print("load and replay ...", flush=True)
        replay_figure = load_and_replay(workdir, plan, count)
        # The pytest suites use cassettes every tool replayed, so each run passes whole.
        failed = {source for tool in TOOLS for source in replay_figure[tool]["failures"]}
        picks = [source for source in sorted(plan["files"]) if source not in failed][:tests]
        if len(picks) < tests:
            raise RuntimeError(f"only {len(picks)} cassettes replay under every tool")
        print("pytest ...", flush=True)
        pytest_figure = pytest_run(write_pytest_suite(workdir, plan, picks), count, tests)
        # The same tests, a tenth of them: what one test more costs, start-up and the
        # plugin's loading left out, is the difference over the tests between the two runs.
        few = picks[: max(tests // 10, 1)]
        few_figure = pytest_run(write_pytest_suite(workdir, plan, few), count, len(few))
        for tool in TOOLS:
            extra = pytest_figure[tool]["wall_s"] - few_figure[tool]["wall_s"]
            pytest_figure[tool]["per_test_ms"] = extra / (tests - len(few)) * 1e3
            pytest_figure[tool]["few_tests_wall_s"] = few_figure[tool]["wall_s"]
    document = {
        "started": started,
        "load_average": {"start": load_at_start, "end": os.getloadavg()[0]},
        "machine": machine() | {"pytest-recording": metadata.version("pytest-recording")},
        "rounds": count,
        "cassettes": len(sources),
        "interactions": interactions,
        "conversion": plan,
        "load_and_replay": replay_figure,
        "pytest_tests": tests,
        "pytest_picks": picks,
        "pytest": pytest_figure,
    }
    name = "suite-quick" if args.quick else "suite"
    RESULTS.mkdir(exist_ok=True)
    report = markdown(document)
    (RESULTS / f"{name}.md").write_text(report)
    (RESULTS / f"{name}.json").write_text(json.dumps(document, indent=2) + "\n")
    print(report)


if __name__ == "__main__":
    main()
