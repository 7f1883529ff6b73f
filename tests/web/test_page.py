"""The page in a real browser: headless Chromium (Debian's chromium and
chromium-driver) driven by Selenium against a live server.

What the page shows is checked against the brute-force oracle and the
library: probabilities and safe cells of a pasted board, the hint circled
and the clues that force it outlined, the clues highlighted for a safe
cell and the explanation drawn for an unsafe one, a flag asked about, the
conflict of an inconsistent board, bad input named by line and column,
the example boards, a board drawn by clicking, the one-click questions,
the download, a beginner game played with the hint button to its end,
one played from the keyboard, one lost and undone, auto-play, a gadget's
explanation and verdict, at a phone's width a page no wider than
the screen, and a board slower than the time limit (said so, the board
drawn) or cancelled by the next one, and a server gone away.
"""

from __future__ import annotations

from fractions import Fraction
import math
import os
import time
from pathlib import Path

import pytest

from satsweeper.board import Board
from satsweeper.constraints import problem_of
from satsweeper.errors import SatsweeperError
from satsweeper.game import Level, neighbours
from satsweeper.hint import hint
from satsweeper.reasoning import Move, Reasoner
from satsweeper.textio import format_mine, parse_puzzle, read_any
from tests import oracle
from tests.web.browser import MISSING, chromium, have_browser, live_server

if not have_browser():
    # CI installs Chromium (.ci/run): there a missing browser is a failure,
    # never a silent skip; on a developer's machine the skip says how to get it.
    if os.environ.get("CI"):
        raise RuntimeError(f"CI must run the browser tests: {MISSING}")
    pytest.skip(MISSING, allow_module_level=True)

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OPEN = "mines: 3\n.1...\n.21..\n..1..\n.....\n"


@pytest.fixture(scope="module")
def page():
    with live_server() as url, chromium(1280, 900) as driver:
        driver.url = url
        yield driver


def settle(driver, seconds: float = 60.0) -> None:
    """Wait until no request is under way and its answer is drawn."""
    WebDriverWait(driver, seconds, poll_frequency=0.02).until(
        lambda d: d.execute_script("return document.body.dataset.pending === '0'"),
        "requests still under way after a minute")


def load(driver, mode: str) -> None:
    """A fresh page in ``mode`` (a new load, not a change of the address's #part),
    without the board text the tab kept from an earlier test."""
    driver.get(driver.url + "api.html")
    driver.execute_script("sessionStorage.clear()")
    driver.get(driver.url + "#" + mode)
    settle(driver)


def paste(driver, text: str) -> None:
    box = driver.find_element(By.ID, "board-text")
    driver.execute_script("arguments[0].value = arguments[1]", box, text)
    driver.find_element(By.ID, "analyse-button").click()
    settle(driver)


def luminance(css: str) -> float:
    """WCAG's relative luminance of a CSS rgb() or rgba() colour."""
    values = [int(v) / 255 for v in css[css.index("(") + 1:-1].split(",")[:3]]
    lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in values]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two CSS colours."""
    hi, lo = sorted((luminance(one), luminance(other)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def cell(driver, board: str, row: int, col: int):
    return driver.find_element(By.CSS_SELECTOR, f"#{board}-board .cell[data-row='{row}'][data-col='{col}']")


def cells_with(driver, board: str, cls: str) -> set[tuple[int, int]]:
    found = driver.find_elements(By.CSS_SELECTOR, f"#{board}-board .cell.{cls}")
    return {(int(d.get_attribute("data-row")), int(d.get_attribute("data-col"))) for d in found}


def counted(n: int, one: str) -> str:
    """The page's words for a count: "1 mine", "2 mines"."""
    return f"{n} {one}{'' if n == 1 else 's'}"


