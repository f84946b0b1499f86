"""The recovery dialog as a person reads it: when each unsaved copy was made, in their own locale."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale

from reviewer_app.ui.recovery import RecoveryEntry
from reviewer_app.ui.recovery_dialog import RecoveryDialog


@pytest.fixture
def default_locale(qapp):
    """Sets Qt's default locale for one test and puts the previous one back."""
    previous = QLocale()
    yield QLocale.setDefault
    QLocale.setDefault(previous)


@pytest.mark.parametrize(
    ("language", "country", "expected"),
    [
        ("English", "UnitedStates", "12/1/26 2:10\u202fPM"),
        ("English", "UnitedKingdom", "01/12/2026 14:10"),
        ("German", "Germany", "01.12.26 14:10"),
        ("C", "AnyTerritory", "1 Dec 2026, 14:10"),  # LANG=C: "1 12 2026 14:10" before
    ],
)
def test_recovery_dialog_dates_follow_the_locale(
    qtbot, default_locale, tmp_path: Path, language: str, country: str, expected: str
) -> None:
    default_locale(QLocale(getattr(QLocale.Language, language), getattr(QLocale.Country, country)))
    entry = RecoveryEntry(
        key="k1",
        original_path=str(tmp_path / "contract.docx"),
        document_name="contract.docx",
        saved_at=datetime(2026, 12, 1, 14, 10),  # local time, whatever the machine's zone
        pid=1,
        host="desk",
        undo_count=1,
        last_act="Accept change",
        docx_file=tmp_path / "k1.docx",
    )
    dialog = RecoveryDialog([entry])
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.list.topLevelItem(0).text(2) == expected
