"""The installer definitions say what IT relies on: checked statically, in a second, on any OS.

Building the bundle is not a test (``packaging/ci_bundle.sh`` does it in CI); these tests read
the spec, the desktop file, the Inno Setup script, the macOS plist and the scripts, so a broken
association, a lost per-user setting or a Qt module the app starts importing while the spec
leaves it out is caught before anyone builds an installer.
"""

from __future__ import annotations

import ast
import configparser
import plistlib
import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.agent.settings import (
    API_KEY_ENV,
    BASE_URL_ENV,
    KEYRING_SERVICE,
    KEYRING_USERNAME,
    MODEL_ENV,
)
from tests.conftest import REPO_ROOT
from tests.project.test_layers import imported_modules

PACKAGING = REPO_ROOT / "packaging"
SPEC = PACKAGING / "reviewer.spec"
DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
DOCX_UTI = "org.openxmlformats.wordprocessingml.document"


def spec_tree() -> ast.Module:
    return ast.parse(SPEC.read_text(encoding="utf-8"), filename=str(SPEC))


def spec_literal(name: str) -> Any:
    """The value of the spec's top-level ``NAME = <literal>`` assignment."""
    for node in spec_tree().body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{name} is not assigned a literal in {SPEC.name}")


def spec_calls(function: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(spec_tree())
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == function
    ]


def keyword(call: ast.Call, name: str) -> Any:
    for item in call.keywords:
        if item.arg == name:
            return ast.literal_eval(item.value) if isinstance(item.value, ast.Constant) else item.value
    return None


# ----------------------------------------------------------------------------- the spec
def test_spec_keeps_each_platforms_windowing_plugin_and_offscreen() -> None:
    platforms = spec_literal("PLATFORM_PLUGINS")
    assert set(platforms) == {"linux", "win32", "darwin"}
    for plugins in platforms.values():
        assert "offscreen" in plugins  # --self-test and headless runs
    assert {"xcb", "wayland"} <= set(platforms["linux"])
    assert "windows" in platforms["win32"] and "cocoa" in platforms["darwin"]
    kept = spec_literal("KEEP_PLUGINS")
    assert "platforms" not in kept  # chosen per OS from PLATFORM_PLUGINS
    assert {"jpeg", "gif"} <= set(kept["imageformats"]) and "pdf" not in kept["imageformats"]
    for unused in ("tls", "networkinformation", "egldeviceintegrations", "generic", "sqldrivers"):
        assert unused not in kept


def test_spec_excludes_no_module_the_app_imports() -> None:
    """An excluded Qt module the app starts using would break only the bundle: catch it here."""
    excluded = spec_literal("EXCLUDES")
    for module in ("PySide6.QtNetwork", "PySide6.QtWebEngineCore", "PySide6.QtQml", "PySide6.QtQuick"):
        assert module in excluded
    used = {name for path in (REPO_ROOT / "reviewer_app").rglob("*.py") for _, name in imported_modules(path)}
    clashes = sorted(
        name for name in used for module in excluded if name == module or name.startswith(module + ".")
    )
    assert clashes == []


def test_spec_builds_the_executables_from_one_analysis_with_the_sample() -> None:
    assert len(spec_calls("Analysis")) == 1
    names = {keyword(call, "name") for call in spec_calls("EXE")}
    assert names == {"reviewer", "reviewer-cli"}  # the console twin is built on Windows only
    (collect,) = spec_calls("COLLECT")
    assert any(isinstance(arg, ast.Starred) for arg in collect.args)  # every executable, one folder
    text = SPEC.read_text(encoding="utf-8")
    assert '"resources" / "samples" / "sample-msa.docx"' in text
    assert (REPO_ROOT / "resources" / "samples" / "sample-msa.docx").is_file()
    # the fonts the pages are laid out in, so the bundle lays out as a checkout does
    assert '(str(ROOT / "resources" / "fonts"), "resources/fonts")' in text
    assert len(list((REPO_ROOT / "resources" / "fonts").glob("*.ttf"))) == 20
    assert 'collect_entry_point("keyring.backends")' in text
    assert '"macos" / "Info.plist"' in text


def test_launch_script_runs_the_cli_entry_point() -> None:
    names = [name for _, name in imported_modules(PACKAGING / "launch.py", root=PACKAGING)]
    assert "reviewer_app.cli.main" in names


