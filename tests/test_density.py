"""Critical density: the logistic fit, W-correction, and the command."""

from __future__ import annotations

import json
import math

from click.testing import CliRunner

from satsweeper.cli import main
from satsweeper.density import DensityPoint, LogisticFit, fit_logistic, w_correct


class TestFit:
    def test_recovers_a_known_logistic(self):
        """Points drawn from a logistic give back its inflection point."""
        truth = LogisticFit(1.0, 25.0, 0.23, 0.0)
        points = [DensityPoint(m, m / 100, 1, 0, truth(m / 100)) for m in range(1, 100)]
        fit = fit_logistic(points)
        assert math.isclose(fit.critical, 0.23, abs_tol=1e-3)

    def test_critical_density_is_clamped(self):
        assert LogisticFit(1, 10, -0.2, 0).critical == 0.0
        assert LogisticFit(1, 10, 1.4, 0).critical == 1.0


class TestWCorrection:
    def test_luck_near_full_boards_is_removed(self):
        """A rising win rate past density 0.75 is set to 0, and stays 0."""
        points = [(m, m / 16, w) for m, w in zip(range(12, 16), [0.02, 0.03, 0.15, 1.0])]
        assert w_correct(points) == [0.02, 0.03, 0.0, 0.0]


class TestCommand:
    def test_density_json_and_plot(self, tmp_path):
        """One size: a critical density in [0, 1], every mine count, a PNG."""
        png = tmp_path / "d.png"
        result = CliRunner().invoke(main, ["density", "--size", "3x3", "--games", "30", "--seed", "1",
                                           "--strategy", "exact", "--plot", str(png), "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.output.strip().splitlines()[-1])
        size = data["sizes"][0]
        assert 0 <= size["critical_density"] <= 1
        assert [p["mines"] for p in size["points"]] == list(range(1, 9))
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    def test_needs_one_of_size_or_sweep(self):
        assert CliRunner().invoke(main, ["density"]).exit_code == 2
