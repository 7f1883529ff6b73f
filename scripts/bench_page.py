"""Time the Analyse page drawing boards of growing size in headless Chromium.

    nice -n 5 python scripts/bench_page.py [--rounds 3]

For each board (a mid-game position of 30x16, 100x100 and 200x200 from
:func:`satsweeper.positions.position`, and a 200x200 board all hidden, whose
40,000 cells all carry a probability) it pastes the board, presses Analyse and
reads the page's own "board drawn" measure (app.js: from the answer's arrival
to the next frame painted, so layout and paint are in it, the server is not),
best of ``--rounds``.  It also prints the server's time (its Server-Timing
header) and the whole paste as the user waits for it.  Needs Debian's chromium
and chromium-driver (see the README).  Absolute times move with the load of
the machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from satsweeper.game import Level  # noqa: E402
from satsweeper.positions import position  # noqa: E402
from satsweeper.textio import format_board  # noqa: E402
from tests.web.browser import MISSING, chromium, have_browser, live_server  # noqa: E402

BOARDS = [("30x16 mid-game", Level(30, 16, 99)), ("100x100 mid-game", Level(100, 100, 2000)),
          ("200x200 mid-game", Level(200, 200, 6000)), ("200x200 all hidden", None)]

# The last "board drawn" measure and the server's time of the last analyse request.
READ = """
const drawn = performance.getEntriesByName('board drawn');
const asked = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/analyse'));
const timing = asked.length ? asked.at(-1).serverTiming.find((t) => t.name === 'app') : null;
return drawn.length ? [drawn.at(-1).duration, timing ? timing.duration : null] : null;
"""


def board_text(level: Level | None) -> str:
    if level is None:
        return "mines: 6000\n" + ("." * 200 + "\n") * 200
    return format_board(position(level, 1, 0.5))


def paste_and_time(driver, url: str, text: str) -> tuple[float, float | None, float]:
    """(drawn ms, server ms, whole paste s) of one paste on a fresh page."""
    from selenium.webdriver.support.ui import WebDriverWait
    driver.get("about:blank")
    driver.get(url + "#analyse")
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.body.dataset.pending === '0'"))
    driver.execute_script("performance.clearMeasures(); performance.clearResourceTimings();"
                          "document.getElementById('board-text').value = arguments[0]", text)
    start = time.monotonic()
    driver.execute_script("document.getElementById('analyse-button').click()")
    answer = WebDriverWait(driver, 300, poll_frequency=0.02).until(lambda d: d.execute_script(READ))
    return answer[0], answer[1], time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not have_browser():
        sys.exit(MISSING)
    print(f"{'board':<20} {'drawn ms':>9} {'server ms':>10} {'paste s':>8}")
    with live_server() as url, chromium(1280, 900) as driver:
        for name, level in BOARDS:
            text = board_text(level)
            runs = [paste_and_time(driver, url, text) for _ in range(args.rounds)]
            drawn, server, whole = min(runs)
            server_text = f"{server:10.0f}" if server is not None else f"{'?':>10}"
            print(f"{name:<20} {drawn:9.0f} {server_text} {whole:8.2f}", flush=True)


if __name__ == "__main__":
    main()
