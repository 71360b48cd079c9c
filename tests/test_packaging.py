"""What a user gets from a checkout: a wheel with the licence and the type marker, docs that cite files the repository has."""

from __future__ import annotations

import zipfile
from pathlib import Path

from hatchling.builders.wheel import WheelBuilder

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_ships_the_licence_the_type_marker_and_catalogs(tmp_path: Path) -> None:
    built = list(WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"]))
    names = zipfile.ZipFile(built[0]).namelist()
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names), names
    assert "cheatrules/py.typed" in names
    catalogs = sorted(name for name in names if name.startswith("cheatrules/locale/"))
    assert catalogs == [
        f"cheatrules/locale/{language}/LC_MESSAGES/cheatrules.mo"
        for language in ("en", "es", "fr", "pt", "ru")
    ]


def test_the_licence_is_the_one_the_package_metadata_names() -> None:
    assert 'license = "MIT"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_docstrings_and_docs_cite_only_files_the_repository_has() -> None:
    # The rule book lives in docs/rules/; there is no RULES.md in the repository.
    assert not (ROOT / "RULES.md").exists()
    citing = [
        str(path.relative_to(ROOT))
        for folder in ("src", "docs", "examples", "tests")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in {".py", ".md"}
        and "_build" not in path.parts
        and path != Path(__file__).resolve()
        and "RULES.md" in path.read_text(encoding="utf-8")
    ]
    assert citing == []
