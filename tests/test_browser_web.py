"""The workbench page in real headless Chromium (Debian's ``chromium``, driven by Playwright).

The app runs under uvicorn in a thread on a free loopback port. Skipped, with the reason, when
``/usr/bin/chromium`` or the ``playwright`` package is missing (CI installs both: ``.ci/browser-setup.sh``).
Screenshots go to ``/tmp/sudokit_web_*.png``.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from sudokit.formats import parse_grid
from sudokit.grid import Candidates, is_solution

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
WAIT_MS = 20_000

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
    app = create_app(workers=1, timeout=30, generate_timeout=30, allowed_hosts=["127.0.0.1"])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
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
    return pg.inner_text("#status")


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


def test_arrow_keys_move_and_conflicts_are_flagged_at_once(page):
    cell(page, 0).click()
    page.keyboard.press("7")
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft"):
        page.keyboard.press(key)
    page.keyboard.press("7")  # B2, same box as A1
    assert cell(page, 10).inner_text() == "7"
    assert "conflict" in cell(page, 0).get_attribute("class")
    assert "conflict" in cell(page, 10).get_attribute("class")
    assert "Conflict" in page.inner_text("#status")
    page.keyboard.press("Backspace")
    assert cell(page, 10).inner_text() == ""
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
    page.keyboard.press("ArrowRight")
    page.keyboard.press("g")  # G twice in row 1
    assert "conflict" in cell(page, 1).get_attribute("class")
