"""The optional extras a command needs, checked before it does any work.

Each feature beyond recording and replaying httpx calls needs a library of an optional extra of
``replay-llm`` (``pip install 'replay-llm[all]'`` installs every one). A command needing one
asks :func:`missing` first, before it reads a cassette or sends a request, and stops with one
line naming what to install, rather than failing half-way with ``ModuleNotFoundError``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import click

NEEDED: dict[str, tuple[tuple[str, str], ...]] = {
    "report": (("pygal", "pygal"),),
    "serve": (("uvicorn", "uvicorn"), ("websockets", "websockets")),
    "s3": (("botocore", "boto3"),),
    "vcr": (("yaml", "PyYAML"),),
}
"""Each extra's modules a command imports, with the package that provides each."""


def missing(extra: str, feature: str) -> str | None:
    """What to install for ``feature`` when a module of ``extra`` cannot be imported; None when
    all can. The advice names this interpreter, so that it installs where replay runs, and,
    from a clone, the clone's own path too."""
    absent = [package for module, package in NEEDED[extra] if not _importable(module)]
    if not absent:
        return None
    pip = f"{sys.executable} -m pip install"
    advice = f"{feature} needs {' and '.join(absent)}: {pip} 'replay-llm[{extra}]'"
    clone = Path(__file__).resolve().parents[2]
    if (clone / "pyproject.toml").is_file() and (clone / ".git").exists():
        advice += f" (from this clone: {pip} -e '{clone}[{extra}]')"
    return advice


def require(extra: str, feature: str) -> None:
    """Stop the command, status 2, with the one line of :func:`missing`, if it says any."""
    advice = missing(extra, feature)
    if advice is not None:
        click.echo(f"replay: {advice}", err=True)
        raise click.exceptions.Exit(2)


def _importable(module: str) -> bool:
    """Found, not imported: botocore alone takes 0.4 s, which a replay-only run never pays."""
    return importlib.util.find_spec(module) is not None
