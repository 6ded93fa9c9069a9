"""``replay report`` in a real browser: Debian's Chromium, driven by Playwright.

Skipped, saying why, only where no Chromium is installed (``nox -s browser`` installs it).
Set ``REPLAY_SCREENSHOTS=DIR`` to keep the screenshot (docs/images/report.png is one).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from replay._core.answers import prompt_of
from replay.tools import diff

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium installed (apt-get install chromium, or nox -s browser)"
)
# Chromium's own background traffic is refused on a machine without a network; these flags
# keep it from trying.
ARGUMENTS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=ARGUMENTS)
        yield launched
        launched.close()


def open_page(browser: Any, path: Path, javascript: bool = True) -> tuple[Any, list[str]]:
    context = browser.new_context(
        java_script_enabled=javascript, viewport={"width": 1280, "height": 900}
    )
    page = context.new_page()
    problems: list[str] = []
    page.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "request",
        lambda request: None if request.url.startswith("file:") else problems.append(request.url),
    )
    page.goto(path.as_uri())
    return page, problems


def test_no_console_error_and_no_request_but_the_file(browser: Any, page_file: Path) -> None:
    page, problems = open_page(browser, page_file)
    page.locator("button[data-sort=tokens]").click()
    page.select_option("#filter", "text")
    assert problems == []


def test_the_summary_shown_is_the_diffs(
    browser: Any, page_file: Path, pairs: list[diff.Pair]
) -> None:
    page, _ = open_page(browser, page_file)
    expected = diff.summary(pairs)

    def shown(name: str) -> int:
        return int(page.locator(f"[data-summary={name}]").inner_text())

    assert shown("pairs") == expected["pairs"]
    for state in ("changed", "unchanged", "only_old", "only_new"):
        assert shown(state) == expected[state]
    for kind, count in expected["changed_by_kind"].items():
        assert shown(kind) == count


def test_filtering_by_a_kind_shows_exactly_its_pairs(
    browser: Any,
    page_file: Path,
    pairs: list[diff.Pair],
) -> None:
    page, _ = open_page(browser, page_file)
    for kind in ("text", "tool_calls", "finish_reason", "usage", "unchanged"):
        page.select_option("#filter", kind)
        visible = page.locator("tbody.pair:visible .prompt").all_inner_texts()
        expected = [
            prompt_of(pair.either.interaction.request)
            for pair in pairs
            if kind in pair.changes or pair.state == kind
        ]
        assert visible == expected, kind
        assert page.locator("#shown").inner_text() == f"{len(expected)} of {len(pairs)} pairs shown"
    page.select_option("#filter", "")
    assert page.locator("tbody.pair:visible").count() == len(pairs)


def test_a_summary_link_filters_the_table(browser: Any, page_file: Path) -> None:
    page, _ = open_page(browser, page_file)
    page.locator("a[data-filter=finish_reason]").click()
    assert page.locator("tbody.pair:visible .prompt").all_inner_texts() == [
        "a long essay on rivers"
    ]


def test_sorting_by_tokens_orders_by_the_change(browser: Any, page_file: Path) -> None:
    page, _ = open_page(browser, page_file)
    page.locator("button[data-sort=tokens]").click()
    values = [
        float(value)
        for value in page.locator("tbody.pair tr.summary-row td:nth-child(5)").evaluate_all(
            "cells => cells.map(c => c.dataset.value)"
        )
    ]
    assert values == sorted(values) and values[0] != values[-1]


def test_without_javascript_the_summary_and_every_pair_read(
    browser: Any,
    page_file: Path,
    pairs: list[diff.Pair],
) -> None:
    page, problems = open_page(browser, page_file, javascript=False)
    assert page.locator("[data-summary=changed]").inner_text() == str(
        diff.summary(pairs)["changed"]
    )
    assert page.locator("tbody.pair:visible").count() == len(pairs)
    assert not page.locator(".controls").is_visible()  # filtering needs the script: not offered
    first = page.locator("tbody.pair").first
    assert not first.locator(".answer").first.is_visible()
    first.locator("summary").first.click()  # <details> opens without a script
    assert first.locator(".answer").first.is_visible()
    assert problems == []


def test_a_screenshot_for_the_docs(browser: Any, page_file: Path, tmp_path: Path) -> None:
    page, _ = open_page(browser, page_file)
    page.locator("a[data-filter=changed]").first.click()
    page.locator("tbody.pair:visible summary").first.click()
    target = Path(os.environ.get("REPLAY_SCREENSHOTS", tmp_path)) / "report.png"
    page.screenshot(path=str(target), full_page=True)
    assert target.stat().st_size > 10_000
