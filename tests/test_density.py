"""Critical density: the logistic fit, W-correction, and the command."""

from __future__ import annotations

import json
import math

import pytest

from click.testing import CliRunner

from satsweeper.cli import main
from satsweeper.density import DensityPoint, LogisticFit, fit_logistic, no_critical, w_correct


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

    @pytest.mark.parametrize("size, why", [("3x1", "too few mine counts (2)"), ("2x2", "too few mine counts (3)"),
                                           ("2x1", "too few mine counts (1)")])
    def test_too_few_mine_counts_place_no_critical_density(self, size, why):
        """3x1 said "critical density P = 0.5002" though every game was won, 2x2 0.0127 from three
        points: four parameters need more mine counts than that; the answer says so (null)."""
        result = CliRunner().invoke(main, ["density", "--size", size, "--games", "20", "--json"])
        assert result.exit_code == 0, result.output
        found = json.loads(result.output.strip().splitlines()[-1])["sizes"][0]
        assert found["critical_density"] is None and found["no_critical_density"].startswith(why), found
        assert found["logistic"] is None  # 2x2's curve through three points had a height of 2.0
        if size == "3x1":  # its safe first click at 0,0 shows the one neighbour's mine or none: always won
            assert all(p["wins"] == p["games"] for p in found["points"])
        text = CliRunner().invoke(main, ["density", "--size", size, "--games", "20"]).output
        assert f"{size}: no critical density ({why}" in text

    def test_no_critical_density_where_the_win_rate_never_falls_through_a_half(self):
        """Enough mine counts, but every one won at least half the time, or a fit that stays
        above 1/2 (5x1's points, 100% 64% 48% 100%, fit a curve from 1.00 down to 0.71)."""
        points = [DensityPoint(m, m / 5, 50, w, w / 50) for m, w in zip(range(1, 5), (50, 32, 24, 50))]
        assert no_critical(points) is None  # one point below 1/2: the points alone allow one
        assert "never falls through 1/2" in no_critical(points, LogisticFit(0.287, 174.0, 0.26, 0.713))
        assert no_critical(points, LogisticFit(0.96, 9.7, 0.31, 0.12)) is None  # 3x3's kind of fit
        high = [DensityPoint(m, m / 6, 50, 30, 0.6) for m in range(1, 6)]
        assert no_critical(high).startswith("every mine count won at least half its games")

    def test_needs_one_of_size_or_sweep(self):
        assert CliRunner().invoke(main, ["density"]).exit_code == 2

    def test_a_sweep_has_two_sizes_to_fit(self):
        """--sweep 3 would be one size, and P* = P + a/q fitted to one point came out as
        that size's P with a = 0: refused (exit 2); --sweep 4 is the least."""
        result = CliRunner().invoke(main, ["density", "--sweep", "3", "--games", "1"])
        assert result.exit_code == 2 and "--sweep" in result.stderr


def density(*args):
    result = CliRunner().invoke(main, ["density", *map(str, args)])
    lines = result.stdout.strip().splitlines()
    return result.exit_code, (json.loads(lines[-1]) if lines and lines[-1].startswith("{") else None)


