"""The main window: the review workstation around one open contract.

The page view sits in the middle; the chat, redline and comments panels dock around it. The
window owns no document logic: every change goes through the :class:`DocumentController`,
whose signals the window and each panel follow, so what the title, the status bar, the panels
and the pages show can never disagree with the document.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from PySide6.QtCore import QByteArray, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from ..agent.host_tools import compare_with_version_tool
from ..docx.reviewer import DocxReviewer
from ..docx.snapshot import Snapshot
from ..docx.weak_links import weak_method
from .app_settings import SettingsStore
from .chat import ChatDock
from .chat.banner import Banner, as_sentence
from .compare_command import CompareCommand
from .document_controller import DocumentController
from .drafting import Drafting
from .file_commands import FileCommands
from .find_bar import FindBar
from .first_run import NameDialog, ask_name
from .go_to_dialog import GoToDialog
from .help_dialogs import open_log_folder, show_about, show_shortcuts
from .logging_setup import log_folder
from .macro_notice import MacroNotice
from .markup_menu import ReviewerMarkup
from .page_typing import PageTyping
from .pageview import PageView
from .plurals import count_text
from .protection_notice import ProtectionNotice
from .recovery_dialog import offer_recovery
from .settings_dialog import SettingsDialog
from .triage_command import TriageCommand
from .window_actions import build_menus, build_toolbar, connect, create_actions, set_history_text
from .window_docks import build_docks
from .window_services import WindowServices
from .zoom_control import ZoomButton

log = logging.getLogger(__name__)


class MainWindow(QMainWindow):
    """One document per window: the pages, the panels, the menus and the status bar."""

    #: shown, and the first-run question (who you are) answered: the app may open a document now
    ready = Signal()

    def __init__(
        self,
        parent: QWidget | None = None,
        controller: DocumentController | None = None,
        settings: SettingsStore | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setAcceptDrops(True)
        self.setDockNestingEnabled(True)
        self.controller = controller or DocumentController(self)
        self.services = WindowServices(self, settings)
        self.page_view = PageView(self)
        self.find_bar = FindBar(self.page_view, self)
        self.find_bar.hide()
        self.find_bar.closed.connect(self.focus_document)
        central = QWidget(self)
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.find_bar)
        column.addWidget(self.page_view, 1)
        self._column = column
        self.setCentralWidget(central)
        self.macro_notice = MacroNotice(self, column, self.statusBar())
        self.protection_notice = ProtectionNotice(self, column, self.statusBar())
        self.controller.refused.connect(self.protection_notice.show_refusal)
        self.files = FileCommands(self)
        self.compare = CompareCommand(self, new_window=MainWindow)
        self.drafting = Drafting(self.controller, self.page_view.viewport(), weak_method(self._block_rect))
        self.typing = PageTyping(self.controller, self.page_view)
        self.typing.refused.connect(self._show_refusal)
        self.actions = create_actions(self)
        self.recent_menu = QMenu(self)
        self.menus = build_menus(self, self.actions, self.recent_menu)
        self.toolbar = build_toolbar(self, self.actions)
        self._build_chat()
        self.docks = build_docks(self)
        self.triage = TriageCommand(self)
        self._build_status_bar()
        self.docks.redline.refreshed.connect(self._show_change_count)
        self._connect()
        self.sync_theme_actions()
        self._refresh_chrome()
        self.resize(1440, 900)
        # room for the cards and the change list beside a page (a saved layout replaces this)
        self.resizeDocks([self.chat_dock, self.docks.redline_dock], [400, 380], Qt.Orientation.Horizontal)
        self._restore_window_state()
        self._shown_once = False
        #: the first-run dialog while it is open (None otherwise)
        self.name_dialog: NameDialog | None = None

    # ------------------------------------------------------------------ composition
    def _build_status_bar(self) -> None:
        self.page_label = QLabel(self)
        self.page_label.setObjectName("pageLabel")
        self.changes_label = QLabel(self)
        self.changes_label.setObjectName("changesLabel")
        self.model_label = QLabel(self)
        self.model_label.setObjectName("modelLabel")
        self.zoom_button = ZoomButton(self.page_view, self)
        bar = self.statusBar()
        for label in (self.page_label, self.zoom_button, self.changes_label, self.model_label):
            bar.addPermanentWidget(label)

    def _build_chat(self) -> None:
        s = self.services.settings.settings
        self.chat = ChatDock(self.controller, self.page_view, s.to_agent_settings(), mode=s.agent_mode)
        self.chat_dock = QDockWidget(self.tr("Agent"), self)
        self.chat_dock.setObjectName("chatDock")
        self.chat_dock.setWidget(self.chat)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.chat_dock)
        self.menus["view"].addAction(self.chat_dock.toggleViewAction())
        # the versions the person picked (Compare with…, Offer Another Version…), never a path of the model's
        versions = self.compare.versions  # the list itself: a lambda over self would make a cycle
        self.chat.chat.host_tools = (compare_with_version_tool(lambda: versions),)
        self.chat.show_block.connect(self.page_view.show_block)
        self.chat.settings_requested.connect(self.show_settings)
        self.chat.mode_changed.connect(self._sync_agent_mode)
        self.chat.chat.busy_changed.connect(self.actions.agent_stop.setEnabled)
        self.chat.chat.busy_changed.connect(lambda _b: self._refresh_model_status())
        self.chat.chat.conversation_reset.connect(lambda _items: self._refresh_model_status())
        self._sync_agent_mode(self.chat.mode())

    def _offer_version(self) -> None:
        path = self.files.ask_open_path_titled(self.tr("Which version may the agent compare with?"))
        if path:
            version = self.compare.pick(path)
            self.statusBar().showMessage(
                self.tr("The agent may now compare with {name} ({id})").format(
                    name=version.name, id=version.id
                ),
                6000,
            )

    def _connect(self) -> None:
        a, c, view = self.actions, self.controller, self.page_view
        connect(a.open, self.files.open_dialog)
        connect(a.save, self.files.save)
        connect(a.save_as, self.files.save_as)
        connect(a.export_pdf, self.files.export_pdf)
        connect(a.close, self.files.close)
        connect(a.compare_with, self.compare.run)
        connect(a.quit, self._quit)
        connect(a.undo, c.undo_stack.undo)
        connect(a.redo, c.undo_stack.redo)
        c.undo_stack.canUndoChanged.connect(a.undo.setEnabled)
        c.undo_stack.canRedoChanged.connect(a.redo.setEnabled)
        c.undo_stack.undoTextChanged.connect(self._show_undo_step)
        c.undo_stack.redoTextChanged.connect(self._show_redo_step)
        a.undo.setEnabled(False)
        a.redo.setEnabled(False)
        connect(a.accept_all, lambda: self._resolve_all(accept=True))
        connect(a.reject_all, lambda: self._resolve_all(accept=False))
        connect(a.edit_paragraph, lambda: self._draft("edit"))
        connect(a.insert_paragraph, lambda: self._draft("insert"))
        connect(a.delete_paragraph, lambda: self._draft("delete"))
        connect(a.zoom_in, lambda: view.set_zoom(view.zoom() * 1.2))
        connect(a.zoom_out, lambda: view.set_zoom(view.zoom() / 1.2))
        connect(a.zoom_100, lambda: view.set_zoom(1.0))
        connect(a.fit_width, lambda: view.set_zoom("fit-width"))
        connect(a.fit_page, lambda: view.set_zoom("fit-page"))
        view.zoom_changed.connect(lambda _z: self._sync_zoom_actions())
        self._sync_zoom_actions()
        self.markup = ReviewerMarkup(self)
        for action, theme in ((a.theme_system, "system"), (a.theme_light, "light"), (a.theme_dark, "dark")):
            connect(action, lambda t=theme: self.services.set_theme(t))
        connect(a.find, self.find_bar.open_bar)
        connect(a.go_to, lambda: GoToDialog(self.controller, self.page_view, self).open())
        connect(a.focus_document, self.focus_document)
        connect(a.add_comment, self._add_comment)
        connect(a.settings, self.show_settings)
        connect(a.previous_change, self.docks.redline.previous_change)
        connect(a.next_change, self.docks.redline.next_change)
        connect(a.accept_change, lambda: self._resolve_current(accept=True))
        connect(a.reject_change, lambda: self._resolve_current(accept=False))
        connect(a.agent_review, lambda: self.chat.set_mode("review"))
        connect(a.agent_direct, lambda: self.chat.set_mode("direct"))
        connect(a.agent_stop, self.chat.stop)
        connect(a.offer_version, self._offer_version)
        connect(a.shortcuts, lambda: show_shortcuts([*self.actions.all(), self.docks.check_document], self))
        connect(a.log_folder, lambda: open_log_folder(log_folder()))
        connect(a.about, lambda: show_about(self))
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self.menus["review"].addSeparator()
        self._by_author_menu(self.tr("Accept All by Author"), accept=True)
        self._by_author_menu(self.tr("Reject All by Author"), accept=False)
        c.document_loaded.connect(self._document_loaded)
        c.saved.connect(self.services.settings.add_recent)
        c.document_changed.connect(self._document_changed)
        c.modified_changed.connect(lambda _m: self._refresh_chrome())
        c.saved.connect(lambda _p: self._refresh_chrome())
        view.layout_progress.connect(lambda _n: self._refresh_pages())
        view.verticalScrollBar().valueChanged.connect(lambda _v: self._refresh_pages())

    # bound methods, not lambdas: Qt drops them with the window, before its toolbar is gone
    def _show_refusal(self, why: str) -> None:
        """A key typed in the page could not be applied: say why where the eye already is."""
        self.statusBar().showMessage(why, 8000)

    def _show_undo_step(self, step: str) -> None:
        set_history_text(self.toolbar, self.actions.undo, self.tr("&Undo {0}"), step)

    def _show_redo_step(self, step: str) -> None:
        set_history_text(self.toolbar, self.actions.redo, self.tr("&Redo {0}"), step)

    def _sync_zoom_actions(self) -> None:
        mode = self.page_view.zoom_mode()
        self.actions.fit_width.setChecked(mode == "fit-width")
        self.actions.fit_page.setChecked(mode == "fit-page")

    # ------------------------------------------------------------------ document area
    @property
    def reviewer(self) -> DocxReviewer | None:
        """The open document (None before the first successful open)."""
        return self.controller.reviewer

    @property
    def snapshot(self) -> Snapshot | None:
        return self.controller.reviewer.snapshot() if self.controller.reviewer is not None else None

    @property
    def document_view(self) -> PageView:
        return self.page_view

    def document_name(self) -> str:
        path = self.controller.path
        return Path(path).name if path else self.controller.untitled_name

    def keep_backup(self) -> bool:
        """Whether the first save keeps ``NAME.docx.bak`` (a setting; on by default)."""
        return self.services.settings.settings.keep_backup

    def open_path(self, path: str | os.PathLike[str]) -> bool:
        """Open and show ``path``; on failure explain why and keep the current document."""
        return self.files.open(path)

    def _document_loaded(self) -> None:
        self.drafting.cancel()
        reviewer = self.controller.reviewer
        self.macro_notice.document_loaded(reviewer)  # before the pages, as the document appears
        self.protection_notice.document_loaded(reviewer)
        if reviewer is None:
            self.page_view.clear_document()
        else:
            self.page_view.show_document(reviewer, reviewer.snapshot())
            if reviewer.path:
                self.services.settings.add_recent(reviewer.path)
        self._refresh_chrome()

    def _document_changed(self, blocks: frozenset[str] | None) -> None:
        self.page_view.refresh(self.controller.reviewer, blocks)
        self._refresh_chrome()

    def _block_rect(self, block_id: str) -> QRect | None:
        """Where a paragraph is on screen, for the in-place editor (None: top of the view)."""
        self.page_view.show_block(block_id)
        return self.page_view.block_viewport_rect(block_id)

    def current_block(self) -> str | None:
        """The paragraph a command acts on: the selection's, else the caret's (None: none chosen)."""
        return self.page_view.target_block()

    def _draft(self, kind: str) -> None:
        """Edit, insert after or delete the chosen paragraph; never one the person cannot see."""
        block = self.current_block()
        if block is None:
            self.statusBar().showMessage(
                self.tr("Click in a paragraph first, then choose the command again."), 6000
            )
            return
        if kind == "delete" and not self.page_view.block_on_screen(block):
            self.page_view.show_block(block)
            self.statusBar().showMessage(
                self.tr("This is the paragraph with the cursor; choose Delete Paragraph again to delete it."),
                8000,
            )
            return
        if kind == "edit":
            self.drafting.edit(block)
        elif kind == "insert":
            self.drafting.insert_after(block)
        else:
            why = self.drafting.delete(block)
            if why:
                self.show_error(self.tr("Cannot delete paragraph"), why)

    def _resolve_current(self, accept: bool) -> None:
        """Accept or reject the change selected in the redline panel (or clicked on the page); the
        panel then selects the following change, so a lawyer can work down the document."""
        panel = self.docks.redline
        if not panel.selected_ids():
            # as Word does: with no change selected, the first press shows the next one, the next decides it
            panel.next_change()
            return
        if accept:
            panel.accept_selected()
        else:
            panel.reject_selected()

    def _by_author_menu(self, title: str, accept: bool) -> None:
        menu = self.menus["review"].addMenu(title)
        menu.setObjectName("acceptByAuthorMenu" if accept else "rejectByAuthorMenu")

        def fill() -> None:
            menu.clear()
            reviewer = self.controller.reviewer
            authors = sorted({c["author"] for c in reviewer.changes()}) if reviewer is not None else []
            for author in authors:
                action = menu.addAction(author)
                action.triggered.connect(
                    lambda _c=False, who=author: (
                        self.controller.accept_all(who) if accept else self.controller.reject_all(who)
                    )
                )
            menu.setEnabled(bool(authors))

        menu.aboutToShow.connect(fill)

    def _add_comment(self) -> None:
        self.docks.comments_dock.show()
        self.docks.comments_dock.raise_()
        self.docks.comments.start_new_comment()

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        for path in self.services.settings.settings.recent_files:
            action = QAction(path, self.recent_menu)
            action.triggered.connect(lambda _c=False, p=path: self.open_path(p))
            self.recent_menu.addAction(action)
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction(self.tr("No recent documents")).setEnabled(False)

    def show_settings(self) -> SettingsDialog:
        """Open the settings dialog (non-blocking); changes apply through the settings store."""
        dialog = SettingsDialog(self.services.settings, self)
        dialog.open()
        return dialog

    def offer_recovery(self) -> bool:
        """On start: offer what a crash left behind; True when a document was restored."""
        return offer_recovery(self, self.services.recovery, self.controller, self.services.locks) is not None

    def _sync_agent_mode(self, mode: str) -> None:
        (self.actions.agent_direct if mode == "direct" else self.actions.agent_review).setChecked(True)

    def sync_theme_actions(self) -> None:
        theme = self.services.settings.settings.theme
        {"light": self.actions.theme_light, "dark": self.actions.theme_dark}.get(
            theme, self.actions.theme_system
        ).setChecked(True)

    def _refresh_model_status(self) -> None:
        chat = self.chat.chat
        problem = chat.configuration_problem()
        self.model_label.setToolTip(as_sentence(chat.last_error or ""))
        if problem:
            self.model_label.setText(self.tr("No model configured"))
        else:
            if chat.busy:
                state = self.tr("working…")
            else:
                state = self.tr("last request failed") if chat.last_error else self.tr("ready")
            self.model_label.setText(f"{chat.settings.model} · {state}")

    def _resolve_all(self, accept: bool) -> None:
        if self.controller.reviewer is None:
            return
        count = self.controller.accept_all() if accept else self.controller.reject_all()
        verb = self.tr("Accepted") if accept else self.tr("Rejected")
        self.statusBar().showMessage(self.tr("{verb} {count} changes").format(verb=verb, count=count), 4000)

    # ------------------------------------------------------------------ chrome
    def show_error(self, title: str, message: str) -> None:
        """A modal warning with a plain-language message (tests replace ``QMessageBox.exec``)."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("openErrorBox")
        box.exec()

    def show_notice(self, text: str, details: str) -> Banner:
        """A warning across the top of the document that stays until dismissed (what a redline
        could not show); Details… lists every item."""
        banner = Banner(text, kind="error", action=self.tr("Details…"), detail=details, parent=self)
        banner.action_triggered.connect(
            lambda: QMessageBox.information(self, self.tr("Not shown in this redline"), details)
        )
        self._column.insertWidget(0, banner)
        banner.show()
        return banner

    def _refresh_chrome(self) -> None:
        """Title, enabled commands and the status bar follow the open document."""
        has_document = self.controller.reviewer is not None
        # a file protected for tracked changes: nothing may accept or reject (the engine refuses)
        protected = has_document and self.controller.reviewer.tracked_changes_only
        resolving = self.actions.resolving_actions() if protected else []
        for action in self.actions.document_actions():
            action.setEnabled(has_document and action not in resolving)
        if not has_document:
            self.setWindowTitle(self.tr("Reviewer"))
            self.setWindowModified(False)
            self.changes_label.setText(self.tr("No document"))
            self.page_label.setText("")
            return
        self.setWindowTitle(self.tr("{name}[*] — Reviewer").format(name=self.document_name()))
        self.setWindowModified(self.controller.is_modified())
        self._show_change_count()
        self._refresh_pages()
        self._refresh_model_status()

    def _show_change_count(self) -> None:
        """Every story's changes, as the Changes panel lists them: counted when the panel lists
        them again (while typing, once it pauses), not by listing every change once more here."""
        if self.controller.reviewer is not None:
            count = len(self.docks.redline.model.all_rows)
            self.changes_label.setText(count_text(count, "{n} change", "{n} changes"))

    def _refresh_pages(self) -> None:
        view = self.page_view
        total = view.page_count()
        if self.controller.reviewer is None or total == 0:
            self.page_label.setText("")
            return
        suffix = "" if view.is_laid_out() else "…"
        self.page_label.setText(
            self.tr("Page {page} of {total}{more}").format(
                page=view.current_page() + 1, total=total, more=suffix
            )
        )

    # ------------------------------------------------------------------ window events
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt override
        if any(u.toLocalFile().lower().endswith(".docx") for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt override
        paths = [
            u.toLocalFile() for u in event.mimeData().urls() if u.toLocalFile().lower().endswith(".docx")
        ]
        if paths:
            event.acceptProposedAction()
            self.open_path(paths[0])

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._shown_once:  # asked once the window is on screen, from the event loop
            self._shown_once = True
            # a child timer, not QTimer.singleShot: that one keeps its callable (and so the window)
            # alive for good when the window is gone before it fires
            ask = QTimer(self, singleShot=True, interval=0)
            ask.timeout.connect(self._ask_name_then_ready)
            ask.start()

    def _ask_name_then_ready(self) -> None:
        self.name_dialog = ask_name(self.services.settings, self)
        if self.name_dialog is None:
            self.ready.emit()
            return
        self.name_dialog.finished.connect(self._name_answered)

    def _name_answered(self, _result: int = 0) -> None:
        self.name_dialog = None
        self.ready.emit()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if not self.files.maybe_save():
            event.ignore()
            return
        self.chat.chat.shutdown()
        self._save_window_state()
        self.services.close()
        event.accept()

    def _save_window_state(self) -> None:
        self.services.settings.update(
            window_state=bytes(self.saveState().toBase64().data()).decode("ascii"),
            window_geometry=bytes(self.saveGeometry().toBase64().data()).decode("ascii"),
        )

    def _restore_window_state(self) -> None:
        s = self.services.settings.settings
        if s.window_geometry:
            self.restoreGeometry(QByteArray.fromBase64(s.window_geometry.encode("ascii")))
        if s.window_state:
            self.restoreState(QByteArray.fromBase64(s.window_state.encode("ascii")))

    def _quit(self) -> None:
        if self.close():
            app = QApplication.instance()
            if app is not None:
                app.quit()

    def focus_document(self) -> None:
        self.page_view.setFocus(Qt.FocusReason.OtherFocusReason)
