"""Headless Chromium (Debian's ``chromium`` and ``chromium-driver``) driven by
Selenium, and a live server on a free port: shared by the browser tests and
``scripts/screenshots.py``."""

from __future__ import annotations

import contextlib
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator

CHROMIUM = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
DRIVER = ("/usr/bin/chromedriver", "chromedriver")
# Idle connections are kept longer than uvicorn's 5 s: a request sent just as
# the server closes one was seen to hang in Chromium.
KEEP_ALIVE = 75
MISSING = ("no Chromium found: the browser tests need Debian's packages "
           "(apt-get install chromium chromium-driver) or chromium and chromedriver on PATH")


def find(candidates: tuple[str, ...]) -> str | None:
    for name in candidates:
        path = name if Path(name).is_file() else shutil.which(name)
        if path:
            return path
    return None


def have_browser() -> bool:
    return find(CHROMIUM) is not None and find(DRIVER) is not None


@contextlib.contextmanager
def live_server(limits=None) -> Iterator[str]:
    """The app (with ``limits``, a :class:`~satsweeper.web.server.Limits`, or
    the defaults) served by uvicorn in a thread on a free port; yields its URL."""
    import uvicorn

    from satsweeper.web.server import Limits, create_app
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(limits or Limits()), host="127.0.0.1", port=port, log_level="warning",
                                          timeout_keep_alive=KEEP_ALIVE))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)


@contextlib.contextmanager
def chromium(width: int = 1280, height: int = 900) -> Iterator[object]:
    """A headless Chromium window of ``width`` x ``height`` CSS pixels."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = find(CHROMIUM)
    profile = tempfile.mkdtemp(prefix="satsweeper-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}",
                 f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(find(DRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
