"""How the package's modules depend on each other, and what was taken out.

A module keeps its private names (a leading underscore) to itself; code
shared between modules lives in modules whose own names start with an
underscore (``_json``, ``_registry``, ...), made to be imported.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

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
            # A private module, or any module of a private package, shares its names.
            if target[0] != root.name or any(part.startswith("_") for part in target[1:]):
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
    for name in ("_records/views.py", "match.py"):
        tree = ast.parse((SOURCE / name).read_text(encoding="utf-8"))
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
        }
        assert "cheatrules._records.views" not in imported
        if name == "_records/views.py":
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


# ---------------------------------------------------------------------------
# Layers: the engine never imports the tools built on a seat's view.
#
# Each layer may import its own modules and the layers below it, never one
# above. ``name.*`` stands for a package and every module in it.
LAYERS: list[tuple[str, list[str]]] = [
    (
        "basics: values, policies, rules and the shared helpers",
        [
            "cheatrules.errors",
            "cheatrules._extras",
            "cheatrules._numbers",
            "cheatrules._checks",
            "cheatrules.cards",
            "cheatrules._i18n",
            "cheatrules._persistent",
            "cheatrules._caches",
            "cheatrules._records",
            "cheatrules._sampler",
            "cheatrules.events",
            "cheatrules.seating",
            "cheatrules.chance",
            "cheatrules.policies.*",
            "cheatrules.actions",
            "cheatrules.table",
            "cheatrules._generation",
            "cheatrules._multisets",
            "cheatrules.legal",
            "cheatrules.rules",
            "cheatrules._json",
            "cheatrules._registry",
            "cheatrules._records.rules_json",
        ],
    ),
    (
        "engine: the state, a seat's view of it, the deal",
        [
            "cheatrules",
            "cheatrules.decision",
            "cheatrules._read_model",
            "cheatrules.state",
            "cheatrules.observation",
            "cheatrules.deal",
            "cheatrules.realtime",
            "cheatrules.variants",
        ],
    ),
    (
        "seat-view tools: what a seat can work out from its view",
        [
            "cheatrules.knowledge",
            "cheatrules._sampler.fourless",
            "cheatrules._sampler.matching",
            "cheatrules._sampler.twins",
            "cheatrules._sampler.plan",
            "cheatrules._sampler.search",
            "cheatrules._sampler.solver",
            "cheatrules.sampling",
            "cheatrules._encoding_checks",
            "cheatrules.encoding",
            "cheatrules.information_state",
            "cheatrules._seat_memory",
            "cheatrules.narration",
            "cheatrules.svg",
        ],
    ),
    (
        "applications: bots, tournaments, matches and records",
        [
            "cheatrules.bots",
            "cheatrules.arena",
            "cheatrules.match",
            "cheatrules.records",
            "cheatrules._records.stored_view",
            "cheatrules._records.views",
            "cheatrules._records.view_log",
            "cheatrules.pettingzoo",
            "cheatrules.openspiel",
            "cheatrules.gymnasium",
            "cheatrules._adapters",
            "cheatrules._view_text",
        ],
    ),
    ("command line", ["cheatrules.cli.*", "cheatrules.__main__"]),
    ("web table: the server behind cheatrules serve", ["cheatrules.web.*"]),
]

#: Every import made inside a function in the package, with the reason it
#: waits for the call: ``(importing module, imported module): reason``.
#: An import hidden in a function hides a cycle from the layer check, so
#: each one must be listed here (and a listed one that is gone fails too).
CALL_TIME_IMPORTS: dict[tuple[str, str], str] = {
    ("cheatrules.observation", "cheatrules.knowledge"): (
        "Observation.knowledge(), a convenience: the knowledge module reads observations"
    ),
    ("cheatrules.observation", "cheatrules.sampling"): (
        "Observation.sample(), a convenience: the sampling module deals from observations"
    ),
    ("cheatrules.observation", "cheatrules.svg"): (
        "Observation._repr_svg_(), so notebooks draw a seat's view: the pictures module reads"
        " observations"
    ),
    ("cheatrules.state", "cheatrules.svg"): (
        "GameState._repr_svg_(), so notebooks draw the table: the pictures module reads states"
    ),
    ("cheatrules.cli", "cheatrules.web"): (
        "cheatrules serve: the web table needs the web extra, which the rest of the command"
        " line does without"
    ),
    ("cheatrules.errors", "cheatrules.cards"): (
        "a card or rank given to a message is told with the reader's rank letter; "
        "the cards module raises the errors module's errors"
    ),
    ("cheatrules.errors", "cheatrules._i18n"): (
        "CheatRulesError.describe(language) reads the catalogs, and the catalogs module"
        " raises the library's errors"
    ),
    ("cheatrules.errors", "cheatrules.events"): (
        "ClaimWords says a claim in English as the narration does: the events module"
        " raises the library's errors"
    ),
    ("cheatrules.encoding", "cheatrules.information_state"): (
        "the name cheatrules.encoding.InformationStateEncoder, kept from before the class had"
        " a module of its own: that module builds on this one"
    ),
}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(node: ast.Import | ast.ImportFrom, path: Path, root: Path) -> list[str]:
    """The package modules ``node`` imports: ``from a import b`` is ``a.b`` when b is a module."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        target = _target(node, path, root)
        folder = root.parent.joinpath(*target)
        names = []
        for alias in node.names:
            is_module = (folder / f"{alias.name}.py").exists() or (folder / alias.name).is_dir()
            names.append(".".join([*target, alias.name] if is_module else target))
    return [name for name in names if name.split(".")[0] == root.name]


