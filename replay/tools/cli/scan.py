"""``replay scan``: secrets that escaped redaction."""

from __future__ import annotations

import click

from replay._core.location import Location
from replay._core.redact import Redactor
from replay.tools import scan
from replay.tools.cli.output import _CASSETTES, _JSON, _output, _read
from replay.tools.wording import counted

# replay scan (the search is in replay.tools.scan)


@click.command("scan")
@_CASSETTES
@_JSON
def scan_command(paths: tuple[Location, ...], as_json: bool) -> None:
    """Search cassettes for secrets that escaped redaction; exit status 1 if any is found.

    Applies redaction's rule: the key shapes of the major providers, bearer tokens,
    account ids, the values of this environment's variables named like secrets, and
    any header, body field, name=value pair or XML element named like a secret whose
    value is not REDACTED. A stored body that cannot be decoded for the search is a
    problem too. Runs as a pre-commit hook or a CI step (see docs/safety.md).
    """
    output = _output(as_json)
    known = Redactor().known
    cassettes = _read(paths, "Scanning", required=True)
    findings: list[scan.Finding] = []
    problems: list[scan.Problem] = []
    for cassette in cassettes:
        found, unreadable = scan.scan_cassette(cassette, known)
        findings.extend(found)
        problems.extend(unreadable)
    if as_json:
        output.document(
            {
                "files_scanned": len(cassettes),
                "findings": [finding.to_json() for finding in findings],
                "problems": [problem.to_json() for problem in problems],
                "unreadable": output.unreadable,
            }
        )
    else:
        for finding in findings:
            output.line(
                output.style(f"{finding.path}", fg="red")
                + f": interaction {finding.key}, {finding.field}"
            )
            output.line(f"  {finding.masked}: {finding.rule}")
        for problem in problems:
            where = f"interaction {problem.key}, {problem.field}: " if problem.field else ""
            output.line(output.style(f"{problem.path}", fg="yellow") + f": {where}{problem.reason}")
        undecoded = f", {counted(len(problems), 'problem')}" if problems else ""
        output.line(
            f"{counted(len(findings), 'secret')} found in "
            f"{counted(len(cassettes), 'cassette')}{undecoded}"
        )
    if findings or problems:
        raise click.exceptions.Exit(1)
