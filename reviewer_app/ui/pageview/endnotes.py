"""Endnotes at the end of the document, as Word places them by default.

After the body's last paragraph Word prints a short rule, then each endnote in the order the
body cites them: its number (lower-case Roman unless ``w:endnotePr/w:numFmt`` says otherwise)
and its text in the endnote style. The notes are written into the last section document, after
the body, so Qt paginates them with it and they run onto further pages as needed.

An endnote is not body text: its paragraphs leave no record in the section document (so page
text, ``read_page``, ``page_of_block`` and the page-text sums stay the body's) and carry no
block id; the note's text is its own story (``list_stories`` / ``read_story``). Re-rendering a
body paragraph leaves them in place: they sit after every body record, so nothing shifts them
but the document itself, and a :class:`QTextCursor` follows that. Writing them is the layout's
last placement step; it hands over the section document and the bleed of its geometry, so the
notes need nothing else from the layout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree
from PySide6.QtGui import QPainter, QTextBlockFormat, QTextCharFormat, QTextCursor

from ...docx.document import WordDocument
from ...docx.stories import story_blocks, story_containers
from ...docx.xmlutil import REL_ENDNOTES, W
from .builder import BuildContext, Flow, StoryBuilder
from .footnotes import SEPARATOR_LENGTH, SEPARATOR_LU, paint_separator
from .section_geometry import text_left, text_width

if TYPE_CHECKING:  # pragma: no cover
    from .pages import Page, SectionDoc

_ENDNOTE_PR, _NUM_FMT, _SECT = W + "endnotePr", W + "numFmt", W + "sectPr"
#: Word's endnote numbering when neither the section nor the settings name one.
DEFAULT_ENDNOTE_FORMAT = "lowerRoman"


def endnote_format(document: WordDocument) -> str:
    """How endnotes are numbered: the last section's ``w:endnotePr``, else the settings', else Word's.

    The last section's properties are the body's own ``w:sectPr``: one child lookup, where listing
    every section walks the whole body (18 ms on a 300-page contract, while the window waits).
    """
    settings = document.part_root("settings")
    for holder in (document.body.find(_SECT), settings):
        if holder is None:
            continue
        num_fmt = holder.find(f"{_ENDNOTE_PR}/{_NUM_FMT}")
        if num_fmt is not None and num_fmt.get(W + "val"):
            return str(num_fmt.get(W + "val"))
    return DEFAULT_ENDNOTE_FORMAT


class Endnotes:
    """Writes a document's endnotes after its body and paints the rule above them.

    ``context`` is the body's build context, whose formats and markup the notes share.
    """

    def __init__(self, document: WordDocument, context: BuildContext) -> None:
        self.document = document
        self.context = context
        #: how the notes are numbered (the body's references show the same numbers)
        self.number_format = endnote_format(document)
        #: (section document index, the document, cursor at the separator paragraph) once written
        self._separator: tuple[int, SectionDoc, QTextCursor] | None = None

    def write(
        self,
        section_doc: SectionDoc,
        doc_index: int,
        flow: Flow,
        cited: dict[str, str],
        bleed: tuple[float, float],
    ) -> None:
        """Write the rule and the ``cited`` notes (id -> number, in order) at the section's cursor,
        their frame reaching ``bleed`` past the text column as the body's does."""
        document = self.document
        containers: dict[str, etree._Element] = {
            str(handle["noteId"]): container
            for handle, container in story_containers(document)
            if handle["type"] == "endnote"
        }
        wanted = [(note_id, label) for note_id, label in cited.items() if note_id in containers]
        if not wanted:
            return
        cursor = section_doc.cursor
        rule = QTextBlockFormat()
        rule.setLineHeight(SEPARATOR_LU, QTextBlockFormat.LineHeightTypes.FixedHeight.value)
        rule.setTopMargin(SEPARATOR_LU)  # Word leaves a line between the body and the rule
        if flow.fresh:  # the body ended in a table: Qt's empty block after it takes the rule
            cursor.setBlockFormat(rule)
            flow.fresh = False
        else:
            cursor.insertBlock(rule, QTextCharFormat())
        # one invisible character, so the notes are written after the marker and do not push it on
        cursor.insertText("\u200b")
        marker = QTextCursor(cursor)
        marker.movePosition(QTextCursor.MoveOperation.StartOfBlock)
        self._separator = (doc_index, section_doc, marker)
        part_name = document.part_name(REL_ENDNOTES) or ""
        context = self.context
        for note_id, label in wanted:
            container = containers[note_id]
            blocks = {b.element: b for b in story_blocks(document, container) if b.element is not None}
            note_context = BuildContext(
                context.resolver,
                context.factory,
                context.package,
                part_name,
                context.mode,
                blocks,  # type: ignore[arg-type]
                context.content_width,
                markup=context.markup,
                hidden_comments=context.hidden_comments,
            )
            builder = StoryBuilder(note_context, doc_index, bleed)
            builder.state.note_label = label
            builder.state.endnote_format = self.number_format
            builder.container(container, cursor, Flow(fresh=False), None, False)
            # the notes' records are dropped: they are not body text (see the module docstring)

    def paint(self, painter: QPainter, page: Page) -> None:
        """Draw the rule above the endnotes when ``page`` shows it (page coordinates, LU)."""
        if self._separator is None or self._separator[0] != page.doc_index:
            return
        _doc_index, section_doc, marker = self._separator
        block = section_doc.document.findBlock(marker.position())
        rect = section_doc.document.documentLayout().blockBoundingRect(block)
        text_layout = block.layout()
        if text_layout is None or not text_layout.lineCount():
            return
        line = text_layout.lineAt(0)
        middle = rect.y() + line.y() + line.height() / 2
        if not page.top <= middle < page.top + page.height:
            return
        length = min(SEPARATOR_LENGTH, text_width(section_doc.props))
        paint_separator(painter, text_left(section_doc.props), middle - page.top, length)
