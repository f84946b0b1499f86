"""Every command of the main window as a ``QAction``, built once and placed in menus and the toolbar.

Keeping the actions in one object (not scattered over the window) lets the shortcut dialog list
them, lets tests trigger them by name, and lets the window enable or disable them in one place
when a document opens, closes or a turn starts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QStyle, QToolBar

Std = QKeySequence.StandardKey


def _action(
    parent: QObject,
    name: str,
    text: str,
    keys: QKeySequence.StandardKey | str | list[str] | None = None,
    tip: str | None = None,
    checkable: bool = False,
) -> QAction:
    action = QAction(text, parent)
    action.setObjectName(name)
    if isinstance(keys, QKeySequence.StandardKey):
        bound = QKeySequence.keyBindings(keys)
        if bound:
            action.setShortcuts(bound)
    elif isinstance(keys, str):
        action.setShortcut(QKeySequence(keys))
    elif keys:
        action.setShortcuts([QKeySequence(k) for k in keys])
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    action.setCheckable(checkable)
    return action


@dataclass
class WindowActions:
    """The window's commands (object names match the attribute names, for tests and the log)."""

    open: QAction
    save: QAction
    save_as: QAction
    export_pdf: QAction
    export_issues: QAction
    compare_with: QAction
    close: QAction
    quit: QAction
    undo: QAction
    redo: QAction
    find: QAction
    go_to: QAction
    focus_document: QAction
    edit_paragraph: QAction
    insert_paragraph: QAction
    delete_paragraph: QAction
    add_comment: QAction
    settings: QAction
    previous_change: QAction
    next_change: QAction
    accept_change: QAction
    reject_change: QAction
    accept_all: QAction
    accept_shown: QAction
    reject_all: QAction
    zoom_in: QAction
    zoom_out: QAction
    zoom_100: QAction
    fit_width: QAction
    fit_page: QAction
    navigation_pane: QAction
    markup_all: QAction
    markup_simple: QAction
    markup_none: QAction
    markup_original: QAction
    theme_system: QAction
    theme_light: QAction
    theme_dark: QAction
    agent_review: QAction
    agent_direct: QAction
    agent_stop: QAction
    offer_version: QAction
    review_playbook: QAction
    triage_changes: QAction
    shortcuts: QAction
    log_folder: QAction
    about: QAction

    def all(self) -> list[QAction]:
        return [getattr(self, f.name) for f in fields(self)]

    def document_actions(self) -> list[QAction]:
        """Commands that need an open document (disabled without one)."""
        names = (
            "save save_as export_pdf compare_with close find go_to edit_paragraph insert_paragraph "
            "delete_paragraph add_comment previous_change next_change accept_change reject_change "
            "accept_all accept_shown reject_all offer_version review_playbook export_issues triage_changes"
        )
        return [getattr(self, n) for n in names.split()]

    def resolving_actions(self) -> list[QAction]:
        """Commands that accept or reject changes (off in a file protected for tracked changes)."""
        names = "accept_change reject_change accept_all accept_shown reject_all"
        return [getattr(self, n) for n in names.split()]