# ----------------------------------------------------------------------------- Linux
def test_desktop_file_offers_reviewer_for_docx() -> None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(PACKAGING / "linux" / "reviewer.desktop", encoding="utf-8")
    entry = parser["Desktop Entry"]
    assert entry["Type"] == "Application" and entry["Name"] == "Reviewer"
    assert entry["Terminal"] == "false"
    assert DOCX_MIME in entry["MimeType"].split(";") and entry["MimeType"].endswith(";")
    assert re.fullmatch(r"reviewer %[fF]", entry["Exec"])
    assert "Office" in entry["Categories"].split(";")
    assert (PACKAGING / "linux" / f"{entry['Icon']}.svg").is_file()


def test_desktop_file_passes_desktop_file_validate() -> None:
    if shutil.which("desktop-file-validate") is None:
        pytest.skip("desktop-file-validate is not installed (Debian: desktop-file-utils)")
    proc = subprocess.run(
        ["desktop-file-validate", str(PACKAGING / "linux" / "reviewer.desktop")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_linux_install_adds_open_with_and_uninstall_keeps_user_data(tmp_path: Path) -> None:
    """install.sh from an unpacked tarball (a stand-in bundle: the real one is built in CI only)."""
    unpacked = tmp_path / "Reviewer-0.0-linux"
    (unpacked / "Reviewer").mkdir(parents=True)
    fake_bundle = unpacked / "Reviewer" / "reviewer"
    fake_bundle.write_text("#!/bin/sh\necho bundle\n")
    fake_bundle.chmod(0o755)
    for name in ("install.sh", "reviewer.desktop", "reviewer.svg"):
        shutil.copy2(PACKAGING / "linux" / name, unpacked / name)
    home, prefix = tmp_path / "home", tmp_path / "prefix"
    settings = home / ".config" / "Reviewer" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text("{}")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "PREFIX": str(prefix)}

    subprocess.run(["bash", str(unpacked / "install.sh")], env=env, check=True, capture_output=True)
    desktop = (prefix / "share" / "applications" / "reviewer.desktop").read_text(encoding="utf-8")
    app = prefix / "lib" / "reviewer" / "reviewer"
    assert f'Exec="{app}" %f' in desktop and f"MimeType={DOCX_MIME};" in desktop
    assert (
        subprocess.run([str(prefix / "bin" / "reviewer")], capture_output=True, text=True).stdout
        == "bundle\n"
    )
    assert (prefix / "share" / "icons" / "hicolor" / "scalable" / "apps" / "reviewer.svg").is_file()
    assert not (home / ".config" / "mimeapps.list").exists()  # the default application is untouched

    subprocess.run(
        ["bash", str(unpacked / "install.sh"), "--uninstall"], env=env, check=True, capture_output=True
    )
    assert not app.exists() and not (prefix / "bin" / "reviewer").exists()
    assert not (prefix / "share" / "applications" / "reviewer.desktop").exists()
    assert settings.read_text() == "{}"


@pytest.mark.parametrize("script", sorted(PACKAGING.rglob("*.sh")), ids=lambda path: path.name)
def test_shell_scripts_parse(script: Path) -> None:
    proc = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert script.read_text(encoding="utf-8").startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in script.read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- Windows
def inno_sections() -> dict[str, list[str]]:
    """The Inno Setup script's lines by section, comments and preprocessor lines left out."""
    sections: dict[str, list[str]] = {}
    current = ""
    for raw in (PACKAGING / "windows" / "reviewer.iss").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith((";", "#")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            sections.setdefault(current, [])
        else:
            sections.setdefault(current, []).append(line)
    return sections


def test_windows_installer_is_per_user_with_a_start_menu_entry() -> None:
    sections = inno_sections()
    setup = dict(line.split("=", 1) for line in sections["Setup"])
    assert setup["PrivilegesRequired"] == "lowest"
    assert setup["DefaultDirName"].startswith("{localappdata}\\Programs\\")
    assert re.fullmatch(r"\{\{[0-9A-F-]{36}\}", setup["AppId"])
    assert setup["ChangesAssociations"] == "yes"
    assert any(line.startswith('Name: "{autoprograms}\\') for line in sections["Icons"])
    assert any("{#DistDir}\\*" in line and "recursesubdirs" in line for line in sections["Files"])
    assert '#define AppExe "reviewer.exe"' in (PACKAGING / "windows" / "reviewer.iss").read_text(
        encoding="utf-8"
    )


def test_windows_installer_adds_open_with_without_taking_the_default() -> None:
    registry = inno_sections()["Registry"]
    assert all(line.startswith("Root: HKCU;") for line in registry)  # per user, no admin
    open_with = [line for line in registry if "\\.docx\\OpenWithProgids" in line]
    assert len(open_with) == 1 and 'ValueName: "{#ProgId}"' in open_with[0]
    # the .docx key's own default value (the default program) is never written
    assert not [line for line in registry if re.search(r'Subkey: "Software\\Classes\\\.docx";', line)]
    command = [line for line in registry if "{#ProgId}\\shell\\open\\command" in line]
    assert command and '""{app}\\{#AppExe}"" ""%1""' in command[0]


def test_windows_uninstall_keeps_user_data() -> None:
    sections = inno_sections()
    assert "UninstallDelete" not in sections
    text = (PACKAGING / "windows" / "reviewer.iss").read_text(encoding="utf-8")
    assert "{userappdata}" not in text and "{localappdata}\\Reviewer" not in text


# ----------------------------------------------------------------------------- macOS
def test_macos_plist_declares_docx_as_an_alternate_editor() -> None:
    info = plistlib.loads((PACKAGING / "macos" / "Info.plist").read_bytes())
    (docx,) = [t for t in info["CFBundleDocumentTypes"] if DOCX_UTI in t["LSItemContentTypes"]]
    assert docx["CFBundleTypeRole"] == "Editor"
    assert docx["LSHandlerRank"] == "Alternate"
    assert info["CFBundleName"] == "Reviewer" and info["NSHighResolutionCapable"] is True
    entitlements = plistlib.loads((PACKAGING / "macos" / "entitlements.plist").read_bytes())
    assert entitlements == {"com.apple.security.cs.allow-unsigned-executable-memory": True}


def test_macos_scripts_use_hdiutil_and_notarytool_with_placeholders() -> None:
    dmg = (PACKAGING / "macos" / "make_dmg.sh").read_text(encoding="utf-8")
    assert "hdiutil create" in dmg and "/Applications" in dmg
    signing = (PACKAGING / "macos" / "sign_and_notarize.sh").read_text(encoding="utf-8")
    for step in ("--options runtime", "notarytool submit", "stapler staple", "REVIEWER_SIGN_IDENTITY"):
        assert step in signing


# ----------------------------------------------------------------------------- build, CI, docs
def test_pyinstaller_is_a_build_extra_not_a_dependency() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(req.startswith("pyinstaller>=6") for req in project["optional-dependencies"]["build"])
    assert not any(req.lower().startswith("pyinstaller") for req in project["dependencies"])
    ci = (PACKAGING / "ci_bundle.sh").read_text(encoding="utf-8")
    assert "'.[build]'" in ci and "packaging/build.py" in ci and "QT_QPA_PLATFORM=offscreen" in ci


def test_readme_names_the_settings_the_code_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The firm-wide endpoint and the file locations in the README are the ones the code uses."""
    for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_DIRS"):
        monkeypatch.delenv(variable, raising=False)  # the README documents the defaults
    readme = (PACKAGING / "README.md").read_text(encoding="utf-8")
    for name in (
        BASE_URL_ENV,
        MODEL_ENV,
        API_KEY_ENV,
        "REVIEWER_SITE_CONFIG",
        KEYRING_SERVICE,
        KEYRING_USERNAME,
    ):
        assert f"`{name}`" in readme, name
    from platformdirs.macos import MacOS

    home = str(Path.home())
    mac = MacOS("Reviewer", appauthor=False)
    for folder in (mac.user_config_dir, mac.user_data_dir, mac.user_log_dir):
        assert folder.replace(home, "~") in readme
    assert f"{mac.site_config_dir}/settings.json" in readme
    from platformdirs.unix import Unix

    linux = Unix("Reviewer", appauthor=False)
    for folder in (linux.user_config_dir, linux.user_data_dir, linux.user_state_dir, linux.user_log_dir):
        assert folder.replace(home, "~") in readme
    assert f"{linux.site_config_dir}/settings.json" in readme
