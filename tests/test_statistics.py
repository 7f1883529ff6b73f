"""Our statistics against scipy's (the independent oracle)."""

from __future__ import annotations

import pytest

from satsweeper.experiments import Summary


class TestWilson:
    @pytest.mark.parametrize("games,wins", [(1, 0), (10, 3), (100, 40), (1000, 999), (100000, 41130)])
    def test_same_interval_as_scipy(self, games, wins):
        """Summary.interval is scipy's Wilson score interval."""
        from scipy.stats import binomtest
        want = binomtest(wins, games).proportion_ci(method="wilson")
        assert Summary("s", "l", games, wins, 0, 1.0).interval() == pytest.approx((want.low, want.high), abs=1e-12)

    @pytest.mark.parametrize("games", [1, 20, 1000])
    def test_exact_at_the_ends(self, games):
        """No win: the interval starts at 0 exactly (it said 2.8e-17), and ends at Wilson's closed
        form z^2 / (n + z^2); every game won: the mirror image, ending at 1 exactly."""
        from scipy.stats import norm
        z = norm.ppf(0.975)
        low, high = Summary("s", "l", games, 0, 0, 1.0).interval()
        assert low == 0.0 and high == pytest.approx(z * z / (games + z * z), abs=1e-12)
        low, high = Summary("s", "l", games, games, 0, 1.0).interval()
        assert high == 1.0 and low == pytest.approx(games / (games + z * z), abs=1e-12)

    def test_no_game_has_no_rate(self):
        """A run stopped before its first game said "win_rate": 0.0; now null, and the text a dash."""
        from satsweeper.report.experiments import bench_text
        summary = Summary("best", "9x9x10", 0, 0, 0, 0.5)
        data = summary.as_json()
        assert data["win_rate"] is None and data["guesses_per_game"] is None
        line = bench_text(summary, data, 100, None).splitlines()[1]
        assert "0.00%" not in line and " - " in line
