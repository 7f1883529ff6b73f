"""Server time of the Analyse page on expert positions: probabilities, safe
cells and the hint in one request (``POST /api/analyse``).

    nice -n 10 python scripts/bench_serve.py [--count 50] [--seed 2] [--rounds 3]

For each of ``--count`` reproducible mid-game expert positions
(:func:`satsweeper.positions.positions`) it times, best of ``--rounds``:

* library: :func:`satsweeper.web.answers.analyse` called directly (the
  baseline, measured in the same run);
* server: the time the app spent on the request, from its Server-Timing
  header: validation, reading the board, the worker process that enforces
  the time limit, the JSON;
* round trip: the same request as the client saw it (FastAPI's TestClient,
  no network, so its own overhead is included).

and prints the median and the 90th percentile and maximum of each, with the
ratio server / library.  Absolute times move with this machine's load; the
ratio moves less.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastapi.testclient import TestClient  # noqa: E402

from satsweeper.game import LEVELS  # noqa: E402
from satsweeper.positions import positions  # noqa: E402
from satsweeper.textio import format_board  # noqa: E402
from satsweeper.web import answers  # noqa: E402
from satsweeper.web.server import create_app  # noqa: E402


def best_of(rounds: int, work) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def summary(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (f"{label:<8} median {statistics.median(times) * 1000:6.1f} ms   "
            f"p90 {p90 * 1000:6.1f} ms   max {ordered[-1] * 1000:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    boards = positions(LEVELS["expert"], args.count, args.seed)
    client = TestClient(create_app())
    library, server, trip = [], [], []
    for board in boards:
        text = format_board(board)
        library.append(best_of(args.rounds, lambda: answers.analyse(board)))
        spent = []

        def request():
            response = client.post("/api/analyse", json={"board": text})
            assert response.status_code == 200, response.text
            spent.append(float(response.headers["server-timing"].split("dur=")[1]) / 1000)

        trip.append(best_of(args.rounds, request))
        server.append(min(spent))
    print(f"{len(boards)} expert positions (seed {args.seed}), best of {args.rounds} rounds each")
    print(summary("library", library))
    print(summary("server", server))
    print(summary("trip", trip))
    print(f"server / library (medians): {statistics.median(server) / statistics.median(library):.2f}")


if __name__ == "__main__":
    main()