def text_of(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text



# Records what the live regions would say: each change of a region's text while it is
# live (aria-live not "off"), as [region id, its text].
LIVE_LISTENER = """
window.liveHeard = [];
new MutationObserver((changes) => {
  for (const change of changes) {
    const node = change.target.nodeType === 1 ? change.target : change.target.parentElement;
    const region = node && node.closest('[aria-live]');
    if (region && region.getAttribute('aria-live') !== 'off' && region.textContent) {
      window.liveHeard.push([region.id, region.textContent]);
    }
  }
}).observe(document.body, {subtree: true, childList: true, characterData: true});
"""


def heard(page) -> list[tuple[str, str]]:
    """What the live regions said since LIVE_LISTENER, each once: a change's mutations
    (the text emptied, then written) are one announcement."""
    out = []
    for region, text in page.execute_script("const h = window.liveHeard; window.liveHeard = []; return h;"):
        if (region, text) not in out[-1:]:
            out.append((region, text))
    return out


def deal_and_open(page, seed: int) -> None:
    """A fresh Play page: a beginner game of ``seed`` dealt, its first click at 4,4."""
    load(page, "play")
    box = page.find_element(By.ID, "seed")
    box.clear()
    box.send_keys(str(seed))
    page.find_element(By.ID, "new-game").click()
    settle(page)
    cell(page, "play", 4, 4).click()
    settle(page)


def no_guess_game_opened(page) -> None:
    """A fresh Play page: a no-guess beginner layout whose first click opens a region, 4,4 opened."""
    load(page, "play")
    page.find_element(By.ID, "no-guess").click()
    Select(page.find_element(By.ID, "rule")).select_by_value("opening")
    page.find_element(By.ID, "new-game").click()
    settle(page)
    cell(page, "play", 4, 4).click()
    settle(page)


def custom_game_opened(page, level: str) -> None:
    """A fresh Play page: ``level`` chosen as a custom level (Enter deals it), 0,0 opened."""
    load(page, "play")
    Select(page.find_element(By.ID, "level")).select_by_value("custom")
    box = page.find_element(By.ID, "custom-level")
    box.clear()
    box.send_keys(level, Keys.ENTER)
    settle(page)
    cell(page, "play", 0, 0).click()
    settle(page)


def fail_next_request(page, endpoint: str) -> None:
    """The page's next request to ``endpoint`` fails as with the server stopped (no connection)."""
    page.execute_script("""
        const real = window.fetch; let failed = false;
        window.fetch = (url, init) => {
          if (String(url).endsWith(arguments[0]) && !failed) {
            failed = true;
            return Promise.reject(new TypeError("Failed to fetch"));
          }
          return real(url, init);
        };""", endpoint)


def hold_first_answer(page, endpoint: str) -> None:
    """Hold back the page's first answer from ``endpoint`` 1.5 s, as a busy worker would."""
    page.execute_script("""
        const real = window.fetch; let held = false;
        window.fetch = (url, init) => {
          const answer = real(url, init);
          if (String(url).endsWith(arguments[0]) && !held) {
            held = true;
            return answer.then((r) => new Promise((done) => setTimeout(() => done(r), 1500)));
          }
          return answer;
        };""", endpoint)

class TestAnalyse:
    def test_probabilities_and_safe_cells(self, page):
        """Each hidden cell shows the oracle's exact probability; safe cells and mines are marked."""
        load(page, "analyse")
        paste(page, OPEN)
        board = parse_puzzle(OPEN).board
        placements = oracle.explanations(problem_of(board))
        for where in board.hidden_cells():
            exact = Fraction(sum(where in p for p in placements), len(placements))
            shown = cell(page, "analyse", *where)
            assert Fraction(shown.get_attribute("data-probability")) == exact
            assert str(exact) in shown.get_attribute("title")
        status = oracle.status(problem_of(board))
        assert cells_with(page, "analyse", "safe") == {c for c, s in status.items() if s == "safe"}
        assert cells_with(page, "analyse", "certain-mine") == {c for c, s in status.items() if s == "mine"}
        assert "mine probability" in text_of(page, "legend")
        assert f"{len(placements)} explanations" in text_of(page, "analyse-hint")

    def test_safe_cell_shows_its_reason(self, page):
        """Clicking a safe cell highlights exactly the library's minimal forcing clues."""
        load(page, "analyse")
        paste(page, OPEN)
        board = parse_puzzle(OPEN).board
        status = oracle.status(problem_of(board))
        target = next(c for c, s in sorted(status.items()) if s == "safe")
        cell(page, "analyse", *target).click()
        settle(page)
        with Reasoner(board) as r:
            reason = r.safety(target).reason
        assert cells_with(page, "analyse", "reason") == {o.cell for o in reason if hasattr(o, "cell")}
        assert f"{target[0]},{target[1]} is safe" in text_of(page, "analyse-answer")

    def test_unsafe_cell_draws_a_counterexample(self, page):
        """Clicking an undetermined cell draws an explanation in which it is a mine."""
        load(page, "analyse")
        paste(page, OPEN)
        board = parse_puzzle(OPEN).board
        status = oracle.status(problem_of(board))
        target = next(c for c, s in sorted(status.items()) if s == "undetermined")
        cell(page, "analyse", *target).click()
        settle(page)
        drawn = frozenset(cells_with(page, "analyse", "explained"))
        assert target in drawn
        assert drawn in oracle.explanations(problem_of(board))
        assert "is not safe" in text_of(page, "analyse-answer")

    def test_inconsistent_board_shows_conflict(self, page):
        load(page, "analyse")
        text = (EXAMPLES / "conflict.txt").read_text()
        paste(page, text)
        board = parse_puzzle(text).board
        with Reasoner(board) as r:
            conflict = r.consistency().conflict
        assert cells_with(page, "analyse", "conflict") == {o.cell for o in conflict if hasattr(o, "cell")}
        assert "inconsistent" in text_of(page, "analyse-answer")

    def test_a_conflict_of_the_total_alone_outlines_nothing(self, page):
        """Four mines among three hidden cells: the total alone cannot hold, so no number is
        outlined and the answer does not say "(highlighted)"; with a number in the conflict it does."""
        load(page, "analyse")
        paste(page, "mines: 4\n1.\n..\n")
        assert text_of(page, "analyse-answer") == "inconsistent: the total of 4 mines cannot hold"
        assert not cells_with(page, "analyse", "conflict")
        paste(page, "mines: 2\n1.\n..\n0.\n")
        assert text_of(page, "analyse-answer").endswith("cannot both hold (highlighted)")
        assert cells_with(page, "analyse", "conflict")

    def test_draw_a_board(self, page):
        """A blank 3x3 board with one mine, a 1 drawn in the middle: 1/8 everywhere else."""
        load(page, "analyse")
        for field, value in (("new-width", 3), ("new-height", 3), ("new-mines", 1)):
            box = page.find_element(By.ID, field)
            box.clear()
            box.send_keys(str(value))
        page.find_element(By.ID, "new-board").click()
        settle(page)
        Select(page.find_element(By.ID, "tool-number")).select_by_visible_text("1")
        cell(page, "analyse", 1, 1).click()
        settle(page)
        assert page.find_element(By.ID, "board-text").get_attribute("value") == "mines: 1\n...\n.1.\n...\n"
        for where in [(0, 0), (0, 1), (2, 2)]:
            assert cell(page, "analyse", *where).get_attribute("data-probability") == "1/8"
        page.find_element(By.CSS_SELECTOR, "input[name=tool][value=F]").click()
        cell(page, "analyse", 0, 0).click()
        settle(page)
        assert len(cells_with(page, "analyse", "safe")) == 7

    @pytest.mark.parametrize("text, at, tool, expected", [
        # a layout keeps its mines, start and comment; only the square drawn changes
        ("# a layout\nmines: 1\nstart: 1,0\n.1*\n.1.\n", (0, 0), "0",
         "# a layout\nmines: 1\nstart: 1,0\n01*\n.1.\n"),
        # a tokenized row keeps its names
        ("layout: tokens\nmines: 1\nx  1 yy\n", (0, 2), "-", "layout: tokens\nmines: 1\nx  1 -\n"),
        # a .mine file stays one (hidden is H there)
        ("3x2x1\n1FH\nHHH\n", (1, 2), "1", "3x2x1\n1FH\nHH1\n"),
        # drawing a hidden cell on a hidden one (a layout's mine) changes nothing
        ("mines: 1\n.1*\n", (0, 2), ".", "mines: 1\n.1*\n"),
    ])
    def test_drawing_keeps_the_text(self, page, text, at, tool, expected):
        """A drawing click changes only its square of the text: a layout's mines and
        start, comments, names and the .mine format stay (the text was rewritten from
        the board drawn, which has none of them)."""
        load(page, "analyse")
        paste(page, text)
        if tool in "0123456789":
            page.find_element(By.CSS_SELECTOR, "input[name=tool][value=number]").click()
            Select(page.find_element(By.ID, "tool-number")).select_by_visible_text(tool)
        else:
            page.find_element(By.CSS_SELECTOR, f"input[name=tool][value='{tool}']").click()
        cell(page, "analyse", *at).click()
        settle(page)
        assert page.find_element(By.ID, "board-text").get_attribute("value") == expected
        read_any(expected)  # still a board the library reads

    def test_a_drawing_refused_is_taken_back(self, page):
        """A drawing click the library refuses (an 8 in a corner) is taken back: the
        board stays drawn and drawable, the text as it was, the refusal said (the board
        vanished, leaving the text to mend by hand)."""
        load(page, "analyse")
        text = "mines: 2\n...\n...\n...\n"
        paste(page, text)
        page.find_element(By.CSS_SELECTOR, "input[name=tool][value=number]").click()
        Select(page.find_element(By.ID, "tool-number")).select_by_visible_text("8")
        cell(page, "analyse", 0, 0).click()
        settle(page)
        assert page.find_element(By.ID, "board-text").get_attribute("value") == text
        assert len(page.find_elements(By.CSS_SELECTOR, "#analyse-board .cell")) == 9
        said = text_of(page, "analyse-answer")
        assert said.startswith("not drawn") and "expected a number at most 3" in said
        Select(page.find_element(By.ID, "tool-number")).select_by_visible_text("1")
        cell(page, "analyse", 0, 0).click()
        settle(page)
        assert page.find_element(By.ID, "board-text").get_attribute("value") == "mines: 2\n1..\n...\n...\n"

    def test_drawing_never_replaces_typed_text(self, page):
        """A drawing click after the text was edited (not yet analysed) keeps the edit:
        the board is drawn again from the text instead, and the page says so."""
        load(page, "analyse")
        paste(page, "mines: 2\n1..\n...\n")
        typed = "mines: 2\n1..\n...\n...\n"
        page.execute_script("arguments[0].value = arguments[1]", page.find_element(By.ID, "board-text"), typed)
        page.find_element(By.CSS_SELECTOR, "input[name=tool][value=F]").click()
        cell(page, "analyse", 1, 1).click()
        settle(page)
        assert page.find_element(By.ID, "board-text").get_attribute("value") == typed
        assert len(page.find_elements(By.CSS_SELECTOR, "#analyse-board .cell")) == 9
        assert "changed" in text_of(page, "analyse-answer")

    def test_reload_keeps_the_text(self, page):
        """Reloading the page (or coming back to it in the same tab) keeps the board
        text as typed, even unanalysed, and draws it; it came back as the example."""
        load(page, "analyse")
        box = page.find_element(By.ID, "board-text")
        box.clear()
        box.send_keys("mines: 1\n1..\n...\n")
        page.refresh()
        settle(page)
        assert page.find_element(By.ID, "board-text").get_attribute("value") == "mines: 1\n1..\n...\n"
        assert len(page.find_elements(By.CSS_SELECTOR, "#analyse-board .cell")) == 6

    def test_a_layouts_start_asked_about(self, page):
        """Asked about, a layout's start is safe by its rule (it was "not safe", a mine drawn
        there); nothing is outlined, so the answer does not say "(highlighted)"."""
        load(page, "analyse")
        paste(page, (EXAMPLES / "layout.txt").read_text())
        assert text_of(page, "analyse-hint").endswith("open 4,4: the file's start, where the first click goes "
                                                     "(a first click is safe)")
        cell(page, "analyse", 4, 4).click()
        settle(page)
        assert text_of(page, "analyse-answer") == "4,4 is safe: the start at 4,4 (a first click is safe) forces it"
        assert not cells_with(page, "analyse", "reason")

    def test_a_board_edited_in_the_text_is_dimmed(self, page):
        """Typing in the text box dims the board drawn until Analyse draws the text: the
        buttons ask about the text, and an 8x5 board under "8 explanations" of another
        looked like the board counted."""
        load(page, "analyse")
        paste(page, "mines: 1\n1..\n...\n")
        board, box = page.find_element(By.ID, "analyse-board"), page.find_element(By.ID, "board-text")
        dimmed = lambda: "stale" in board.get_attribute("class")
        assert not dimmed()
        box.send_keys("...\n")
        assert dimmed()
        box.send_keys(Keys.BACKSPACE, Keys.BACKSPACE, Keys.BACKSPACE, Keys.BACKSPACE)  # the text drawn again
        assert not dimmed()
        box.send_keys("...\n")
        page.find_element(By.ID, "analyse-button").click()
        settle(page)
        assert not dimmed() and len(page.find_elements(By.CSS_SELECTOR, "#analyse-board .cell")) == 9

    def test_a_typed_board_replaced_can_come_back(self, page):
        """An example, Blank or a file replacing a board the user typed offers it back
        (it was gone); a text the page itself put there is replaced without a word."""
        load(page, "analyse")
        restore = page.find_element(By.ID, "restore-text")
        Select(page.find_element(By.ID, "example")).select_by_value("unique.txt")
        settle(page)
        assert not restore.is_displayed()  # the page's own example board: nothing to bring back
        typed = "mines: 1\n1..\n...\n"
        box = page.find_element(By.ID, "board-text")
        box.clear()
        box.send_keys(typed)
        for replace in ("example", "new-board"):
            if replace == "example":
                Select(page.find_element(By.ID, "example")).select_by_value("guess.txt")
            else:
                page.find_element(By.ID, "new-board").click()
            settle(page)
            assert box.get_attribute("value") != typed and restore.is_displayed()
            restore.click()
            settle(page)
            assert box.get_attribute("value") == typed and not restore.is_displayed()
            assert len(page.find_elements(By.CSS_SELECTOR, "#analyse-board .cell")) == 6

    def test_named_cells_show_their_names(self, page):
        """A board with named cells (a gadget pasted) shows each name on its cell, as the
        hint and the answers call cells by name ("guess y(2,12)"); none was shown."""
        load(page, "analyse")
        text = (Path(__file__).resolve().parents[2] / "gadgets" / "not.txt").read_text()
        paste(page, text)
        names = parse_puzzle(text).board.names
        assert names
        for (row, col), name in names.items():
            assert cell(page, "analyse", row, col).find_element(By.CSS_SELECTOR, ".name").text == name
        assert len(page.find_elements(By.CSS_SELECTOR, "#analyse-board .name")) == len(names)

    def test_the_last_question_asked_is_the_one_answered(self, page):
        """Two cells asked about quickly, the first answer arriving last: the answer and
        the outlines shown are the second cell's (the first's replaced them)."""
        load(page, "analyse")
        paste(page, OPEN)
        hold_first_answer(page, "/api/safe")
        cell(page, "analyse", 0, 0).click()  # its answer held back
        cell(page, "analyse", 3, 4).click()
        settle(page)
        assert text_of(page, "analyse-answer").startswith("3,4 ")
        assert cells_with(page, "analyse", "asked") == {(3, 4)}

    def test_one_click_questions(self, page):
        load(page, "analyse")
        paste(page, (EXAMPLES / "unique.txt").read_text())
        page.find_element(By.CSS_SELECTOR, "[data-query=unique]").click()
        settle(page)
        assert text_of(page, "analyse-answer").startswith("unique: exactly one explanation")
        truth = oracle.explanations(problem_of(parse_puzzle((EXAMPLES / "unique.txt").read_text()).board))
        assert cells_with(page, "analyse", "explained") == set(truth[0])
        paste(page, OPEN)
        page.find_element(By.CSS_SELECTOR, "[data-query=unique]").click()
        settle(page)
        truth = oracle.explanations(problem_of(parse_puzzle(OPEN).board))
        drawn = cells_with(page, "analyse", "explained")
        assert drawn in truth  # the first explanation, drawn; the cells where another differs outlined
        outlined = cells_with(page, "analyse", "reason")
        assert outlined and any(drawn ^ other == outlined for other in truth if other != drawn)
        assert text_of(page, "analyse-answer").endswith("(the first is drawn, the cells where they differ outlined)")
        page.find_element(By.CSS_SELECTOR, "[data-query=count]").click()
        settle(page)
        count = len(oracle.explanations(problem_of(parse_puzzle(OPEN).board)))
        assert text_of(page, "analyse-answer") == f"{count} explanations"
        paste(page, (EXAMPLES / "layout.txt").read_text())
        page.find_element(By.CSS_SELECTOR, "[data-query=noguess]").click()
        settle(page)
        answer = text_of(page, "analyse-answer")
        assert answer.startswith("no-guess: yes") and "\ndifficulty: " in answer  # the grade, as the CLI says it
        assert not page.find_element(By.ID, "reached-board").is_displayed()

    def test_noguess_stuck_draws_the_position_reached(self, page):
        """Stuck: the position reached is drawn under the answer, each hidden cell with the
        oracle's chance there, the undetermined cells next to a number outlined (the outline
        seen over the probability's shade: a background of their own was painted over)."""
        load(page, "analyse")
        paste(page, "mines: 3\nstart: 2,2\n*....\n.*...\n.....\n....*\n")
        assert text_of(page, "analyse-hint").startswith("A layout: drawn before the first click, its mines hidden")
        paste(page, "mines: 1\n1o\n..\n")  # a 0 typed as o: said, as the CLI says it
        assert text_of(page, "analyse-hint").startswith(
            "Note: the square at 0,1 is read as a hidden cell named 'o' (a typo for 0?). ")
        paste(page, "mines: 3\nstart: 2,2\n*....\n.*...\n.....\n....*\n")
        page.find_element(By.CSS_SELECTOR, "[data-query=noguess]").click()
        settle(page)
        around = set(neighbours(Level(5, 4, 3), (2, 2)))
        assert text_of(page, "analyse-answer").startswith(  # the CLI's words ("after 1 round" was the page's)
            "no-guess: no, stuck at once: the first click's numbers decide no cell; a guess is forced; "
            "the safest guess is ")
        assert page.find_element(By.ID, "reached-board").is_displayed()
        assert cells_with(page, "reached", "frontier") == around
        assert cells_with(page, "reached", "open") == {(2, 2)}
        position = Board(4, 5, {(2, 2): 1}, total_mines=3)
        truth = oracle.explanations(problem_of(position))
        for cell in position.hidden_cells():
            div = page.find_element(By.CSS_SELECTOR, f"#reached-board .cell[data-row='{cell[0]}'][data-col='{cell[1]}']")
            assert Fraction(div.get_attribute("data-probability")) == Fraction(sum(cell in e for e in truth), len(truth))
        outlined = page.find_element(By.CSS_SELECTOR, "#reached-board .cell.frontier")
        assert outlined.value_of_css_property("outline-style") == "dashed"
        paste(page, OPEN)  # a new text: the position reached goes
        assert not page.find_element(By.ID, "reached-board").is_displayed()

    def test_download_mine(self, page):
        """The .mine download is the library's format_mine of the board."""
        load(page, "analyse")
        paste(page, OPEN)
        page.execute_script("window.saved = []; window.download = (n, t) => window.saved.push([n, t]);")
        page.find_element(By.ID, "download-mine").click()
        settle(page)
        name, text = page.execute_script("return window.saved[0]")
        assert name == "board.mine" and text == format_mine(parse_puzzle(OPEN).board)

    @pytest.mark.parametrize("text, token", [
        ("..\n.?\n", "?"), ("mines: x\n..\n", "x"), ("mines: 2\n...\n..\n", "\n"),
        ("# a comment\nmines: 3\n9.\n..\n", "9"), ("mines: 1000\n..\n..\n", "1000"),
        ("mines: 12abc\n..\n", "12abc"), ("mines: 0010\n..\n..\n", "0010"),
        ("3x2x1000\nHHH\nHHH\n", "1000"),
        ("..\n..\nmines: 99\n", "mines: 99")])
    def test_bad_board_shows_the_error(self, page, text, token):
        """The library's message, its line and column in words, the token it names
        selected in the text box (all of a number of several digits: only its first
        digit was), and no board left from an earlier text."""
        load(page, "analyse")
        paste(page, OPEN)
        paste(page, text)
        with pytest.raises(SatsweeperError) as caught:
            read_any(text, "<board>")
        line, col = caught.value.line, caught.value.column
        message = str(caught.value).split(f"<board>:{line}:{col}: ", 1)[1]
        assert text_of(page, "analyse-answer") == f"line {line}, column {col}: {message}"
        at = sum(len(row) + 1 for row in text.split("\n")[:line - 1]) + col - 1
        assert text[at:at + len(token)] == token  # the case is what it says
        assert page.execute_script("const b = arguments[0]; return [b.selectionStart, b.selectionEnd]",
                                   page.find_element(By.ID, "board-text")) == [at, at + len(token)]
        assert not page.find_elements(By.CSS_SELECTOR, "#analyse-board .cell")
        assert not page.find_element(By.ID, "legend").is_displayed()

    @pytest.mark.parametrize("text", [OPEN, (EXAMPLES / "unique.txt").read_text(), "mines: 2\n1...\n....\n"])
    def test_hint_is_circled_and_its_reason_outlined(self, page, text):
        """The circled cell is the library's hint; for a sure move the outlined
        clues alone force it (brute force over those clues only)."""
        load(page, "analyse")
        paste(page, text)
        board = parse_puzzle(text).board
        advice = hint(board)
        assert cells_with(page, "analyse", "hinted") == {advice.cell}
        outlined = cells_with(page, "analyse", "reason")
        problem = problem_of(board)
        if advice.sure:
            clues = {o for o in problem.origins() if getattr(o, "cell", None) in outlined}
            assert {o.cell for o in clues} == outlined
            total = {o for o in advice.reason if not hasattr(o, "cell")}  # named in words, not drawn
            assert oracle.forced(problem.restricted_to(clues | total), advice.cell, advice.move is Move.FLAG)
            assert "the clues that force it outlined" in text_of(page, "analyse-hint")
        else:
            assert not outlined
        words = page.find_element(By.CSS_SELECTOR, "#analyse-hint pre.words").text
        assert words.startswith(("open", "flag", "guess")) and f"{advice.cell[0]},{advice.cell[1]}" in words.split(":")[0]

    def test_a_board_too_large_to_draw_promises_no_circle(self, page):
        """A board too large to draw, answered: its hint said "circled on the board" and the legend
        offered "hover a cell for the exact fraction" with no board drawn. The hint is the library's."""
        from satsweeper.textio import format_board
        voids = frozenset((r, c) for r in range(200) for c in range(201) if r >= 2 or c >= 3)
        board = Board(200, 201, {(0, 0): 1, (1, 0): 1}, voids=voids, total_mines=1)
        load(page, "analyse")
        paste(page, format_board(board))
        assert "too large to draw" in text_of(page, "analyse-board")
        said = text_of(page, "analyse-hint")
        expected = hint(board)
        assert "What to click:" in said and "circled" not in said
        assert f"{expected.cell[0]},{expected.cell[1]}" in said
        assert page.find_element(By.ID, "legend").get_attribute("hidden")

    def test_no_hidden_cell_promises_no_circle(self, page):
        """A board with nothing hidden: the summary said "What to click (circled on the
        board):" above "no hint: no hidden cell is left"."""
        load(page, "analyse")
        paste(page, "1F\n11\n")
        words = text_of(page, "analyse-hint")
        assert "no hidden cell is left" in words and "circled" not in words
        assert not cells_with(page, "analyse", "hinted")

    def test_flag_asked_about(self, page):
        """Asking about a flag asks whether it is right: a mine with the flag taken away."""
        text = "mines: 2\nF1..\n11..\n...F\n"
        load(page, "analyse")
        paste(page, text)
        board = parse_puzzle(text).board
        found = oracle.explanations(problem_of(board.with_flags_hidden()))
        for flag in sorted(board.flags):
            cell(page, "analyse", *flag).click()
            settle(page)
            answer = text_of(page, "analyse-answer")
            if all(flag in e for e in found):
                assert answer.startswith(f"{flag[0]},{flag[1]} is a mine")
            else:
                # "may not": it "is not a mine" read as a fact beside a count that had it one
                assert answer.startswith(f"{flag[0]},{flag[1]} may not be a mine (the flag may be wrong)")
                drawn = frozenset(cells_with(page, "analyse", "explained"))
                assert flag not in drawn and drawn | (board.flags - {flag}) in found

    def test_examples(self, page):
        """Each example of the menu is the repository's file, and is analysed."""
        load(page, "analyse")
        names = [o.get_attribute("value") for o in
                 page.find_elements(By.CSS_SELECTOR, "#example option") if o.get_attribute("value")]
        assert "expert.mine" in names and "conflict.txt" in names
        for name in names:
            Select(page.find_element(By.ID, "example")).select_by_value(name)
            settle(page)
            assert page.find_element(By.ID, "board-text").get_attribute("value") == (EXAMPLES / name).read_text()
            board = read_any((EXAMPLES / name).read_text(), name).board
            drawn = page.find_elements(By.CSS_SELECTOR, "#analyse-board .cell")
            assert len(drawn) == board.width * board.height
            with Reasoner(board) as r:
                consistent = r.consistency().consistent
            assert bool(cells_with(page, "analyse", "hinted")) == consistent
            assert bool(cells_with(page, "analyse", "conflict")) == (not consistent)
        paste(page, OPEN)  # another board: the menu no longer names the example
        assert page.find_element(By.ID, "example").get_attribute("value") == ""

    def test_percentages_contrast(self, page):
        """Every percentage drawn has a WCAG contrast of at least 4.5:1 against
        its cell, and darker cells are likelier mines (the order survives
        without colour vision).  Each is the exact probability rounded, with its
        "%": a safe cell's bare "0" read as a revealed 0."""
        load(page, "analyse")
        seen, said = [], []
        for text in ((EXAMPLES / "beginner.txt").read_text(), OPEN, (EXAMPLES / "guess.txt").read_text()):
            paste(page, text)
            seen += page.execute_script("""
                return [...document.querySelectorAll('#analyse-board .cell .pct')].map((s) => [
                  getComputedStyle(s).color, getComputedStyle(s.parentElement).backgroundColor,
                  s.parentElement.dataset.probability]);""")
            said += page.execute_script("""
                return [...document.querySelectorAll('#analyse-board .cell .pct')].map((s) => [
                  s.textContent, s.parentElement.dataset.probability]);""")
        assert len(seen) > 50
        for shown, p in said:
            exact = Fraction(p) * 100
            assert shown == {0: "0%", 100: "100%"}.get(exact) or shown == (
                "<1%" if exact < 1 else ">99%" if exact > 99 else f"{math.floor(exact + Fraction(1, 2))}%"), (shown, p)  # JS rounds halves up
        assert {"0%", "100%"} <= {shown for shown, _ in said}

        for fg, bg, _ in seen:
            assert contrast(fg, bg) >= 4.5, (fg, bg)
        by_p = sorted({(Fraction(p), luminance(bg)) for _, bg, p in seen})
        assert all(a[1] >= b[1] for a, b in zip(by_p, by_p[1:]))

    def test_an_explanations_percentages_contrast(self, page):
        """The white percentage on an explanation's purple dot: wider than the dot, it spilled
        onto the cell's pale shade at 1.4:1. Measured against what is behind it, its own
        ground if it has one, else the cell's."""
        load(page, "analyse")
        page.find_element(By.CSS_SELECTOR, "[data-query='check']").click()
        settle(page)
        seen = page.execute_script("""
            return [...document.querySelectorAll('#analyse-board .cell.explained .pct')].map((s) => {
              const own = getComputedStyle(s).backgroundColor;
              return [getComputedStyle(s).color, own === 'rgba(0, 0, 0, 0)' ? getComputedStyle(s.parentElement).backgroundColor : own];
            });""")
        assert len(seen) >= 5
        for fg, bg in seen:
            assert contrast(fg, bg) >= 4.5, (fg, bg)

    def test_open_file(self, page):
        """Open file… is reached with Tab and reads the file chosen into the box."""
        load(page, "analyse")
        chooser = page.find_element(By.ID, "board-file")
        page.find_element(By.ID, "analyse-button").send_keys(Keys.TAB)
        assert page.switch_to.active_element == chooser
        chooser.send_keys(str(EXAMPLES / "unique.txt"))
        WebDriverWait(page, 20).until(lambda d: d.find_element(By.ID, "board-text").get_attribute("value")
                                      == (EXAMPLES / "unique.txt").read_text())
        settle(page)
        truth = oracle.explanations(problem_of(parse_puzzle((EXAMPLES / "unique.txt").read_text()).board))
        assert cells_with(page, "analyse", "certain-mine") == set(truth[0])

    def test_open_the_same_file_again(self, page, tmp_path):
        """Opening the same file again, edited since, reads it again (the chooser
        kept its name, so choosing it again changed nothing and the edit was not read)."""
        load(page, "analyse")
        path = tmp_path / "mine.txt"
        for text in ("mines: 1\n1.\n..\n", "mines: 1\n1..\n...\n"):
            path.write_text(text)
            page.find_element(By.ID, "board-file").send_keys(str(path))
            WebDriverWait(page, 20).until(lambda d: d.find_element(By.ID, "board-text").get_attribute("value") == text)
            settle(page)

    def test_system_of_equations(self, page):
        """A system of equations (no board to draw): Analyse says to ask the other
        questions; Consistent? names mines that satisfy every equation; Unique?
        names the cells where its two explanations differ."""
        import re

        from satsweeper.web.answers import unique
        text = (EXAMPLES / "fowler-young-6x6.txt").read_text()
        load(page, "analyse")
        paste(page, text)
        assert "equations: ask Consistent?, Unique? or Count" in text_of(page, "analyse-answer")
        page.find_element(By.CSS_SELECTOR, "[data-query=check]").click()
        settle(page)
        said = text_of(page, "analyse-answer")
        assert said.startswith("consistent: one explanation has its mines at ")
        mines = set(said.split(" at ", 1)[1].split("; "))
        perimeter = [line.split("=") for line in text.splitlines() if "=" in line]
        for left, right in perimeter:  # every equation holds
            assert sum(f"x{i}" in mines for i in re.findall(r"x(\d+)", left)) == int(right)
        assert len(mines) == 11 and sum(m.startswith("other#") for m in mines) <= 21
        page.find_element(By.CSS_SELECTOR, "[data-query=unique]").click()
        settle(page)
        first, second = ({c["name"] for c in e} for e in unique(read_any(text))["explanations"])
        said = text_of(page, "analyse-answer")
        assert said.startswith("not unique: two explanations differ at ") and "drawn" not in said
        assert set(re.split(r", | and ", said.split(" at ", 1)[1])) == first ^ second

    def test_huge_count_is_readable(self, page):
        """A 40-digit count reads as a power of ten; the exact count stays at hand."""
        from satsweeper.web.answers import count
        text = (EXAMPLES / "expert.txt").read_text()
        load(page, "analyse")
        paste(page, text)
        exact = int(count(parse_puzzle(text).board)["count"])
        assert page.find_element(By.ID, "analyse-hint").get_attribute("data-count") == str(exact)
        digits = str(exact)
        power = "".join("⁰¹²³⁴⁵⁶⁷⁸⁹"[int(d)] for d in str(len(digits) - 1))
        assert text_of(page, "analyse-hint").startswith(
            f"about {digits[0]}.{digits[1:3]} × 10{power} explanations")
        # Count gives the exact count too (it gave the power of ten alone; the CLI prints every digit)
        page.find_element(By.CSS_SELECTOR, "[data-query=count]").click()
        settle(page)
        assert text_of(page, "analyse-answer").endswith(f"explanations: exactly {exact:,}")
        # and a screen reader hears a hidden cell's chance, not "hidden" alone
        board = page.find_element(By.ID, "analyse-board")
        chance = page.find_element(By.CSS_SELECTOR, "#analyse-board .cell[data-row='0'][data-col='0']")
        assert f"cell 0,0: hidden, mine probability {chance.get_attribute('data-probability')};" in \
            board.get_attribute("aria-label")


def hard_position():
    """A 60x60 position with a third of its safe cells open at random (as in
    test_server): far slower than a fraction of a second to analyse; and its layout."""
    import random

    from satsweeper.board import Board
    from satsweeper.game import Game, Level
    rng = random.Random(1)
    game = Game.new(Level(60, 60, 720), rng, (0, 0))
    clues = {(r, c): game.number((r, c)) for r in range(60) for c in range(60)
             if (r, c) not in game.mines and rng.random() < 0.35}
    return Board(60, 60, clues, total_mines=720), game.mines


class TestLargeBoard:
    """A 200x200 board: all 40,000 cells in the page, drawn within 2 s (it took
    3 s or more when every cell was built, laid out and painted one by one)."""

    def test_200x200_drawn_fast_and_usable(self, page):
        """Drawn (layout and paint included) in under 2 s of its answer; each cell has
        the probability mines/cells left (the three next to a 0 are safe), the hint is one
        of the safe cells and in sight, a cell far from it answers a click, the keyboard moves on."""
        text = "mines: 6000\n" + "\n".join(["." * 200] * 199 + ["." * 199 + "0"]) + "\n"
        load(page, "analyse")
        paste(page, text)
        WebDriverWait(page, 10).until(lambda d: d.execute_script(
            "return performance.getEntriesByName('board drawn').length"))
        ms = page.execute_script("return performance.getEntriesByName('board drawn').at(-1).duration")
        assert ms < 2000, f"200x200 drawn in {ms:.0f} ms"
        assert page.execute_script("return document.querySelectorAll('#analyse-board .cell').length") == 40000
        safe = {(198, 198), (198, 199), (199, 198)}
        assert cells_with(page, "analyse", "safe") == safe
        rest = Fraction(6000, 40000 - 1 - len(safe))
        for where in ((0, 0), (0, 199), (120, 57), (199, 0)):
            assert Fraction(cell(page, "analyse", *where).get_attribute("data-probability")) == rest
        hinted = cells_with(page, "analyse", "hinted")
        assert len(hinted) == 1 and hinted <= safe
        inside = page.execute_script("""
            const c = document.querySelector('#analyse-board .cell.hinted').getBoundingClientRect();
            const w = document.querySelector('#mode-analyse .board-wrap').getBoundingClientRect();
            return c.left >= w.left && c.right <= w.right && c.top >= w.top && c.bottom <= w.bottom
              && document.elementFromPoint((c.left + c.right) / 2, (c.top + c.bottom) / 2)
                   .closest('.cell').classList.contains('hinted');""")
        assert inside, "the hinted cell is not drawn in sight"
        page.execute_script("document.querySelector('#mode-analyse .board-wrap').scrollTo(0, 0)")
        cell(page, "analyse", 2, 3).click()
        settle(page)
        assert text_of(page, "analyse-answer").startswith(f"2,3 is not safe (mine probability {rest})")
        board = page.find_element(By.ID, "analyse-board")
        board.send_keys(Keys.ARROW_DOWN, Keys.ARROW_RIGHT)
        assert cells_with(page, "analyse", "cursor") == {(3, 4)}
        assert "cell 3,4: hidden" in board.get_attribute("aria-label")
        # Analyse flags nothing: its label said "F flags", as Play's does
        assert "Enter asks" in board.get_attribute("aria-label") and "flags" not in board.get_attribute("aria-label")


class TestServerTrouble:
    def test_slow_board_says_so(self, page):
        """A board slower than the server's time limit is drawn, with the cells the
        single-number rules settle ringed (right by the true layout), and the page
        says that time ran out, for Analyse and for Count (no JavaScript error, no
        'undefined')."""
        from satsweeper.textio import format_board
        from satsweeper.web.server import Limits
        board, mines = hard_position()
        with live_server(Limits(timeout=0.3)) as url:
            page.get("about:blank")
            page.get(url + "#analyse")
            settle(page)
            paste(page, format_board(board))
            answer = text_of(page, "analyse-answer")
            assert answer.startswith("no answer within 0.3 s (the server's time limit")
            # one script, not a WebDriver round trip per cell (3,600 of them)
            drawn = page.execute_script("""return [...document.querySelectorAll('#analyse-board .cell')]
                .map((d) => [+d.dataset.row, +d.dataset.col, d.className])""")
            assert len(drawn) == 60 * 60
            safe = {(r, c) for r, c, names in drawn if "safe" in names.split()}
            mine = {(r, c) for r, c, names in drawn if "certain-mine" in names.split()}
            assert safe and mine and not safe & mines and mine <= mines
            assert f"settle {counted(len(safe), 'safe cell')} (ringed green) and {counted(len(mine), 'mine')}" in answer
            assert page.find_element(By.ID, "legend").get_attribute("hidden")
            # and a sure move the simplest rules find, circled, as hint --timeout gives it: safe by the layout
            hinted = [(r, c) for r, c, names in drawn if "hinted" in names.split()]
            assert len(hinted) == 1 and hinted[0] not in mines
            assert f"\nA sure move found without counting (circled): open {hinted[0][0]},{hinted[0][1]}: " in answer
            # the same position walled in by void squares, too large to draw: the same
            # cells settled, and nothing is said to be ringed
            from satsweeper.board import Board
            voids = frozenset((r, c) for r in range(200) for c in range(210) if r >= 60 or c >= 60)
            wide = Board(200, 210, board.clues, voids=voids, total_mines=720)
            paste(page, format_board(wide))
            assert "too large to draw" in text_of(page, "analyse-board")
            assert text_of(page, "analyse-answer").startswith(
                "no answer within 0.3 s (the server's time limit for one question: satsweeper serve --timeout "
                f"sets it): no probabilities. The single-number rules settle {counted(len(safe), 'safe cell')} and "
                f"{counted(len(mine), 'mine')}; try Consistent?\nA sure move found without counting: open ")
            page.find_element(By.CSS_SELECTOR, "[data-query=count]").click()
            settle(page)
            assert text_of(page, "analyse-answer").startswith("count: no answer within 0.3 s")

    def test_working_shows_while_waiting(self, page):
        """A slow answer: "working…" shows in a corner while it is awaited (the
        board drawn before dimmed), and goes when it comes (and after a quick one)."""
        from satsweeper.textio import format_board
        from satsweeper.web.server import Limits
        board, _ = hard_position()
        with live_server(Limits(timeout=2)) as url:
            page.get("about:blank")
            page.get(url + "#analyse")
            settle(page)
            working = page.find_element(By.ID, "working")
            assert not working.is_displayed()
            box = page.find_element(By.ID, "board-text")
            page.execute_script("arguments[0].value = arguments[1]", box, format_board(board))
            page.find_element(By.ID, "analyse-button").click()
            WebDriverWait(page, 1.5, poll_frequency=0.05).until(lambda d: working.is_displayed())
            assert working.text == "working…"
            stale = lambda: "stale" in page.find_element(By.ID, "analyse-board").get_attribute("class")
            assert stale()  # the board still drawn is the text before's: dimmed
            settle(page)
            assert not working.is_displayed() and not stale()
            paste(page, OPEN)
            assert not working.is_displayed()

    def test_a_new_board_cancels_the_slow_one(self, page):
        """A slow board, then at once another: the slow query is cancelled, so even a
        server with a single worker answers the new board at once (the oracle's
        probabilities), not after the slow one's 10 s."""
        import time

        from satsweeper.textio import format_board
        from satsweeper.web.server import Limits
        board, _ = hard_position()
        with live_server(Limits(workers=1)) as url:
            page.get("about:blank")
            page.get(url + "#analyse")
            settle(page)
            box = page.find_element(By.ID, "board-text")
            page.execute_script("arguments[0].value = arguments[1]", box, format_board(board))
            page.find_element(By.ID, "analyse-button").click()
            time.sleep(1.0)  # its query is running in the one worker
            start = time.monotonic()
            paste(page, OPEN)
            assert time.monotonic() - start < 5
            placements = oracle.explanations(problem_of(parse_puzzle(OPEN).board))
            for where in parse_puzzle(OPEN).board.hidden_cells():
                exact = Fraction(sum(where in p for p in placements), len(placements))
                assert Fraction(cell(page, "analyse", *where).get_attribute("data-probability")) == exact


    def test_server_gone(self, page):
        """The server stopped under a loaded page: the page says so, not 'Failed to fetch'."""
        with live_server() as url:
            page.get("about:blank")
            page.get(url + "#analyse")
            settle(page)
        paste(page, OPEN)
        assert text_of(page, "analyse-answer") == "no answer from the server: is satsweeper serve still running?"
        # The Gadgets tab, its list never loaded, was blank with the error only in the console.
        page.find_element(By.CSS_SELECTOR, "button[data-mode='gadgets']").click()
        settle(page)
        assert text_of(page, "gadget-verdict") == "no answer from the server: is satsweeper serve still running?"


class TestPlay:
    def test_beginner_game_with_hints_to_the_end(self, page):
        """Hint, then click the hinted cell (right click for a flag), until the game ends."""
        deal_and_open(page, 21)
        for _ in range(120):
            status = text_of(page, "play-status")
            if not status.startswith("mines left"):
                break
            page.find_element(By.ID, "hint-button").click()
            settle(page)
            hinted = page.find_element(By.CSS_SELECTOR, "#play-board .cell.hinted")
            if text_of(page, "play-hint").startswith("flag"):
                ActionChains(page).context_click(hinted).perform()
            else:
                hinted.click()
            settle(page)
        status = text_of(page, "play-status")
        assert status.startswith(("You won", "Boom"))
        if status.startswith("Boom"):
            assert cells_with(page, "play", "exploded")
        assert len(cells_with(page, "play", "mine")) + len(cells_with(page, "play", "flag")) >= 10

    def test_a_flag_before_the_first_click_is_explained(self, page):
        """Right-clicking before the first click placed nothing and said nothing (the mines
        are drawn at the first click); now the page says why, and the game is as it was."""
        load(page, "play")
        box = page.find_element(By.ID, "seed")
        box.clear()
        box.send_keys("21")  # deal_and_open's game, whose first click at 4,4 leaves 8,8 hidden
        page.find_element(By.ID, "new-game").click()
        settle(page)
        ActionChains(page).context_click(cell(page, "play", 8, 8)).perform()
        settle(page)
        assert text_of(page, "play-hint").startswith("Flags come after the first click")
        assert not cells_with(page, "play", "flag") and text_of(page, "play-status") == "mines left: 10"
        cell(page, "play", 4, 4).click()
        settle(page)
        ActionChains(page).context_click(cell(page, "play", 8, 8)).perform()
        settle(page)
        assert (8, 8) in cells_with(page, "play", "flag")

    def test_auto_play_no_guess_wins(self, page):
        """A no-guess beginner layout, finished by auto-play: always won."""
        no_guess_game_opened(page)
        page.find_element(By.ID, "auto-play").click()
        WebDriverWait(page, 120).until(lambda d: not text_of(d, "play-status").startswith("mines left"))
        assert text_of(page, "play-status").startswith("You won")

    def test_numbers_and_outlines_contrast(self, page):
        """Each number's colour at least 4.5:1 on an open cell (WCAG AA for text: on a phone's
        28 px cell a digit is normal text; 2, 3 and 6 were 3.8 to 4.3), the outline of the
        clues behind an answer at least 3:1 (the amber was 1.6)."""
        load(page, "analyse")
        got = page.execute_script("""
            const host = document.getElementById('analyse-board'), out = {};
            for (const cls of ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'reason']) {
              const d = document.createElement('div');
              d.className = 'cell open ' + cls;
              host.appendChild(d);
              const st = getComputedStyle(d);
              out[cls] = [cls === 'reason' ? st.outlineColor : st.color, st.backgroundColor];
              d.remove();
            }
            return out;""")
        for cls, (fg, bg) in got.items():
            assert contrast(fg, bg) >= (3 if cls == "reason" else 4.5), (cls, fg, bg)

    def test_keyboard(self, page):
        """Tab to the board, arrows to 4,4, Enter opens it, F flags a cell: the
        board is the library's replay of the same moves."""
        from satsweeper.web.play import Deal, replay
        load(page, "play")
        page.find_element(By.ID, "play-board").send_keys(*[Keys.ARROW_DOWN] * 4, *[Keys.ARROW_RIGHT] * 4,
                                                         Keys.ENTER)
        settle(page)
        deal = Deal("beginner", "safe", False, 1)
        game, _ = replay(deal, [("open", 4, 4)])
        hidden = next(c for c in sorted(game.board.hidden_cells()) if c not in game.board.flags)
        keys = [Keys.ARROW_UP if hidden[0] < 4 else Keys.ARROW_DOWN] * abs(hidden[0] - 4) + \
            [Keys.ARROW_LEFT if hidden[1] < 4 else Keys.ARROW_RIGHT] * abs(hidden[1] - 4)
        page.find_element(By.ID, "play-board").send_keys(*keys, "f")
        settle(page)
        game, _ = replay(deal, [("open", 4, 4), ("flag", *hidden)])
        for r in range(9):
            for c in range(9):
                state = cell(page, "play", r, c).get_attribute("data-state")
                if (r, c) in game.board.clues:
                    assert state == str(game.board.clues[(r, c)])
                else:
                    assert state == ("F" if (r, c) in game.board.flags else ".")
        assert (hidden[0], hidden[1]) in cells_with(page, "play", "cursor")
        # H hints from the board, and the hint is in a live region (it was silent, five Tabs away).
        assert page.find_element(By.ID, "play-hint").get_attribute("aria-live") == "polite"
        page.find_element(By.ID, "play-board").send_keys("h")
        settle(page)
        assert text_of(page, "play-hint").startswith(("open ", "flag ", "guess "))
        assert [b.get_attribute("aria-pressed") for b in page.find_elements(By.CSS_SELECTOR, "#tabs button")] \
            == ["false", "true", "false"]  # the mode shown, said (Analyse, Play, Gadgets)

    def test_lost_game_shows_no_stale_hint(self, page):
        """Opening a mine of the library's layout loses there; the hint and the
        probability legend from before are gone."""
        from satsweeper.web.play import Deal, layout
        load(page, "play")
        cell(page, "play", 4, 4).click()
        settle(page)
        page.find_element(By.ID, "show-probs").click()
        page.find_element(By.ID, "hint-button").click()
        settle(page)
        assert text_of(page, "play-hint") and page.find_element(By.ID, "play-legend").is_displayed()
        mines = layout(Deal("beginner", "safe", False, 1), (4, 4))
        mine = min(mines)
        hidden = {(r, c) for r in range(9) for c in range(9)} - cells_with(page, "play", "open")
        wrong = min(hidden - mines)  # a flag where no mine is: crossed out when the game is lost
        ActionChains(page).context_click(cell(page, "play", *wrong)).perform()
        settle(page)
        cell(page, "play", *mine).click()
        settle(page)
        assert text_of(page, "play-status").startswith("Boom")
        assert cells_with(page, "play", "exploded") == {mine}
        assert cells_with(page, "play", "wrong-flag") == {wrong}
        assert "gradient" in cell(page, "play", *wrong).value_of_css_property("background-image")
        assert not page.find_elements(By.CSS_SELECTOR, "#play-hint *") and not text_of(page, "play-hint")
        assert not page.find_element(By.ID, "play-legend").is_displayed()
        # Said as drawn: a screen reader heard "hidden" on the mine that exploded.
        said = lambda at: page.execute_script("return describe(arguments[0])", cell(page, "play", *at))
        assert said(mine) == "the mine that exploded" and said(wrong) == "flagged, but not a mine"
        others = sorted(mines - {mine})
        assert {said(m) for m in others} == {"a mine"}  # none flagged here

    def test_refused_level_leaves_no_old_board(self, page):
        """A custom level the library refuses: its message, and no board of the game before."""
        from satsweeper.game import Level
        load(page, "play")
        assert page.find_elements(By.CSS_SELECTOR, "#play-board .cell")
        Select(page.find_element(By.ID, "level")).select_by_value("custom")
        box = page.find_element(By.ID, "custom-level")
        box.clear()
        box.send_keys("5x5x30")
        page.find_element(By.ID, "new-game").click()
        settle(page)
        with pytest.raises(ValueError) as caught:
            Level.parse("5x5x30")
        assert text_of(page, "play-hint") == f"expected {caught.value}"  # the contract's words
        assert "error" in page.find_element(By.ID, "play-hint").get_attribute("class")
        assert text_of(page, "play-status") == "No game"
        assert not page.find_elements(By.CSS_SELECTOR, "#play-board .cell")

    @pytest.mark.parametrize("level, expected", [
        ("201x200x1", "expected a level of at most 40,000 squares to play here (got 201×200); "
                      "satsweeper bench plays bigger ones"),
        ("3x3x9", "expected at most 8 mines on 3x3, whose first click even in a corner is safe (got 9)")])
    def test_a_level_that_cannot_be_played_here_is_no_game(self, page, level, expected):
        """A level too large to draw was dealt "playing" with nothing to click ("the answers below
        are for all of it", and there were none); one no first click can start was dealt too."""
        load(page, "play")
        Select(page.find_element(By.ID, "level")).select_by_value("custom")
        box = page.find_element(By.ID, "custom-level")
        box.clear()
        box.send_keys(level)
        page.find_element(By.ID, "new-game").click()
        settle(page)
        assert text_of(page, "play-hint") == expected
        assert text_of(page, "play-status") == "No game"
        assert not page.find_elements(By.CSS_SELECTOR, "#play-board .cell")

    def test_probabilities_toggle(self, page):
        load(page, "play")
        cell(page, "play", 0, 0).click()
        settle(page)
        page.find_element(By.ID, "show-probs").click()
        settle(page)
        hidden = page.find_elements(By.CSS_SELECTOR, "#play-board .cell.hidden:not(.flag)")
        assert hidden and all(d.get_attribute("data-probability") for d in hidden)

    def test_no_probabilities_before_a_safe_first_click(self, page):
        """Before the first click (safe wherever it is) no cell shows the density (12% each,
        wrong for the cell clicked): the legend says why; after it, every hidden cell has one."""
        load(page, "play")
        page.find_element(By.ID, "show-probs").click()
        settle(page)
        assert not page.find_elements(By.CSS_SELECTOR, "#play-board .cell[data-probability]")
        assert text_of(page, "play-legend").startswith("No probabilities before the first click: it is safe")
        cell(page, "play", 4, 4).click()
        settle(page)
        hidden = page.find_elements(By.CSS_SELECTOR, "#play-board .cell.hidden:not(.flag)")
        assert hidden and all(d.get_attribute("data-probability") for d in hidden)
        assert text_of(page, "play-legend").startswith("mine probability")

    def test_a_failed_request_takes_back_no_move(self, page):
        """A Hint (or an Undo, or a redraw) whose request failed took back the player's last real
        move: the next answer was the blank board and "the first click is safe" (a probe stopped
        the server and started it again). Now the board after the failure is the library's
        replay of the same moves, and the next hint is the library's hint there."""
        from satsweeper.web.play import Deal, replay
        deal = Deal("beginner", "safe", False, 7)
        deal_and_open(page, 7)
        game, _ = replay(deal, [("open", 4, 4)])
        before = {(r, c) for r in range(9) for c in range(9)
                  if cell(page, "play", r, c).get_attribute("data-state") != "."}
        assert before == set(game.revealed)
        for button in ("hint-button", "undo"):
            fail_next_request(page, "/api/game")
            page.find_element(By.ID, button).click()
            settle(page)
            assert text_of(page, "play-hint") == "no answer from the server: is satsweeper serve still running?"
            assert page.find_element(By.ID, "undo").is_enabled()
        page.find_element(By.ID, "hint-button").click()
        settle(page)
        after = {(r, c) for r in range(9) for c in range(9)
                 if cell(page, "play", r, c).get_attribute("data-state") != "."}
        assert after == before
        expected = hint(game.board)
        assert cells_with(page, "play", "hinted") == {expected.cell}

    def test_undo(self, page):
        """Undo takes back one move that changed the board (a chord that opened nothing is
        not one), after a loss too, back to before the first click; the board each time is
        the library's replay of the moves left."""
        from satsweeper.web.play import Deal, layout, replay
        deal = Deal("beginner", "safe", False, 1)

        def shown() -> dict:
            return {(r, c): cell(page, "play", r, c).get_attribute("data-state") for r in range(9) for c in range(9)}

        def truth(moves) -> dict:
            game, _ = replay(deal, moves)
            return {(r, c): str(game.revealed[(r, c)]) if (r, c) in game.revealed
                    else "F" if (r, c) in game.flags else "." for r in range(9) for c in range(9)}

        load(page, "play")
        undo = page.find_element(By.ID, "undo")
        assert not undo.is_enabled()
        cell(page, "play", 4, 4).click()
        settle(page)
        opened, _ = replay(deal, [("open", 4, 4)])
        number = next(c for c, n in sorted(opened.revealed.items()) if n > 0)
        flag = next(c for c in sorted(opened.board.hidden_cells()) if c not in opened.board.neighbours(number))
        ActionChains(page).context_click(cell(page, "play", *flag)).perform()
        settle(page)
        cell(page, "play", *number).click()  # a chord with no flag around its number: nothing
        settle(page)
        assert shown() == truth([("open", 4, 4), ("flag", *flag)])
        mine = min(layout(deal, (4, 4)) - {flag})
        cell(page, "play", *mine).click()
        settle(page)
        assert text_of(page, "play-status").startswith("Boom")
        page.find_element(By.ID, "undo").click()
        settle(page)
        assert text_of(page, "play-status") == "mines left: 9"
        assert not cells_with(page, "play", "mine") and not cells_with(page, "play", "exploded")
        assert shown() == truth([("open", 4, 4), ("flag", *flag)])
        page.find_element(By.ID, "play-board").send_keys("u")  # the keyboard's undo
        settle(page)
        assert shown() == truth([("open", 4, 4)])
        page.find_element(By.ID, "undo").click()
        settle(page)
        assert set(shown().values()) == {"."} and not page.find_element(By.ID, "undo").is_enabled()
        cell(page, "play", 4, 4).click()  # the same first click: the same layout
        settle(page)
        assert shown() == truth([("open", 4, 4)])

    def test_probabilities_toggle_keeps_the_hint(self, page):
        """The hint's text and its ring stay together: ticking "probabilities" after
        "Hint" redrew the board without the ring while the text still named the cell."""
        load(page, "play")
        cell(page, "play", 4, 4).click()
        settle(page)
        page.find_element(By.ID, "hint-button").click()
        settle(page)
        ringed = cells_with(page, "play", "hinted")
        words = text_of(page, "play-hint")
        assert len(ringed) == 1 and words
        (row, col), = ringed
        assert words.split(":")[0].split()[1] == f"{row},{col}"
        for _ in range(2):  # on, then off again
            page.find_element(By.ID, "show-probs").click()
            settle(page)
            assert cells_with(page, "play", "hinted") == ringed
            assert text_of(page, "play-hint") == words

    def test_a_level_chosen_is_dealt(self, page):
        """Choosing a level deals its game at once, on the seed in the box (the list said
        Intermediate over the beginner board still in play); so do the rule and no-guess."""
        from satsweeper.web.play import Deal, layout
        load(page, "play")
        Select(page.find_element(By.ID, "level")).select_by_value("intermediate")
        settle(page)
        assert len(page.find_elements(By.CSS_SELECTOR, "#play-board .cell")) == 16 * 16
        assert text_of(page, "play-status") == "mines left: 40"
        assert page.find_element(By.ID, "seed").get_attribute("value") == "1"
        page.find_element(By.ID, "no-guess").click()
        settle(page)
        cell(page, "play", 0, 0).click()
        settle(page)
        # the no-guess deal's layout: every safe cell opened by the sure moves from 0,0
        mines = layout(Deal("intermediate", "safe", True, 1), (0, 0))
        assert not cells_with(page, "play", "open") & mines and text_of(page, "play-status") == "mines left: 40"

    def test_reload_keeps_the_game(self, page):
        """A reload put a fresh beginner game of seed 1 in place of the game being played."""
        from satsweeper.web.play import Deal, replay
        custom_game_opened(page, "12x8x10")
        game, _ = replay(Deal("12x8x10", "safe", False, 1), [("open", 0, 0)])
        flag = min(game.board.hidden_cells())
        ActionChains(page).context_click(cell(page, "play", *flag)).perform()
        settle(page)
        before = {(r, c): cell(page, "play", r, c).get_attribute("data-state") for r in range(8) for c in range(12)}
        page.refresh()
        settle(page)
        after = {(r, c): cell(page, "play", r, c).get_attribute("data-state") for r in range(8) for c in range(12)}
        assert after == before and before[flag] == "F"
        assert page.find_element(By.ID, "custom-level").get_attribute("value") == "12x8x10"
        assert page.find_element(By.ID, "undo").is_enabled()
        page.find_element(By.ID, "undo").click()  # the moves came back too
        settle(page)
        assert cell(page, "play", *flag).get_attribute("data-state") == "."

    def test_hint_after_the_end_says_why(self, page):
        """Hint after a loss did nothing, without a word."""
        from satsweeper.web.play import Deal, layout
        load(page, "play")
        cell(page, "play", 4, 4).click()
        settle(page)
        cell(page, "play", *min(layout(Deal("beginner", "safe", False, 1), (4, 4)))).click()
        settle(page)
        page.find_element(By.ID, "hint-button").click()
        settle(page)
        assert text_of(page, "play-hint").startswith("No hint: the game is lost.")

    def test_a_hinted_guess_that_loses_keeps_its_words(self, page):
        """The hint's chance of the guess that lost was wiped with the game: the player
        could not see what chance they had taken.  Played on the hints until one's guess
        is a mine (seeds in turn)."""
        from satsweeper.web.play import Deal, layout
        for seed in range(1, 30):
            deal_and_open(page, seed)
            mines = layout(Deal("beginner", "safe", False, seed), (4, 4))
            while text_of(page, "play-status").startswith("mines left"):
                page.find_element(By.ID, "hint-button").click()
                settle(page)
                hinted = page.execute_script("return game.hint")
                words = text_of(page, "play-hint")
                spot = cell(page, "play", hinted["cell"]["row"], hinted["cell"]["col"])
                if hinted["move"] == "flag":
                    ActionChains(page).context_click(spot).perform()
                else:
                    spot.click()
                settle(page)
                if not hinted["sure"] and (hinted["cell"]["row"], hinted["cell"]["col"]) in mines:
                    assert text_of(page, "play-status").startswith("Boom")
                    said = text_of(page, "play-hint")
                    assert said.startswith("Lost on the hinted guess; the hint said:")
                    assert said.endswith(words.split("\n", 1)[-1].strip())
                    return
        pytest.fail("no hinted guess was a mine in 29 games")

    def test_a_redraw_keeps_the_board_where_it_was_scrolled(self, page):
        """Ticking probabilities (a redraw) scrolled a wide board back to its left edge, and a
        hint near its right edge out of sight (a phone's expert game)."""
        custom_game_opened(page, "150x10x150")
        wrap = page.find_element(By.CSS_SELECTOR, "#mode-play .board-wrap")
        page.execute_script("arguments[0].scrollLeft = 1500", wrap)
        left = page.execute_script("return arguments[0].scrollLeft", wrap)
        assert left > 1000
        page.find_element(By.ID, "show-probs").click()
        settle(page)
        assert page.execute_script("return arguments[0].scrollLeft", wrap) == left

    def test_new_game_is_a_new_layout(self, page):
        """"New game" deals the next seed (it dealt seed 1 again and again: the same mines
        for the same first click); a seed typed in the box is dealt as typed, to replay a game."""
        from satsweeper.web.play import Deal, replay

        def shown() -> dict:
            return {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col"))):
                    "." if "hidden" in c.get_attribute("class") else c.text or "0"
                    for c in page.find_elements(By.CSS_SELECTOR, "#play-board .cell")}

        def truth(seed: int) -> dict:
            game, _ = replay(Deal("beginner", "safe", False, seed), [("open", 4, 4)])
            return {(r, c): str(game.revealed[(r, c)]) if (r, c) in game.revealed else "."
                    for r in range(9) for c in range(9)}

        load(page, "play")
        seeds = []
        for _ in range(3):
            page.find_element(By.ID, "new-game").click()
            settle(page)
            seeds.append(int(page.find_element(By.ID, "seed").get_attribute("value")))
        assert seeds == [2, 3, 4]
        cell(page, "play", 4, 4).click()
        settle(page)
        assert shown() == truth(4)
        box = page.find_element(By.ID, "seed")
        box.clear()
        box.send_keys("2")
        page.find_element(By.ID, "new-game").click()
        settle(page)
        assert box.get_attribute("value") == "2"
        cell(page, "play", 4, 4).click()
        settle(page)
        assert shown() == truth(2) != truth(4)

    def test_an_emptied_seed_box_deals_the_next_seed(self, page):
        """A seed box left empty deals the next seed and shows it (it dealt seed 0 and
        the box stayed empty: the game on the board had no seed to replay it by)."""
        load(page, "play")
        box = page.find_element(By.ID, "seed")
        dealt = int(box.get_attribute("value"))
        box.clear()
        page.find_element(By.ID, "new-game").click()
        settle(page)
        assert box.get_attribute("value") == str(dealt + 1)
        assert page.execute_script("return game.deal.seed") == dealt + 1

    @pytest.mark.parametrize("ask", ["show-probs", "hint-button"])
    def test_too_many_flags_outlined(self, page, ask):
        """Flags that overfill a number: the number is outlined and named, whether the
        probabilities or the hint found it (the probabilities went blank without a word,
        and the hint named the number without outlining it)."""
        from satsweeper.web.play import Deal, replay
        load(page, "play")
        Select(page.find_element(By.ID, "rule")).select_by_value("opening")
        page.find_element(By.ID, "new-game").click()
        settle(page)
        deal = Deal("beginner", "opening", False, int(page.find_element(By.ID, "seed").get_attribute("value")))
        game, _ = replay(deal, [("open", 4, 4)])
        number, flags = next((c, hidden) for c, n in sorted(game.revealed.items())
                             for hidden in [[x for x in game.board.neighbours(c) if x not in game.revealed]]
                             if 0 < n < len(hidden))
        flags = flags[:game.revealed[number] + 1]  # one flag more than the number allows: it alone cannot hold
        cell(page, "play", 4, 4).click()
        settle(page)
        for flag in flags:
            ActionChains(page).context_click(cell(page, "play", *flag)).perform()
            settle(page)
        page.find_element(By.ID, ask).click()
        settle(page)
        assert cells_with(page, "play", "conflict") == {number}
        assert f"the {game.revealed[number]} at {number[0]},{number[1]} cannot hold" in text_of(page, "play-hint")
        assert not cells_with(page, "play", "hinted")


class TestLaptop:
    @pytest.mark.parametrize("level, rows, cols", [("expert", 16, 30), ("intermediate", 16, 16)])
    def test_the_whole_board_in_sight(self, level, rows, cols):
        """At 1366x768 an expert board scrolled both ways in its box (32 px cells, the last column
        under the scroll bar) and intermediate's lower rows sat below the fold: every cell is
        drawn inside the box now, which scrolls neither way."""
        with live_server() as url, chromium(1366, 768) as driver:
            driver.get(url + "#play")
            settle(driver)
            Select(driver.find_element(By.ID, "level")).select_by_value(level)
            driver.find_element(By.ID, "new-game").click()
            settle(driver)
            box = driver.execute_script("""const w = document.querySelector('#play-board').parentElement;
                return [w.clientWidth, w.scrollWidth, w.clientHeight, w.scrollHeight,
                        document.querySelectorAll('#play-board .cell').length]""")
            assert box[1] <= box[0] and box[3] <= box[2] and box[4] == rows * cols, box


    @pytest.mark.parametrize("width", [500, 515])
    def test_a_gadget_fits_when_the_page_scroll_bar_comes(self, width):
        """The page's scroll bar, which comes with the drawing, took the width the XOR's cells
        were fitted to: it overflowed its box by 9 to 13 px (scrolled sideways); refitted then,
        a gadget just tall enough for the bar at 3 px cells and not at 2 flipped it on and off
        (balanced-or-tile at 515 px, 12 px over).  The bar's room is kept now."""
        with live_server() as url, chromium(width, 900) as driver:
            driver.get(url + "#gadgets")
            settle(driver)
            for name in ("xor", "and", "balanced-or-tile", "balanced-and"):
                Select(driver.find_element(By.ID, "gadget-name")).select_by_value(name)
                settle(driver)
                time.sleep(0.3)  # any refit comes with a later frame
                box = driver.execute_script("""const w = document.querySelector('#gadget-board').parentElement;
                    return [w.clientWidth, w.scrollWidth]""")
                assert box[1] <= box[0], (name, box)


class TestKeyboardAndScreenReader:
    """What a keyboard and a screen reader meet (a player who used only them found each)."""

    def test_the_mine_that_exploded_is_said(self, page):
        """Enter on a mine: the board's label says so at once (it said "hidden" until the
        cursor moved away and back: the label was made before the mines were marked)."""
        from satsweeper.web.play import Deal, replay
        load(page, "play")
        board = page.find_element(By.ID, "play-board")
        board.send_keys(Keys.ENTER)  # 0,0: the first click, safe
        settle(page)
        game, _ = replay(Deal("beginner", "safe", False, 1), [("open", 0, 0)])
        mine = min(game.mines, key=lambda m: (m[0] + m[1], m))  # the library's layout: a mine near
        board.send_keys(*[Keys.ARROW_DOWN] * mine[0], *[Keys.ARROW_RIGHT] * mine[1], Keys.ENTER)
        settle(page)
        assert text_of(page, "play-status").startswith("Boom")
        assert f"cell {mine[0]},{mine[1]}: the mine that exploded" in board.get_attribute("aria-label")

    def test_an_explanations_mines_are_said(self, page):
        """Is 1,2 safe? No: the explanation drawn has its mines listed in the answer, and the
        cursor on one says it is one (Analyse said only its chance). Oracle: the mines listed
        are an explanation of the board, 1,2 among them."""
        text = "mines: 4\n.1...\n.2...\n.....\n"
        load(page, "analyse")
        paste(page, text)
        board = page.find_element(By.ID, "analyse-board")
        board.send_keys(Keys.ARROW_DOWN, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ENTER)
        settle(page)
        drawn = cells_with(page, "analyse", "explained")
        assert frozenset(drawn) in oracle.explanations(problem_of(parse_puzzle(text).board))
        assert (1, 2) in drawn
        said = text_of(page, "analyse-answer")
        assert "purple dots are its mines: " in said
        listed = said.split("purple dots are its mines: ")[1].split(")")[0]
        assert {tuple(map(int, c.split(","))) for c in listed.split("; ")} == drawn  # "; ": a cell is "r,c"
        r, c = max(drawn)  # moved onto a mine of the explanation
        board.send_keys(*[Keys.ARROW_DOWN] * (r - 1), *([Keys.ARROW_RIGHT] * (c - 2) if c >= 2 else [Keys.ARROW_LEFT] * (2 - c)))
        assert f"cell {r},{c}: hidden, mine probability" in board.get_attribute("aria-label")
        assert "; a mine in the explanation drawn" in board.get_attribute("aria-label")

    def test_the_first_tab_reaches_the_modes(self, page):
        """The address's #analyse named the section of that id, and the first Tab went past the
        mode buttons to the board's controls."""
        load(page, "analyse")
        ActionChains(page).send_keys(Keys.TAB).perform()
        assert page.execute_script("return document.activeElement.closest('#tabs') !== null")

    def test_arrowing_through_the_levels_keeps_the_game(self, page):
        """ArrowDown on the level select dealt a new game at once (a change at every arrow):
        now the game stays until Enter chooses the level."""
        deal_and_open(page, 21)
        level = page.find_element(By.ID, "level")
        level.send_keys(Keys.ARROW_DOWN)
        settle(page)
        assert Select(level).first_selected_option.get_attribute("value") == "intermediate"
        assert cell(page, "play", 4, 4).get_attribute("data-state") != "."  # the game on the board
        assert len(page.find_elements(By.CSS_SELECTOR, "#play-board .cell")) == 81
        level.send_keys(Keys.ENTER)
        settle(page)
        assert len(page.find_elements(By.CSS_SELECTOR, "#play-board .cell")) == 16 * 16
        # A click (no key) still deals at once.
        Select(level).select_by_value("beginner")
        settle(page)
        assert len(page.find_elements(By.CSS_SELECTOR, "#play-board .cell")) == 81

    def test_undo_leaves_the_focus_on_the_board(self, page):
        """Undo of the last move left disables Undo, and its focus fell to the page's body: a
        keyboard or screen reader user lost their place. The board takes it."""
        deal_and_open(page, 21)
        undo = page.find_element(By.ID, "undo")
        page.execute_script("arguments[0].focus()", undo)
        undo.send_keys(Keys.ENTER)
        settle(page)
        assert undo.get_attribute("disabled")
        assert page.execute_script("return document.activeElement.id") == "play-board"

    def test_a_move_is_said_once_and_the_status_only_when_it_changes(self, page):
        """What Enter or F did goes to a live region (it was only in the focused board's
        changing label, which screen readers do not reliably speak), and the status line,
        "mines left: 10", was said again after every move and every H. Oracle: the library's
        replay of the moves (what the cell shows, how many cells opened)."""
        from satsweeper.web.play import Deal, replay
        load(page, "play")
        page.execute_script(LIVE_LISTENER)
        board = page.find_element(By.ID, "play-board")
        board.send_keys(Keys.ENTER)  # 0,0, the first click
        settle(page)
        game, _ = replay(Deal("beginner", "safe", False, 1), [("open", 0, 0)])
        opened = len(game.revealed)
        shown = game.revealed[(0, 0)]
        assert heard(page) == [("play-said", f"0,0 shows {shown}" + (f": {opened} cells opened" if opened > 1 else ""))]
        board.send_keys("h")
        settle(page)
        assert [r for r, _ in heard(page)] == ["play-hint"]  # the hint, not the status again
        hidden = next((r, c) for r in range(9) for c in range(9) if (r, c) not in game.revealed)
        board.send_keys(*[Keys.ARROW_DOWN] * hidden[0], *[Keys.ARROW_RIGHT] * hidden[1], "f")
        settle(page)
        said = heard(page)
        assert ("play-said", f"{hidden[0]},{hidden[1]} flagged") in said
        assert ("play-status", "mines left: 9") in said

    def test_auto_play_says_how_it_ended_once(self, page):
        """One press of Auto-play made 146 announcements (each move's hint, then the status):
        now one, how the game ended, as the status says it."""
        no_guess_game_opened(page)
        page.execute_script(LIVE_LISTENER)
        page.find_element(By.ID, "auto-play").click()
        WebDriverWait(page, 120).until(lambda d: text_of(d, "auto-play") == "Auto-play")
        settle(page)
        assert text_of(page, "play-status").startswith("You won")
        assert heard(page) == [("play-said", "Auto-play ended: You won! Every safe cell is open.")]
        assert page.find_element(By.ID, "play-status").get_attribute("aria-live") == "polite"

    def test_a_move_chosen_when_auto_play_stops_is_dropped(self, page):
        """Stop between auto-play's choosing a move and playing it left the move in the game's
        moves, unplayed: the next key played it too, unsaid (a flag opened 13 cells). Now it is
        dropped, and the board is the library's replay of the moves kept."""
        from satsweeper.web.play import Deal, replay
        deal_and_open(page, 21)
        # Stop is pressed the moment auto-play has chosen its first move
        page.execute_script("""const m = game.moves, push = m.push.bind(m);
            m.push = (...x) => { const r = push(...x); m.push = push;
                                 document.getElementById('auto-play').click(); return r; };""")
        page.find_element(By.ID, "auto-play").click()
        WebDriverWait(page, 60).until(lambda d: text_of(d, "auto-play") == "Auto-play")
        settle(page)
        time.sleep(0.2)  # past the loop's pause
        moves = [tuple(m) for m in page.execute_script("return game.moves")]
        assert moves == [("open", 4, 4)]
        game, _ = replay(Deal("beginner", "safe", False, 21), moves)
        hidden = next((r, c) for r in range(9) for c in range(9) if (r, c) not in game.revealed)
        page.execute_script(LIVE_LISTENER)
        board = page.find_element(By.ID, "play-board")
        page.execute_script("arguments[0].focus()", board)
        board.send_keys(*[Keys.ARROW_UP] * 4, *[Keys.ARROW_LEFT] * 4,
                        *[Keys.ARROW_DOWN] * hidden[0], *[Keys.ARROW_RIGHT] * hidden[1], "f")
        settle(page)
        game, _ = replay(Deal("beginner", "safe", False, 21), moves + [("flag", *hidden)])
        shown = {(r, c) for r in range(9) for c in range(9) if cell(page, "play", r, c).get_attribute("data-state") not in ".F"}
        assert shown == set(game.revealed)
        assert ("play-said", f"{hidden[0]},{hidden[1]} flagged") in heard(page)

    def test_a_chord_says_what_it_opened(self, page):
        """A chord said only how many cells it opened; now which, and what each shows (a single
        open said so already). Oracle: the library's replay of the same moves."""
        from satsweeper.web.play import Deal, replay
        deal, first = Deal("beginner", "safe", False, 21), [("open", 4, 4)]
        game, _ = replay(deal, first)
        # a number beside hidden cells: its mines flagged (the layout's), then chorded
        for (r, c), n in sorted(game.revealed.items()):
            around = [(r + a, c + b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a or b) and 0 <= r + a < 9
                      and 0 <= c + b < 9 and (r + a, c + b) not in game.revealed]
            mines = [x for x in around if x in game.mines]
            if n and len(mines) == n and len(around) > n:
                break
        flags = [("flag", *m) for m in mines]
        after, _ = replay(deal, first + flags + [("chord", r, c)])
        opened = sorted(set(after.revealed) - set(game.revealed))
        assert 0 < len(opened) <= 8
        deal_and_open(page, 21)
        for m in mines:
            ActionChains(page).context_click(cell(page, "play", *m)).perform()
            settle(page)
        page.execute_script(LIVE_LISTENER)
        cell(page, "play", r, c).click()
        settle(page)
        listed = "; ".join(f"{x},{y} shows {after.revealed[(x, y)]}" for x, y in opened)
        assert heard(page) == [("play-said", f"chord at {r},{c}: {counted(len(opened), 'cell')} opened: {listed}")]

    def test_undo_and_a_new_game_are_said(self, page):
        """Undo said nothing (the last move's words stayed, describing a board no longer
        there), and a new game nothing when "mines left" read the same."""
        deal_and_open(page, 21)
        page.execute_script(LIVE_LISTENER)
        board = page.find_element(By.ID, "play-board")
        page.execute_script("arguments[0].focus()", board)
        board.send_keys("u")
        settle(page)
        assert heard(page) == [("play-said", "took back opening 4,4")]
        board.send_keys("u")
        settle(page)
        assert heard(page) == [("play-said", "nothing to take back")]
        page.find_element(By.ID, "new-game").click()
        settle(page)
        assert heard(page) == [("play-said", "new game: 9×9, 10 mines, seed 22")]

    def test_titles_and_headings(self, page):
        """The tab's title said "satsweeper" in every mode and after a win or a loss, and the
        page had one heading: a screen reader had nothing to jump by."""
        from satsweeper.web.play import Deal, replay
        load(page, "analyse")
        assert page.title == "satsweeper: Analyse"
        headings = page.execute_script("return [...document.querySelectorAll('h2')].map((h) => h.closest('section').id)")
        assert headings == ["mode-analyse", "mode-play", "mode-gadgets"]
        deal_and_open(page, 1)
        assert page.title == "satsweeper: Play"
        game, _ = replay(Deal("beginner", "safe", False, 1), [("open", 4, 4)])
        mine = min(game.mines)
        cell(page, "play", *mine).click()
        settle(page)
        assert page.title == "satsweeper: Play (lost)"

    def test_the_safe_cells_are_named(self, page):
        """"4 safe cells" said which only by the green rings: a screen reader walked the board.
        Oracle: brute force over the board's explanations."""
        text = "mines: 4\n011..\n12...\n.....\n"
        load(page, "analyse")
        paste(page, text)
        board = parse_puzzle(text).board
        layouts = oracle.explanations(problem_of(board))
        hidden = sorted(board.hidden_cells())
        safe = [c for c in hidden if not any(c in m for m in layouts)]
        mines = [c for c in hidden if all(c in m for m in layouts)]
        assert safe and mines
        said = text_of(page, "analyse-hint")
        assert f"{counted(len(safe), 'safe cell')} ({'; '.join(f'{r},{c}' for r, c in safe)})" in said
        assert f"{counted(len(mines), 'certain mine')} ({'; '.join(f'{r},{c}' for r, c in mines)})" in said

    def test_names_and_live_regions(self, page):
        """The number to draw is named (it was a nameless combobox), and the gadget's verdict
        and case are live regions (toggling an input changed them silently)."""
        load(page, "analyse")
        assert page.find_element(By.ID, "tool-number").get_attribute("aria-label")
        for box in ("gadget-verdict", "gadget-case"):
            assert page.find_element(By.ID, box).get_attribute("aria-live") == "polite"


class TestGadgets:
    def test_arrowing_through_the_gadgets_asks_for_none(self, page):
        """The arrow keys on the gadget list asked the server for every gadget passed (11
        queries, 22 announcements from wire-h to xor); now the choice waits for Enter, as the
        level list does."""
        load(page, "gadgets")
        page.execute_script("window.queries = 0; const f = window.fetch;"
                            "window.fetch = (...a) => { if (String(a[0]).endsWith('/gadget')) window.queries++; return f(...a); }")
        select = page.find_element(By.ID, "gadget-name")
        first = select.get_attribute("value")
        select.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
        settle(page)
        assert page.execute_script("return window.queries") == 0
        select.send_keys(Keys.ENTER)
        settle(page)
        assert page.execute_script("return window.queries") == 1
        chosen = select.get_attribute("value")
        assert chosen != first and text_of(page, "gadget-verdict").startswith(chosen + ":")

    def test_a_toggle_says_the_case_not_the_same_verdict(self, page):
        """Each input toggled said the gadget's verdict again, the same for every input. The
        cases table has a name and its last column a header (a screen reader heard "BAD" with
        no column)."""
        load(page, "gadgets")
        Select(page.find_element(By.ID, "gadget-name")).select_by_value("and")
        settle(page)
        page.execute_script(LIVE_LISTENER)
        page.find_element(By.CSS_SELECTOR, "#gadget-inputs input").click()
        settle(page)
        assert [region for region, _ in heard(page)] == ["gadget-case"]
        table = page.find_element(By.ID, "gadget-cases")
        assert table.get_attribute("aria-label")
        assert all(th.text for th in table.find_elements(By.TAG_NAME, "th"))

    def test_inputs_and_outputs_told_apart(self, page):
        """AND's ports: u and v, the inputs, blue; t, the output, orange (every port was blue,
        with no key at a size where numbers show). Oracle: the library's ports."""
        from satsweeper.web.library import built
        load(page, "gadgets")
        page.find_element(By.CSS_SELECTOR, "#gadget-name option")
        Select(page.find_element(By.ID, "gadget-name")).select_by_value("and")
        settle(page)
        gadget = built("and")
        outs = [p for p in gadget.outputs if p not in gadget.inputs]
        assert cells_with(page, "gadget", "out") == {gadget.cell(p) for p in outs}
        assert cells_with(page, "gadget", "port-cell") == {gadget.cell(p) for p in gadget.ports()}
        at = lambda p: "{},{}".format(*gadget.cell(p))  # noqa: E731
        key = text_of(page, "gadget-key")
        assert key.startswith(f"Inputs (blue): {at('u')} ".replace(at("u"), f"u at {at('u')}"))
        assert f"output (orange): t at {at('t')}." in key

    def test_every_named_cell_carries_its_name(self, page):
        """Kaye's AND names 40-odd cells besides its ports (s, x, t1, u'2 ...), as gadget draw
        writes them and the claims use them: each carries its name on the page and is said with
        it (only the ports were). Oracle: the library's board names."""
        from satsweeper.web.library import built
        load(page, "gadgets")
        page.find_element(By.CSS_SELECTOR, "#gadget-name option")
        Select(page.find_element(By.ID, "gadget-name")).select_by_value("and")
        settle(page)
        gadget = built("and")
        others = {cell: name for cell, name in gadget.board.names.items() if name not in gadget.ports()}
        assert len(others) > 30
        shown = page.execute_script(
            "return [...document.querySelectorAll('#gadget-board .cell')].filter((d) => d.querySelector('.name'))"
            ".map((d) => [+d.dataset.row, +d.dataset.col, d.querySelector('.name').textContent])")
        assert {(r, c): name for r, c, name in shown} == others
        said = page.execute_script("return describe(document.querySelector("
                                   "'#gadget-board .cell[data-row=\"4\"][data-col=\"8\"]'))")
        assert others[(4, 8)] == "s" and said == "named s; hidden"

    def test_explored_from_the_keyboard(self, page):
        """The gadget's board takes the focus and the arrow keys as the others do: each port
        said with its side, each explanation mine said (it could not be reached). Oracle:
        the library's ports and a brute-force explanation check of the mines drawn."""
        from satsweeper.web.library import built
        load(page, "gadgets")
        page.find_element(By.CSS_SELECTOR, "#gadget-name option")
        Select(page.find_element(By.ID, "gadget-name")).select_by_value("not")
        settle(page)
        gadget, board = built("not"), page.find_element(By.ID, "gadget-board")
        assert board.get_attribute("tabindex") == "0"
        at = (0, 0)
        for port in gadget.ports():
            r, c = gadget.cell(port)
            board.send_keys(*([Keys.ARROW_DOWN] * (r - at[0]) if r >= at[0] else [Keys.ARROW_UP] * (at[0] - r)),
                            *([Keys.ARROW_RIGHT] * (c - at[1]) if c >= at[1] else [Keys.ARROW_LEFT] * (at[1] - c)))
            at = (r, c)
            side = "an output" if port in gadget.outputs and port not in gadget.inputs else "an input"
            assert f"cell {r},{c}: port {port}, {side}; " in board.get_attribute("aria-label")
        drawn = frozenset(cells_with(page, "gadget", "explained"))
        assert drawn | gadget.board.flags in {e | gadget.board.flags for e in oracle.explanations(problem_of(gadget.board))}

    def test_a_case_with_no_explanation_shows_why(self, page):
        """forced-end with a=0 has no explanation: the numbers that cannot all hold are
        outlined and named, as gadget draw does (the page drew the bare board). Oracle: those
        numbers and the input alone have no explanation (brute force)."""
        from satsweeper.constraints import Constraint, Problem
        from satsweeper.web.library import built
        load(page, "gadgets")
        page.find_element(By.CSS_SELECTOR, "#gadget-name option")
        Select(page.find_element(By.ID, "gadget-name")).select_by_value("forced-end")
        settle(page)
        assert "no explanation" in text_of(page, "gadget-case") and "cannot all hold" in text_of(page, "gadget-case")
        outlined = cells_with(page, "gadget", "conflict")
        gadget = built("forced-end")
        base = problem_of(gadget.board)
        rules = [r for r in base.constraints if r.origin.cell in outlined]
        pinned = Constraint(frozenset({gadget.cell("a")}), 0, "a=0")
        cells = sorted({c for r in rules for c in r.cells} | {gadget.cell("a")})
        assert outlined and len(rules) == len(outlined)
        assert not oracle.explanations(Problem(tuple(cells), tuple(rules) + (pinned,)))

    def test_not_gadget(self, page):
        """The NOT gadget with input 1: its output forced safe, one explanation, verdict yes."""
        from satsweeper.web.library import built
        load(page, "gadgets")
        page.find_element(By.CSS_SELECTOR, "#gadget-name option")
        Select(page.find_element(By.ID, "gadget-name")).select_by_value("not")
        settle(page)
        page.find_element(By.CSS_SELECTOR, "#gadget-inputs input").click()
        settle(page)
        assert "computes its claim: yes" in text_of(page, "gadget-verdict")
        gadget = built("not")
        drawn = frozenset(cells_with(page, "gadget", "explained"))
        x, y = gadget.cell("x"), gadget.cell(next(iter(gadget.outputs)))
        assert x in drawn and y not in drawn
        # The drawing is an explanation: every number sees exactly its count of mines.
        board = gadget.board
        mines = drawn | board.flags
        for where, number in board.clues.items():
            assert sum(n in mines for n in board.neighbours(where)) == number
        assert "exactly one explanation" in text_of(page, "gadget-case")
        current = page.find_element(By.CSS_SELECTOR, "#gadget-cases tr.current")
        assert [td.text for td in current.find_elements(By.TAG_NAME, "td")][:1] == ["1"]

    def test_a_slower_earlier_answer_never_replaces_a_newer_one(self, page):
        """Inputs set twice quickly: the answer for the first setting, arriving last,
        does not replace the second's (the drawing showed x=1 beside an unticked box)."""
        load(page, "gadgets")
        Select(page.find_element(By.ID, "gadget-name")).select_by_value("not")
        settle(page)
        # The next answer for the gadget is held back 1.5 s, as a busy worker would.
        hold_first_answer(page, "/api/gadget")
        box = page.find_element(By.CSS_SELECTOR, "#gadget-inputs input")
        box.click()  # x=1: its answer is the one held back
        box.click()  # x=0 again
        settle(page)
        page.execute_script("return new Promise((done) => setTimeout(done, 1800))")
        settle(page)
        assert not box.is_selected()
        assert text_of(page, "gadget-case").startswith("inputs x=0:")
        current = page.find_element(By.CSS_SELECTOR, "#gadget-cases tr.current")
        assert [td.text for td in current.find_elements(By.TAG_NAME, "td")][:1] == ["0"]

    def test_large_gadget_drawn_whole(self, page):
        """A gadget far wider than the page is drawn whole (no scrolling), its
        explanation a layout that satisfies every number; zoom makes it scroll."""
        from satsweeper.web.library import built
        load(page, "gadgets")
        page.find_element(By.CSS_SELECTOR, "#gadget-name option")
        Select(page.find_element(By.ID, "gadget-name")).select_by_value("balanced-cross")
        settle(page)
        board = built("balanced-cross").board
        wrap = page.find_element(By.CSS_SELECTOR, "#mode-gadgets .board-wrap")
        width = lambda: page.execute_script("return [arguments[0].scrollWidth, arguments[0].clientWidth]", wrap)
        scroll, client = width()
        assert board.width > 100 and scroll <= client
        mines = frozenset(cells_with(page, "gadget", "explained")) | board.flags
        for where, number in board.clues.items():
            assert sum(n in mines for n in board.neighbours(where)) == number
        # Too small for numbers: a key says what the colours are and where each port is (there was none)
        key = text_of(page, "gadget-key")
        gadget = built("balanced-cross")
        assert key.startswith("too small for numbers: dark grey, a hidden square; blue, an input; orange, an output;")
        assert all(f"{p} at {gadget.cell(p)[0]},{gadget.cell(p)[1]}" in key for p in (*gadget.inputs, *gadget.outputs))
        page.find_element(By.ID, "gadget-zoom").click()
        settle(page)
        scroll, client = width()
        assert scroll > client and text_of(page, "gadget-key").startswith("Inputs (blue): ")  # numbers show
        # zoomed in, the first port is in sight (the box opened at its empty top-left corner)
        first = gadget.cell(gadget.inputs[0])
        port = page.find_element(By.CSS_SELECTOR, f"#gadget-board .cell[data-row='{first[0]}'][data-col='{first[1]}']")
        assert page.execute_script("const b = arguments[0].getBoundingClientRect(), w = arguments[1].getBoundingClientRect();"
                                   "return b.left >= w.left && b.right <= w.right && b.top >= w.top && b.bottom <= w.bottom",
                                   port, wrap)


    @pytest.mark.parametrize("name", ["and", "and-tile", "wire-v"])
    def test_tall_gadget_seen_whole(self, page, name):
        """A gadget taller than the box is drawn whole too, no scroll bar either way:
        every port inside the box in sight (Kaye's AND scrolled both ways at 1280x900,
        its input v below the fold)."""
        from satsweeper.web.library import built
        load(page, "gadgets")
        page.find_element(By.CSS_SELECTOR, "#gadget-name option")
        Select(page.find_element(By.ID, "gadget-name")).select_by_value(name)
        settle(page)
        gadget = built(name)
        wrap = page.find_element(By.CSS_SELECTOR, "#mode-gadgets .board-wrap")
        sizes = page.execute_script("const w = arguments[0]; return [w.scrollWidth, w.clientWidth, "
                                    "w.scrollHeight, w.clientHeight]", wrap)
        assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3], sizes
        box = wrap.rect
        for port in gadget.ports():
            row, col = gadget.cell(port)
            r = cell(page, "gadget", row, col).rect
            assert box["y"] <= r["y"] and r["y"] + r["height"] <= box["y"] + box["height"], port
            assert box["x"] <= r["x"] and r["x"] + r["width"] <= box["x"] + box["width"], port
        assert cell(page, "gadget", *gadget.cell(gadget.inputs[0])).rect["width"] >= 18

