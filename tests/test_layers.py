"""How the package's modules depend on each other, and what was taken out.

A module keeps its private names (a leading underscore) to itself; code
shared between modules lives in modules whose own names start with an
underscore (``_json``, ``_registry``, ...), made to be imported.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import cheatrules as cr

SOURCE = Path(cr.__file__).parent


def _module_name(path: Path, root: Path) -> list[str]:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _target(node: ast.ImportFrom, path: Path, root: Path) -> list[str]:
    """The dotted parts of the module ``node`` imports from, relative imports resolved."""
    if node.level == 0:
        return (node.module or "").split(".")
    package = _module_name(path, root)
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)]
    return base + (node.module.split(".") if node.module else [])


def private_imports(root: Path = SOURCE) -> list[str]:
    """Every ``from a.b import _name`` in the package at ``root`` where ``b`` is not private.

    Importing a private *module* (``from cheatrules import _checks``) is
    fine: such modules are made to be shared.
    """
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            target = _target(node, path, root)
            if target[0] != root.name or target[-1].startswith("_"):
                continue
            folder = root.parent.joinpath(*target)
            for alias in node.names:
                if (folder / f"{alias.name}.py").exists() or (folder / alias.name).is_dir():
                    continue  # a private module itself, made to be imported
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    where = path.relative_to(root.parent)
                    found.append(
                        f"{where}:{node.lineno} imports {alias.name} from {'.'.join(target)}"
                    )
    return found


def test_no_module_imports_another_modules_private_names() -> None:
    assert private_imports() == []


def test_the_check_finds_private_imports_and_allows_shared_ones(tmp_path: Path) -> None:
    package = tmp_path / "cheatrules"
    (package / "cli").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "_checks.py": "",
        "_json.py": "def get(): ...\n",
        "records.py": "def _get(): ...\n",
        "match.py": "from cheatrules.records import _get\nfrom cheatrules import _checks\n",
        "state.py": "from ._json import get\nfrom cheatrules._json import get as _get\n",
        "cli/__init__.py": "from ..records import _get\n",
        "cli/_play.py": "",
        "cli/main.py": "from ._play import _read\nfrom .. import records\n",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    assert private_imports(package) == [
        "cheatrules/cli/__init__.py:1 imports _get from cheatrules.records",
        "cheatrules/match.py:1 imports _get from cheatrules.records",
    ]


def test_records_views_and_matches_share_helpers_not_each_other() -> None:
    for name in ("_view_records.py", "match.py"):
        tree = ast.parse((SOURCE / name).read_text(encoding="utf-8"))
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
        }
        assert "cheatrules._view_records" not in imported
        if name == "_view_records.py":
            assert "cheatrules.records" not in imported


def test_register_policy_is_still_public() -> None:
    from cheatrules.records import register_policy

    assert cr.register_policy is register_policy


def test_unused_names_are_gone() -> None:
    cards = importlib.import_module("cheatrules.cards")  # cr.cards is the function
    cli = importlib.import_module("cheatrules.cli")
    assert hasattr(cards, "Card")
    assert not hasattr(cards, "canonical")
    assert not hasattr(cr.Discard, "NONE")
    assert not hasattr(cli, "random_decision")
    assert "random_decision" not in cli.__all__
