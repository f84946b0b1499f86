"""The ``reviewer`` command as a user runs it: a fresh process, its output and exit status.

Hostile files must get a specific, plain-language refusal quickly and cheaply: no traceback,
no hang, no memory blow-up, nothing read from outside the file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from reviewer_app import __version__
from tests.conftest import CORPUS, REPO_ROOT

LISTS_DOC = CORPUS / "public" / "pt_DB012-Lists-With-Different-Numberings.docx"
HEADINGS_DOC = CORPUS / "public" / "dxo_NVCA-Model-COI.docx"
MALFORMED = CORPUS / "malformed"

#: What each hostile file's message must say (the engine's wording, see docx/package.py).
MALFORMED_MESSAGES = {
    "malformed_encrypted-ole-not-zip.docx": "password-protected",
    "malformed_truncated-zip.docx": "damaged or incomplete",
    "malformed_missing-document-xml.docx": "is missing",
    "malformed_zipbomb-ratio.docx": "zip bomb",
    "malformed_xxe-external-entity.docx": "DTD or entities",
}
MAX_SECONDS = 2.0
MAX_RSS_BYTES = 200 * 1024 * 1024


@dataclass
class Run:
    """One finished ``python -m reviewer_app`` process."""

    code: int
    stdout: str
    stderr: str
    seconds: float
    max_rss_bytes: int


#: Runs the CLI and, at exit, records the process's own peak RSS (``VmHWM``). ``ru_maxrss`` from
#: ``wait4`` will not do: Linux carries the parent's high-water mark across ``execve``, so a child
#: forked from a large pytest process would report the parent's size.
_MEASURED_CLI = (
    "import atexit, os, runpy, sys\n"
    "def _peak():\n"
    "    status = open('/proc/self/status').read().split('VmHWM:')[1].split()[0]\n"
    "    open(os.environ['REVIEWER_TEST_PEAK_FILE'], 'w').write(status)\n"
    "atexit.register(_peak)\n"
    "runpy.run_module('reviewer_app', run_name='__main__', alter_sys=True)\n"
)


def run_cli(*args: str, timeout: float = 60) -> Run:
    """Run the CLI in a fresh interpreter and measure that child alone (its own ``VmHWM``)."""
    with tempfile.NamedTemporaryFile(delete=False) as peak_file:
        pass
    env = dict(os.environ, PYTHONIOENCODING="utf-8", REVIEWER_TEST_PEAK_FILE=peak_file.name)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-c", _MEASURED_CLI, *args],
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
        )
        while True:
            pid, status, _usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > timeout:
                proc.kill()
                os.wait4(proc.pid, 0)
                proc.returncode = -9  # reaped here; keep Popen from waiting again
                pytest.fail(f"reviewer {' '.join(args)} did not finish within {timeout} s")
            time.sleep(0.005)
        seconds = time.monotonic() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        peak_kb = Path(peak_file.name).read_text().strip()
        Path(peak_file.name).unlink()
        return Run(
            code=proc.returncode,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
            seconds=seconds,
            max_rss_bytes=int(peak_kb) * 1024,  # kB in /proc
        )


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is not available (shared/ must sit beside the repository)")
    return path


# ----------------------------------------------------------------------------- basics
def test_version() -> None:
    run = run_cli("--version")
    assert run.code == 0, run.stderr
    assert run.stdout.strip() == f"reviewer {__version__}"
    assert __version__ == "0.1.0"


def test_console_script_version() -> None:
    """The installed ``reviewer`` script (pip install -e .) is the same entry point."""
    script = shutil.which("reviewer", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("the reviewer console script is not installed in this environment")
    proc = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"reviewer {__version__}"


def test_help_lists_the_commands() -> None:
    run = run_cli("--help")
    assert run.code == 0
    for command in ("reviewer read FILE", "reviewer outline FILE", "reviewer [FILE]"):
        assert command in run.stdout


def test_cli_module_loads_neither_qt_nor_the_agents_machinery() -> None:
    # the terminal commands start without the app's or the agent's libraries, which only the
    # commands that use them load
    code = (
        "import sys, reviewer_app.cli; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'anthropic', 'asyncio')))"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


# ----------------------------------------------------------------------------- read / outline
def test_read_markdown_shows_list_labels_and_ids() -> None:
    pytest.importorskip("reviewer_app.docx.llm_view")
    run = run_cli("read", str(need(LISTS_DOC)))
    assert run.code == 0, run.stderr
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    # three lists, each restarting at 1: the labels are counted live, not read from a cache
    labelled = [re.sub(r"<!--.*?-->", "", line).strip() for line in lines]
    assert labelled[:4] == ["1. a", "2. b", "3. c", "1. d"]
    assert "seq-0001" in run.stdout
    assert "Traceback" not in run.stderr


def test_read_json_is_pretty_and_keeps_unicode() -> None:
    pytest.importorskip("reviewer_app.docx.llm_view")
    run = run_cli("read", "-f", "json", str(need(HEADINGS_DOC)))
    assert run.code == 0, run.stderr
    data = json.loads(run.stdout)
    assert isinstance(data, dict) and data
    assert run.stdout.startswith("{\n  ")  # indented for people
    assert "“" in run.stdout and "\\u201c" not in run.stdout  # ensure_ascii=False
    lists = json.loads(run_cli("read", "--format", "json", str(need(LISTS_DOC))).stdout)
    assert "1." in json.dumps(lists, ensure_ascii=False)


def test_outline_indents_headings_by_level() -> None:
    run = run_cli("outline", str(need(HEADINGS_DOC)))
    assert run.code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) > 10
    assert all(re.search(r"  \[[^\]]+\]$", line) for line in lines), lines[:5]
    assert any(line.startswith("  ") for line in lines), "no heading below level 1"
    assert any(not line.startswith(" ") for line in lines), "no level-1 heading"
    assert any("Preliminary Notes" in line for line in lines)
    shallow = run_cli("outline", "--depth", "1", str(HEADINGS_DOC))
    assert shallow.code == 0
    assert 0 < len(shallow.stdout.splitlines()) < len(lines)
    assert not any(line.startswith(" ") for line in shallow.stdout.splitlines())


def test_outline_without_headings_says_so() -> None:
    run = run_cli("outline", str(need(LISTS_DOC)))
    assert run.code == 0, run.stderr
    assert run.stdout.strip() == "(no headings)"


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("command", ["read", "outline"])
def test_missing_file_exits_2_without_traceback(command: str, tmp_path: Path) -> None:
    run = run_cli(command, str(tmp_path / "nowhere.docx"))
    assert run.code == 2
    assert run.stderr.startswith("reviewer: ")
    assert "no such file" in run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout == ""


def test_app_with_missing_file_exits_2_before_any_window(tmp_path: Path) -> None:
    run = run_cli(str(tmp_path / "nowhere.docx"))
    assert run.code == 2
    assert "no such file" in run.stderr and "Traceback" not in run.stderr


def test_folder_is_refused(tmp_path: Path) -> None:
    run = run_cli("read", str(tmp_path))
    assert run.code == 2
    assert "folder" in run.stderr and "Traceback" not in run.stderr


def test_unknown_option_is_a_usage_error() -> None:
    run = run_cli("read", "--format", "html", "x.docx")
    assert run.code == 2
    assert "invalid choice" in run.stderr and "Traceback" not in run.stderr


def test_every_malformed_file_has_a_message() -> None:
    """A new hostile file in the corpus needs an expected message here."""
    names = {p.name for p in need(MALFORMED).iterdir() if p.suffix == ".docx"}
    assert names == set(MALFORMED_MESSAGES)


@pytest.mark.parametrize("command", ["read", "outline"])
@pytest.mark.parametrize("name", sorted(MALFORMED_MESSAGES))
def test_malformed_file_is_refused_plainly_fast_and_small(command: str, name: str) -> None:
    path = need(MALFORMED / name)
    run = run_cli(command, str(path))
    assert run.code == 2, (run.code, run.stderr)
    assert run.stderr.startswith("reviewer: ")
    assert MALFORMED_MESSAGES[name] in run.stderr
    assert "cannot be opened" in run.stderr
    assert "Traceback" not in run.stderr and "Error:" not in run.stderr
    assert run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1
    assert run.seconds < MAX_SECONDS, f"took {run.seconds:.2f} s"
    assert run.max_rss_bytes < MAX_RSS_BYTES, f"peak RSS {run.max_rss_bytes / 2**20:.0f} MB"


def test_xxe_file_reads_nothing_from_outside() -> None:
    """The XXE file's entity points at /etc/passwd: none of it may reach any output."""
    path = need(MALFORMED / "malformed_xxe-external-entity.docx")
    passwd = Path("/etc/passwd")
    if not passwd.exists():
        pytest.skip("no /etc/passwd to compare against")
    secrets = [line.split(":")[0] + ":x:" for line in passwd.read_text().splitlines() if ":" in line]
    for command in (("read",), ("read", "-f", "json"), ("outline",)):
        run = run_cli(*command, str(path))
        assert run.code == 2
        both = run.stdout + run.stderr
        assert not any(secret in both for secret in secrets), both
        assert "root:" not in both


