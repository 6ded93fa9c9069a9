"""Sessions: `nox` runs tests, two of the public suites, the routed libraries' floors, lint,
typecheck and docs; all of `suites`, `compat`, `bench`, `bench_suites`, `stages`, `stress`,
`sdks` and `browser` on demand."""

from __future__ import annotations

import os
import shutil

import nox

# The two small public suites run by default, so CI keeps them passing (15 s each); the large
# one (pydantic-ai's, two minutes) with the rest of `nox -s suites`.
nox.options.sessions = [
    "tests",
    "suites(suite='llm_anthropic')",
    "suites(suite='llm_gemini')",
    "compat(versions='floors')",
    "lint",
    "typecheck",
    "docs",
]
# uv installs the test extra in seconds where pip takes minutes; plain venv and pip when uv
# is not installed (`pip install 'nox[uv]'` brings it).
nox.options.default_venv_backend = "uv|venv"

PYTHON = "3.11"
LINT_PATHS = ["replay", "tests", "bench", "noxfile.py"]
# worksteal: idle workers take queued tests from busy ones; the default hands out fixed
# batches, and a few minute-long tests left one worker running alone for half a minute.
PYTEST_ARGS = ["-n", "2", "--dist", "worksteal", "-p", "no:cacheprovider"]
WRITE_BYTECODE = {"PYTHONDONTWRITEBYTECODE": ""}
"""uv installs no .pyc files, and a machine that sets PYTHONDONTWRITEBYTECODE (this one does)
then compiles every imported module again in each of the hundreds of processes the tests start:
the suite took 298 s in a fresh session against 203 s with compiled modules. An empty value
lets Python write them once, on first import."""


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """The whole test suite, in two worker processes.

    The SDK matrix's fast subset of routes; then the pytest-recording suite beside
    pytest-recording itself."""
    session.install("-e", ".[test]")
    session.run(
        "pytest", *PYTEST_ARGS, *session.posargs, env={"HYPOTHESIS_PROFILE": "ci", **WRITE_BYTECODE}
    )
    # Beside pytest-recording: put on the path for this module only, since with it loaded the
    # whole suite would be a suite of pytest-recording's too.
    recording = _pytest_recording_apart(session)
    session.run(
        "pytest",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:recording",
        "tests/tools/test_recording_suite.py",
        env={"PYTHONPATH": recording, **WRITE_BYTECODE},
    )


def _pytest_recording_apart(session: nox.Session) -> str:
    """pytest-recording installed in a folder of its own, outside the session's environment,
    for the runs that put it on ``PYTHONPATH``; absolute, since those runs start pytest in
    temporary directories, where a relative path is lost."""
    recording = os.path.abspath(f"{session.create_tmp()}/pytest-recording")
    session.install("--target", recording, "--no-deps", "pytest-recording==0.14.1")
    return recording


REAL_SUITES: dict[str, list[str]] = {
    # anthropic 1.0 dropped a keyword the plugin passes (llm_anthropic/SOURCE.md)
    "llm_anthropic": ["llm-anthropic==0.25.1", "anthropic==0.125.0", "llm==0.36"],
    "llm_gemini": ["llm-gemini==0.33", "llm==0.36"],
    "pydantic_ai": [
        "pydantic-ai-slim[groq,mistral,openai,openrouter]==2.33.0",
        "pydantic-evals==2.33.0",  # imported by tests/conftest.py
        "clai==2.33.0",
        "vcrpy==8.2.1",  # its conftest patches a vcrpy 8 aiohttp stub that vcrpy 9 removed
        "huggingface-hub==1.16.1",  # its conftest fills a provider table that 2.x dropped
        "inline-snapshot==0.34.2",
        "dirty-equals==0.11",
        "pytest-mock==3.15.1",
        "blockbuster==1.5.26",
        "brotli==1.2.0",
    ],
    # Their test-requirements.txt, but httpx<0.28, which replay's httpx>=0.28 excludes; what
    # they leave unpinned is pinned at the releases the suites were vendored with (SOURCE.md).
    "openinference_anthropic": [
        "openinference-instrumentation-anthropic==1.1.2",
        "anthropic==0.84.0",
        "opentelemetry-sdk==1.45.2",
        "respx==0.23.1",
    ],
    "openinference_mistralai": [
        "openinference-instrumentation-mistralai==2.1.0",
        "mistralai==2.0.0",
        "opentelemetry-sdk==1.39.1",  # mistralai 2.0.0 asks for semantic conventions 0.60
        "opentelemetry-instrumentation-httpx==0.60b1",
        "respx==0.23.1",
    ],
}
"""The public suites in tests/real_suites and the releases of their projects that their vendored
tests were written for (pinned, so the suites test replay, not a newer release of theirs)."""


