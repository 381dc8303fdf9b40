"""The workbench page in real headless Chromium (Debian's ``chromium``, driven by Playwright).

The app runs under uvicorn in a thread on a free loopback port. Skipped, with the reason, when
``/usr/bin/chromium`` or the ``playwright`` package is missing (CI installs both: ``.ci/browser-setup.sh``).
Screenshots go to ``/tmp/sudokit_web_*.png``.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from sudokit.formats import parse_grid
from sudokit.grid import Candidates, is_solution
from variant_corpus import BY_NAME

CHROMIUM = os.environ.get("SUDOKIT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
#: each call's time limit on the test server (s): ample for a busy machine; only a runaway search reaches it
LIMIT = 120
#: how long the page may take for anything (ms): past the server's own limit, so a slow answer is not a failure
WAIT_MS = 150_000

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server_url():
    import uvicorn

    from sudokit.web import create_app

    port = free_port()
    app = create_app(workers=1, timeout=LIMIT, generate_timeout=LIMIT, allowed_hosts=["127.0.0.1"])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + LIMIT
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    # the first call waits for a worker to warm up, which compiles the kernels on a cold numba cache (as on a
    # fresh CI machine): wait for it here, once, rather than inside a test's 20 s wait
    request = urllib.request.Request(
        url + "/api/solve",
        data=json.dumps({"puzzle": PUZZLE, "variant": "standard"}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=300) as answer:
        assert json.load(answer)["status"] == "solved"
    yield url
    server.should_exit = True
    thread.join(timeout=15)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=WAIT_MS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server_url):
    context = browser.new_context(viewport={"width": 1100, "height": 820})
    pg = context.new_page()
    pg.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(server_url + "/")
    pg.wait_for_selector("body[data-ready=true]")
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def cell(pg, index: int):
    return pg.locator(f'#board .cell[data-cell="{index}"]')


def board_line(pg) -> str:
    texts = pg.eval_on_selector_all(
        "#board .cell",
        "cells => cells.map(c => { const v = c.querySelector('.value'); return v ? v.textContent : '.'; })",
    )
    return "".join(texts)


def wait_status(pg, status: str) -> str:
    pg.wait_for_selector(f'#status[data-status="{status}"]')
    text = pg.inner_text("#status")
    assert " --" not in text, f"a command-line option in a page message: {text}"
    return text


def type_puzzle(pg, line: str) -> None:
    """Type every given: click its cell, press its digit."""
    for index, ch in enumerate(line):
        if ch != ".":
            cell(pg, index).click()
            pg.keyboard.press(ch)


def test_typed_puzzle_is_solved_in_the_page(page):
    type_puzzle(page, PUZZLE)
    assert board_line(page) == PUZZLE
    page.click("#solve")
    assert wait_status(page, "solved").startswith("Unique solution")
    line = board_line(page)
    assert line == SOLUTION
    assert is_solution(parse_grid(line), parse_grid(PUZZLE))
    page.screenshot(path="/tmp/sudokit_web_solved.png")


def test_count_and_candidates_buttons(page):
    page.fill("#paste", PUZZLE)
    page.click("#load")
    wait_status(page, "loaded")
    page.click("#count")
    assert wait_status(page, "counted") == "1 solution"
    page.click("#candidates-toggle")
    page.wait_for_selector("#board .cell .cands")
    expected = Candidates.of(parse_grid(PUZZLE))
    for index in (1, 46, 80):
        drawn = page.locator(f'#board .cell[data-cell="{index}"] .cands').inner_text().split()
        assert drawn == [str(d) for d in expected[index]]
    page.click("#candidates-toggle")
    assert page.locator("#board .cell .cands").count() == 0


def selected(pg) -> int:
    return int(pg.get_attribute("#board .cell.selected", "data-cell"))


def test_arrow_keys_move_and_conflicts_are_flagged_at_once(page):
    cell(page, 0).click()
    page.keyboard.press("7")
    assert selected(page) == 1  # typing moves on to the next cell
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowLeft"):
        page.keyboard.press(key)
    page.keyboard.press("7")  # B2, same box as A1
    assert cell(page, 10).inner_text() == "7"
    assert selected(page) == 11
    assert "conflict" in cell(page, 0).get_attribute("class")
    assert "conflict" in cell(page, 10).get_attribute("class")
    assert "Conflict: A1, B2" in page.inner_text("#status")
    page.keyboard.press("Backspace")  # B3 is empty: Backspace clears the cell before, like a text field
    assert cell(page, 10).inner_text() == ""
    assert selected(page) == 10
    assert "conflict" not in cell(page, 0).get_attribute("class")


def test_hint_highlights_its_step_and_applying_it_places_the_digit(page):
    page.fill("#paste", PUZZLE)
    page.click("#load")
    wait_status(page, "loaded")
    page.click("#hint")
    wait_status(page, "hint")
    assert page.is_visible("#steps")
    explanation = page.inner_text("#explanation")
    assert explanation
    assert page.locator("#board .cell.cell-hl").count() >= 1
    technique = page.inner_text("#step-count").removeprefix("Hint: ")
    assert technique not in page.inner_text("#status")  # named once, in the step panel
    page.screenshot(path="/tmp/sudokit_web_hint.png")
    page.click("#apply-hint")
    wait_status(page, "applied")
    line = board_line(page)
    placed = [i for i, (a, b) in enumerate(zip(PUZZLE, line)) if a != b]
    assert all(line[i] == SOLUTION[i] for i in placed)
    assert page.is_hidden("#steps")


def test_explanation_steps_forward_and_back(page):
    page.fill("#paste", PUZZLE)
    page.click("#load")
    wait_status(page, "loaded")
    page.click("#explain")
    wait_status(page, "explained")
    first = page.inner_text("#step-count")
    assert first.startswith("Step 1 of ")
    page.click("#next-step")
    page.click("#next-step")
    assert page.inner_text("#step-count").startswith("Step 3 of ")
    page.focus("#board")
    page.keyboard.press("PageUp")
    assert page.inner_text("#step-count").startswith("Step 2 of ")
    page.click("#prev-step")
    assert page.inner_text("#step-count").startswith("Step 1 of ")
    assert page.is_disabled("#prev-step")
    if page.is_visible("#save-svg"):
        with page.expect_download() as download:
            page.click("#save-svg")
        picture = Path(download.value.path()).read_text()
        assert download.value.suggested_filename == "sudoku.svg" and "</svg>" in picture
    page.click("#close-steps")
    assert board_line(page) == PUZZLE


def test_generate_fills_the_board_with_a_new_puzzle(page):
    if page.is_hidden("#generate"):
        pytest.skip("the generator is not available in this build")
    page.select_option("#difficulty", "easy")
    page.click("#generate")
    text = wait_status(page, "generated")
    assert "givens" in text
    line = board_line(page)
    assert 17 <= sum(ch != "." for ch in line) < 81
    page.click("#rate")
    assert wait_status(page, "rated").startswith("Rating: ")
    page.click("#solve")
    wait_status(page, "solved")
    assert is_solution(parse_grid(board_line(page)), parse_grid(line))


def test_uploaded_file_is_loaded(page):
    rows = "\n".join(" ".join(PUZZLE[r * 9 : r * 9 + 9]) for r in range(9))
    page.set_input_files("#file", files=[{"name": "one.sdk", "mimeType": "text/plain", "buffer": rows.encode()}])
    assert "17 givens" in wait_status(page, "loaded")
    assert board_line(page) == PUZZLE
    assert page.is_hidden("#file-nav")  # one puzzle: nothing to move through


def test_bad_paste_shows_the_parsers_message(page):
    page.fill("#paste", PUZZLE[:40] + "x" + PUZZLE[41:])
    page.click("#load")
    assert "bad character 'x'" in wait_status(page, "error")


def test_layout_fits_a_phone_screen(browser, server_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    pg = context.new_page()
    pg.set_default_timeout(WAIT_MS)
    try:
        pg.goto(server_url + "/")
        pg.wait_for_selector("body[data-ready=true]")
        pg.fill("#paste", PUZZLE)
        pg.click("#load")
        wait_status(pg, "loaded")
        box = pg.locator("#board").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        pg.screenshot(path="/tmp/sudokit_web_phone.png", full_page=True)
    finally:
        context.close()


def test_sixteen_by_sixteen_board_takes_letters(page):
    page.select_option("#variant", label="Sudoku 16x16")
    cell(page, 255).wait_for()
    assert page.locator("#board .cell").count() == 256
    cell(page, 0).click()
    page.keyboard.press("g")
    assert cell(page, 0).inner_text() == "G"
    page.keyboard.press("g")  # typing moved on to r1c2: G twice in row 1
    assert "conflict" in cell(page, 1).get_attribute("class")
    assert labels(page, "row") == [str(i) for i in range(1, 17)]
    assert "Conflict: r1c1, r1c2" in page.inner_text("#status")
    assert page.is_disabled("#notation")  # letters are digits here: cells are always r1c1
    assert page.inner_text("#notation") == "Cell names: r1c1"
    page.screenshot(path="/tmp/sudokit_web_16x16.png")


# ---- the workbench: labels, links, files, editing, the address, messages -------------------------------
DATA = Path(__file__).resolve().parent.parent / "data"
#: top1465 #1: its logical path has an XY-Chain, whose links the page draws
CHAIN_PUZZLE = "..84...3....3.....9....157479...8........7..514.....2...9.6...2.5....4......9..56"  # top95: chains


def load(pg, text: str) -> None:
    pg.fill("#paste", text)
    pg.click("#load")
    wait_status(pg, "loaded")


def labels(pg, which: str) -> list[str]:
    return pg.eval_on_selector_all(f"#{which}-labels span", "spans => spans.map(s => s.textContent)")


def counter_is(pg, text: str) -> None:
    sync_api.expect(pg.locator("#puzzle-counter")).to_have_text(text)


def test_board_has_row_and_column_labels_and_one_notation_everywhere(page):
    load(page, PUZZLE)
    assert labels(page, "col") == [str(i) for i in range(1, 10)]
    assert labels(page, "row") == list("ABCDEFGHI")
    assert cell(page, 0).get_attribute("aria-label") == "A1 4"
    page.click("#hint")
    wait_status(page, "hint")
    a1_text = page.inner_text("#explanation")
    assert re.search(r"\b[A-I][1-9]\b", a1_text) and not re.search(r"\br\dc\d\b", a1_text)
    page.screenshot(path="/tmp/sudokit_web_labels.png")
    page.click("#notation")  # the other notation: r1c1, in the labels, the step and the status
    assert page.inner_text("#notation") == "Cell names: r1c1"
    assert labels(page, "row") == [str(i) for i in range(1, 10)]
    rc_text = page.inner_text("#explanation")
    assert re.search(r"\br\dc\d\b", rc_text) and not re.search(r"\b[A-I][1-9]\b", rc_text)
    assert cell(page, 0).get_attribute("aria-label") == "r1c1 4"
    page.click("#close-steps")
    cell(page, 1).click()
    page.keyboard.press("4")  # clashes with r1c1
    assert "Conflict: r1c1, r1c2" in page.inner_text("#status")
    page.screenshot(path="/tmp/sudokit_web_labels_rc.png")
    page.reload()  # the choice is remembered
    page.wait_for_selector("body[data-ready=true]")
    assert labels(page, "row") == [str(i) for i in range(1, 10)]
    page.click("#notation")
    assert labels(page, "row") == list("ABCDEFGHI")


def test_a_chain_step_draws_its_links_strong_solid_weak_dashed(page):
    from sudokit.logic import explain

    steps = explain(parse_grid(CHAIN_PUZZLE)).steps
    # the first chain step with a link inside a cell (an XY-Chain's or an AIC's bivalue link)
    at = next(i for i, s in enumerate(steps) if s.links and any(a[0] == b[0] for a, b, _ in s.links))
    chain = steps[at]
    load(page, CHAIN_PUZZLE)
    page.click("#explain")
    wait_status(page, "explained")
    assert page.locator("#links path.link").count() == 0  # a single's step has no links
    assert page.is_hidden("#link-legend")
    page.focus("#board")
    for _ in range(at):
        page.keyboard.press("PageDown")
    assert page.inner_text("#step-count") == f"Step {at + 1} of {len(steps)}: {chain.technique}"
    assert "strong link" in page.inner_text("#link-legend")
    drawn = page.eval_on_selector_all(
        "#links path.link",
        "ps => ps.map(p => [p.dataset.from, p.dataset.to, p.classList.contains('strong'),"
        " p.getAttribute('stroke-dasharray'), p.getAttribute('d')])",
    )
    assert [(a, b, strong) for a, b, strong, _, _ in drawn] == [
        (f"{s1}:{d1}", f"{s2}:{d2}", strong) for (s1, d1), (s2, d2), strong in chain.links
    ]
    assert all((dash is None) == strong for _, _, strong, dash, _ in drawn)
    inside = [d for a, b, _, _, d in drawn if a.split(":")[0] == b.split(":")[0]]
    assert inside and all(" Q" in d for d in inside)  # links inside a cell bend, so they show
    # every link starts and ends at its candidates as the board shows them (within a disc's radius)
    gaps = page.eval_on_selector_all(
        "#links path.link",
        """ps => ps.map(p => {
            const ends = [[p.dataset.from, p.getPointAtLength(0)],
                          [p.dataset.to, p.getPointAtLength(p.getTotalLength())]];
            const m = p.getScreenCTM();
            return ends.map(([key, pt]) => {
                const [s, d] = key.split(":");
                const span = document.querySelector(`#board .cell[data-cell="${s}"] .cands span:nth-child(${d})`);
                const r = span.getBoundingClientRect();
                const x = m.a * pt.x + m.c * pt.y + m.e, y = m.b * pt.x + m.d * pt.y + m.f;
                return Math.hypot(x - (r.left + r.width / 2), y - (r.top + r.height / 2)) / r.width;
            });
        }).flat()""",
    )
    assert len(gaps) == 2 * len(chain.links) and max(gaps) < 0.7  # trimmed by 0.48 of a spot, plus borders
    page.screenshot(path="/tmp/sudokit_web_chain.png", full_page=True)
    if page.is_visible("#save-svg"):  # the saved picture draws the same links
        with page.expect_download() as download:
            page.click("#save-svg")
        picture = Path(download.value.path()).read_text()
        assert picture.count('class="link ') == len(chain.links)


def test_an_opened_file_of_many_puzzles_can_be_walked_through(page):
    text = (DATA / "norvig_top95.txt").read_text()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    page.set_input_files(
        "#file", files=[{"name": "norvig_top95.txt", "mimeType": "text/plain", "buffer": text.encode()}]
    )
    assert wait_status(page, "loaded").startswith("Puzzle 1 of 95 from norvig_top95.txt")
    assert page.is_visible("#file-nav")
    assert page.inner_text("#puzzle-counter") == "1 / 95"
    assert page.inner_text("#file-name") == "norvig_top95.txt"
    assert page.is_disabled("#prev-puzzle")
    assert board_line(page) == lines[0]
    page.click("#next-puzzle")
    counter_is(page, "2 / 95")
    assert board_line(page) == lines[1]
    page.click("#next-puzzle")
    counter_is(page, "3 / 95")
    assert board_line(page) == lines[2]
    assert wait_status(page, "loaded").startswith("Puzzle 3 of 95")
    page.screenshot(path="/tmp/sudokit_web_file_nav.png")
    page.fill("#puzzle-number", "95")
    page.press("#puzzle-number", "Enter")
    counter_is(page, "95 / 95")
    assert board_line(page) == lines[94]
    assert page.is_disabled("#next-puzzle") and page.is_enabled("#prev-puzzle")
    page.click("#prev-puzzle")
    counter_is(page, "94 / 95")
    assert board_line(page) == lines[93]


def test_undo_and_redo_take_back_digits_and_pencil_marks(page):
    cell(page, 0).click()
    for ch in "123":
        page.keyboard.press(ch)
    assert board_line(page)[:4] == "123."
    page.keyboard.press("Control+z")
    assert board_line(page)[:4] == "12.."
    page.keyboard.press("Control+z")
    assert board_line(page)[:4] == "1..."
    page.keyboard.press("Control+y")
    assert board_line(page)[:4] == "12.."
    page.click("#redo")
    assert board_line(page)[:4] == "123."
    assert page.is_disabled("#redo")
    # pencil marks: the mode, or Shift with a digit
    page.click("#pencil")
    assert page.get_attribute("#pencil", "aria-pressed") == "true"
    cell(page, 9).click()
    page.keyboard.press("5")
    page.keyboard.press("7")
    assert page.locator('#board .cell[data-cell="9"] .cands').inner_text().split() == ["5", "7"]
    assert selected(page) == 9  # pencilling stays in the cell
    page.keyboard.press("5")  # again: removed
    assert page.locator('#board .cell[data-cell="9"] .cands').inner_text().split() == ["7"]
    page.click("#undo")
    assert page.locator('#board .cell[data-cell="9"] .cands').inner_text().split() == ["5", "7"]
    page.click("#pencil")
    cell(page, 10).click()
    page.keyboard.press("Shift+Digit8")
    assert page.locator('#board .cell[data-cell="10"] .cands').inner_text().split() == ["8"]
    page.keyboard.press("8")  # without Shift, outside the mode: a digit, and the peers lose 8 from their marks
    assert cell(page, 10).locator(".value").inner_text() == "8"
    page.screenshot(path="/tmp/sudokit_web_pencil.png")


def test_the_address_keeps_the_puzzle_and_the_users_digits(page, server_url):
    load(page, PUZZLE)
    cell(page, 1).click()
    page.keyboard.press("1")  # the solution's digit in A2
    url = page.url
    assert f"#p={PUZZLE}" in url and "e=.1" in url
    other = page.context.new_page()
    other.goto(url)
    other.wait_for_selector("body[data-ready=true]")
    assert board_line(other) == PUZZLE[:1] + "1" + PUZZLE[2:]
    assert "given" in cell(other, 0).locator(".value").get_attribute("class")
    assert "entry" in cell(other, 1).locator(".value").get_attribute("class")
    other.close()
    page.goto(server_url + "/#p=" + "." * 40 + "5" + "." * 40 + "&v=diagonal")
    page.wait_for_selector("body[data-ready=true]")
    sync_api.expect(cell(page, 40)).to_have_text("5")
    assert page.input_value("#variant") == "1"  # Diagonal (X) 9x9
    assert page.locator("#board .cell.extra").count() == 17


def test_the_first_hint_on_an_unsolvable_puzzle_says_why(page):
    # A2 = 9: no digit repeats, yet there is no solution (the engine says so here)
    from sudokit.engine import count_solutions

    broken = PUZZLE[:1] + "9" + PUZZLE[2:]
    grid = parse_grid(broken)
    assert not grid.conflicts() and count_solutions(grid, limit=2) == 0
    load(page, broken)
    page.click("#hint")
    text = wait_status(page, "unsolvable")
    assert text.startswith("This puzzle has no solution") and page.is_hidden("#steps")
    page.fill("#paste", "44" + PUZZLE[2:])
    page.click("#load")
    assert "conflict: digit 4 twice in row A" in wait_status(page, "error")
    page.click("#hint")
    assert "contradict each other (digit 4 twice in row A (A1, A2))" in wait_status(page, "unsolvable")
    several = PUZZLE[:0] + "." + PUZZLE[1:]  # without A1's 4 there are more solutions
    assert count_solutions(parse_grid(several), limit=2) == 2
    load(page, several)
    page.click("#hint")
    page.wait_for_selector('#status[data-status="hint"], #status[data-status="stuck"]')
    assert "This puzzle has several solutions" in page.inner_text("#status")
    page.click("#clear")
    page.click("#hint")
    assert wait_status(page, "unsolvable").startswith("The board is empty")


def test_a_call_stopped_at_its_time_limit_is_said_in_words(page):
    load(page, PUZZLE)
    page.route(
        "**/api/hint",
        lambda route: route.fulfill(
            status=503, content_type="application/json", body=json.dumps({"error": "hint: gave up after 10 s"})
        ),
    )
    page.click("#hint")
    assert wait_status(page, "error") == "Stopped: the hint took longer than 10 s, the server's limit"


def test_a_hint_starts_from_the_users_pencil_marks(page):
    load(page, PUZZLE)
    page.click("#fill-cands")
    cell(page, 1).click()
    page.keyboard.press("Shift+Digit1")  # A2 loses its 1
    sent = []

    def capture(route):
        sent.append(json.loads(route.request.post_data))
        route.continue_()

    page.route("**/api/hint", capture)
    page.click("#hint")
    wait_status(page, "hint")
    computed = Candidates.of(parse_grid(PUZZLE))
    masks = sent[0]["candidates"]
    assert masks[1] == computed.masks[1] & ~1  # the user's elimination
    assert masks[2] == computed.masks[2]  # the other cells as computed
    assert sent[0]["puzzle"] == PUZZLE


def test_variant_link_is_drawn_solved_and_counted(page):
    """A killer pasted as a SudokuPad link: drawn with its cages and sums, its rules listed, solved, counted."""
    from sudokit.formats.fpuzzles import read_fpuzzles, to_link

    killer = BY_NAME["Killer"]
    page.fill("#variant-link", to_link(read_fpuzzles(killer["fpuzzles"]), "scl"))
    page.click("#variant-load")
    assert wait_status(page, "loaded").startswith("Loaded: 29 constraints")
    assert page.locator("#variant-board svg polyline").count() > 29  # dashed cage sides
    assert page.inner_text("#variant-title") == "Killer"
    assert page.locator("#variant-rules li").count() == 30  # the units, then 29 cages
    assert page.locator("#board-frame").is_hidden() and page.locator("#solve").is_hidden()
    sums = page.eval_on_selector_all('#variant-board text[text-anchor="start"]', "ts => ts.map(t => t.textContent)")
    assert len(sums) == 29
    page.screenshot(path="/tmp/sudokit_web_variant.png")
    page.click("#variant-solve")
    assert wait_status(page, "solved").startswith("Solved: exactly one solution")
    digits = page.eval_on_selector_all('#variant-board text[id^="cell-"]', "ts => ts.map(t => t.textContent)")
    assert "".join(digits) == killer["solution"]
    page.screenshot(path="/tmp/sudokit_web_variant_solved.png")
    with page.expect_download() as download:
        page.click("#variant-save")
    saved = Path(download.value.path()).read_text()
    assert saved.startswith("<svg") and saved.count('id="cell-') == 81
    page.click("#variant-count")
    assert wait_status(page, "counted") == "1 solution."
    page.click("#variant-close")
    assert page.locator("#board-frame").is_visible() and page.locator("#variant-view").is_hidden()
    assert page.locator("#solve").is_visible()


def test_bad_variant_link_says_why_in_the_page(page):
    page.fill("#variant-link", "https://sudokupad.app/8bNmDd4J9G")
    page.click("#variant-load")
    assert "needs the network" in wait_status(page, "error")
    assert page.locator("#variant-view").is_hidden() and page.locator("#variant-solve").is_disabled()


def _bundled_killer_link() -> tuple[str, dict]:
    from sudokit.formats.fpuzzles import read_fpuzzles, to_link

    killer = BY_NAME["Killer"]
    return to_link(read_fpuzzles(killer["fpuzzles"]), "f-puzzles"), killer


def _fills(pg, colour: str) -> int:
    return pg.locator(f'#variant-board svg :is(rect, circle)[fill="{colour}"]').count()


def test_variant_killer_is_hinted_explained_step_by_step_and_rated(page):
    """A killer with its cages and sums: a hint marks its cells; the explanation steps forward and back, each
    step drawn with its highlights and the cages still there; the rating shows the CLI's lines."""
    link, killer = _bundled_killer_link()
    page.fill("#variant-link", link)
    page.click("#variant-load")
    wait_status(page, "loaded")
    sums = page.eval_on_selector_all('#variant-board text[text-anchor="start"]', "ts => ts.map(t => t.textContent)")
    assert len(sums) == 29  # every cage's sum

    page.click("#variant-hint")
    wait_status(page, "hint")
    page.wait_for_selector('#variant-board[data-step="1"]')
    assert page.inner_text("#variant-step-count") == "Hint: Cage Combination"
    assert "cage A1+A2 = 3" in page.inner_text("#variant-explanation")
    assert _fills(page, "#fde68a") == 2  # A1 and A2 marked
    assert _fills(page, "#fecaca") == 14  # the candidates it removes
    assert page.locator("#variant-board svg polyline").count() > 29  # the cages are still drawn
    page.screenshot(path="/tmp/sudokit_web_variant_hint.png")
    page.click("#variant-notation")  # the page's cell names apply to the explanation
    assert "cage r1c1+r1c2 = 3" in page.inner_text("#variant-explanation")
    page.click("#variant-notation")

    page.click("#variant-explain")
    message = wait_status(page, "explained")
    assert message.startswith("Solved by logic in")
    total = int(re.search(r"in (\d+) steps", message).group(1))
    page.wait_for_selector('#variant-board[data-step="1"]')
    assert page.inner_text("#variant-step-count").startswith(f"Step 1 of {total}: ")
    assert page.locator("#variant-prev").is_disabled()
    for _ in range(3):
        page.click("#variant-next")
    page.wait_for_selector('#variant-board[data-step="4"]')
    assert page.inner_text("#variant-step-count").startswith(f"Step 4 of {total}: ")
    assert page.locator("#variant-board svg polyline").count() > 29
    page.screenshot(path="/tmp/sudokit_web_variant_step4.png")
    page.click("#variant-prev")
    page.wait_for_selector('#variant-board[data-step="3"]')
    page.locator("#variant-board").click()
    for _ in range(total):  # PageDown to the last step: a placement there, drawn in green
        page.keyboard.press("PageDown")
    page.wait_for_selector(f'#variant-board[data-step="{total}"]')
    assert page.locator("#variant-next").is_disabled()
    assert _fills(page, "#bbf7d0") >= 1
    digits = page.eval_on_selector_all('#variant-board text[id^="cell-"]', "ts => ts.map(t => t.textContent)")
    assert len(digits) == 80  # the board before the last step: one cell left
    page.screenshot(path="/tmp/sudokit_web_variant_last.png")
    page.click("#variant-steps-close")
    assert page.locator("#variant-steps").is_hidden()

    page.click("#variant-rate")
    rated = wait_status(page, "rated")
    assert rated.startswith("Rating: SE ")
    lines = page.inner_text("#variant-rating").splitlines()
    assert lines[0].startswith("SE rating (ER/EP/ED): ") and lines[1].startswith("HoDoKu level: ")


def test_generate_killer_loads_it_with_its_links(page):
    page.fill("#variant-seed", "1")
    page.click("#variant-generate")
    message = wait_status(page, "generated")
    assert message.startswith("Generated a killer (seed 1): ")
    cages = int(re.search(r": (\d+) cages", message).group(1))
    assert page.inner_text("#variant-title") == "Killer, seed 1"
    sums = page.eval_on_selector_all('#variant-board text[text-anchor="start"]', "ts => ts.map(t => t.textContent)")
    assert len(sums) == cages
    sudokupad = page.get_attribute("#variant-sudokupad", "href")
    assert sudokupad.startswith("https://sudokupad.app/fpuzzles") and page.input_value("#variant-link-out") == sudokupad
    link = page.input_value("#variant-link")
    assert link == page.get_attribute("#variant-fpuzzles", "href")
    from sudokit import count_solutions
    from sudokit.formats.fpuzzles import parse_variant

    assert count_solutions(parse_variant(link), limit=2) == 1
    page.screenshot(path="/tmp/sudokit_web_variant_generated.png")
    page.click("#variant-explain")  # the generated puzzle is the one the buttons work on
    assert wait_status(page, "explained").startswith("Solved by logic in")
