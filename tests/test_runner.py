"""Runs give the same results wherever they run, survive a dead worker and an
interruption, and a scheduler that cannot be reached is a clear error."""

from __future__ import annotations

import contextlib
import json
import os
import re
import random
import signal
import socket
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from satsweeper.cli import main
from satsweeper.experiments import play, run
from satsweeper.game import LEVELS, FirstClick, Level
from satsweeper.journal import read_journal
from satsweeper.puzzles import Method, make_layout
from satsweeper.runner import Backend, ClusterError, WorkerLost, chunks, open_runner

EXPERT = LEVELS["expert"]
_REAL_PLAY_RANGE = __import__("satsweeper.experiments").experiments.play_range
BACKENDS = ([], ["--workers", "2"], ["--dask", "--workers", "2"])


def invoke(*args) -> tuple[int, dict]:
    result = CliRunner().invoke(main, [str(a) for a in args] + ["--json"])
    return result.exit_code, json.loads(result.output.strip().splitlines()[-1])


def played(level: Level, games: int, seed: int) -> tuple[int, int]:
    """The oracle: (wins, guesses) of games 0..games-1 played one by one, no runner."""
    results = [play(level, "exact", f"{seed}:{i}") for i in range(games)]
    return sum(r.won for r in results), sum(r.guesses for r in results)


def _killed_at_24(*args):
    """experiments.play_range, but the OS kills the worker that plays game 24
    (module level: the pool pickles it by name)."""
    if args[-2] == 24:
        os.kill(os.getpid(), signal.SIGKILL)
    return _REAL_PLAY_RANGE(*args)


def _dies_at_six(lo: int, hi: int) -> list[int]:
    if lo == 6:
        # Not at once: a pool that breaks fails every future it has not yet read back,
        # and on a loaded machine chunk 0's result could still be in the pipe (the test
        # failed so once, on a machine running two searches besides).
        time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGKILL)
    return list(range(lo, hi))


class TestChunks:
    def test_chunks_cover_every_item_once_in_order(self):
        """Any start, total and size: consecutive ranges, nothing missed or repeated."""
        for start, total, size in [(0, 200, 7), (13, 14, 5), (5, 5, 3), (0, 1000, 100)]:
            ranges = chunks(start, total, size)
            items = [i for lo, hi in ranges for i in range(lo, hi)]
            assert items == list(range(start, total))
            assert all(0 < hi - lo <= size for lo, hi in ranges)

    def test_process_runner_streams_in_order(self):
        """Two processes, chunks of 3: the results come back in item order."""
        with open_runner(Backend(workers=2, chunk=3)) as runner:
            got = list(runner.stream(_cubes, 20, start=2))
        assert [lo for lo, _ in got] == list(range(2, 20, 3))
        assert [x for _, xs in got for x in xs] == [i ** 3 for i in range(2, 20)]


def _cubes(lo, hi):
    return [i ** 3 for i in range(lo, hi)]


class TestSameResults:
    def test_bench_100_expert_games(self):
        """--workers 1, --workers 2 and --dask --workers 2: the same wins and
        guesses as the games played one by one without a runner."""
        want = played(EXPERT, 100, seed=11)
        for backend in BACKENDS:
            code, data = invoke("bench", "--level", "expert", "--games", 100, "--seed", 11, *backend)
            assert code == 0, data
            assert data["complete"] and data["games"] == 100
            assert (data["wins"], round(data["guesses_per_game"] * 100)) == want, backend

    def test_density_sweep(self):
        """A 3x3..4x4 sweep: every point's wins as a run of that level alone, on every backend."""
        want = {f"{q}x{q}": [run(Level(q, q, m), "exact", 15, seed=2).wins for m in range(1, q * q)]
                for q in (3, 4)}
        for backend in BACKENDS:
            code, data = invoke("density", "--sweep", 4, "--games", 15, "--seed", 2,
                                "--strategy", "exact", *backend)
            assert code == 0, data
            got = {s["size"]: [p["wins"] for p in s["points"]] for s in data["sizes"]}
            assert got == want, backend

    def test_generate_count(self, tmp_path):
        """Ten no-guess boards: board i is make_layout with the generator (seed, i), on every backend."""
        level = Level(9, 9, 10)
        want = []
        for i in range(10):
            made = make_layout(level, (4, 4), random.Random(f"5:{i}"), FirstClick.OPENING,
                               Method.PERTURB, True)
            assert made.report.solved
            want.append(made.mines)
        for n, backend in enumerate(BACKENDS):
            out = tmp_path / str(n)
            out.mkdir()
            code, data = invoke("generate", "9x9x10", "--no-guess", "--method", "perturb", "--count", 10, "--seed", 5,
                                "--out-dir", out, *backend)
            assert code == 0, data
            got = [frozenset((r, c) for r, line in enumerate(b["layout"].splitlines()[-9:])
                             for c, ch in enumerate(line) if ch == "*") for b in data["boards"]]
            assert got == want, backend
            assert len(list(out.iterdir())) == 10


