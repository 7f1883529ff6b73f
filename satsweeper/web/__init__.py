"""``satsweeper serve``: the analyser, the game and the gadget library in a browser.

:mod:`.server` is the ASGI app (FastAPI, served by uvicorn): the CLI's JSON
contract over HTTP under ``/api/`` and the static page (``static/``: HTML,
CSS and plain JavaScript, no build step, nothing fetched from elsewhere).
:mod:`.answers` builds each answer with the same :mod:`satsweeper.report`
functions the CLI prints; :mod:`.play` replays games from what the client
sends; :mod:`.library` keeps the gadget library built once; :mod:`.workers`
runs each question in a worker process that a time limit can stop.

Needs the ``web`` extra (``pip install satsweeper[web]``).
"""
