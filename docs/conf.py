"""Sphinx configuration for the cheatrules documentation."""

from __future__ import annotations

import cheatrules

project = "cheatrules"
author = "The cheatrules developers"
copyright = "2026, the cheatrules developers"
release = cheatrules.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
exclude_patterns = ["_build"]

html_theme = "furo"
html_title = "cheatrules"

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

nitpicky = True
nitpick_ignore_regex = [
    # Standard-library and attrs types: no network here for intersphinx.
    ("py:class", r"(typing|collections\.abc|enum|random|attr|attrs|concurrent\.futures)\..*"),
    ("py:class", r"(Rank|Card|Suit|Seating|Action|Event|Claim|CardKnowledge|GameState)"),
    ("py:class", r"(T|_Stack|_Group|cheatrules\.state\._Stack|cheatrules\.chance\._T)"),
    ("py:class", r"(TextIO|Sequence|Iterable|Iterator)"),
    # The learning libraries' own classes, bases of the adapters' (no intersphinx here).
    ("py:class", r"(pettingzoo|gymnasium|pyspiel|numpy|spaces)\..*"),
    ("py:class", r"cheatrules\.openspiel\._(Node|Context)"),
]