class TestInterrupted:
    def test_ctrl_c_keeps_what_finished_and_resume_ends_the_same(self, tmp_path, monkeypatch):
        """Ctrl-C after 24 of 60 games: exit 130, a partial summary of 24 games and
        a journal of them; --resume plays the rest, and the summary is an
        uninterrupted run's."""
        import satsweeper.experiments as experiments
        level = Level(9, 9, 10)
        want = played(level, 60, seed=4)
        journal = tmp_path / "run.jsonl"
        real = experiments.play_range

        def interrupted(*args):
            if args[-2] >= 24:
                raise KeyboardInterrupt
            return real(*args)

        monkeypatch.setattr(experiments, "play_range", interrupted)
        result = CliRunner().invoke(main, ["bench", "--level", "9x9x10", "--games", "60", "--seed", "4",
                                           "--chunk", "8", "--out", str(journal)])
        assert result.exit_code == 130
        assert "interrupted: 24 of 60 games ran" in result.output
        assert read_journal(journal).games == 24 and read_journal(journal).summary is None
        monkeypatch.setattr(experiments, "play_range", real)
        with journal.open("a") as handle:
            handle.write('{"chunk": {"start": 24, "st')  # the line a killed machine cut off
        code, data = invoke("bench", "--resume", journal, "--workers", "2")
        assert code == 0, data
        assert (data["games"], data["wins"], round(data["guesses_per_game"] * 60)) == (60,) + want
        assert read_journal(journal).summary["wins"] == want[0]

    def test_a_chunk_journaled_is_a_chunk_counted(self, tmp_path, monkeypatch):
        """Ctrl-C (or SIGTERM) arriving as the journal's write of a chunk returns: the
        summary counts that chunk too (it said 24 games where the journal kept 32: the
        signal, delivered during the fsync, was raised before the count)."""
        from satsweeper.journal import JournalWriter
        real = JournalWriter.chunk

        def interrupted_after_the_third(journal, chunk):
            real(journal, chunk)
            if chunk.start == 16:
                signal.raise_signal(signal.SIGINT)  # its handler runs at the next bytecode
        monkeypatch.setattr(JournalWriter, "chunk", interrupted_after_the_third)
        journal = tmp_path / "run.jsonl"
        # as in a terminal, whatever this suite inherited (SIGINT ignored, run in the background)
        inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            result = CliRunner().invoke(main, ["bench", "--level", "9x9x10", "--strategy", "exact", "--games",
                                               "60", "--seed", "4", "--chunk", "8", "--out", str(journal)])
        finally:
            signal.signal(signal.SIGINT, inherited)
        assert result.exit_code == 130, result.output
        assert read_journal(journal).games == 24
        assert "interrupted: 24 of 60 games ran" in result.output, result.output

    @pytest.mark.parametrize("backend", [[], ["--workers", "2"], ["--dask", "--workers", "2"]],
                             ids=["here", "processes", "dask"])
    def test_sigterm_is_ctrl_c(self, tmp_path, backend):
        """kill (SIGTERM) during a run: the summary of the games that finished and the
        --resume line, exit 130, as Ctrl-C gives; the process died with neither before.
        The oracle: those games played one by one."""
        process, journal = _bench_under_way(tmp_path, backend)
        try:
            process.send_signal(signal.SIGTERM)
            out, err = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        assert process.returncode == 130, (out, err)
        assert "Traceback" not in err, err
        ran = read_journal(journal).games
        assert f"interrupted: {ran} of 5000 games ran" in out, out
        assert f"(go on with: satsweeper bench --resume {journal})" in out
        wins = int(out.splitlines()[1].split()[3])  # the summary's row: strategy level games wins ...
        assert (ran, wins) == (int(out.splitlines()[1].split()[2]), played(Level(9, 9, 10), ran, seed=4)[0])

    def test_kill_9_leaves_no_worker_holding_the_journal(self, tmp_path):
        """kill -9 of a run with --workers 2: its workers end with it, and --resume goes on
        (they lived on, idle, holding the journal, and --resume was refused as "another
        satsweeper run is writing it" until they were found and killed by hand). The oracle:
        the resumed run's wins are those of the games played one by one."""
        process, journal = _bench_under_way(tmp_path, ["--workers", "2"])
        workers = set()
        try:
            for task in Path(f"/proc/{process.pid}/task").iterdir():
                workers |= {int(p) for p in (task / "children").read_text().split()}
            assert len(workers) == 2
            process.kill()
            process.communicate(timeout=60)
            deadline = time.monotonic() + 10
            while any(Path(f"/proc/{p}").exists() and "zombie" not in _state(p) for p in workers):
                assert time.monotonic() < deadline, f"workers {workers} outlived the run"
                time.sleep(0.05)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            for p in workers:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p, signal.SIGKILL)
        result = CliRunner().invoke(main, ["bench", "--resume", str(journal), "--games", "200", "--json"])
        assert result.exit_code == 0, result.output
        answer = json.loads(result.stdout)
        assert answer["wins"] == played(Level(9, 9, 10), 200, seed=4)[0]

    def test_a_killed_worker_stops_the_run_and_keeps_what_finished(self, tmp_path, monkeypatch):
        """The OS kills a worker in the chunk of game 24: exit 3 at once (no hang),
        the chunks before it journaled, and --resume ends as an uninterrupted run."""
        import satsweeper.experiments as experiments
        level = Level(9, 9, 10)
        want = played(level, 60, seed=6)
        journal = tmp_path / "run.jsonl"
        real = experiments.play_range
        monkeypatch.setattr(experiments, "play_range", _killed_at_24)
        start = time.monotonic()
        result = CliRunner().invoke(main, ["bench", "--level", "9x9x10", "--games", "60", "--seed", "6",
                                           "--chunk", "8", "--workers", "2", "--out", str(journal)])
        assert time.monotonic() - start < 30
        assert result.exit_code == 3, result.output
        assert "killed by signal 9" in result.stderr
        finished = read_journal(journal).games
        assert finished <= 24 and finished % 8 == 0 and read_journal(journal).summary is None
        monkeypatch.setattr(experiments, "play_range", real)
        code, data = invoke("bench", "--resume", journal)
        assert code == 0, data
        assert (data["games"], data["wins"], round(data["guesses_per_game"] * 60)) == (60,) + want

    def test_a_killed_worker_stops_a_sweep_and_says_how_to_go_on(self, tmp_path, monkeypatch):
        """density: a worker killed in the chunk of game 24 (the third mine count): exit 3, what
        finished journaled, and the --resume line a Ctrl-C gets (none before)."""
        import satsweeper.experiments as experiments
        from satsweeper.journal import read_levels
        monkeypatch.setattr(experiments, "play_range", _killed_at_24)
        journal = tmp_path / "sweep.jsonl"
        result = CliRunner().invoke(main, ["density", "--size", "3x3", "--strategy", "exact", "--games", "10",
                                           "--chunk", "8", "--workers", "2", "--out", str(journal)])
        assert result.exit_code == 3, result.output
        assert "killed by signal 9" in result.stderr
        # no "(above)" when nothing finished is above; the mine counts finished are said
        assert re.search(r"stopped: 0 of 1 size\(s\) finished(, and [12] mine count\(s\) of the size under way)?; "
                         rf"every finished mine count is in {re.escape(str(journal))} \(go on with: satsweeper "
                         rf"density --resume {re.escape(str(journal))}\)", result.stderr), result.stderr
        # the chunks before the dead one may have died with the pool: at most two mine counts
        assert sorted(read_levels(journal).levels) in ([], ["3x3x1"], ["3x3x1", "3x3x2"])

    def test_process_runner_raises_on_a_killed_worker(self):
        """The stream hands back the chunks before the dead one, then raises WorkerLost."""
        with pytest.raises(WorkerLost, match="signal 9"):
            got = []
            with open_runner(Backend(workers=2, chunk=2)) as runner:
                for lo, results in runner.stream(_dies_at_six, 20):
                    assert results == list(range(lo, lo + 2))
                    got.append(lo)
        assert got[:1] == [0] and all(lo < 6 for lo in got)

    def test_resume_refuses_another_run(self, tmp_path):
        """Options given with --resume must be the journaled run's."""
        journal = tmp_path / "run.jsonl"
        assert invoke("bench", "--level", "4x4x2", "--games", 4, "--out", journal)[0] == 0
        code, data = invoke("bench", "--resume", journal, "--seed", 9)
        assert code == 2 and "--seed as in the journal" in data["error"]
        sweep = tmp_path / "sweep.jsonl"
        assert invoke("density", "--size", "3x3", "--games", 2, "--strategy", "exact", "--out", sweep)[0] == 0
        code, data = invoke("density", "--resume", sweep, "--size", "4x4")
        # a size as the user writes it (it said "([3, 3]) (got [4, 4])")
        assert code == 2 and data["error"].endswith("expected the journal's --size 3x3 (got --size 4x4)"), data
        # the journal's sweep named as such (it said "expected --size as in the journal (None)")
        sweep = tmp_path / "sweep4.jsonl"
        assert invoke("density", "--sweep", 4, "--games", 1, "--strategy", "exact", "--out", sweep)[0] == 0
        code, data = invoke("density", "--resume", sweep, "--size", "4x4")
        assert code == 2 and data["error"].endswith("expected the journal's --sweep 4 (got --size 4x4)"), data

    def test_resume_reads_first_on_the_journals_level(self, tmp_path):
        """--first centre or ROW,COL given with --resume names a cell of the journal's level;
        it was read on --level's default, expert, so centre was 8,15 and 6,10 off a 9x9 board."""
        for first, cell in (("centre", [4, 4]), ("6,1", [6, 1])):
            journal = tmp_path / f"{first}.jsonl"
            assert invoke("bench", "--level", "9x9x10", "--games", 3, "--first", first, "--out", journal)[0] == 0
            assert read_journal(journal).run["first"] == cell
            code, data = invoke("bench", "--resume", journal, "--games", 5, "--first", first)
            # a cell as every answer gives one (bench gave the journal's list, [4, 4])
            assert code == 0 and data["games"] == 5 and data["first"] == {"row": cell[0], "col": cell[1]}, data
            code, data = invoke("bench", "--resume", journal, "--first", "corner")
            assert code == 2 and data["error"] == (f"{journal}:1:1: expected --first as in the journal "
                                                   f"({cell[0]},{cell[1]}) (got 0,0)")

    def test_a_journal_being_written_is_neither_replaced_nor_resumed(self, tmp_path):
        """Two runs given one file: the second replaced the first's journal while the first
        had finished no chunk yet (it then said "journal run.jsonl" over the other's games).
        A journal is locked while its run writes it; a second run is refused before any game,
        and once the first is done the file goes on as usual."""
        from satsweeper.experiments import Chunk
        from satsweeper.journal import JournalWriter
        journal = tmp_path / "run.jsonl"
        run_line = {"command": "bench", "version": 1, "strategy": "exact", "level": "4x4x2", "rules": "safe",
                    "first": [0, 0], "seed": 0, "games": 4}
        writer = JournalWriter(journal, run_line)  # a run under way, nothing finished yet
        kept = journal.read_bytes()
        for command in (["bench", "--level", "4x4x2", "--games", 4, "--out", journal],
                        ["density", "--size", "3x3", "--games", 2, "--out", journal],
                        ["bench", "--resume", journal]):
            code, data = invoke(*command)
            assert code == 2 and "which another satsweeper run is writing now" in data["error"], (command, data)
            assert journal.read_bytes() == kept
        writer.chunk(Chunk(0, (True, False), 1, 0.1))
        writer.close()
        code, data = invoke("bench", "--resume", journal)
        assert code == 0 and data["games"] == 4, data
        # the journal's two games (one won, by construction) and games 2 and 3 played one by one
        assert data["wins"] == 1 + sum(play(Level(4, 4, 2), "exact", f"0:{i}").won for i in (2, 3)), data

    @pytest.mark.parametrize("change", [{"rules": "nope"}, {"first": [9, 0]}, {"first": "corner"},
                                        {"games": -5}, {"games": 2}, {"strategy": "nobody"},
                                        {"seed": 1.5}, {"seed": True}, {"games": "x"}, {"first": [0.0, 0]},
                                        {"level": "16x16"}],
                             ids=["rules", "first-outside", "first-word", "negative-games",
                                  "fewer-games-than-finished", "strategy", "seed-float", "seed-bool",
                                  "games-text", "first-float", "level-without-mines"])
    def test_resume_refuses_a_damaged_run_line(self, change, tmp_path):
        """A journal whose run line was damaged is bad input (exit 2, at its first line)
        before anything is played; it was an internal error (exit 70) from deep in the run,
        and a seed of 1.5 was read as 1: the rest of the run drawn from other games."""
        journal = tmp_path / "run.jsonl"
        assert invoke("bench", "--level", "9x9x10", "--games", 4, "--chunk", 2, "--out", journal)[0] == 0
        lines = journal.read_text().splitlines()
        run_line = json.loads(lines[0])
        run_line["run"].update(change)
        journal.write_text("\n".join([json.dumps(run_line)] + lines[1:3]) + "\n")  # 4 games finished
        code, data = invoke("bench", "--resume", journal, "--games", 6)
        assert code == 2 and data["error"].startswith(f"{journal}:1:1: expected a journal whose run has"), data
        assert "invalid literal" not in data["error"] and "(got got" not in data["error"]

    @pytest.mark.parametrize("change", [{"guesses": -119}, {"wins": 1}, {"wins": 974}, {"start": 2.0},
                                        {"seconds": "x"}, {"won": "21"}, {"wins": None}],
                             ids=["negative-guesses", "fewer-wins", "more-wins", "float-start", "seconds-text",
                                  "won-not-bits", "wins-missing"])
    def test_resume_refuses_a_damaged_chunk(self, change, tmp_path):
        """A chunk edited by hand is refused at its line: it was summed in (guesses -119
        printed 1.09 guesses a game where the games took 1.69; wins that disagree with
        won; a misspelt key), and the file rewritten as if nothing were wrong."""
        journal = tmp_path / "run.jsonl"
        assert invoke("bench", "--level", "9x9x10", "--games", 4, "--chunk", 2, "--out", journal)[0] == 0
        lines = journal.read_text().splitlines()
        chunk = json.loads(lines[2])
        assert chunk["chunk"]["start"] == 2 and chunk["chunk"]["wins"] == chunk["chunk"]["won"].count("1")
        if change == {"wins": 1}:
            change = {"wins": chunk["chunk"]["won"].count("1") - 1 if chunk["chunk"]["wins"] else 1}
        for key, value in change.items():
            if value is None:
                chunk["chunk"]["wXXs"] = chunk["chunk"].pop(key)
            else:
                chunk["chunk"][key] = value
        journal.write_text("\n".join(lines[:2] + [json.dumps(chunk)] + lines[3:]) + "\n")
        kept = journal.read_bytes()
        code, data = invoke("bench", "--resume", journal, "--games", 6)
        assert code == 2 and data["error"].startswith(f"{journal}:3:1: expected a chunk"), data
        assert journal.read_bytes() == kept  # not "repaired" by rewriting it

    def test_resume_refuses_a_damaged_level_line(self, tmp_path):
        """A density journal's level edited by hand (more wins than games, a count of 1.5)
        is refused at its line, not fitted."""
        sweep = tmp_path / "sweep.jsonl"
        assert invoke("density", "--size", "3x3", "--games", 2, "--strategy", "exact", "--out", sweep)[0] == 0
        lines = sweep.read_text().splitlines()
        for key, value, said in (("wins", 99, "wins 99 of 2 games"), ("games", 1.5, "games 1.5"),
                                 ("seconds", "x", "seconds 'x'")):
            level = json.loads(lines[1])
            level["level"][key] = value
            sweep.write_text("\n".join([lines[0], json.dumps(level)] + lines[2:]) + "\n")
            code, data = invoke("density", "--resume", sweep)
            assert code == 2 and data["error"].startswith(f"{sweep}:2:1: expected a level"), data
            assert said in data["error"], data


    def test_out_never_replaces_finished_games(self, tmp_path):
        """A journal with finished games is hours of work: ``--out`` refuses it before
        playing (exit 2, pointing at --resume) and leaves it byte for byte; a file
        that holds no finished game (or nothing) is replaced, and the answer says so; a file
        that is no journal (a board, a memo given by mistake) is refused and left as it was."""
        journal = tmp_path / "run.jsonl"
        assert invoke("bench", "--level", "4x4x2", "--games", 4, "--out", journal)[0] == 0
        kept = journal.read_bytes()
        for command in (["bench", "--level", "4x4x2", "--games", 4],
                        ["density", "--size", "3x3", "--games", 2, "--strategy", "exact"]):
            code, data = invoke(*command, "--out", journal)
            assert code == 2 and "--resume" in data["error"], data
            assert "a journal of 4 finished games" in data["error"]
        assert journal.read_bytes() == kept
        other = tmp_path / "notes.txt"
        for text in ("", '{"run": {"command": "bench"}}\n'):
            other.write_text(text)
            code, data = invoke("bench", "--level", "4x4x2", "--games", 2, "--out", other)
            assert code == 0 and read_journal(other).games == 2, data
        board = tmp_path / "board.txt"
        for content in (b"mines: 1\n1..\n", b'{"format": "a memo"}\n\x00\x01binary'):
            board.write_bytes(content)
            for command in (["bench", "--level", "4x4x2", "--games", 2],
                            ["density", "--size", "3x3", "--games", 2, "--strategy", "exact"]):
                code, data = invoke(*command, "--out", board)
                assert code == 2 and "not a journal" in data["error"], data
                assert board.read_bytes() == content
        result = CliRunner().invoke(main, ["bench", "--level", "4x4x2", "--games", "2", "--out", str(other)])
        assert result.exit_code == 2 and "go on with: satsweeper bench --resume" in result.stderr
        sweep = tmp_path / "sweep.jsonl"
        assert invoke("density", "--size", "3x3", "--games", 2, "--strategy", "exact", "--out", sweep)[0] == 0
        code, data = invoke("bench", "--level", "4x4x2", "--games", 2, "--out", sweep)
        assert code == 2 and "finished mine counts of density" in data["error"], data
        # its own command goes on with it (it said "bench --resume", which refuses a sweep)
        assert "go on with: satsweeper density --resume" in data["error"], data
        code, data = invoke("density", "--size", "3x3", "--games", 2, "--strategy", "exact", "--out", other)
        assert code == 2 and "go on with: satsweeper bench --resume" in data["error"], data


