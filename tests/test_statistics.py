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
