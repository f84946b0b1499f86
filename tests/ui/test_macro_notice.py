"""Opening a macro-enabled package says so in the window, without a modal box in the way.

The notice is an information banner above the page and a status bar line; closing the banner
(its real ✕ button) keeps it away for that file, saving does not bring it back, and a plain
document opened next has none.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox, QToolButton

from reviewer_app.ui.chat.banner import Banner
from reviewer_app.ui.main_window import MainWindow
from tests.docx.test_finalize_hidden_data import macro_document_with_hidden_data
from tests.docx_factory import make_docx, p


@pytest.fixture
def window(qtbot, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    modal: list[str] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: modal.append(box.text()) or 0)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    assert modal == []  # the notice never stops the person with a modal box


def macro_banners(win: MainWindow) -> list[Banner]:
    return [b for b in win.findChildren(Banner) if b.isVisible() and "macros" in b.text]


def test_a_macro_enabled_document_shows_a_notice(window: MainWindow, qtbot, tmp_path: Path) -> None:
    docm = tmp_path / "with-macros.docx"
    docm.write_bytes(macro_document_with_hidden_data())
    assert window.open_path(docm)

    banners = macro_banners(window)
    assert len(banners) == 1
    assert banners[0].kind == "info"
    assert "never runs them" in banners[0].text
    assert (
        banners[0].geometry().bottom()
        <= window.page_view.mapTo(window.centralWidget(), window.page_view.rect().topLeft()).y()
    )
    assert "macros" in window.statusBar().currentMessage()
    artifacts = Path(__file__).parents[1] / "_artifacts"
    artifacts.mkdir(exist_ok=True)
    window.grab().save(str(artifacts / "macro_notice.png"))

    close = next(b for b in banners[0].findChildren(QToolButton) if b.text() == "✕")
    QTest.mouseClick(close, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not macro_banners(window))

    assert window.files.save()
    assert macro_banners(window) == []  # saving the same file does not repeat it


def test_a_plain_document_after_a_macro_one_has_no_notice(window: MainWindow, tmp_path: Path) -> None:
    docm = tmp_path / "with-macros.docx"
    docm.write_bytes(macro_document_with_hidden_data())
    plain = tmp_path / "plain.docx"
    plain.write_bytes(make_docx(p("Plain text")))

    assert window.open_path(docm)
    assert len(macro_banners(window)) == 1
    assert window.open_path(plain)
    assert macro_banners(window) == []
    assert "macros" not in window.statusBar().currentMessage()
    assert window.open_path(docm)
    assert len(macro_banners(window)) == 1