class TestJournal:
    def test_games_may_change_but_not_below_those_played(self, tmp_path):
        """README: --resume --games N changes the plan, not below the games played: a journal of
        20 games stopped after 12 (its last 2 chunks cut) and resumed to 15 ends at 15, its
        games those played one by one; fewer than the 12 played is refused, the file kept."""
        journal = tmp_path / "run.jsonl"
        code, _ = invoke("bench", "--level", "9x9x10", "--strategy", "exact", "--games", 20, "--seed", 2,
                         "--chunk", 4, "--out", journal)
        assert code == 0
        lines = journal.read_text().splitlines()
        journal.write_text("\n".join(lines[:4]) + "\n")  # the run and 3 chunks: 12 games
        kept = journal.read_text()
        result = CliRunner().invoke(main, ["bench", "--resume", str(journal), "--games", "10"])
        assert result.exit_code == 2 and "--games of at least the 12 already played" in result.stderr
        assert journal.read_text() == kept
        code, data = invoke("bench", "--resume", journal, "--games", 15)
        assert code == 0 and data["games"] == 15
        assert (data["wins"], round(data["guesses_per_game"] * 15)) == played(Level(9, 9, 10), 15, seed=2)

    def test_round_trip_and_a_cut_last_line(self, tmp_path):
        """What was written is read back; a last line cut in half is dropped, not an error."""
        from satsweeper.experiments import Chunk
        from satsweeper.journal import JournalWriter
        path = tmp_path / "j.jsonl"
        written = (Chunk(0, (True, False, True), 4, 0.5), Chunk(3, (False,), 2, 0.25))
        with JournalWriter(path, {"games": 9}, written[:1]) as journal:
            journal.chunk(written[1])
        path.write_text(path.read_text() + '{"chunk": {"sta')
        got = read_journal(path)
        assert got.run == {"games": 9} and got.chunks == written and got.games == 4
        # A machine that lost power leaves the last line NULs, or half a character: dropped too
        # (it refused the whole journal); a NUL in any other line is still an error, at its place.
        whole = path.read_bytes()
        kept = whole[:whole.rfind(b"\n") + 1]
        from satsweeper.errors import BoardSyntaxError
        for tail in (b"\0" * 40, b'{"chunk": {"st\xc3'):
            path.write_bytes(kept + tail)
            assert read_journal(path).chunks == written
        path.write_bytes(kept.replace(b"\n", b"\n\0\n", 1))
        with pytest.raises(BoardSyntaxError, match=r"j.jsonl:2:1: expected UTF-8 text \(got a NUL byte"):
            read_journal(path)

    def test_resume_after_a_power_loss(self, tmp_path):
        """bench --resume on a journal whose last line a power loss left NULs: read_journal
        dropped the line, but --resume's own check of the file refused it (exit 2)."""
        journal = tmp_path / "run.jsonl"
        code, whole = invoke("bench", "--level", "9x9x10", "--strategy", "exact", "--games", 12, "--seed", 2,
                             "--chunk", 4, "--out", journal)
        lines = journal.read_bytes().split(b"\n")
        journal.write_bytes(b"\n".join(lines[:3]) + b"\n" + b"\0" * 500)  # the run line and 2 of 3 chunks
        code, data = invoke("bench", "--resume", journal)
        assert code == 0 and (data["games"], data["wins"]) == (12, whole["wins"])

    def test_a_gap_or_a_stray_line_is_an_error_with_its_place(self, tmp_path):
        """A chunk that does not start where the last ended, or a line in the middle that
        is not JSON, is reported at its line (the run would otherwise count wrong)."""
        from satsweeper.errors import BoardSyntaxError
        path = tmp_path / "j.jsonl"
        run_line = '{"run": {}}\n'
        chunk = '{"chunk": {"start": %d, "stop": %d, "wins": %d, "won": "%s", "guesses": 0, "seconds": 0}}\n'
        for body, line in [(chunk % (0, 2, 2, "11") + chunk % (3, 4, 1, "1"), 3),
                           (chunk % (0, 2, 2, "11") + "oops\n" + chunk % (2, 3, 0, "0"), 3),
                           (chunk % (0, 2, 1, "1"), 2)]:
            path.write_text(run_line + body)
            with pytest.raises(BoardSyntaxError) as error:
                read_journal(path)
            assert error.value.line == line


    def test_a_run_rewriting_the_journal_is_not_cut_under(self, tmp_path):
        """Two runs resumed on one journal at once: the second emptied the first's .part while
        the first rewrote it (its lock not yet asked for), and the journal came out with both
        runs' lines run together.  A .part another run holds is left alone: JournalBusy."""
        import fcntl

        from satsweeper.journal import JournalBusy, JournalWriter
        path = tmp_path / "j.jsonl"
        path.write_text('{"run": {"games": 9}}\n')
        part = tmp_path / ".j.jsonl.part"
        with open(part, "w") as first:  # the first run, halfway through its rewrite
            fcntl.flock(first.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            first.write('{"run": {"games": 9}}\n{"chunk": ')
            first.flush()
            with pytest.raises(JournalBusy):
                JournalWriter(path, {"games": 12})
            assert part.read_text() == '{"run": {"games": 9}}\n{"chunk": '
        assert path.read_text() == '{"run": {"games": 9}}\n'

    def test_a_journal_that_fails_mid_run_keeps_the_summary(self, tmp_path, monkeypatch):
        """The journal unwritable after two chunks (a full disk): the run stops, exit 3, with
        its summary of the games journaled.  Closing the journal wrote the refused line again,
        and the run ended as an internal error (exit 70) with no summary."""
        from satsweeper.journal import JournalWriter
        chunk = JournalWriter.chunk
        calls = []

        def filling(self, done):
            calls.append(done)
            if len(calls) == 3:
                self.handle = open("/dev/full", "w", encoding="utf-8")  # buffered: refused at flush and at close
            chunk(self, done)
        monkeypatch.setattr(JournalWriter, "chunk", filling)
        journal = tmp_path / "run.jsonl"
        code, data = invoke("bench", "--level", "9x9x10", "--strategy", "exact", "--games", 20, "--seed", 2,
                            "--chunk", 4, "--out", journal)
        assert code == 3 and data["complete"] is False and "could not write the journal" in data["stopped"]
        assert data["games"] == read_journal(journal).games == 8

    def test_resume_where_nothing_can_be_written(self, tmp_path, monkeypatch):
        """--resume where its rewrite cannot be made (a read-only place) was an internal error
        (exit 70); --out there was bad input (exit 2), and so is this now."""
        journal = tmp_path / "run.jsonl"
        assert invoke("bench", "--level", "9x9x10", "--games", 4, "--chunk", 2, "--out", journal)[0] == 0
        kept = journal.read_text()
        real = os.open

        def refused(path, *args, **kwargs):
            if str(path).endswith(".part"):
                raise PermissionError(13, "Permission denied", str(path))
            return real(path, *args, **kwargs)
        monkeypatch.setattr(os, "open", refused)
        code, data = invoke("bench", "--resume", journal, "--games", 8)
        assert code == 2 and data["expected"] == "a journal we may write"
        assert data["got"] == f"{journal}, permission denied" and journal.read_text() == kept


class TestCluster:
    def test_a_killed_worker_loses_only_its_chunk(self):
        """A worker process killed mid-run: its chunk is computed again elsewhere
        and the summary is the one played without a cluster."""
        from distributed import Client, LocalCluster
        want = played(EXPERT, 120, seed=8)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            pids = list(client.run(os.getpid).values())
            killed = []

            def kill_once(chunk, summary):
                if not killed:
                    os.kill(pids[0], signal.SIGKILL)
                    killed.append(chunk.stop)

            summary = run(EXPERT, "exact", 120, seed=8, on_chunk=kill_once,
                          backend=Backend(scheduler=cluster.scheduler_address, chunk=4))
            processing = {}
            for key, _, finish, *_ in cluster.scheduler.transition_log:
                processing[key] = processing.get(key, 0) + (finish == "processing")
        assert killed and killed[0] < 120
        assert max(processing.values()) >= 2  # a chunk ran a second time
        assert (summary.games, summary.wins, summary.guesses) == (120,) + want

    def test_bad_scheduler_address(self):
        """Nobody listening: exit 2 with a clear error within a few seconds, not a hang."""
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]  # free once closed: nothing listens there
        start = time.monotonic()
        code, data = invoke("bench", "--games", 1, "--scheduler", f"tcp://127.0.0.1:{port}")
        assert code == 2 and time.monotonic() - start < 10
        assert data["expected"] == f"a Dask scheduler answering at tcp://127.0.0.1:{port}"

    def test_a_port_that_never_answers(self):
        """A listener that accepts and says nothing (not a scheduler) is an error in time too."""
        with socket.socket() as silent:
            silent.bind(("127.0.0.1", 0))
            silent.listen()
            address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
            start = time.monotonic()
            with pytest.raises(ClusterError, match="no answer after 1 s: another service on that port"):
                with open_runner(Backend(scheduler=address, timeout=1)):
                    pass
            assert time.monotonic() - start < 5

    def test_a_task_the_workers_cannot_load_names_your_player(self):
        """Dask's "Error during deserialization of the task graph" (a worker without your own
        player's module, or another satsweeper) names both causes, in Dask's whole first sentence
        (it broke off at its line's end: "... This frequently")."""
        from satsweeper.runner import _result

        class Failed:
            def result(self, timeout=None):
                raise RuntimeError("Error during deserialization of the task graph. This frequently\n"
                                   "occurs if the Scheduler and Client have different environments.")
        with pytest.raises(ClusterError) as err:
            _result(Failed())
        assert "a player of your own importable on every worker" in err.value.expected
        assert err.value.found == "Error during deserialization of the task graph."

    def test_another_service_on_the_port(self):
        """A server that speaks first in its own protocol (an ssh banner) is not taken for a
        scheduler: exit 2 saying so, not 'out of memory' (Dask read the banner as a frame length)."""
        import threading
        with socket.socket() as server:
            server.bind(("127.0.0.1", 0))
            server.listen()

            def banner():
                connection, _ = server.accept()
                with connection:
                    connection.sendall(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")
                    connection.recv(100)

            threading.Thread(target=banner, daemon=True).start()
            address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
            code, data = invoke("bench", "--games", 1, "--scheduler", address)
        assert code == 2, data
        assert data["expected"] == f"a Dask scheduler at {address}"
        assert "another protocol" in data["got"]

    def test_an_empty_scheduler_address(self):
        """--scheduler "$ADDRESS" with the variable unset: exit 2, not a run here."""
        code, data = invoke("bench", "--games", 1, "--scheduler", "")
        assert code == 2 and data["got"] == "an empty address", data
        with pytest.raises(ValueError, match="empty"):
            Backend(scheduler=" ")

    def test_workers_with_a_scheduler_are_refused(self):
        """--workers 3 --scheduler ADDRESS ran on the one worker attached, without a word: the
        scheduler's workers play such a run. Refused before anything is asked of the address."""
        code, data = invoke("bench", "--games", 1, "--scheduler", "tcp://127.0.0.1:9", "--workers", 3)
        assert code == 2 and data["got"] == "--workers 3 with --scheduler", data

    @pytest.mark.parametrize("options", [{"workers": 0}, {"chunk": 0}, {"dask": True, "scheduler": "tcp://a:1"}])
    def test_a_backend_refused_is_the_librarys_error(self, options):
        """A caller's slip in a Backend is an InputError (a plain ValueError before), as the
        rest of the library raises: one except clause catches them all."""
        from satsweeper.errors import InputError
        with pytest.raises(InputError):
            Backend(**options)

    def test_dask_only_when_asked(self):
        """A run without --dask or --scheduler does not import dask."""
        import subprocess
        import sys
        code = ("import sys; from satsweeper.experiments import run; from satsweeper.game import Level; "
                "run(Level(9, 9, 10), 'exact', 4, workers=2); print('distributed' in sys.modules)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        assert out.stdout.strip() == "False"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _dask(*args: str, code: str | None = None):
    """A ``dask scheduler`` or ``dask worker`` process running this checkout (or the satsweeper
    under ``code``), in its own session."""
    import subprocess
    import sys
    path = [code or os.getcwd(), os.environ.get("PYTHONPATH")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, path)))
    # -m puts the working directory first on the path: there, this checkout would win
    return subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_" + args[0], *args[1:]], env=env,
                            cwd=code or os.getcwd(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _wait_for_scheduler(address: str, workers: int = 0) -> None:
    from distributed import Client
    deadline = time.monotonic() + 15
    while True:
        try:
            with Client(address, timeout=2, set_as_default=False) as client:
                if workers:
                    client.wait_for_workers(workers, timeout=max(1, deadline - time.monotonic()))
                return
        except (OSError, TimeoutError):
            if time.monotonic() > deadline:
                raise


class TestClusterByHand:
    """A scheduler and workers started as the README starts them, as processes."""

    def test_a_scheduler_gone_mid_run_keeps_what_finished(self, tmp_path):
        """The scheduler killed mid-run: exit 3 with the summary of the games that finished and
        a line naming the scheduler (an 'internal error' and a traceback before); --resume
        elsewhere ends as a run that never stopped."""
        import threading
        address = f"tcp://127.0.0.1:{_free_port()}"
        scheduler = _dask("scheduler", "--port", address.rsplit(":", 1)[1], "--dashboard-address", ":0")
        worker = None
        try:
            _wait_for_scheduler(address)
            worker = _dask("worker", address, "--nthreads", "1", "--nworkers", "1")
            _wait_for_scheduler(address, workers=1)
            journal = tmp_path / "run.jsonl"

            def kill_after_two_chunks():
                while not journal.exists() or journal.read_text().count("chunk") < 2:
                    time.sleep(0.05)
                scheduler.kill()

            threading.Thread(target=kill_after_two_chunks, daemon=True).start()
            start = time.monotonic()
            result = CliRunner().invoke(main, ["bench", "--level", "9x9x10", "--games", "2000", "--seed", "3",
                                               "--chunk", "5", "--out", str(journal), "--scheduler", address])
            assert time.monotonic() - start < 15
        finally:
            for process in (scheduler, worker):
                if process:
                    process.kill()
                    process.wait()
        assert result.exit_code == 3, result.output
        assert f"expected the Dask scheduler at {address} to stay up" in result.stderr
        assert "Traceback" not in result.stderr
        finished = read_journal(journal).games
        assert 10 <= finished < 2000 and f"interrupted: {finished} of 2000 games ran" in result.stdout
        # The first two chunks, as a run of 60 games: --resume plays the rest without Dask.
        journal_copy = tmp_path / "short.jsonl"
        lines = journal.read_text().splitlines()
        journal_copy.write_text("\n".join(lines[:3]).replace('"games": 2000', '"games": 60') + "\n")
        code, data = invoke("bench", "--resume", journal_copy, "--workers", "2")
        assert code == 0, data
        assert (data["wins"], round(data["guesses_per_game"] * 60)) == played(Level(9, 9, 10), 60, seed=3)

    def test_a_worker_with_other_code_is_refused(self, tmp_path):
        """A worker whose satsweeper differs from this one, under the same version number
        (every commit is 0.1.0): exit 2 naming it; its games were mixed in unsaid before."""
        import shutil
        import satsweeper
        other = tmp_path / "other"
        shutil.copytree(Path(satsweeper.__file__).parent, other / "satsweeper")
        with open(other / "satsweeper" / "experiments.py", "a") as handle:
            handle.write("# a commit later\n")
        address = f"tcp://127.0.0.1:{_free_port()}"
        scheduler = _dask("scheduler", "--port", address.rsplit(":", 1)[1], "--dashboard-address", ":0")
        worker = None
        try:
            _wait_for_scheduler(address)
            worker = _dask("worker", address, "--nthreads", "1", code=str(other))
            _wait_for_scheduler(address, workers=1)
            code, data = invoke("bench", "--level", "9x9x10", "--games", 20, "--scheduler", address)
        finally:
            for process in (scheduler, worker):
                if process:
                    process.kill()
                    process.wait()
        assert code == 2, data
        assert data["expected"].startswith("satsweeper's code as here") and "on the worker at tcp://" in data["got"]

    def test_no_worker_attached_is_said_not_waited_on_silently(self, monkeypatch):
        """A scheduler with no worker: the run says what it waits for, then ends once one comes."""
        import threading
        import satsweeper.runner as runner
        monkeypatch.setattr(runner, "WAIT_NOTICE", 0.5)
        address = f"tcp://127.0.0.1:{_free_port()}"
        scheduler = _dask("scheduler", "--port", address.rsplit(":", 1)[1], "--dashboard-address", ":0")
        workers = []
        try:
            _wait_for_scheduler(address)
            threading.Timer(2, lambda: workers.append(_dask("worker", address, "--nthreads", "1"))).start()
            result = CliRunner().invoke(main, ["bench", "--level", "9x9x10", "--games", "20", "--seed", "2",
                                               "--scheduler", address, "--json"])
        finally:
            for process in [scheduler, *workers]:
                process.kill()
                process.wait()
        assert result.exit_code == 0, result.output
        assert (f"satsweeper: waiting for a Dask worker: none is attached to the scheduler at {address} "
                f"(start one: dask worker {address} --nthreads 1)") in result.stderr
        data = json.loads(result.stdout)
        assert (data["wins"], round(data["guesses_per_game"] * 20)) == played(Level(9, 9, 10), 20, seed=2)


def _bench_under_way(tmp_path, backend: list) -> tuple:
    """(the process, its journal) of a 5,000-game bench in a process of its own (its own
    session), once the journal holds 3 chunks."""
    import subprocess
    import sys
    script = tmp_path / "bench.py"
    script.write_text(_BENCH)
    journal = tmp_path / "run.jsonl"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
    process = subprocess.Popen(
        [sys.executable, str(script), "bench", "--level", "9x9x10", "--strategy", "exact", "--games", "5000",
         "--seed", "4", "--chunk", "8", "--out", str(journal), *backend],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while not (journal.exists() and journal.read_text().count('"chunk"') >= 3):
        if process.poll() is not None or time.monotonic() > deadline:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            raise AssertionError(process.communicate())
        time.sleep(0.05)
    return process, journal


def _state(pid: int) -> str:
    """A process's state as /proc says it ("S (sleeping)", "Z (zombie)"), or "" once it is gone."""
    try:
        return next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                    if line.startswith("State:"))
    except (FileNotFoundError, ProcessLookupError):
        return ""


_BENCH = """
import signal, sys
from satsweeper.cli import main
if __name__ == "__main__":  # not again in the LocalCluster's processes, which import it
    # SIGTERM's default action, as a shell leaves it (whatever this suite inherited).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    main(sys.argv[1:])
"""


_STARTS_AND_STOPS = """
import os, signal, sys, threading, time
from satsweeper.runner import Backend, open_runner
if __name__ == "__main__":
    # Ctrl-C as in a terminal: a suite started in the background by a script (without job
    # control) hands its children SIGINT ignored, and no Ctrl-C would arrive at all.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    start = time.monotonic()
    try:
        with open_runner(Backend(workers=2, dask=True)) as runner:
            print("started", flush=True)
            list(runner.stream(lambda lo, hi: list(range(lo, hi)), 4))
            if sys.argv[1] == "stop":  # Ctrl-C while the cluster closes
                threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT)).start()
            else:
                time.sleep(60)
        print("closed", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
"""


def _children(pid: int) -> list[int]:
    import subprocess
    return [int(c) for c in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()]


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


class TestCtrlCWhileALocalClusterStartsOrStops:
    """Ctrl-C reaches the whole process group, the LocalCluster's workers included."""

    def _run(self, tmp_path, when: str):
        import subprocess
        import sys
        script = tmp_path / "script.py"
        script.write_text(_STARTS_AND_STOPS)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
        start = time.monotonic()
        process = subprocess.Popen([sys.executable, str(script), when], env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, start_new_session=True)
        lines = []
        if when == "start":
            # as soon as a worker process exists (it imports Dask for a second or more)
            while not any("spawn_main" in _command_line(child) for child in _children(process.pid)):
                time.sleep(0.02)
            os.killpg(process.pid, signal.SIGINT)
            lines.append(process.stdout.readline())  # the run went on: that Ctrl-C was lost
            os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
        return "".join(lines) + out, err, time.monotonic() - start

    def _exit_after_interrupt(self, tmp_path) -> tuple[str, str, float]:
        """The "stop" run, timed from its "interrupted" line to the process's end: the
        cluster's start before it takes 5-15 s as the machine is loaded, and is not the question."""
        import subprocess
        import sys
        script = tmp_path / "script.py"
        script.write_text(_STARTS_AND_STOPS)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
        process = subprocess.Popen([sys.executable, str(script), "stop"], env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, start_new_session=True)
        lines = []
        for line in process.stdout:
            lines.append(line)
            if line.strip() == "interrupted":
                break
        interrupted = time.monotonic()
        out, err = process.communicate(timeout=60)
        return "".join(lines) + out, err, time.monotonic() - interrupted

    def test_while_it_starts(self, tmp_path):
        """No worker prints a traceback (each printed its KeyboardInterrupt, and Python's exit
        closed a half-made cluster); the next Ctrl-C stops the run."""
        out, err, seconds = self._run(tmp_path, "start")
        assert out.split() == ["started", "interrupted"], (out, err)
        assert "Traceback" not in err and "Exception ignored" not in err, err
        assert seconds < 20

    def test_while_it_stops(self, tmp_path):
        """The close goes on to its end, then the interrupt: Python's exit no longer spends
        10 s closing the cluster again."""
        out, err, seconds = self._exit_after_interrupt(tmp_path)
        assert out.split() == ["started", "interrupted"], (out, err)
        assert "Exception ignored" not in err and "Traceback" not in err, err
        assert seconds < 5  # the second close waited 10 s for the workers it had already stopped


class _Client:
    """Just enough of a Dask client to lose its scheduler on the ``lost_after``-th question."""

    status = "running"

    def __init__(self, lost_after: int, error: Exception):
        self.asked, self.lost_after, self.error = 0, lost_after, error

    def nthreads(self):
        self.asked += 1
        if self.asked > self.lost_after:
            raise self.error
        return {"tcp://127.0.0.1:1": 1}

    def submit(self, fn, *args, pure=True):
        from concurrent.futures import Future
        future = Future()
        future.set_result(fn(*args))
        return future

    def cancel(self, futures):
        pass


class TestLostScheduler:
    """Seen on a loaded machine: the client, asked how many threads its workers have,
    met the lost scheduler as a plain OSError while it tried to reconnect, which was an
    'internal error' (exit 70) instead of a run stopped with what finished (exit 3)."""

    @pytest.mark.parametrize("error", [OSError("Timed out trying to connect to tcp://127.0.0.1:1 after 5 s"),
                                       ConnectionResetError()])
    def test_a_plain_oserror_is_a_lost_scheduler(self, error):
        from satsweeper.runner import ClusterLost, DaskRunner, _squares
        runner = DaskRunner(Backend(scheduler="tcp://127.0.0.1:1", chunk=2), _Client(3, error))
        finished = []
        with pytest.raises(ClusterLost) as lost:
            for lo, results in runner.stream(_squares, 20):
                finished.append((lo, results))
        assert str(lost.value).startswith("expected the Dask scheduler at tcp://127.0.0.1:1 to stay up")
        assert finished and finished == [(lo, [i * i for i in range(lo, lo + 2)]) for lo, _ in finished]


def test_ctrl_c_while_the_cluster_stops_waits_for_the_end_of_the_block():
    """Ctrl-C while a LocalCluster closes is raised after the close, not in the middle of it,
    even when the kernel hands the signal to another thread (it may pick any thread that
    does not block it: a blocked mask in the main thread deferred nothing)."""
    import threading
    from satsweeper.runner import interrupts_held
    steps = []
    # as in a terminal, whatever this suite inherited (SIGINT ignored, run in the background)
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with interrupts_held():
                sender = threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGINT))
                sender.start()
                sender.join()
                for _ in range(50):  # Python runs handlers between bytecodes of the main thread
                    time.sleep(0.01)
                    steps.append(1)
        assert len(steps) == 50  # the block ran to its end
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, inherited)
