"""Screenshots of each mode of ``satsweeper serve`` (headless Chromium) at a
desktop and a phone width, into docs/screenshots/.

    python scripts/screenshots.py

Needs Debian's chromium and chromium-driver (see the README) and the web
and test extras.  The pages show the example expert position with a
question asked, a beginner game with probabilities and a hint, and the OR
gadget with one input combination.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.browser import chromium, have_browser, live_server, MISSING  # noqa: E402

WIDTHS = {"desktop": 1280, "phone": 390}
OUT = ROOT / "docs" / "screenshots"


def wait_for(driver, css: str, seconds: float = 20.0):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, seconds).until(ready.presence_of_element_located((By.CSS_SELECTOR, css)))


def settle(driver, seconds: float = 30.0) -> None:
    """Wait until the page has no request under way (and has drawn the answers)."""
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, seconds, poll_frequency=0.02).until(lambda d: d.execute_script(
        "return document.body.dataset.pending === '0'"))


def shoot(driver, name: str, width: int, out: Path) -> Path:
    """The whole page at ``width`` CSS pixels (as tall as its content), as out/NAME.png."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": max(height, 400), "deviceScaleFactor": 1, "mobile": width < 500})
    time.sleep(0.3)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": max(height, 400), "deviceScaleFactor": 1, "mobile": width < 500})
    path = out / f"{name}.png"
    driver.save_screenshot(str(path))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 500})
    return path


def analyse(driver, url: str) -> None:
    from selenium.webdriver.common.by import By
    driver.get(url + "#analyse")
    text = (ROOT / "examples" / "expert.txt").read_text()
    box = driver.find_element(By.ID, "board-text")
    driver.execute_script("arguments[0].value = arguments[1]", box, text)
    settle(driver)
    driver.find_element(By.ID, "analyse-button").click()
    settle(driver)
    wait_for(driver, "#analyse-board .cell[data-row='15'][data-col='29']")
    wait_for(driver, "#analyse-board .cell.hinted")
    driver.find_element(By.CSS_SELECTOR, "#analyse-board .cell.safe").click()
    settle(driver)
    wait_for(driver, "#analyse-board .cell.reason")


def play(driver, url: str) -> None:
    from selenium.webdriver.common.by import By
    driver.get(url + "#play")
    wait_for(driver, "#play-board .cell")
    settle(driver)
    driver.find_element(By.ID, "show-probs").click()
    settle(driver)
    driver.find_element(By.CSS_SELECTOR, "#play-board .cell[data-row='4'][data-col='4']").click()
    settle(driver)
    for _ in range(3):
        driver.find_element(By.ID, "hint-button").click()
        settle(driver)
        hinted = driver.find_element(By.CSS_SELECTOR, "#play-board .cell.hinted")
        if "certain-mine" in hinted.get_attribute("class"):
            break
        hinted.click()
        settle(driver)
    driver.find_element(By.ID, "hint-button").click()
    wait_for(driver, "#play-board .cell.hinted")


def gadgets(driver, url: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    driver.get(url + "#gadgets")
    wait_for(driver, "#gadget-name option")
    Select(driver.find_element(By.ID, "gadget-name")).select_by_value("or")
    wait_for(driver, "#gadget-inputs input")
    settle(driver)
    driver.find_element(By.CSS_SELECTOR, "#gadget-inputs input").click()
    settle(driver)
    wait_for(driver, "#gadget-board .cell.explained")


def main() -> None:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT,
                        help="directory of the PNGs (default: docs/screenshots, README's pictures)")
    out = parser.parse_args().out  # --help says this and writes nothing
    if not have_browser():
        sys.exit(MISSING)
    out.mkdir(parents=True, exist_ok=True)
    with live_server() as url:
        for label, width in WIDTHS.items():
            with chromium(width, 900) as driver:
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 500})
                if width < 500:  # a touch screen: (pointer: coarse), so no "hover a cell" advice
                    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
                for mode in (analyse, play, gadgets):
                    mode(driver, url)
                    print(shoot(driver, f"{mode.__name__}-{label}", width, out))


if __name__ == "__main__":
    main()
