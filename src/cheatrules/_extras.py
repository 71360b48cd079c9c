"""How to install an extra, said so that it works where this copy of cheatrules came from.

cheatrules is not on PyPI yet, so ``pip install "cheatrules[web]"`` finds
nothing; from a checkout of the source, ``pip install ".[web]"`` works. Every
message that names an extra (``cheatrules serve``, ``--color``, the
adapters' import errors) says both, through :func:`install_hint`; when this
copy runs from a checkout (an editable install, or ``src`` on the path), the
checkout form names that checkout and keeps the install editable.

This module imports nothing but the standard library, so an import error's
handler can use it.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

__all__ = ["checkout", "hint", "install_hint"]

# The project's name in its pyproject.toml: ``name = "cheatrules"`` under [project].
_NAME = re.compile(r'^\s*name\s*=\s*["\']cheatrules["\']\s*$', re.MULTILINE)


@functools.cache
def checkout() -> Path | None:
    """The root of the source checkout this copy runs from (``src/cheatrules`` in it), or ``None``.

    A copy installed from a wheel or from PyPI lives in ``site-packages``,
    which no ``pyproject.toml`` naming cheatrules sits above: ``None``.
    Read once and kept.
    """
    package = Path(__file__).resolve().parent
    root = package.parent.parent
    if package.parent.name != "src":
        return None
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    return root if _NAME.search(text) else None


def install_hint(extra: str) -> str:
    """The commands that install ``extra``: from PyPI once published, and from a checkout.

    When this copy runs from a checkout, the second names it (``"."`` when
    it is the current directory) with ``-e``, so the install stays editable.
    """
    return hint(extra, checkout(), Path(os.getcwd()))


def hint(extra: str, root: Path | None, here: Path) -> str:
    """:func:`install_hint` for a copy running from ``root`` (``None``: installed), seen from ``here``.

    >>> print(hint("web", None, Path("/home")))
    pip install "cheatrules[web]" once cheatrules is on PyPI; from a checkout of its source: pip install ".[web]"
    >>> print(hint("web", Path("/src/cheatrules"), Path("/src/cheatrules")))
    pip install "cheatrules[web]" once cheatrules is on PyPI; from this checkout: pip install -e ".[web]"
    >>> print(hint("cli", Path("/src/cheatrules"), Path("/home")))
    pip install "cheatrules[cli]" once cheatrules is on PyPI; from this checkout: pip install -e "/src/cheatrules[cli]"
    """  # noqa: E501 - a doctest's answer is one line
    published = f'pip install "cheatrules[{extra}]" once cheatrules is on PyPI'
    if root is None:
        return f'{published}; from a checkout of its source: pip install ".[{extra}]"'
    where = "." if here == root else str(root)
    return f'{published}; from this checkout: pip install -e "{where}[{extra}]"'
