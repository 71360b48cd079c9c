"""tools/check.py, the README's test command: its set-up of the system and its time report."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
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


def test_the_time_report_comes_before_pytest_s_summary_line(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text("def test_one() -> None:\n    pass\n")
    (tmp_path / "conftest.py").write_text((TOOL.parent.parent / "conftest.py").read_text())
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q"],
        cwd=tmp_path,
        env={
            **os.environ,
            "CHEATRULES_CHECK_STARTED": "0",
            "CHEATRULES_CHECK_STEPS": "mypy 12 s",
        },
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    assert "1 passed" in lines[-1]
    assert any("static checks, two at a time: mypy 12 s" in line for line in lines[:-1])
    assert any("the README's test command has 180 s" in line for line in lines[:-1])
