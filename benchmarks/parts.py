"""What the benchmark scripts share: running them one after another, and a random player."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import cheatrules as cr

HERE = Path(__file__).resolve().parent
ACCEPT = cr.Accept()


def run_parts(parts: Sequence[tuple[str, str]]) -> int:
    """Run each ``(script, targets)`` with this interpreter; 1 if any failed, else 0."""
    failed = 0
    for script, targets in parts:
        print(f"== {script} (targets: {targets})", flush=True)
        done = subprocess.run([sys.executable, str(HERE / script)], check=False)
        failed += done.returncode != 0
    return 1 if failed else 0


def decide(state: cr.GameState, rng: random.Random, challenge: float) -> cr.Action:
    """A random legal action; in a challenge window, challenge with probability ``challenge``."""
    if isinstance(state.decision, cr.Window) and rng.random() >= challenge:
        return ACCEPT
    return state.legal_actions().choice(rng)
