"""A command that needs an optional extra says which, first: one line, status 2, nothing done.

Each command runs in a process of its own in which the extra's module cannot be imported
(``sys.modules[name] = None``, as Python has it for a module that is not there), the rest of
replay as installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from recorded import API_KEY, record_versions

from replay.tools.fakellm import FakeLLMServer

WITHOUT = """
import sys

for name in sys.argv[1].split(","):
    sys.modules[name] = None  # as if it were not installed
from replay.tools.cli import main

main(sys.argv[2:], prog_name="replay")
"""


def replay_without(
    modules: str, *arguments: str | Path, cwd: Path
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT, modules, *map(str, arguments)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"FAKE_LLM_KEY": API_KEY, "PATH": "/usr/bin:/bin", "HOME": str(cwd)},
        timeout=120,
    )


def assert_one_line_naming(result: subprocess.CompletedProcess[str], extra: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("replay: ")
    assert f"-m pip install 'replay-llm[{extra}]'" in lines[0]
    assert "Traceback" not in result.stderr


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return record_versions(tmp_path_factory.mktemp("extras"), {"v1": ("v1", "model-1")})["v1"]


def test_rerun_report_without_pygal_stops_before_sending_anything(
    recorded: Path, tmp_path: Path
) -> None:
    with FakeLLMServer(api_key=API_KEY) as server:
        rerun = ["rerun", recorded, "--upstream", server.url, "--key-env", "FAKE_LLM_KEY", "--yes"]
        stopped = replay_without(
            "pygal",
            *rerun,
            "--out",
            tmp_path / "new",
            "--report",
            tmp_path / "page.html",
            cwd=tmp_path,
        )
        assert_one_line_naming(stopped, "report")
        assert "rerun --report needs pygal" in stopped.stderr
        assert server.requests == []
        assert not (tmp_path / "new").exists() and not (tmp_path / "page.html").exists()
        # The same command with pygal there sends every request: the check is what stopped it.
        sent = replay_without(
            "",
            *rerun,
            "--out",
            tmp_path / "sent",
            "--report",
            tmp_path / "page.html",
            cwd=tmp_path,
        )
        assert sent.returncode == 0, sent.stdout + sent.stderr
        assert server.requests
    assert (tmp_path / "page.html").exists()


def test_report_without_pygal(recorded: Path, tmp_path: Path) -> None:
    result = replay_without(
        "pygal", "report", recorded, recorded, "-o", tmp_path / "page.html", cwd=tmp_path
    )
    assert_one_line_naming(result, "report")
    assert not (tmp_path / "page.html").exists()


def test_diff_as_html_without_pygal(recorded: Path, tmp_path: Path) -> None:
    result = replay_without("pygal", "diff", recorded, recorded, "--format", "html", cwd=tmp_path)
    assert_one_line_naming(result, "report")
    assert "diff --format html needs pygal" in result.stderr


def test_serve_without_uvicorn_or_websockets(tmp_path: Path) -> None:
    for missing in ("uvicorn", "websockets"):
        result = replay_without(missing, "serve", "--port", "0", cwd=tmp_path)
        assert_one_line_naming(result, "serve")
        assert f"serve needs {missing}" in result.stderr


def test_an_s3_location_without_boto3(tmp_path: Path) -> None:
    for arguments in (("list", "s3://bucket/cassettes"), ("sync", tmp_path, "s3://bucket/x")):
        result = replay_without("botocore", *arguments, cwd=tmp_path)
        assert_one_line_naming(result, "s3")
        assert "s3://bucket/" in result.stderr and "needs boto3" in result.stderr


def test_import_vcr_without_pyyaml(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text("interactions: []\n")
    result = replay_without("yaml", "import-vcr", tmp_path / "old.yaml", cwd=tmp_path)
    assert_one_line_naming(result, "vcr")
    assert sorted(tmp_path.iterdir()) == [tmp_path / "old.yaml"]