def package_imports(
    root: Path = SOURCE,
) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Each module's imports of the package: those run on import, and those inside functions.

    Imports under ``if TYPE_CHECKING:`` never run and are left out.
    """
    on_import: dict[str, set[str]] = {}
    on_call: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        module = ".".join(_module_name(path, root))
        on_import[module], on_call[module] = set(), set()

        def visit(node: ast.AST, in_function: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _is_type_checking(child.test):
                    for statement in child.orelse:
                        visit_one(statement, in_function)
                    continue
                visit_one(child, in_function)

        def visit_one(node: ast.AST, in_function: bool) -> None:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found = on_call if in_function else on_import
                found[module].update(_imported(node, path, root))  # noqa: B023
            else:
                functions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
                visit(node, in_function or isinstance(node, functions))

        visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), False)
    return on_import, on_call


def _layer_of(module: str) -> int | None:
    for number, (_, members) in enumerate(LAYERS):
        for member in members:
            package = member.removesuffix(".*")
            if module == member or (
                member.endswith(".*") and (module == package or module.startswith(package + "."))
            ):
                return number
    return None


def layer_breaches(on_import: dict[str, set[str]]) -> list[str]:
    """Each module-level import of a module from a higher layer, and each module in no layer."""
    found = []
    for module, imports in sorted(on_import.items()):
        layer = _layer_of(module)
        if layer is None:
            found.append(f"{module} is in no layer")
            continue
        for target in sorted(imports):
            above = _layer_of(target)
            if above is not None and above > layer:
                found.append(
                    f"{module} ({LAYERS[layer][0].split(':')[0]}) imports "
                    f"{target} ({LAYERS[above][0].split(':')[0]})"
                )
    return found


def import_cycle(on_import: dict[str, set[str]]) -> list[str]:
    """One cycle of module-level imports, as the modules in order; empty when there is none."""
    done: set[str] = set()
    path: list[str] = []

    def walk(module: str) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        path.append(module)
        for target in sorted(on_import.get(module, ())):
            cycle = walk(target)
            if cycle:
                return cycle
        path.pop()
        done.add(module)
        return []

    for module in sorted(on_import):
        cycle = walk(module)
        if cycle:
            return cycle
    return []


def test_every_module_imports_only_its_own_layer_and_those_below() -> None:
    on_import, _ = package_imports()
    assert layer_breaches(on_import) == []


def test_no_module_imports_itself_through_others_when_loaded() -> None:
    on_import, _ = package_imports()
    assert import_cycle(on_import) == []


def test_every_import_made_on_call_is_listed_with_its_reason() -> None:
    _, on_call = package_imports()
    made = {(module, target) for module, targets in on_call.items() for target in targets}
    assert made == set(CALL_TIME_IMPORTS)
    for (module, target), reason in CALL_TIME_IMPORTS.items():
        assert _layer_of(module) is not None and reason, (module, target)


def test_the_layer_checks_find_breaches_cycles_and_hidden_imports(tmp_path: Path) -> None:
    package = tmp_path / "cheatrules"
    package.mkdir()
    files = {
        "__init__.py": "from cheatrules.state import GameState\n",
        "errors.py": "",
        "cards.py": "from cheatrules import _checks\n",
        "_checks.py": "from cheatrules.errors import X\nfrom cheatrules.cards import Rank\n",
        "state.py": (
            "from typing import TYPE_CHECKING\n"
            "from cheatrules.cards import Card\n"
            "from cheatrules import sampling\n"
            "if TYPE_CHECKING:\n"
            "    from cheatrules.bots import Bot\n"
            "def f():\n"
            "    from cheatrules.knowledge import card_knowledge\n"
        ),
        "sampling.py": "import cheatrules.state\n",
        "knowledge.py": "",
        "bots.py": "",
        "stray.py": "",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    on_import, on_call = package_imports(package)
    assert on_import["cheatrules.state"] == {"cheatrules.cards", "cheatrules.sampling"}
    assert on_call["cheatrules.state"] == {"cheatrules.knowledge"}
    assert layer_breaches(on_import) == [
        "cheatrules.state (engine) imports cheatrules.sampling (seat-view tools)",
        "cheatrules.stray is in no layer",
    ]
    assert import_cycle(on_import) == ["cheatrules.cards", "cheatrules._checks", "cheatrules.cards"]


#: Imported on their own, these leave every module above the engine unloaded.
ENGINE_ENTRY_POINTS = ["cheatrules", "cheatrules.state", "cheatrules.observation"]


def _loaded_after(statement: str) -> set[str]:
    """The package's modules a fresh interpreter holds after running ``statement``."""
    script = f"import sys\n{statement}\nprint(' '.join(sorted(sys.modules)))"
    output = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    return {name for name in output.split() if name.split(".")[0] == "cheatrules"}