class TestJournal:
    SWEEP = ("--sweep", 4, "--games", 12, "--seed", 3, "--strategy", "exact", "--json")

    def test_resumed_sweep_ends_as_one_that_never_stopped(self, tmp_path, monkeypatch):
        """Ctrl-C after 9 mine counts keeps them on disk; --resume plays only the rest,
        and the sweep's result is the uninterrupted one's."""
        import satsweeper.density
        code, whole = density(*self.SWEEP)
        assert code == 0
        real, played = satsweeper.density.run_levels, []

        def stopping(levels, *args, **kwargs):
            played.append(len(levels))
            for k, summary in enumerate(real(levels, *args, **kwargs)):
                if k == 9:
                    raise KeyboardInterrupt
                yield summary
        monkeypatch.setattr(satsweeper.density, "run_levels", stopping)
        journal = tmp_path / "sweep.jsonl"
        code, partial = density(*self.SWEEP, "--out", journal)
        assert code == 130 and partial["complete"] is False
        kept = journal.read_text().splitlines()
        assert len(kept) == 1 + 9 and json.loads(kept[0])["run"]["command"] == "density"
        with journal.open("a") as handle:
            handle.write('{"level": {"strat')  # a line cut off by the stop
        monkeypatch.setattr(satsweeper.density, "run_levels", real)
        code, resumed = density("--resume", journal, "--json")
        assert code == 0
        assert resumed["sizes"] == whole["sizes"]
        assert resumed["asymptotic_critical_density"] == whole["asymptotic_critical_density"]
        lines = journal.read_text().splitlines()
        assert lines[:10] == kept and len(lines) == 1 + (8 + 15)  # 3x3 and 4x4: 8 + 15 mine counts
        # a finished journal resumed plays nothing more and gives the same again
        monkeypatch.setattr(satsweeper.density, "run_levels", stopping)
        played.clear()
        assert density("--resume", journal, "--json")[1]["sizes"] == whole["sizes"] and played == []  # never asked for a game

    def test_resume_refuses_what_it_cannot_continue(self, tmp_path):
        """Another run's journal, a clashing option, --out with --resume: exit 2, no traceback."""
        journal = tmp_path / "sweep.jsonl"
        assert density("--size", "3x3", "--games", 2, "--strategy", "exact", "--out", journal)[0] == 0
        bench = tmp_path / "bench.jsonl"
        assert CliRunner().invoke(main, ["bench", "--level", "3x3x1", "--games", "2", "--out", str(bench)]).exit_code == 0
        for args in (["--resume", bench], ["--resume", journal, "--games", 5],
                     ["--resume", journal, "--out", tmp_path / "x.jsonl"]):
            result = CliRunner().invoke(main, ["density", *map(str, args)])
            assert result.exit_code == 2 and "Traceback" not in result.output, result.output

    @pytest.mark.parametrize("edit, where, found", [
        (lambda lines, level: lines + [json.dumps({"level": {**level, "wins": 0}})], 6, "4x4x2 again"),
        (lambda lines, level: lines[:2] + [json.dumps({"level": {**level, "strategy": "random"}})] + lines[3:],
         3, "strategy 'random'"),
        (lambda lines, level: lines[:2] + [json.dumps({"level": {**level, "games": 200, "wins": 96}})] + lines[3:],
         3, "200 games"),
        (lambda lines, level: lines[:2] + [json.dumps({"level": {**level, "level": "5x5x2"}})] + lines[3:],
         3, "level 5x5x2, not one of the run's"),
        (lambda lines, level: [lines[0].replace("[4, 4]", "[1, 1]")] + lines[1:], 1, '"size": [1, 1]'),
    ], ids=["twice", "strategy", "games", "level", "size"])
    def test_a_level_edited_by_hand_is_refused_at_its_line(self, edit, where, found, tmp_path):
        """json.md: "a line changed by hand ... is refused at its line (exit 2), never summed in":
        a level twice (the later won: P dropped from 0.28 to 0.07), another strategy's, more games
        than the run plays, a level of another size, a size the command line refuses were all
        summed in or ignored, exit 0.  The file is left as it was."""
        journal = tmp_path / "d.jsonl"
        assert density("--size", "4x4", "--games", 4, "--strategy", "exact", "--out", journal)[0] == 0
        lines = journal.read_text().splitlines()[:5]  # the run and 4x4x1..4x4x4
        journal.write_text("\n".join(edit(lines, json.loads(lines[2])["level"])) + "\n")
        kept = journal.read_text()
        result = CliRunner().invoke(main, ["density", "--resume", str(journal)])
        assert result.exit_code == 2 and f"d.jsonl:{where}:1: expected" in result.stderr, result.output
        assert found in result.stderr and journal.read_text() == kept

    def test_the_wrong_command_s_journal_is_named_on_its_first_line(self, tmp_path):
        """density --resume of a bench journal (and the other way round) says whose
        journal it is, at line 1, where the run line says so (it blamed line 2)."""
        sweep, bench = tmp_path / "sweep.jsonl", tmp_path / "bench.jsonl"
        assert density("--size", "3x3", "--games", 2, "--strategy", "exact", "--out", sweep)[0] == 0
        assert CliRunner().invoke(main, ["bench", "--level", "3x3x1", "--games", "2", "--out", str(bench)]).exit_code == 0
        for command, journal, other in (("density", bench, "bench"), ("bench", sweep, "density")):
            result = CliRunner().invoke(main, [command, "--resume", str(journal)])
            assert result.exit_code == 2
            assert f"{journal}:1:1: expected the journal of a {command} run" in result.stderr
            assert f"got the journal of a {other} run" in result.stderr