@nox.session(python=PYTHON)
@nox.parametrize("suite", list(REAL_SUITES))
def suites(session: nox.Session, suite: str) -> None:
    """A public project's pytest-recording suite, under pytest-recording, replay, and both.

    From tests/real_suites: under pytest-recording, under replay instead of it and beside it.
    Each suite in an environment of its own, without our test extra: their pins may contradict
    it and one another (llm_anthropic needs anthropic<1, the test extra anthropic>=2)."""
    # Beside the pins: what our tests/conftest.py and the runner need.
    runner = ["pytest", "pytest-asyncio", "pytest-xdist", "hypothesis"]
    session.install("-e", ".[vcr,httpx2]", *runner, *REAL_SUITES[suite])
    recording = _pytest_recording_apart(session)
    session.run(
        "pytest",
        *PYTEST_ARGS,
        "tests/real_suites",
        "-k",
        suite,
        *session.posargs,
        env={"REPLAY_PYTEST_RECORDING": recording, **WRITE_BYTECODE},
    )


WEBSOCKETS_TESTS = ["tests/adapters/test_websockets.py", "tests/adapters/test_unrouted.py"]
ADAPTER_TESTS = [
    *WEBSOCKETS_TESTS,
    "tests/adapters/test_aiohttp_adapter.py",
    "tests/adapters/test_urllib3_adapter.py",
    "tests/adapters/test_httpx_transport.py",
    "tests/adapters/test_patch.py",
    "tests/adapters/test_sdks.py",
]
SDK_TESTS = ["tests/adapters/test_sdks.py", "tests/adapters/test_unrouted.py"]
COMPAT: dict[str, tuple[list[str], list[str]]] = {
    # Every routed library at the floor pyproject.toml declares, in one environment.
    "floors": (
        [
            "websockets==13.1",
            "aiohttp==3.13.0",
            "urllib3==2.2.2",
            "httpx==0.28.0",
            "httpx2==2.16.0",
        ],
        ADAPTER_TESTS,
    ),
    # Each websockets line: the asyncio client's method and attributes moved in 15, 17, 17.1.
    "websockets-14": (["websockets==14.2"], WEBSOCKETS_TESTS),
    "websockets-15": (["websockets==15.0.1"], WEBSOCKETS_TESTS),
    "websockets-16": (["websockets==16.1.1"], WEBSOCKETS_TESTS),
    "websockets-17.0": (["websockets==17.0.1"], WEBSOCKETS_TESTS),
    "aiohttp-3.13": (["aiohttp==3.13.5"], ["tests/adapters/test_aiohttp_adapter.py"]),
    # urllib3 1.26, which requests and botocore still accept, is left unrouted, warned of.
    "urllib3-1.26": (["urllib3==1.26.20"], ["tests/adapters/test_unrouted.py"]),
    "openai-1": (["openai==1.109.1"], SDK_TESTS),
    "openai-2": (["openai==2.54.0"], SDK_TESTS),
    "openai-3.0": (["openai==3.0.0"], SDK_TESTS),
    "anthropic-0": (["anthropic==0.125.0"], SDK_TESTS),
    "anthropic-1": (["anthropic==1.17.0"], SDK_TESTS),
    # Every library and SDK at its latest: the test extra as it resolves today.
    "latest": ([], ADAPTER_TESTS),
}
"""Version sets of the routed libraries and of the SDKs built on them: `nox -s compat` runs
them all, the default `nox` the floors (2.5 minutes; the `tests` session runs the latest). Each
set is the test extra with those pins over it; the ranges in pyproject.toml's
extras are what these sets pass."""
EXPECT_UNROUTED = {"urllib3-1.26": "urllib3"}
"""The sets that install a version replay leaves unrouted, and the library it is."""


