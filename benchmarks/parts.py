"""Run benchmark scripts one after another, each under the targets its figures are read against."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run_parts(parts: Sequence[tuple[str, str]]) -> int:
    """Run each ``(script, targets)`` with this interpreter; 1 if any failed, else 0."""
    failed = 0
    for script, targets in parts:
        print(f"== {script} (targets: {targets})", flush=True)
        done = subprocess.run([sys.executable, str(HERE / script)], check=False)
        failed += done.returncode != 0
    return 1 if failed else 0