class TestAsymptote:
    def test_the_error_is_the_regressions(self):
        """P* and its standard error are those of scipy's linear regression of the critical
        densities on 1/q (an independent fit: linregress's intercept and intercept_stderr)."""
        import random
        from scipy.stats import linregress
        from satsweeper.density import asymptote, asymptote_error
        rng = random.Random(5)
        for n in (3, 5, 8):
            critical = {q: 0.16 + 0.6 / q + rng.gauss(0, 0.01) for q in range(3, 3 + n)}
            fit = linregress([1 / q for q in critical], list(critical.values()))
            assert math.isclose(asymptote(critical)[0], fit.intercept, abs_tol=1e-12)
            assert math.isclose(asymptote_error(critical), fit.intercept_stderr, rel_tol=1e-9)

    def test_extrapolate_leaves_out_the_sizes_that_place_none(self):
        """extrapolate (what density --sweep says, once written in the command): the sizes whose
        win rate never fell through 1/2 are left out of the regression (scipy's, as above)."""
        import random
        from scipy.stats import linregress
        from satsweeper.density import extrapolate
        rng = random.Random(6)
        critical = {q: (0.16 + 0.6 / q + rng.gauss(0, 0.01)) if q % 3 else None for q in range(3, 12)}
        placed = {q: p for q, p in critical.items() if p is not None}
        fit = linregress([1 / q for q in placed], list(placed.values()))
        found = extrapolate(critical)
        assert found.placed == len(placed) == 6
        assert math.isclose(found.density, fit.intercept, abs_tol=1e-12)
        assert math.isclose(found.slope, fit.slope, rel_tol=1e-9)
        assert math.isclose(found.error, fit.intercept_stderr, rel_tol=1e-9)
        assert extrapolate({3: None, 4: 0.4}).density is None

    @pytest.mark.parametrize("bad", [{0: .3, 4: .2}, {"3": .5, "4": .4}, {3: "x"}, {3: float("nan"), 4: .2},
                                     {2.5: .1, 4: .2}, {3: 1.5, 4: .2}])
    def test_extrapolate_refuses_what_it_cannot_fit(self, bad):
        """A size 0 was a bare ZeroDivisionError, "3" a TypeError; "x" and NaN were fitted."""
        from satsweeper.density import extrapolate
        from satsweeper.errors import InputError
        with pytest.raises(InputError):
            extrapolate(bad)

    def test_a_density_outside_zero_to_one_is_doubted(self):
        """Two noisy sizes can put the line's end below 0 (-0.0856 once, said plainly): the text
        says so, and that two sizes give no error."""
        from satsweeper.report.experiments import asymptote_words
        doubted = asymptote_words(-0.0856, 1.59, None)
        assert "outside 0..1" in doubted and "no error" in doubted
        assert "outside" not in asymptote_words(0.158, 0.4, 0.01) and "+- 0.0100" in asymptote_words(0.158, 0.4, 0.01)