# ----------------------------------------------------------------------------- resources
def test_resource_path_prefers_a_pyinstaller_bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewer_app import resources

    bundled = tmp_path / "resources" / "samples" / "sample-msa.docx"
    bundled.parent.mkdir(parents=True)
    bundled.write_bytes(b"PK")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resources.sample_contract_path() == bundled


def test_resource_path_finds_installed_data_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wheel puts resources under <prefix>/share/reviewer/resources (pyproject data-files)."""
    from reviewer_app import resources

    installed = tmp_path / "share" / "reviewer" / "resources" / "samples" / "only-installed.docx"
    installed.parent.mkdir(parents=True)
    installed.write_bytes(b"PK")
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    assert resources.resource_path("samples", "only-installed.docx") == installed
    with pytest.raises(FileNotFoundError, match="looked in"):
        resources.resource_path("samples", "nowhere.docx")


def test_data_files_config_ships_the_sample_and_the_fonts() -> None:
    import glob
    import tomllib

    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data_files = config["tool"]["setuptools"]["data-files"]
    assert data_files["share/reviewer/resources/samples"] == ["resources/samples/*.docx"]
    shipped = {
        Path(f).name
        for pattern in data_files["share/reviewer/resources/fonts"]
        for f in glob.glob(str(REPO_ROOT / pattern))
    }
    assert {p.name for p in (REPO_ROOT / "resources" / "fonts").iterdir()} == shipped  # licences too
    assert config["project"]["scripts"]["reviewer"] == "reviewer_app.cli:main"
