"""A file protected for tracked changes only (``w:documentProtection w:edit="trackedChanges"``).

Nothing untracked may be written into it, by any path: the engine refuses accepting, rejecting
and finalizing, and batches in the untracked ``direct`` mode; the command line says why and
writes nothing; the window says so when the file opens, greys out the accept and reject
commands, and answers the panel's Accept with the reason. Tracked edits and comments go on.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.docx.protection import TRACKED_ONLY_MESSAGE, TrackedChangesOnlyError
from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.main_window import MainWindow
from tests.agent_fixtures import SAMPLE
from tests.checkers import schema_errors
from tests.cli_runner import run_reviewer
from tests.window_fixtures import shown_main_window

LEFT = Qt.MouseButton.LeftButton
CLAUSE_5_2 = "26C40F6B"
PRIYA = "Priya Shah (Harbour Bank counsel)"
PROTECTION = '<w:documentProtection w:edit="trackedChanges" w:enforcement="{0}"/>'


def protected(folder: Path, enforcement: str = "1", name: str = "protected.docx") -> Path:
    """The sample contract with its settings protecting it for tracked changes (before
    ``w:defaultTabStop``, where the schema puts ``w:documentProtection``)."""
    target = folder / name
    with zipfile.ZipFile(SAMPLE) as source, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "word/settings.xml":
                text = data.decode("utf-8")
                assert text.count("<w:defaultTabStop ") == 1
                text = text.replace(
                    "<w:defaultTabStop ", PROTECTION.format(enforcement) + "<w:defaultTabStop "
                )
                data = text.encode("utf-8")
            out.writestr(item, data)
    assert schema_errors(target) == 0
    return target


def tracked(reviewer: DocxReviewer, mode: str) -> dict[str, Any]:
    batch = {
        "version": 1,
        "mode": mode,
        "operations": [
            {
                "id": "a",
                "type": "replaceInBlock",
                "blockId": CLAUSE_5_2,
                "find": "monthly",
                "replace": "quarterly",
            }
        ],
    }
    return reviewer.apply_operations(batch)


# ----------------------------------------------------------------------------- the engine
def test_the_engine_refuses_everything_that_would_write_untracked(tmp_path: Path) -> None:
    reviewer = DocxReviewer.open(protected(tmp_path), author="Alex Lawyer")
    assert reviewer.tracked_changes_only
    before = reviewer.to_bytes()
    change = reviewer.changes()[0]["id"]
    for act in (
        lambda: reviewer.accept_change(change),
        lambda: reviewer.reject_change(change),
        reviewer.accept_all,
        reviewer.reject_all,
        lambda: reviewer.accept_all(PRIYA),
        reviewer.finalize,
    ):
        with pytest.raises(TrackedChangesOnlyError, match="protected for tracked changes"):
            act()
    result = tracked(reviewer, "direct")
    assert result["status"] == "rejected" and not result["applied"]
    assert TRACKED_ONLY_MESSAGE in result["skipped"][0]["reason"]
    assert reviewer.to_bytes() == before  # nothing written
    result = tracked(reviewer, "tracked-changes")  # a tracked edit is what the protection allows
    assert result["status"] == "committed"
    ours = [c for c in reviewer.changes() if c["author"] == "Alex Lawyer"]
    assert [(c["type"], c["text"]) for c in ours] == [("deletion", "monthly"), ("insertion", "quarterly")]


def test_protection_that_is_not_enforced_changes_nothing(tmp_path: Path) -> None:
    reviewer = DocxReviewer.open(protected(tmp_path, enforcement="0"))
    assert not reviewer.tracked_changes_only
    assert reviewer.accept_all() == 14


def test_a_comparison_still_reads_a_protected_version(tmp_path: Path) -> None:
    """Compare resolves changes on its own working copies, which are never saved."""
    source = protected(tmp_path)
    done = run_reviewer("compare", source, SAMPLE, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = run_reviewer("redline", SAMPLE, source, "-o", tmp_path / "redline.docx", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


# ----------------------------------------------------------------------------- the command line
@pytest.mark.parametrize("command", ["accept-all", "reject-all", "finalize"])
def test_the_command_line_refuses_and_writes_nothing(tmp_path: Path, command: str) -> None:
    source = protected(tmp_path)
    out = tmp_path / "out.docx"
    done = run_reviewer(command, source, "-o", out, cwd=tmp_path)
    assert done.returncode == 2
    assert "protected for tracked changes" in done.stderr and "Restrict Editing" in done.stderr
    assert not out.exists()


# ----------------------------------------------------------------------------- the window
@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> MainWindow:
    win = shown_main_window(qtbot)
    assert win.open_path(protected(tmp_path))
    win.page_view.finish_layout()
    return win


def test_the_window_says_so_and_turns_accepting_and_rejecting_off(window: MainWindow, qtbot: Any) -> None:
    banner = window.protection_notice.banner
    assert banner is not None and banner.isVisible()
    assert "protected for tracked changes" in banner.label.text()
    actions = window.actions
    for action in (actions.accept_change, actions.reject_change, actions.accept_all, actions.reject_all):
        assert not action.isEnabled(), action.objectName()
    assert not actions.accept_shown.isEnabled()
    for action in (actions.accept_change, actions.reject_change):
        assert not window.toolbar.widgetForAction(action).isEnabled()
    assert actions.find.isEnabled() and actions.add_comment.isEnabled()  # the rest goes on


def test_the_changes_panel_cannot_accept_and_the_saved_file_keeps_every_change(
    window: MainWindow, qtbot: Any, tmp_path: Path, lo_reading: Any
) -> None:
    panel = window.docks.redline
    view = panel.view
    first = view.model().index(0, 0)
    QTest.mouseClick(view.viewport(), LEFT, pos=view.visualRect(first).center())
    qtbot.waitUntil(lambda: bool(panel.selected_ids()))
    assert panel.accept_button.isEnabled()
    QTest.mouseClick(panel.accept_button, LEFT)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == TRACKED_ONLY_MESSAGE)
    assert len(window.controller.reviewer.change_details()) == 14
    assert not window.controller.is_modified()
    saved = tmp_path / "saved.docx"
    window.controller.save(saved)
    reading = lo_reading(saved, accept_reject=True)
    before = lo_reading(SAMPLE, accept_reject=True)
    assert reading["load_ok"]
    assert reading["tracked_changes"] == before["tracked_changes"]
    with zipfile.ZipFile(saved) as package:
        assert PROTECTION.format("1") in package.read("word/settings.xml").decode("utf-8")
