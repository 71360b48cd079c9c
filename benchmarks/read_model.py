"""Every figure the read model is held to, in one run: the playout, seat views, legal actions.

Run: ``python benchmarks/read_model.py``. It runs ``playout.py``,
``observe.py`` and ``legal.py`` one after another with this interpreter (on
a quiet machine: they share nothing but the cores) and prints their ratios
under the targets the design aims for:

* the public API's random playout against a minimal mutable loop (at most
  5 times; against the tighter loop that pops cards by index and never
  sorts, at most 8 times), ``apply`` alone as a multiple of a decision of
  that loop (at most what version 6b17737 measures beside it), random legal
  play against OpenSpiel's ``python_liars_poker`` (ahead of it, where
  OpenSpiel is installed), and a decision late in a long game against early
  (at most 1.2);
* ``observe(to_move)`` against the ``apply`` that made the state, 8-player
  English, decisions 200-1200 (at most 2 times), late against early (at
  most 1.3), and the memory of every state of a 20,000-decision game
  observed once against the states alone (at most 2 times);
* a uniformly random legal action against ``apply`` (at most 2 times), and
  ``len(legal_actions())`` and a random legal action for a 50-card hand with
  millions of plays (at most about 50 times each).
"""

from __future__ import annotations

import sys

from parts import run_parts

#: Each script, and the targets its figures are read against.
PARTS = (
    (
        "playout.py",
        "API/floor <= 5x; API/tight floor <= 8x; ahead of python_liars_poker; late/early <= 1.2",
    ),
    ("observe.py", "observe/apply <= 2x; late/early <= 1.3; observed/unobserved memory <= 2x"),
    ("legal.py", "random legal action <= 2x apply; 50-card hand: len and choice <= ~50x apply"),
)


if __name__ == "__main__":
    sys.exit(run_parts(PARTS))