def create_actions(parent: QMainWindow) -> WindowActions:
    """Make every action with its text, shortcut and tip (nothing is connected here)."""
    tr = parent.tr
    quit_keys = QKeySequence.keyBindings(Std.Quit)  # Windows and offscreen define none
    a = WindowActions(
        open=_action(parent, "open", tr("&Open…"), Std.Open, tr("Open a Word document (.docx)")),
        save=_action(parent, "save", tr("&Save"), Std.Save, tr("Save the document")),
        save_as=_action(parent, "save_as", tr("Save &As…"), Std.SaveAs, tr("Save under a new name")),
        export_pdf=_action(
            parent,
            "export_pdf",
            tr("&Export Redline PDF…"),
            "Ctrl+Shift+E",
            tr("Write the pages with their markup to a PDF"),
        ),
        export_issues=_action(
            parent,
            "export_issues",
            tr("Export &Issues List…"),
            None,
            tr("Write the playbook review's findings as a table (.docx) or a spreadsheet (.csv)"),
        ),
        compare_with=_action(
            parent,
            "compare_with",
            tr("Co&mpare with…"),
            None,
            tr("Show what changed between this document and another version"),
        ),
        close=_action(parent, "close", tr("&Close"), Std.Close, tr("Close the document")),
        quit=_action(parent, "quit", tr("&Quit"), None if not quit_keys else Std.Quit, tr("Leave Reviewer")),
        undo=_action(parent, "undo", tr("&Undo"), Std.Undo),
        redo=_action(parent, "redo", tr("&Redo"), Std.Redo),
        find=_action(parent, "find", tr("&Find…"), Std.Find, tr("Find text in the document")),
        go_to=_action(parent, "go_to", tr("&Go To…"), "Ctrl+G", tr("Go to a clause number or a page")),
        focus_document=_action(
            parent,
            "focus_document",
            tr("Back to the &Document"),
            "F6",
            tr("Type in the page again, where the caret or the selection is (as F6 in Word)"),
        ),
        edit_paragraph=_action(
            parent,
            "edit_paragraph",
            tr("&Edit Paragraph"),
            "F2",
            tr("Rewrite the paragraph you clicked in; your edit becomes a tracked change"),
        ),
        insert_paragraph=_action(
            parent,
            "insert_paragraph",
            tr("&Insert Paragraph After"),
            "Ctrl+Shift+Return",
            tr("Add a new paragraph after the one you clicked in, as a tracked insertion"),
        ),
        delete_paragraph=_action(
            parent,
            "delete_paragraph",
            tr("&Delete Paragraph"),
            "Ctrl+Shift+Backspace",
            tr("Delete the paragraph you clicked in as a tracked deletion"),
        ),
        add_comment=_action(
            parent, "add_comment", tr("New &Comment"), "Ctrl+Alt+M", tr("Comment on the selected text")
        ),
        settings=_action(parent, "settings", tr("&Settings…"), Std.Preferences),
        previous_change=_action(parent, "previous_change", tr("&Previous Change"), "Alt+Up"),
        next_change=_action(parent, "next_change", tr("&Next Change"), "Alt+Down"),
        accept_change=_action(
            parent, "accept_change", tr("&Accept Change"), "Ctrl+Alt+A", tr("Accept the selected change")
        ),
        reject_change=_action(
            parent, "reject_change", tr("&Reject Change"), "Ctrl+Alt+R", tr("Reject the selected change")
        ),
        accept_all=_action(parent, "accept_all", tr("Accept A&ll Changes")),
        accept_shown=_action(
            parent,
            "accept_shown",
            tr("Accept All Changes &Shown"),
            None,
            tr("Accept the changes of the reviewers whose markup is shown; hidden reviewers' stay"),
        ),
        reject_all=_action(parent, "reject_all", tr("Reject All C&hanges")),
        zoom_in=_action(parent, "zoom_in", tr("Zoom &In"), Std.ZoomIn),
        zoom_out=_action(parent, "zoom_out", tr("Zoom &Out"), Std.ZoomOut),
        zoom_100=_action(parent, "zoom_100", tr("&Actual Size"), "Ctrl+0"),
        fit_width=_action(parent, "fit_width", tr("Fit &Width"), "Ctrl+1", checkable=True),
        fit_page=_action(parent, "fit_page", tr("Fit &Page"), "Ctrl+2", checkable=True),
        navigation_pane=_action(
            parent,
            "navigation_pane",
            tr("&Navigation Pane"),
            None,
            tr("Show the headings and numbered clauses, to go to one"),
            checkable=True,
        ),
        markup_all=_action(parent, "markup_all", tr("All &Markup"), "Ctrl+Alt+1", checkable=True),
        markup_simple=_action(
            parent,
            "markup_simple",
            tr("&Simple Markup"),
            "Ctrl+Alt+4",
            tr("The text as if the changes were accepted, with a red bar beside each changed paragraph"),
            checkable=True,
        ),
        markup_none=_action(
            parent, "markup_none", tr("&No Markup (as accepted)"), "Ctrl+Alt+2", checkable=True
        ),
        markup_original=_action(
            parent, "markup_original", tr("&Original (as rejected)"), "Ctrl+Alt+3", checkable=True
        ),
        theme_system=_action(parent, "theme_system", tr("&System Theme"), checkable=True),
        theme_light=_action(parent, "theme_light", tr("&Light Theme"), checkable=True),
        theme_dark=_action(parent, "theme_dark", tr("&Dark Theme"), checkable=True),
        agent_review=_action(
            parent,
            "agent_review",
            tr("&Review Mode (proposals)"),
            checkable=True,
            tip=tr("The agent proposes; you apply or discard each proposal"),
        ),
        agent_direct=_action(
            parent,
            "agent_direct",
            tr("&Direct Mode (tracked changes)"),
            checkable=True,
            tip=tr("The agent writes tracked changes at once; you accept or reject them"),
        ),
        agent_stop=_action(parent, "agent_stop", tr("&Stop"), "Ctrl+.", tr("Stop the agent's turn")),
        offer_version=_action(
            parent,
            "offer_version",
            tr("&Offer Another Version…"),
            tip=tr("Let the agent compare this document with a version you pick"),
        ),
        review_playbook=_action(
            parent,
            "review_playbook",
            tr("Review Against &Playbook…"),
            None,
            tr("Check the contract against a playbook's positions, citing each clause"),
        ),
        triage_changes=_action(
            parent,
            "triage_changes",
            tr("&Triage Their Changes"),
            None,
            tr("Have the agent recommend accept, reject or a counter for each of the other side's changes"),
        ),
        shortcuts=_action(parent, "shortcuts", tr("&Keyboard Shortcuts"), "Ctrl+/"),
        log_folder=_action(parent, "log_folder", tr("Open &Log Folder")),
        about=_action(parent, "about", tr("&About Reviewer")),
    )
    _set_icons(parent, a)
    # the toolbar shows a short name (room for the markup views at 1280 px); menus the full one
    for action, short in (
        (a.previous_change, tr("Previous")),
        (a.next_change, tr("Next")),
        (a.accept_change, tr("Accept")),
        (a.reject_change, tr("Reject")),
        (a.markup_simple, tr("Simple")),
        (a.markup_none, tr("No Markup")),
        (a.markup_original, tr("Original")),
    ):
        if not action.statusTip():  # no tip of its own: hovering the short name shows the full one
            action.setToolTip(action.text().replace("&", ""))
        action.setIconText(short)
    if not quit_keys:
        a.quit.setShortcut(QKeySequence("Ctrl+Q"))
    a.quit.setMenuRole(QAction.MenuRole.QuitRole)
    a.about.setMenuRole(QAction.MenuRole.AboutRole)
    a.settings.setMenuRole(QAction.MenuRole.PreferencesRole)
    for group in (
        (a.markup_all, a.markup_simple, a.markup_none, a.markup_original),
        (a.theme_system, a.theme_light, a.theme_dark),
        (a.agent_review, a.agent_direct),
    ):
        exclusive = QActionGroup(parent)
        for action in group:
            exclusive.addAction(action)
    a.markup_all.setChecked(True)
    a.agent_review.setChecked(True)
    a.theme_system.setChecked(True)
    a.agent_stop.setEnabled(False)
    return a


