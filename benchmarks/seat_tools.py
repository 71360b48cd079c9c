"""Every figure the bots and their seat-view tools are held to, in one run.

Run: ``python benchmarks/seat_tools.py``. It runs ``knowledge.py``,
``encoding.py``, ``sampling.py`` and ``bot_decisions.py`` one after another
with this interpreter and prints their ratios under the targets:

* ``knowledge()`` per decision, 8-player English, decisions 200-1200: at most
  5 times the ``apply`` that made the state, and flat (late over early at
  most 1.3);
* the action mask as an array, the same decisions: at most 3 times
  ``apply``, and flat;
* ``sample()``: no failure over 2,000 positions of random 3- and 4-player
  games at every depth, and the median sample at most 50 times ``apply``;
* one CountingBot decision (observe and act), 3-player English: at most 10
  times the ``apply`` of the action it chose; and SamplingBot's games per
  second against two CountingBots.
"""

from __future__ import annotations

import sys

from parts import run_parts

#: Each script, and the targets its figures are read against.
PARTS = (
    ("knowledge.py", "knowledge/apply <= 5x; late/early <= 1.3"),
    ("encoding.py", "mask array/apply <= 3x; late/early <= 1.3"),
    ("sampling.py", "0 failures in 2,000 positions; median sample <= 50x apply"),
    ("bot_decisions.py", "CountingBot observe+act <= 10x apply; SamplingBot games/s"),
)


if __name__ == "__main__":
    sys.exit(run_parts(PARTS))
