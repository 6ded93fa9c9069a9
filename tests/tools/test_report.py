"""``replay report``: the page shows what ``replay diff`` finds, self-contained and escaped;
and, at the end, the page in a real browser.

The recordings are the command-line tests' own: real SDKs against the fake LLM API at
model versions v1 and v2, where the prompts of ``CHANGES`` answer differently; and beside
them ``upgrade.json``, where what else an upgrade brings happens: an alias that resolves to
another model, a request that now fails, a prompt asked only before and one only after.
"""

from __future__ import annotations

import colorsys
import html
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import openai
import pytest
from click.testing import CliRunner
from recorded import API_KEY, CHANGES, UNCHANGED, git, openai_client, record_versions, user

import replay
from replay._core.answers import Answer, ToolCall, Usage
from replay._core.errors import ConfigError
from replay._core.key import KeyRules
from replay._core.model import Interaction, Request
from replay._store import cassette_file as store
from replay.tools import diff, report
from replay.tools.cli import main
from replay.tools.fakellm import FakeLLMServer

UPGRADE_CHANGES: dict[str, list[str]] = {
    "which model are you": ["model"],
    "a flaky question": ["status", "text", "finish_reason", "usage"],
}
"""upgrade.json's changed pairs: the alias asked for moved to another model; the request that
failed after the upgrade (a 500) changed status, and with it text, finish reason and usage."""
ONLY_OLD = "asked before the upgrade"
ONLY_NEW = "asked after the upgrade"
KNOWN: dict[str, list[str]] = {
    **{prompt: ["changed", *kinds] for prompt, kinds in {**CHANGES, **UPGRADE_CHANGES}.items()},
    **{prompt: ["unchanged"] for prompt in UNCHANGED},
    ONLY_OLD: ["only_old"],
    ONLY_NEW: ["only_new"],
}
"""Every pair's state and change kinds, by prompt: what the page must show."""


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("report")
    sides = record_versions(root, {"old": ("v1", "model-1"), "new": ("v2", "model-2")})
    with FakeLLMServer(api_key=API_KEY, aliases={"fake-latest": "fake-2024-01"}) as server:
        record_upgrade(server, sides["old"] / "upgrade.json", ONLY_OLD)
        server.aliases["fake-latest"] = "fake-2024-06"
        server.fail_next(status=500)
        record_upgrade(server, sides["new"] / "upgrade.json", ONLY_NEW)
    return sides


def record_upgrade(server: FakeLLMServer, path: Path, only_here: str) -> None:
    """upgrade.json: the flaky question first, so that a failure set up before answers it."""
    with replay.Cassette(path, mode="once") as cassette:
        client = openai_client(server.url, cassette)
        for prompt in ("a flaky question", "which model are you", only_here):
            try:
                client.chat.completions.create(model="fake-latest", messages=user(prompt))
            except openai.InternalServerError:
                assert prompt == "a flaky question"


def read_tree(root: Path) -> dict[str, list[Interaction]]:
    tree = {}
    for path in sorted(root.rglob("*.json")):
        loaded = store.load(path)
        tree[path.relative_to(root).as_posix()] = [
            store.decode(path, key, entry) for key, entry in loaded.interactions.items()
        ]
    return tree


@pytest.fixture(scope="module")
def pairs(suites: dict[str, Path]) -> list[diff.Pair]:
    return diff.pair_trees(
        read_tree(suites["old"]), read_tree(suites["new"]), KeyRules(ignore=("model",))
    )


Render = Callable[[Sequence[diff.Pair]], str]


@pytest.fixture(scope="module")
def render() -> Render:
    """The report of some pairs, as ``replay report`` renders them."""

    def rendered(pairs: Sequence[diff.Pair]) -> str:
        models = {side: diff.models(pairs, side) for side in ("old", "new")}
        return report.render(pairs, old="OLD/", new="NEW/", models=models)

    return rendered


def rows(page: str) -> dict[str, str]:
    """Each pair's ``<tbody>`` by its prompt."""
    found = {}
    for body in re.findall(r'<tbody class="pair".*?</tbody>', page, re.S):
        prompt = re.search(r"<div class='prompt'>(.*?)</div>", body, re.S)
        assert prompt is not None
        found[html.unescape(prompt.group(1))] = body
    return found