def _set_icons(window: QMainWindow, a: WindowActions) -> None:
    """The style's own icons (they follow the platform and the theme; no image files to ship)."""
    pixmap = QStyle.StandardPixmap
    style = window.style()
    for action, icon in (
        (a.open, pixmap.SP_DialogOpenButton),
        (a.save, pixmap.SP_DialogSaveButton),
        (a.undo, pixmap.SP_ArrowBack),
        (a.redo, pixmap.SP_ArrowForward),
        (a.previous_change, pixmap.SP_ArrowUp),
        (a.next_change, pixmap.SP_ArrowDown),
        (a.accept_change, pixmap.SP_DialogApplyButton),
        (a.reject_change, pixmap.SP_DialogCancelButton),
        (a.find, pixmap.SP_FileDialogContentsView),
        (a.agent_stop, pixmap.SP_BrowserStop),
    ):
        action.setIcon(style.standardIcon(icon))


def build_menus(window: QMainWindow, a: WindowActions, recent_menu: QMenu) -> dict[str, QMenu]:
    """File, Edit, Review, View, Agent, Help menus; returns them by name (docks add to View)."""
    tr = window.tr
    bar = window.menuBar()
    menus: dict[str, QMenu] = {}

    def menu(name: str, title: str, items: list[QAction | QMenu | None]) -> QMenu:
        m = bar.addMenu(title)
        m.setObjectName(f"{name}Menu")
        for item in items:
            if item is None:
                m.addSeparator()
            elif isinstance(item, QMenu):
                m.addMenu(item)
            else:
                m.addAction(item)
        menus[name] = m
        return m

    recent_menu.setTitle(tr("Open &Recent"))
    recent_menu.setObjectName("recentMenu")
    menu(
        "file",
        tr("&File"),
        [
            a.open,
            recent_menu,
            None,
            a.save,
            a.save_as,
            a.export_pdf,
            a.export_issues,
            None,
            a.compare_with,
            None,
            a.close,
            a.quit,
        ],
    )
    menu(
        "edit",
        tr("&Edit"),
        [
            a.undo,
            a.redo,
            None,
            a.find,
            a.go_to,
            a.focus_document,
            None,
            a.edit_paragraph,
            a.insert_paragraph,
            a.delete_paragraph,
            a.add_comment,
            None,
            a.settings,
        ],
    )
    menu(
        "review",
        tr("&Review"),
        [
            a.previous_change,
            a.next_change,
            None,
            a.accept_change,
            a.reject_change,
            None,
            a.accept_all,
            a.accept_shown,
            a.reject_all,
        ],
    )
    menu(
        "view",
        tr("&View"),
        [
            a.zoom_in,
            a.zoom_out,
            a.zoom_100,
            a.fit_width,
            a.fit_page,
            None,
            a.navigation_pane,
            None,
            a.markup_all,
            a.markup_simple,
            a.markup_none,
            a.markup_original,
            None,
            a.theme_system,
            a.theme_light,
            a.theme_dark,
            None,
        ],
    )
    menu(
        "agent",
        tr("&Agent"),
        [
            a.agent_review,
            a.agent_direct,
            None,
            a.offer_version,
            a.review_playbook,
            a.triage_changes,
            None,
            a.agent_stop,
        ],
    )
    menu("help", tr("&Help"), [a.shortcuts, a.log_folder, None, a.about])
    return menus


