"""tools/check.py, the README's test command: its set-up of the system and its time report."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).parent.parent / "tools" / "check.py"


def _check_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_machine_without_the_browser_postgresql_and_the_right_to_install_stops_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    check = _check_tool()
    monkeypatch.setattr(check.shutil, "which", lambda name: None)  # no chromium, no sudo
    monkeypatch.setattr(check, "POSTGRES", tmp_path)  # no server binaries
    monkeypatch.setattr(check.os, "geteuid", lambda: 1000, raising=False)
    assert check._system_ready() is False
    said = capsys.readouterr().err.strip().splitlines()
    assert said == [
        "== system: the web table's browser tests need Debian's chromium and chromedriver; "
        "the PostgreSQL store's tests need Debian's postgresql server; install them with: "
        "sudo apt-get install -y -qq chromium chromium-driver postgresql"
    ]


@pytest.mark.parametrize("browser", [False, True])
def test_as_root_what_is_missing_is_installed_with_apt_get(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    browser: bool,
) -> None:
    check = _check_tool()
    installed: list[list[str]] = []
    found = {"apt-get": "/usr/bin/apt-get"}
    if browser:
        found.update(chromium="/usr/bin/chromium", chromedriver="/usr/bin/chromedriver")

    def which(name: str) -> str | None:
        return found.get(name)

    def run(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        installed.append(command)
        if command[:2] == ["apt-get", "install"]:
            found.update(chromium="/usr/bin/chromium", chromedriver="/usr/bin/chromedriver")
            (tmp_path / "15" / "bin").mkdir(parents=True)
            (tmp_path / "15" / "bin" / "initdb").touch()
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(check.shutil, "which", which)
    monkeypatch.setattr(check, "POSTGRES", tmp_path)
    monkeypatch.setattr(check.os, "geteuid", lambda: 0, raising=False)
    monkeypatch.setattr(check.subprocess, "run", run)
    assert check._system_ready() is True
    packages = ["postgresql"] if browser else ["chromium", "chromium-driver", "postgresql"]
    assert installed == [
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", *packages],
    ]
    assert f"installing {' '.join(packages)}" in capsys.readouterr().out
    installed.clear()
    assert check._system_ready() is True and installed == []  # all there: nothing run


def test_the_run_ends_with_its_time_against_the_budget_and_the_verdict(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    check = _check_tool()
    started: list[str] = []
    variables = {"PYTHONPYCACHEPREFIX": str(tmp_path / "bytecode")}
    given: list[object] = []

    def capture(
        step: tuple[str, list[str]], variables: dict[str, str]
    ) -> tuple[str, list[str], int, str, float]:
        name, command = step
        started.append(name)
        given.append(variables)
        return name, command, int(name == "mypy"), "found 1 error" if name == "mypy" else "", 3.0

    def run(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
        assert len(started) >= 1  # the static checks were started before the tests
        given.append(options["env"])
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(check, "_capture", capture)
    monkeypatch.setattr(check.subprocess, "run", run)
    assert check._run_checks("python", tmp_path, variables, 0.0) == 1
    assert given == [variables] * 5  # the tests and the four static checks
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("== pytest: python -m pytest --numprocesses auto --dist loadfile")
    assert "found 1 error" in lines and "== mypy: FAILED in 3 s" in lines
    assert lines[-3].startswith("== time: pytest ") and "docs 3 s" in lines[-3]
    assert "the README's test command has 180 s on a two-core machine" in lines[-2]
    assert lines[-1] == "== failed: mypy"
    assert check.report(12, ["pytest 10 s"], []).splitlines()[-1] == "== all passed"


def test_where_python_is_asked_to_write_no_bytecode_the_checks_keep_it_in_a_folder_of_the_run(
    tmp_path: Path,
) -> None:
    check = _check_tool()
    asked = {"PYTHONDONTWRITEBYTECODE": "1", "HOME": "/home/a"}
    assert check.environment(asked, tmp_path) == {
        "HOME": "/home/a",
        "PYTHONPYCACHEPREFIX": str(tmp_path),
    }
    chosen = {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": "/var/cache/py"}
    assert check.environment(chosen, tmp_path) == {"PYTHONPYCACHEPREFIX": "/var/cache/py"}
    assert check.environment({"HOME": "/home/a"}, tmp_path) == {"HOME": "/home/a"}