def _above_the_engine() -> set[str]:
    engine = next(number for number, (name, _) in enumerate(LAYERS) if name.startswith("engine"))
    return {
        ".".join(_module_name(path, SOURCE))
        for path in SOURCE.rglob("*.py")
        if (_layer_of(".".join(_module_name(path, SOURCE))) or 0) > engine
    }


def test_the_higher_layers_include_the_tools_named_in_the_issue() -> None:
    named = {"sampling", "knowledge", "bots", "arena", "encoding", "match", "records"}
    assert {f"cheatrules.{name}" for name in named} <= _above_the_engine()


@pytest.mark.parametrize("module", ENGINE_ENTRY_POINTS)
def test_importing_the_engine_does_not_import_the_tools_built_on_it(module: str) -> None:
    loaded = _loaded_after(f"import {module}")
    assert module in loaded
    assert loaded & _above_the_engine() == set()


def test_a_name_from_a_higher_layer_is_imported_when_first_asked_for() -> None:
    loaded = _loaded_after("import cheatrules as cr\nassert cr.Match.__name__ == 'Match'")
    assert "cheatrules.match" in loaded
    assert "cheatrules.bots" not in loaded


def test_every_public_name_is_still_there_and_listed() -> None:
    records = importlib.import_module("cheatrules.records")
    match = importlib.import_module("cheatrules.match")
    for name in cr.__all__:
        assert getattr(cr, name) is not None, name
    assert set(cr.__all__) <= set(dir(cr))
    assert {"match", "records", "__version__"} <= set(dir(cr))
    assert cr.dumps is records.dumps
    assert cr.Match is match.Match
    assert cr.match is match and cr.records is records


def test_from_the_package_import_names_of_every_layer() -> None:
    from cheatrules import BestOf, GameState, dumps_match, loads_view, register_policy

    records = importlib.import_module("cheatrules.records")
    match = importlib.import_module("cheatrules.match")
    assert (BestOf, dumps_match) == (match.BestOf, match.dumps_match)
    assert (loads_view, register_policy) == (records.loads_view, records.register_policy)
    assert GameState.__module__ == "cheatrules.state"


def test_a_name_the_package_lacks_is_an_attribute_error() -> None:
    misspelt = "Matchh"  # a type checker refuses cr.Matchh; at run time it is an AttributeError
    with pytest.raises(AttributeError, match="module 'cheatrules' has no attribute 'Matchh'"):
        getattr(cr, misspelt)
    with pytest.raises(ImportError, match="cannot import name 'Matchh'"):
        exec("from cheatrules import Matchh")
    assert not hasattr(cr, "bot")


def test_states_bots_and_scorings_pickled_load_in_a_fresh_interpreter() -> None:
    import pickle

    bots = importlib.import_module("cheatrules.bots")
    values = [cr.deal(cr.english(3), seed=1), bots.SamplingBot(samples=2), cr.FirstTo(2), cr.dumps]
    script = (
        "import pickle, sys\n"
        "values = pickle.loads(sys.stdin.buffer.read())\n"
        "print(' '.join(type(value).__name__ for value in values[:3]), values[3].__name__)"
    )
    output = subprocess.run(
        [sys.executable, "-c", script], input=pickle.dumps(values), check=True, capture_output=True
    ).stdout
    assert output.decode().split() == ["GameState", "SamplingBot", "FirstTo", "dumps"]
