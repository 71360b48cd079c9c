"""``python -m cheatrules``: see :mod:`cheatrules.cli`."""

import sys

from cheatrules.cli import main

if __name__ == "__main__":
    sys.exit(main())
