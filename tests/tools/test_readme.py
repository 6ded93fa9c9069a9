"""Every example of the README and the documentation runs as copied, and shows its output.

The fenced blocks of the README, then of the documentation pages in the order of their
navigation (mkdocs.yml), are taken in order and run in one working directory,
as a reader following it would, with the fake LLM API of the quick start running
and the variables it prints exported:

- ``python`` blocks run as the scripts the README names (``chat.py``; ``test_chat.py`` is
  run by pytest in the console block after it), the others as scripts of their own;
- ``sh`` blocks run through bash, but for ``pip install`` (this environment has the
  extras; each install is checked to be quiet and to name extras that exist) and
  ``python3 -m nox``, which is this very run (checked to be what CI runs);
- ``console`` blocks run their ``$`` commands, in 80 columns, and their output must be
  the README's, keys, ports, dates, sizes and timings aside (in any order of lines);
  ``replay fake-server`` runs on a free port and stops once its banner is compared;
- ``toml`` becomes the directory's ``pyproject.toml``, and the pytest example passes under it;
- ``json``, ``text`` and unlabelled blocks are formats and illustrations, not run.

Two console blocks show commands on input the README does not make: the test makes it
first (recordings against two model versions for ``diff``, a vcrpy cassette for ``import-vcr``).
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import vcr
from recorded import API_KEY, record_chat

from replay.tools.fakellm import FakeLLMServer

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def documents() -> list[Path]:
    """The README, then the documentation pages in the order mkdocs.yml's nav lists them."""
    pages = re.findall(r"^\s+- .*?:\s*(\S+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M)
    return [README, *(ROOT / "docs" / page for page in pages)]


BIN = Path(sys.executable).parent
NOT_RUN = {"json", "text", ""}
RUN_ELSEWHERE = {
    "## Any language: replay serve": "tests/adapters/test_proxy_clients.py and "
    "tests/tools/test_serve.py run these through a live proxy (replay serve does not end)",
    "## MCP servers over Streamable HTTP": "tests/adapters/test_mcp_http.py records and replays "
    "this session with the mcp SDK against a real MCPServer it starts on 127.0.0.1",
    "## Sharing cassettes: `s3://BUCKET/KEY`": "tests/store/test_s3.py does each of these "
    "(pytest with the setting and the option, replay list, use_cassette's Cassette) against "
    "moto's S3 server on 127.0.0.1: there is no MinIO here",
}
"""Sections whose examples other tests run, with what stands in for this one."""
_SECTION = re.compile(r"^## .*$", re.MULTILINE)
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
_VOLATILE = [
    (re.compile(r"\b[0-9a-f]{32}\b|\b[0-9a-f]{12}\b"), "KEY"),
    (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:PORT"),
    (re.compile(r"\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\dZ)?"), "DATE"),
    (re.compile(r"\d+(\.\d+)? (B|KB|MB)\b"), "SIZE"),
    (re.compile(r"in \d+\.\d+s"), "in TIME"),
]


@dataclass(frozen=True)
class Block:
    language: str
    text: str
    line: str
    """Where it is: ``README.md:41``, ``docs/cli.md:12``."""
    before: str
    """The document's text between the previous block and this one."""


def blocks() -> list[Block]:
    found, texts = [], []
    for document in documents():
        text = document.read_text()
        texts.append(text)
        end = 0
        for match in _BLOCK.finditer(text):
            where = f"{document.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}"
            sections = _SECTION.findall(text, 0, match.start())
            if not (sections and sections[-1] in RUN_ELSEWHERE):
                before = text[end : match.start()]
                found.append(Block(match.group(1), match.group(2), where, before))
            end = match.end()
    every = "".join(texts)
    assert all(section in every for section in RUN_ELSEWHERE), "a section was renamed"
    return found


def masked(text: str) -> list[str]:
    for pattern, replacement in _VOLATILE:
        text = pattern.sub(replacement, text)
    return [" ".join(line.split()) for line in text.strip().splitlines()]


class Reader:
    """A reader working through the README in ``directory``, in a shell of its own."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("REPLAY_", "PYTEST_", "OPENAI_", "ANTHROPIC_", "GROQ_"))
            and name not in ("CI", "COLUMNS")
        }
        self.env["PATH"] = f"{BIN}{os.pathsep}{self.env.get('PATH', '')}"
        self.env["COLUMNS"] = "80"
        self.servers: list[subprocess.Popen[str]] = []

    def run(self, command: str, *, check: bool = True) -> subprocess.CompletedProcess[str]:
        finished = subprocess.run(
            ["bash", "-c", command],
            cwd=self.directory,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert "Traceback" not in finished.stderr, (command, finished.stderr)
        if check:
            assert finished.returncode == 0, (command, finished.stdout, finished.stderr)
        return finished

    def sh(self, block: Block) -> None:
        script = []
        for line in block.text.splitlines():
            parts = [part.strip() for part in line.split("#")[0].split("&&")]
            kept = [part for part in parts if part and not self.checked_instead(part)]
            script.append(" && ".join(kept) if kept else ":")
        self.run("\n".join(script))

    def checked_instead(self, command: str) -> bool:
        """Installs and the test suite itself are checked, not run."""
        if command == "python3 -m nox":
            assert command in (ROOT / ".ci" / "run").read_text()
            return True
        words = shlex.split(command)
        if words[:3] != ["python3", "-m", "pip"] and words[:1] != ["pip"]:
            return False
        assert "-q" in words or "--quiet" in words, f"not quiet: {command}"
        extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
        for word in words:
            if word.startswith(".["):
                assert set(word[2:-1].split(",")) <= set(extras["optional-dependencies"])
        return True

    def console(self, block: Block) -> None:
        commands = re.split(r"^\$ ", block.text, flags=re.MULTILINE)[1:]
        for shown in commands:
            command, _, output = shown.partition("\n")
            command, _, comment = command.partition("  #")
            command = command.strip()
            exits = re.search(r"exits (\d+)", comment)
            if self.checked_instead(command):
                continue
            if command.startswith("replay fake-server"):
                got = self.start_server(command, len(output.strip().splitlines()))
            else:
                finished = self.run(command, check=False)
                got = finished.stdout
                # A command shown without output must end as its comment says (0 if it says
                # nothing): its silence is no proof that it ran.
                if not output.strip():
                    expected = int(exits.group(1)) if exits else 0
                    assert finished.returncode == expected, (command, finished.stderr)
            # In any order: diff orders pairs by request key, and keys hold the server's port.
            assert sorted(masked(got)) == sorted(masked(output)), (
                f"{block.line}: $ {command}\n{got}"
            )

    def start_server(self, command: str, lines: int) -> str:
        """Start the README's server on a free port, export what it prints; its banner."""
        server = subprocess.Popen(
            [*shlex.split(command), "--port", "0"],
            cwd=self.directory,
            env=self.env,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.servers.append(server)
        assert server.stdout is not None
        banner = "".join(server.stdout.readline() for _ in range(lines))
        for name, value in re.findall(r"export (\w+)=(\S+)", banner):
            self.env[name] = value
        return banner

    def stop_servers(self) -> None:
        for server in self.servers:
            server.send_signal(signal.SIGINT)
            server.communicate(timeout=30)

    def python(self, block: Block, index: int) -> None:
        named = re.findall(r"save (?:this )?as `([\w.]+\.py)`", block.before, re.IGNORECASE)
        name = named[-1] if named else f"example_{index}.py"
        (self.directory / name).write_text(block.text)
        if not name.startswith("test_"):  # a test file is run by the console block after it
            self.run(f"python3 {name}")

    def toml(self, block: Block) -> None:
        (self.directory / "pyproject.toml").write_text(block.text)
        self.run("python3 -m pytest -q -p no:cacheprovider test_chat.py")


def prepare(block: Block, reader: Reader) -> None:
    """Make the input that a console block's command shows output for."""
    if "$ replay diff v1/ v2/" in block.text and not (reader.directory / "v1").exists():
        prompts = ["Say hello", "write a poem about the sea", "a long essay on rivers"]
        with FakeLLMServer(api_key=API_KEY) as server:
            for version, model in (("v1", "gpt-4o-mini"), ("v2", "gpt-4.1-mini")):
                server.model_version = version
                record_chat(server.url, reader.directory / version / "chat.json", model, prompts)
    if "--git-rev main" in block.text:  # the reader's cassettes, committed on main
        for command in ("init -q -b main", "add cassettes", "commit -q -m cassettes"):
            reader.run(f"git -c user.name=r -c user.email=r@example.invalid {command}")
    if "$ replay import-vcr tests/cassettes" in block.text:
        source = reader.directory / "tests" / "cassettes" / "test_chat" / "test_hello.yaml"
        with FakeLLMServer(api_key="sk-readme-vcr-0123456789") as s, vcr.use_cassette(str(source)):
            for prompt in ("hello", "hello again"):
                httpx.post(
                    s.url + "/v1/chat/completions",
                    json={"model": "m", "messages": [{"role": "user", "content": prompt}]},
                    headers={"authorization": "Bearer sk-readme-vcr-0123456789"},
                )


@pytest.fixture
def reader(tmp_path: Path) -> Iterator[Reader]:
    following = Reader(tmp_path)
    yield following
    following.stop_servers()


def test_every_readme_example_runs_as_copied(reader: Reader) -> None:
    ran = []
    for index, block in enumerate(blocks()):
        if block.language in NOT_RUN:
            continue
        prepare(block, reader)
        if block.language == "python":
            reader.python(block, index)
        elif block.language == "sh":
            reader.sh(block)
        elif block.language == "console":
            reader.console(block)
        elif block.language == "toml":
            reader.toml(block)
        else:
            pytest.fail(f"{block.line}: a {block.language!r} block, run how?")
        ran.append(block.language)
    assert ran.count("python") == 9 and ran.count("console") >= 5, ran
    assert (reader.directory / "cassettes" / "test_chat" / "test_chat.json").exists()
    assert "2 passed" in reader.run("python3 -m pytest -q -p no:cacheprovider test_chat.py").stdout


def test_the_whole_suites_time_quotes_no_count_of_tests() -> None:
    """It said "1,058 tests" and "4 minutes" long after both had changed: a count goes stale
    with every test added, and nox prints each session's time to whoever runs it."""
    text = README.read_text()
    start = text.index("The second command takes")
    paragraph = text[start : text.index("\n\n", start)]
    assert "nox` prints" in paragraph
    assert not re.search(r"\d[\d,]* tests|\d+ minutes", paragraph), paragraph