def test_the_summary_counts_are_the_diffs(pairs: list[diff.Pair], render: Render) -> None:
    page = render(pairs)
    expected = diff.summary(pairs)
    shown = dict(re.findall(r'data-summary="(\w+)">(\d+)<', page))
    assert int(shown["pairs"]) == expected["pairs"] == len(KNOWN)
    for state in ("changed", "unchanged", "only_old", "only_new"):
        assert int(shown[state]) == expected[state], state
    for kind, count in expected["changed_by_kind"].items():
        assert int(shown[kind]) == count, kind


def test_each_pair_carries_exactly_its_change_kinds(pairs: list[diff.Pair], render: Render) -> None:
    found = rows(render(pairs))
    assert set(found) == set(KNOWN)
    for prompt, kinds in KNOWN.items():
        listed = re.search(r'data-kinds="([^"]*)"', found[prompt])
        assert listed is not None
        assert listed.group(1).split() == kinds, prompt


def test_a_changed_text_is_diffed_word_by_word_side_by_side(
    pairs: list[diff.Pair], render: Render
) -> None:
    poem = rows(render(pairs))["write a poem about the sea"]
    # v1 answers "Answer to: ...", v2 "A poem about: ...": only the changed words are marked.
    assert "<del>Answer to</del>" in poem
    assert "<ins>A poem about</ins>" in poem
    assert poem.count("write a poem about the sea") >= 2  # both answers and the prompt


def test_tool_call_arguments_are_compared_field_by_field(
    pairs: list[diff.Pair], render: Render
) -> None:
    weather = rows(render(pairs))["weather in Paris"]
    changed = re.findall(r"<tr class='changed'><td>1</td><td><code>([^<]+)</code>", weather)
    assert changed == ["arguments.unit"]  # v2 adds "unit"; the query is unchanged
    assert "&quot;celsius&quot;" not in weather and "celsius" in weather


def test_latency_is_shown_for_streams_only(pairs: list[diff.Pair], render: Render) -> None:
    """A body that is not a stream is stored without its timing: its latency is unknown, not 0."""
    found = rows(render(pairs))
    assert "<td data-value='0'>&mdash; → &mdash;</td></tr>" in found["write a poem about the sea"]
    assert re.search(r"\d\.\d{3} → \d\.\d{3}</td></tr>", found["stream a poem please"])


def test_the_page_needs_nothing_from_the_network(pairs: list[diff.Pair], render: Render) -> None:
    page = render(pairs)
    assert not re.search(r"""<(script|img|link|iframe)\b[^>]*\b(src|href)=""", page)
    assert "@import" not in page and "url(" not in page
    # pygal's comments name its site, and SVG names its namespace; nothing is fetched.
    loaded = re.findall(r"""(?:src|href)\s*=\s*["']?(https?:)""", page)
    assert loaded == []


def test_old_and_new_are_marked_in_colours_colour_blind_readers_tell_apart(
    pairs: list[diff.Pair], render: Render
) -> None:
    """The word diff's marks are tints of the Okabe-Ito blue (OLD) and orange (NEW), not the
    red and green that the commonest colour blindness confuses."""
    page = render(pairs)

    def hue(color: str) -> float:
        red, green, blue = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
        return colorsys.rgb_to_hls(red, green, blue)[0] * 360

    for tag, side in (("del", report.OLD_COLOR), ("ins", report.NEW_COLOR)):
        marked = re.search(rf"{tag}\{{background:(#[0-9a-fA-F]{{6}})", page)
        assert marked is not None, tag
        assert abs(hue(marked.group(1)) - hue(side)) < 8, (tag, marked.group(1))


def test_chart_labels_are_whole(pairs: list[diff.Pair], render: Render) -> None:
    """pygal cuts labels longer than its guess of the room ("0.005" to "0...."); not here."""
    labels = re.findall(r"<text[^>]*>([^<]*)</text>", render(pairs))
    assert len(labels) > 50
    assert [label for label in labels if "…" in label or "..." in label] == []