class TestPhone:
    """At 390 px wide nothing widens the page past the screen: boards and tables scroll in their own boxes."""

    @pytest.fixture(scope="class")
    @classmethod
    def phone(cls):
        with live_server() as url, chromium(390, 844) as driver:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
            driver.url = url
            yield driver

    @staticmethod
    def widths(driver) -> tuple[int, int]:
        return tuple(driver.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"))

    def test_modes_fit(self, phone):
        """Analyse (the expert example), Play (expert) and Gadgets (the widest table) fit."""
        load(phone, "analyse")
        Select(phone.find_element(By.ID, "example")).select_by_value("expert.txt")
        settle(phone)
        assert phone.find_elements(By.CSS_SELECTOR, "#analyse-board .cell.hinted")
        scroll, client = self.widths(phone)
        assert client <= 390 and scroll <= client
        load(phone, "play")
        Select(phone.find_element(By.ID, "level")).select_by_value("expert")
        phone.find_element(By.ID, "new-game").click()
        settle(phone)
        cell(phone, "play", 8, 15).click()
        settle(phone)
        scroll, client = self.widths(phone)
        assert scroll <= client
        # squares a finger can tap (they were 18 px), the board scrolling in its box
        assert cell(phone, "play", 8, 15).rect["width"] >= 28
        load(phone, "gadgets")
        phone.find_element(By.CSS_SELECTOR, "#gadget-name option")
        Select(phone.find_element(By.ID, "gadget-name")).select_by_value("crossover")
        settle(phone)
        scroll, client = self.widths(phone)
        assert scroll <= client

    def test_hinted_cell_in_sight(self, phone):
        """On a board wider than the phone, the hinted cell (the library's hint) is
        scrolled into the board's box: the ring the words point at can be seen."""
        text = (EXAMPLES / "expert.txt").read_text()
        wanted = hint(parse_puzzle(text).board).cell
        assert wanted[1] * 18 > 390  # off the screen unless scrolled to
        load(phone, "analyse")
        menu = phone.find_element(By.ID, "example")
        phone.execute_script("arguments[0].scrollIntoView()", menu)  # where a finger picks the example
        Select(menu).select_by_value("expert.txt")
        settle(phone)
        ringed = cell(phone, "analyse", *wanted)
        assert "hinted" in ringed.get_attribute("class").split()
        # in its box and in the window (the page was left at the menu, below the board)
        inside = phone.execute_script("""
            const c = arguments[0].getBoundingClientRect();
            const b = arguments[0].closest('.board-wrap').getBoundingClientRect();
            return c.left >= b.left && c.right <= b.right && c.top >= b.top && c.bottom <= b.bottom
                && c.left >= 0 && c.right <= document.documentElement.clientWidth
                && c.top >= 0 && c.bottom <= window.innerHeight;""", ringed)
        assert inside
        # drawing on the board's left part: the view stays there, it does not jump to the hint
        wrap = phone.find_element(By.CSS_SELECTOR, "#mode-analyse .board-wrap")
        phone.execute_script("arguments[0].scrollLeft = 0", wrap)
        phone.find_element(By.CSS_SELECTOR, "input[name=tool][value=F]").click()
        cell(phone, "analyse", 0, 0).click()
        settle(phone)
        assert cell(phone, "analyse", 0, 0).get_attribute("data-state") == "F"
        assert cells_with(phone, "analyse", "hinted")  # a hint drawn, out of sight
        assert phone.execute_script("return arguments[0].scrollLeft", wrap) == 0

    def test_large_board_drawn_where_scrolled(self, phone):
        """A 200x200 board fits the phone's width (it scrolls in its box); scrolled down the
        page and across the box, the cells in sight are drawn (they take the taps) and those
        far away are not laid out."""
        text = "mines: 6000\n" + ("." * 200 + "\n") * 200
        load(phone, "analyse")
        paste(phone, text)
        scroll, client = self.widths(phone)
        assert client <= 400 and scroll <= client
        size = cell(phone, "analyse", 0, 0).rect["width"]
        phone.execute_script(f"document.querySelector('#mode-analyse .board-wrap').scrollLeft = {size} * 90")
        settle(phone)  # the box scrolled across, then (another frame) the page down
        phone.execute_script(f"window.scrollTo(0, document.querySelector('#analyse-board').offsetTop + {size} * 120)")
        settle(phone)
        # The runs are drawn when the scroll events are handled, at the next frame: on a
        # loaded machine (the suite's two workers beside other jobs) that came after the
        # first look, so the test waits for it, up to 10 s.
        WebDriverWait(phone, 10, poll_frequency=0.05).until(lambda d: d.execute_script("""
            const h = document.documentElement.clientHeight, w = document.documentElement.clientWidth;
            const e = document.elementFromPoint(w / 2, h / 2);
            return !!(e && e.closest('.cell'));"""), "the cell in the middle of the screen is not drawn")
        drawn = phone.execute_script("""
            const h = document.documentElement.clientHeight, w = document.documentElement.clientWidth;
            const c = document.elementFromPoint(w / 2, h / 2).closest('.cell');
            return [+c.dataset.row, +c.dataset.col, document.querySelectorAll('#analyse-board .run:not(.far)').length];""")
        row, col, runs = drawn
        assert 110 <= row <= 180 and 85 <= col <= 120
        assert runs < 2000 / 4  # of 2,000 runs of 20 cells, only those near the screen
        cell(phone, "analyse", row, col).click()
        settle(phone)
        assert text_of(phone, "analyse-answer").startswith(f"{row},{col} is not safe (mine probability 3/20)")

    def test_api_page_fits(self, phone):
        phone.get(phone.url + "api.html")
        WebDriverWait(phone, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "section.endpoint"))
        scroll, client = self.widths(phone)
        assert scroll <= client

    def test_play_controls_above_the_board(self, phone):
        """On a phone the controls come below the board, and so did Hint and flag mode (the
        touch screen's right click): cut by the screen's edge at 740 px, below it in landscape.
        They are now above the board, in sight with it after a new game."""
        load(phone, "play")
        Select(phone.find_element(By.ID, "level")).select_by_value("intermediate")
        phone.find_element(By.ID, "new-game").click()
        settle(phone)
        seen = phone.execute_script("""
            const h = window.innerHeight, board = document.getElementById('play-board').getBoundingClientRect();
            return ['hint-button', 'flag-mode'].map((id) => {
                const r = document.getElementById(id).closest('label, button').getBoundingClientRect();
                return r.top >= 0 && r.bottom <= h && r.bottom <= board.top; });""")
        assert seen == [True, True]

    @pytest.mark.parametrize("mode", ["analyse", "play", "gadgets"])
    def test_every_target_a_finger_can_hit(self, phone, mode):
        """WCAG 2.2's 24 px target size (2.5.8): check boxes were 13 px, lists 19; a check box
        (and the file input, out of sight) counts with its label, which takes the tap too."""
        load(phone, mode)
        settle(phone)
        small = phone.execute_script("""
            const out = [];
            for (const e of document.querySelectorAll('#' + arguments[0] + ' :is(select, button, input, summary, label.file)')) {
                const target = e.matches('input[type=checkbox], input[type=radio], input[type=file]') ? e.closest('label') || e : e;
                const r = target.getBoundingClientRect();
                if (r.width && r.height && (r.width < 24 || r.height < 24)) out.push([e.id || e.outerHTML.slice(0, 60), r.width, r.height]);
            }
            return out;""", mode)
        assert small == []

    def test_text_at_least_12_px(self, phone):
        """A hint's words were 11.2 px on a phone, a gadget's cases 11.5."""
        load(phone, "analyse")
        sizes = phone.execute_script("""
            const probe = (selector) => { const e = document.createElement(selector[0]); e.className = selector[1];
                document.getElementById(selector[2]).appendChild(e); const s = parseFloat(getComputedStyle(e).fontSize); e.remove(); return s; };
            return [probe(['pre', 'words', 'analyse-hint']), parseFloat(getComputedStyle(document.getElementById('gadget-cases')).fontSize)];""")
        assert min(sizes) >= 12, sizes

    def test_the_widest_gadget_drawn_whole(self, phone):
        """balanced-cross (188 squares wide) at whole pixels was 2 px a square, 40 px wider than
        the phone's box, port q out of sight: a map now fits to a fraction of a pixel."""
        load(phone, "gadgets")
        phone.find_element(By.CSS_SELECTOR, "#gadget-name option")
        Select(phone.find_element(By.ID, "gadget-name")).select_by_value("balanced-cross")
        settle(phone)
        inside = phone.execute_script("""
            const wrap = document.querySelector('#mode-gadgets .board-wrap'), box = wrap.getBoundingClientRect();
            const ports = [...document.querySelectorAll('#gadget-board .port-cell')].map((c) => c.getBoundingClientRect());
            return [wrap.scrollWidth <= wrap.clientWidth, ports.length,
                    ports.every((r) => r.left >= box.left && r.right <= box.right)];""")
        assert inside == [True, 4, True]
