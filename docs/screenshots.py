"""Regenerate the window screenshots in ``docs/`` (offscreen, scripted model; no network, no key).

    .venv/bin/python docs/screenshots.py [OUT_DIR]

Each shot is the real main window on a copy of the bundled sample contract, driven the way a
person would drive it, talking to the scripted model server the self-test uses. Look at every
PNG after a change to the window: a view that paints wrong is a bug even when tests pass.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_TMP = Path(tempfile.mkdtemp(prefix="reviewer-shots-"))
for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
    os.environ[variable] = str(_TMP / variable)  # settings, transcripts and recovery stay out of the user's

import qasync  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from reviewer_app.resources import sample_contract_path  # noqa: E402
from reviewer_app.selftest.scripted_model_server import FakeAnthropic, fast_settings, reply, tool  # noqa: E402
from reviewer_app.ui.main_window import MainWindow  # noqa: E402

#: clause 1.1 definitions in the sample ("Applicable Law", "Business Day", "Charges")
LAW, BUSINESS_DAY, CHARGES = "7AB2984B", "005094C3", "52419690"

PROPOSALS = [
    {
        "type": "replaceInBlock",
        "blockId": BUSINESS_DAY,
        "find": "a day other than a Saturday, Sunday or public holiday in England",
        "replace": "a day other than a Saturday, Sunday or public holiday in England or Scotland",
        "comment": "Answers the Bank's comment: Edinburgh operations use the Services.",
    },
    {
        "type": "replaceInBlock",
        "blockId": LAW,
        "find": "laws, statutes, regulations and codes",
        "replace": "laws, statutes, regulations, codes",
    },
    {
        "type": "insertAfterBlock",
        "blockId": CHARGES,
        "text": "“Change Control Procedure” means the procedure set out in clause 6;",
        "comment": "The term is used in clause 6 but never defined.",
    },
]

ANSWER = (
    "I read clause 1.1 and the Bank's comments. Three points:\n\n"
    "1. **Business Day** should include Scottish bank holidays, as the Bank asks.\n"
    "2. *Applicable Law* has a stray “and”.\n"
    "3. *Change Control Procedure* is used but never defined.\n\n"
    "I have proposed each as an edit for you to review."
)


def _pump(app: QApplication, rounds: int = 30) -> None:
    for _ in range(rounds):
        app.processEvents()


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    contract = _TMP / "Master Services Agreement.docx"
    shutil.copy(sample_contract_path(), contract)
    with FakeAnthropic() as server:
        window = MainWindow()
        window.services.settings.update(user_name="Alex Morgan")
        window.chat.set_settings(fast_settings(server))
        window.resize(1680, 1020)
        window.show()
        window.open_path(contract)
        window.page_view.finish_layout()
        _pump(app)

        server.add(reply(ANSWER, tool("suggest_changes", {"operations": PROPOSALS}), chunk=9), reply("Done."))
        loop.run_until_complete(window.chat.send("Review the definitions against the Bank's comments."))
        (batch,) = window.chat.conversation.batches()
        first = next(iter(batch.cards.values()))
        first.apply_button.click()
        panel = window.docks.redline
        panel.next_change()
        _pump(app)
        window.grab().save(str(out / "window-review.png"))

        window.docks.comments_dock.raise_()
        window.docks.comments.select_comment("1005")
        window.page_view.select_comment("1005")
        _pump(app)
        window.grab().save(str(out / "window-comments.png"))

        window.find_bar.open_bar()
        window.find_bar.query_edit.setText("Service Credits")
        window.find_bar.search()
        _pump(app)
        window.grab().save(str(out / "window-find.png"))
        window.find_bar.close_bar()

        window.services.set_theme("dark")  # View ▸ Dark Theme: the panels redraw in its colours
        window.docks.redline_dock.raise_()
        _pump(app)
        window.grab().save(str(out / "window-dark.png"))
        window.services.set_theme("system")
        window.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
        window.close()
    loop.run_until_complete(asyncio.sleep(0.05))
    print("\n".join(str(p) for p in sorted(out.glob("window-*.png"))))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent))