def build_toolbar(window: QMainWindow, a: WindowActions) -> QToolBar:
    """The main toolbar: the commands a reviewer uses every minute."""
    bar = window.addToolBar(window.tr("Main"))
    bar.setObjectName("mainToolBar")
    bar.setMovable(False)
    bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    for item in (
        a.open,
        a.save,
        None,
        a.undo,
        a.redo,
        None,
        a.previous_change,
        a.next_change,
        a.accept_change,
        a.reject_change,
        None,
        a.find,
        a.markup_all,
        a.markup_simple,
        a.markup_none,
        a.markup_original,
        None,
        a.agent_stop,
    ):
        if item is None:
            bar.addSeparator()
        else:
            bar.addAction(item)
    return bar


#: the widest an Undo or Redo label gets on the toolbar; the Edit menu and the tooltip show it whole
HISTORY_LABEL_MAX_PX = 130


def set_history_text(bar: QToolBar, action: QAction, template: str, step: str) -> None:
    """Label Undo or Redo with the step it would undo or redo ("Undo Accept all by Priya Shah …").

    A step's name can be long (an author's full name and firm): on the toolbar it is elided to
    :data:`HISTORY_LABEL_MAX_PX`, so it never pushes the markup buttons into the overflow menu,
    and the tooltip carries the whole text. ``template`` is the translated "&Undo {0}"; an ``&``
    in ``step`` (an author's name) stays a character, not a mnemonic.
    """
    action.setText(template.format(step.replace("&", "&&")).strip())
    whole = template.replace("&", "").format(step).strip()
    button = bar.widgetForAction(action)
    metrics = (button or bar).fontMetrics()
    shown = metrics.elidedText(whole, Qt.TextElideMode.ElideRight, HISTORY_LABEL_MAX_PX)
    action.setIconText(shown.replace("&", "&&"))
    action.setToolTip(whole)


def connect(action: QAction, slot: Callable[[], object]) -> None:
    """Connect ``triggered`` to a slot that takes no arguments (drops the ``checked`` flag)."""
    action.triggered.connect(lambda _checked=False: slot())