@nox.session(python=PYTHON)
@nox.parametrize("versions", list(COMPAT))
def compat(session: nox.Session, versions: str) -> None:
    """The adapter and SDK tests under one set of library versions, in one process.

    The sets are ``COMPAT``'s: the floors of the routed libraries, single releases, the latest."""
    pins, modules = COMPAT[versions]
    session.install("-e", ".[test]")
    if pins:  # over the extra's own ranges, as a user's pins are
        session.install(*pins)
    session.run(
        "pytest",
        "-p",
        "no:cacheprovider",
        *modules,
        *session.posargs,
        env={"REPLAY_EXPECT_UNROUTED": EXPECT_UNROUTED.get(versions, ""), **WRITE_BYTECODE},
    )


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff, and the layer rule: a lower layer importing a higher one fails (pyproject.toml)."""
    session.install("-e", ".", "ruff", "import-linter")
    session.run("ruff", "check", *LINT_PATHS)
    session.run("ruff", "format", "--check", *LINT_PATHS)
    session.run("lint-imports")


@nox.session(python=PYTHON)
def typecheck(session: nox.Session) -> None:
    """mypy strict over the package.

    With the libraries it imports (the user extras), not the SDKs of the test extra."""
    session.install("-e", ".[all]", "pytest", "mypy")
    session.run("mypy", "replay")


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """The documentation site (mkdocs.yml, docs/) built with warnings as errors, into site/.

    Its examples run in the tests (tests/tools/test_readme.py)."""
    session.install("mkdocs>=1.6", "mkdocs-material>=9.5")
    session.run("mkdocs", "build", "--strict", env={"NO_MKDOCS_2_WARNING": "1"})


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """This project against vcrpy, cassetter and the floor, into bench/results/.

    First latest.{md,json}; then the same tools on pydantic-ai's cassettes and a pytest run:
    suite.{md,json}; then a replay-only run over s3:// (moto on loopback) against local files:
    s3_warm.{md,json}, and what each S3 client library costs a process: s3_clients.{md,json}."""
    # The published figures compare against vcrpy 9.4.2, cassetter 0.16.1 and (for vcrpy's
    # pytest plugin) pytest-recording 0.14.1: pinned, so a rerun compares the same.
    session.install(
        "-e", ".[test]", "vcrpy==9.4.2", "cassetter==0.16.1", "pytest-recording==0.14.1"
    )
    session.run("python", "bench/run.py", *session.posargs)
    quick = ["--quick"] if "--quick" in session.posargs else []
    session.run("python", "bench/suite.py", *quick)
    session.run("python", "bench/s3_warm.py", *quick)
    session.run("python", "bench/s3_clients.py", *quick)


@nox.session(python=PYTHON)
@nox.parametrize("suite", list(REAL_SUITES))
def bench_suites(session: nox.Session, suite: str) -> None:
    """A public suite of `suites` timed under vcrpy, cassetter and replay, in turn.

    Run whole under vcrpy with pytest-recording, under cassetter and under replay, rounds
    alternating: bench/results/real_suites.{md,json}. In
    each suite's environment, as `suites` makes it, with cassetter beside."""
    session.install(
        "-e", ".[vcr,httpx2]", "pytest", "pytest-asyncio", "cassetter==0.16.1", *REAL_SUITES[suite]
    )
    recording = _pytest_recording_apart(session)
    session.run(
        "python",
        "bench/real_suites.py",
        suite,
        *session.posargs,
        env={"REPLAY_PYTEST_RECORDING": recording, **WRITE_BYTECODE},
    )


@nox.session(python=PYTHON)
def stages(session: nox.Session) -> None:
    """Instructions per request, stage by stage, under callgrind: bench/results/stages.md."""
    session.install("-e", ".[test]")
    session.run("python", "bench/stages.py", *session.posargs)


@nox.session(python=PYTHON)
def stress(session: nox.Session) -> None:
    """The reliability and security tests at full scale (1,000 examples, 100 kills each,
    256 MiB uploads)."""
    session.install("-e", ".[test]")
    session.run(
        "pytest",
        "-p",
        "no:cacheprovider",
        "tests/cassette/test_secrets_property.py",
        "tests/store/test_crash_safety.py",
        "tests/store/test_kill_while_recording.py",
        "tests/cassette/test_stable_recording_property.py",
        "tests/cassette/test_bedrock_streams.py",
        "tests/core/test_eventstream.py",
        "tests/core/test_normalize_properties.py",
        "tests/adapters/test_non_ascii_headers.py",
        "tests/store/test_body_fidelity.py",
        "tests/tools/test_hostile_cli.py",
        "tests/adapters/test_proxy_fuzz.py",
        "tests/tools/test_serve_uploads.py",
        *session.posargs,
        env={"REPLAY_STRESS": "1"},
    )


SDKS = [
    "mistralai",
    "together",
    "langchain-openai",
    "pydantic-ai-slim[openai]",
]
"""The SDKs of the matrix's routes that the test extra lacks (it has the fast subset's and more).

One environment holds them all: with litellm 1.83.0 (see pyproject.toml) nothing pins
huggingface-hub below 2, so the hub runs on httpx2 as its users get it. (litellm 1.109.1
would pin huggingface-hub<2, on httpx 0.28: then the hub needs an environment of its own.)
"""


@nox.session(python=PYTHON)
def sdks(session: nox.Session) -> None:
    """The SDK matrix in full, and the other SDK and adapter tests (tests/adapters/).

    Every route with its SDK installed (a missing one fails)."""
    session.install("-e", ".[test]", *SDKS)
    session.run(
        "pytest",
        *PYTEST_ARGS,
        "tests/adapters/",
        *session.posargs,
        env={"REPLAY_SDK_ROUTES": "all"},
    )


@nox.session(python=PYTHON)
def browser(session: nox.Session) -> None:
    """The report's browser tests, with Debian's Chromium installed first if missing.

    The install runs as root; REPLAY_SCREENSHOTS=docs/images refreshes the docs' screenshot."""
    if not shutil.which("chromium"):
        session.run("apt-get", "update", "-qq", external=True)
        session.run("apt-get", "install", "-y", "-qq", "chromium", external=True)
    session.install("-e", ".[test]")
    session.run("pytest", "-p", "no:cacheprovider", "tests/tools/test_report.py", "-k", "browser")
