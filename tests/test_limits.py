"""satsweeper.limits.deadline: a time limit that holds."""

from __future__ import annotations

import gc
import sys
import time

import pytest

from satsweeper.limits import TimeUp, deadline


class _SlowToDelete:
    """An object whose ``__del__`` runs through the deadline's first ring."""

    def __del__(self):
        started = time.monotonic()
        while time.monotonic() - started < 0.3:
            pass


class TestDeadline:
    def test_a_loop_is_stopped(self):
        started = time.monotonic()
        with pytest.raises(TimeUp):
            with deadline(0.1):
                while time.monotonic() - started < 5:
                    pass
        assert time.monotonic() - started < 1

    def test_a_ring_lost_in_a_destructor_is_rung_again(self, monkeypatch):
        """The first ring lands in a __del__, where Python can only hand the error
        to sys.unraisablehook; the block must still stop, not run on to its end
        (with a single ring it ran the full 5 s)."""
        lost = []
        monkeypatch.setattr(sys, "unraisablehook", lambda raised: lost.append(raised.exc_type))
        started = time.monotonic()
        with pytest.raises(TimeUp):
            with deadline(0.1):
                _SlowToDelete()  # deleted at once: its __del__ spins past 0.1 s
                gc.collect()
                while time.monotonic() - started < 5:
                    pass
        assert lost == [TimeUp]  # the first ring was lost where the test meant it to be
        assert time.monotonic() - started < 2

    def test_no_ring_after_the_block(self):
        with deadline(0.05):
            pass
        time.sleep(0.6)  # a timer left running would raise TimeUp here