def test_recorded_text_cannot_inject_markup() -> None:
    hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    request = Request("POST", "https://api.example/v1/chat", (), b'{"prompt": "%s"}' % b"x")
    old = diff.Side("a" * 64, Interaction("a" * 64, request), (Answer(200, text=hostile),))
    new = diff.Side("b" * 64, Interaction("b" * 64, request), (Answer(200, text="fine"),))
    page = report.render(
        [diff.Pair(hostile, "k", old, new, ("text",))],
        old=hostile,
        new="new",
        models={"old": [hostile], "new": []},
    )
    assert "<script>alert" not in page and "<img src=x" not in page
    assert page.count("<script>") == 1  # the page's own


def test_long_answers_are_cut_and_say_so() -> None:
    request = Request("POST", "https://api.example/v1/chat", (), b"{}")
    long = "word " * 10_000
    sides = [
        diff.Side(key, Interaction(key, request), (Answer(200, text=text),))
        for key, text in (("a" * 64, long), ("b" * 64, long + "more"))
    ]
    page = report.render(
        [diff.Pair("", "k", sides[0], sides[1], ("text",))], old="o", new="n", models={}
    )
    assert "more characters not shown" in page
    assert len(page) < 100_000


def test_a_thousand_pairs_make_a_page_under_five_megabytes(
    pairs: list[diff.Pair], render: Render
) -> None:
    many = [pair for _ in range(1000 // len(pairs) + 1) for pair in pairs][:1000]
    page = render(many)
    assert page.count('<tbody class="pair"') == 1000
    assert len(page.encode()) < 5_000_000


def test_a_page_of_few_pairs_shows_the_changed_ones_first_and_folds_its_charts(
    pairs: list[diff.Pair], render: Render
) -> None:
    """On a few pairs the summary and five charts filled the first 2,000 px, and the changed
    answers started below them."""
    assert len(pairs) <= report.FEW_PAIRS
    page = render(pairs)
    assert page.index('<section id="pairs"') < page.index('<section id="charts"')
    assert "<details class='charts-folded'><summary><h2 id=\"charts-title\">" in page
    states = re.findall(r'<tbody class="pair" data-kinds="(\w+)', page)  # its state first
    unchanged = [state == "unchanged" for state in states]
    assert unchanged == sorted(unchanged) and not unchanged[0] and unchanged[-1]
    many = [pair for _ in range(report.FEW_PAIRS // len(pairs) + 1) for pair in pairs]
    long_page = render(many[: report.FEW_PAIRS + 1])
    assert long_page.index('<section id="charts"') < long_page.index('<section id="pairs"')
    assert "<details class='charts-folded'>" not in long_page


def test_cost_comes_from_the_provider_or_from_prices_given() -> None:
    prices = report.Prices.parse(["model-2=2.5:10"])
    reported = Answer(200, usage=Usage(10, 20, cost_usd=0.5), model="model-2")
    priced = Answer(200, usage=Usage(1_000_000, 100_000), model="model-2")
    unknown = Answer(200, usage=Usage(1_000_000, 100_000), model="model-3")
    assert prices.cost(reported) == 0.5
    assert prices.cost(priced) == pytest.approx(2.5 + 1.0)
    assert prices.cost(unknown) is None


@pytest.mark.parametrize("spec", ["model-2", "model-2=2.5", "=1:2", "m=a:b"])
def test_a_bad_price_names_what_it_expects(spec: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(spec)):
        report.Prices.parse([spec])


def test_tool_calls_that_are_not_json_objects_compare_whole() -> None:
    before = Answer(200, tool_calls=(ToolCall("f", '"a"'),))
    after = Answer(200, tool_calls=(ToolCall("g", "[1]"),))
    request = Request("POST", "https://api.example/v1/chat", (), b"{}")
    sides = [
        diff.Side(key, Interaction(key, request), (answer,))
        for key, answer in (("a" * 64, before), ("b" * 64, after))
    ]
    page = report.render(
        [diff.Pair("", "k", sides[0], sides[1], ("tool_calls",))], old="o", new="n", models={}
    )
    assert page.count("<tr class='changed'>") == 2  # the name and the arguments, whole


# The command line.


def test_report_writes_the_page_and_says_what_it_compared(
    suites: dict[str, Path], tmp_path: Path
) -> None:
    target = tmp_path / "report.html"
    args = ["report", str(suites["old"]), str(suites["new"]), "-i", "model", "-o", str(target)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output  # written, whatever changed
    assert result.output == f"wrote {target}: 17 pairs, 8 changed, 1 only in OLD, 1 only in NEW\n"
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'data-summary="changed">8<' in page
    assert list(tmp_path.iterdir()) == [target]  # no temporary file left beside it


def test_diff_format_html_is_the_same_page_on_standard_output(
    suites: dict[str, Path], tmp_path: Path
) -> None:
    target = tmp_path / "report.html"
    sides = [str(suites["old"]), str(suites["new"]), "-i", "model"]
    CliRunner().invoke(main, ["report", *sides, "-o", str(target)])
    shown = CliRunner().invoke(main, ["diff", *sides, "--format", "html"])
    assert shown.exit_code == 1  # diff's status: something changed
    assert shown.output == target.read_text(encoding="utf-8")  # the same file, byte for byte


def kinds_shown(page: str) -> dict[str, list[str]]:
    """Each pair's state and change kinds as the page lists them, by prompt."""
    found = {}
    for prompt, body in rows(page).items():
        listed = re.search(r'data-kinds="([^"]*)"', body)
        assert listed is not None
        found[prompt] = listed.group(1).split()
    return found


def test_report_of_a_path_against_a_git_revision(suites: dict[str, Path], tmp_path: Path) -> None:
    repository = tmp_path / "repository"
    shutil.copytree(suites["old"], repository / "cassettes")
    git(repository, "init", "-q")
    git(repository, "add", ".")
    git(repository, "commit", "-q", "-m", "recorded with model-1")
    shutil.rmtree(repository / "cassettes")
    shutil.copytree(suites["new"], repository / "cassettes")
    target = tmp_path / "report.html"
    args = ["report", "--git-rev", "HEAD", "-i", "model", str(repository / "cassettes")]
    result = CliRunner().invoke(main, [*args, "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {target}: 17 pairs, 8 changed, 1 only in OLD, 1 only in NEW\n"
    page = target.read_text(encoding="utf-8")
    assert kinds_shown(page) == KNOWN
    assert "cassettes@HEAD</code>" in page  # the OLD side named by its revision


def test_rerun_writes_the_report_of_its_pairs(suites: dict[str, Path], tmp_path: Path) -> None:
    """``rerun --report`` pairs as the rerun does, request by request: the host (--upstream)
    and a model in the URL path (AI21 J2's) differ, and every pair still pairs."""
    target = tmp_path / "rerun.html"
    with FakeLLMServer(api_key=API_KEY, model_versions={"model-2": "v2"}) as fake:
        args = [str(suites["old"]), "--out", str(tmp_path / "new"), "--upstream", fake.url]
        args += ["--model", "model-2", "--key-env", "FAKE_LLM_KEY", "--yes", "--json"]
        result = CliRunner().invoke(
            main, ["rerun", *args, "--report", str(target)], env={"FAKE_LLM_KEY": API_KEY}
        )
    assert result.exit_code == 1, result.output  # something changed
    assert result.stderr.endswith(f"replay: wrote {target}\n")
    page = target.read_text(encoding="utf-8")
    expected = {
        pair["prompt"]: [pair["state"], *pair["changes"]]
        for pair in json.loads(result.stdout)["pairs"]
    }
    assert kinds_shown(page) == expected
    # model-2 is v2: the chat prompts change as recorded at v2; upgrade.json's, recorded with
    # a failure and an alias, now answer as v2 does.
    for prompt, kinds in CHANGES.items():
        assert expected[prompt] == ["changed", *kinds], prompt
    assert 'data-summary="only_old">0<' in page and 'data-summary="only_new">0<' in page


def test_rerun_refuses_a_report_in_a_missing_folder_before_sending(
    suites: dict[str, Path], tmp_path: Path
) -> None:
    target = tmp_path / "missing" / "rerun.html"
    args = [str(suites["old"]), "--out", str(tmp_path / "new"), "--upstream", "http://127.0.0.1:9"]
    result = CliRunner().invoke(main, ["rerun", *args, "--yes", "--report", str(target)])
    assert result.exit_code == 2
    assert f"{target}: the folder {target.parent} does not exist" in result.stderr
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--price", "model-2"], "MODEL=IN:OUT"),
        (
            ["-o", "/nonexistent/folder/report.html"],
            "the folder /nonexistent/folder does not exist",
        ),
    ],
)
def test_report_refuses_bad_arguments_before_writing_anything(
    suites: dict[str, Path], tmp_path: Path, extra: list[str], message: str
) -> None:
    args = ["report", str(suites["old"]), str(suites["new"]), "-o", str(tmp_path / "r.html")]
    result = CliRunner().invoke(main, [*args, *extra])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert list(tmp_path.iterdir()) == []


# In a real browser: Debian's Chromium, driven by Playwright, on the page `replay report`
# wrote, against the document `replay diff --format json` printed for the same recordings.
# Set REPLAY_SCREENSHOTS=DIR to keep the screenshot (docs/images/report.png is one).

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Chromium's own background traffic is refused on a machine without a network; these flags
# keep it from trying. /dev/shm is small in containers: Chromium then crashes mid-test.
ARGUMENTS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright; the browser tests skip, saying why, without it."""
    if CHROMIUM is None:
        pytest.skip("no Chromium installed (apt-get install chromium, or nox -s browser)")
    playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=ARGUMENTS, timeout=60_000)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def page_file(suites: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("page") / "report.html"
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(suites["old"].parent)  # the sides named as a user names them: old/, new/
        args = ["old/", "new/", "-i", "model", "-o", str(path)]
        written = CliRunner().invoke(main, ["report", *args])
    assert written.exit_code == 0, written.output
    return path


@pytest.fixture(scope="module")
def diff_document(suites: dict[str, Path]) -> dict[str, Any]:
    args = [str(suites["old"]), str(suites["new"]), "-i", "model", "--format", "json"]
    shown = CliRunner().invoke(main, ["diff", *args])
    assert shown.exit_code == 1, shown.output
    document: dict[str, Any] = json.loads(shown.stdout)
    return document


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


def visible_prompts(page: Any) -> list[str]:
    texts: list[str] = page.locator("tbody.pair:visible .prompt").all_inner_texts()
    return texts


def test_browser_no_console_error_and_no_request_but_the_file(
    browser: Any, page_file: Path
) -> None:
    page, problems = open_page(browser, page_file)
    page.locator("button[data-sort=tokens]").click()
    for kind in page.locator("#filter option").evaluate_all("options => options.map(o => o.value)"):
        page.select_option("#filter", kind)
    page.select_option("#filter", "")
    page.locator("tbody.pair summary").first.click()
    page.emulate_media(media="print")
    assert problems == []


def test_browser_the_summary_shown_is_the_diffs(
    browser: Any, page_file: Path, diff_document: dict[str, Any]
) -> None:
    page, _ = open_page(browser, page_file)
    expected = diff_document["summary"]

    def shown(selector: str) -> int:
        return int(page.locator(selector).inner_text().replace(",", ""))

    assert shown("[data-summary=pairs]") == expected["pairs"] == len(KNOWN)
    for state in ("changed", "unchanged", "only_old", "only_new"):
        assert shown(f"[data-summary={state}]") == expected[state], state
    assert set(expected["changed_by_kind"]) == set(report.KINDS)
    for kind, count in expected["changed_by_kind"].items():
        assert shown(f"[data-summary={kind}]") == count, kind
    for side in ("old", "new"):
        assert shown(f"[data-total={side}-tokens_in]") == expected["tokens"][side]["prompt"]
        assert shown(f"[data-total={side}-tokens_out]") == expected["tokens"][side]["completion"]


def test_browser_filtering_by_a_kind_shows_exactly_its_pairs(
    browser: Any, page_file: Path, diff_document: dict[str, Any]
) -> None:
    page, _ = open_page(browser, page_file)
    pairs = diff_document["pairs"]
    # The recordings hold every kind but a change in the number of responses, which the fake
    # cannot be made to give: each filter shows the pairs the recordings were made for.
    for kind in [*report.STATES, *report.KINDS]:
        page.select_option("#filter", kind)
        expected = [p["prompt"] for p in pairs if kind in p["changes"] or p["state"] == kind]
        known = [prompt for prompt, kinds in KNOWN.items() if kind in kinds]
        assert sorted(expected) == sorted(known), kind
        assert visible_prompts(page) == expected, kind
        assert page.locator("#shown").inner_text() == f"{len(expected)} of {len(pairs)} pairs shown"
    page.select_option("#filter", "")
    assert page.locator("tbody.pair:visible").count() == len(pairs)


def test_browser_a_summary_link_filters_the_table(browser: Any, page_file: Path) -> None:
    page, _ = open_page(browser, page_file)
    page.locator("a[data-filter=finish_reason]").click()
    assert visible_prompts(page) == ["a long essay on rivers", "a flaky question"]
    page.locator("a[data-filter=model]").click()
    assert visible_prompts(page) == ["which model are you"]


def test_browser_sorting_by_tokens_orders_by_the_change(browser: Any, page_file: Path) -> None:
    page, _ = open_page(browser, page_file)
    page.locator("button[data-sort=tokens]").click()
    values = [
        float(value)
        for value in page.locator("tbody.pair tr.summary-row td:nth-child(5)").evaluate_all(
            "cells => cells.map(c => c.dataset.value)"
        )
    ]
    assert values == sorted(values) and values[0] != values[-1]


def test_browser_without_javascript_the_summary_and_every_pair_read(
    browser: Any, page_file: Path, diff_document: dict[str, Any]
) -> None:
    page, problems = open_page(browser, page_file, javascript=False)
    changed = diff_document["summary"]["changed"]
    assert page.locator("[data-summary=changed]").inner_text() == str(changed)
    assert page.locator("tbody.pair:visible").count() == len(KNOWN)
    assert not page.locator(".controls").is_visible()  # filtering needs the script: not offered
    assert page.locator("button[data-sort]:enabled").count() == 0  # nor is sorting
    first = page.locator("tbody.pair").first
    assert not first.locator(".answer").first.is_visible()
    first.locator("summary").first.click()  # <details> opens without a script
    assert first.locator(".answer").first.is_visible()
    assert problems == []


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
def test_browser_printed_every_pair_is_open_and_the_controls_left_out(
    browser: Any, page_file: Path, javascript: bool
) -> None:
    page, problems = open_page(browser, page_file, javascript=javascript)
    answers = page.locator("tbody.pair .answer")
    assert answers.count() > len(KNOWN) and not answers.first.is_visible()
    page.emulate_media(media="print")
    assert all(answers.nth(i).is_visible() for i in range(answers.count()))
    assert page.locator("tbody.pair .request pre").first.is_visible()
    assert not page.locator(".controls").is_visible()
    assert problems == []


def test_browser_a_screenshot_for_the_docs(browser: Any, page_file: Path, tmp_path: Path) -> None:
    """The changed pairs, two opened: a poem (a word diff), the weather (a tool call's diff)."""
    page, _ = open_page(browser, page_file)
    page.locator("a[data-filter=changed]").first.click()
    poem, weather = (
        page.locator("tbody.pair", has_text=prompt)
        for prompt in ("write a poem about the sea", "weather in Paris")
    )
    for pair in (poem, weather):
        pair.locator("summary").first.click()
    assert poem.locator("del").is_visible() and poem.locator("ins").is_visible()
    assert weather.locator(".tool-calls tr.changed").is_visible()
    target = Path(os.environ.get("REPLAY_SCREENSHOTS", tmp_path)) / "report.png"
    page.screenshot(path=str(target), full_page=True)
    assert target.stat().st_size > 10_000
