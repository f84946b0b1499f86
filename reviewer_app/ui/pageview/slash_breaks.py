"""A word Qt would split after a slash or a closing brace moves to the next line whole, as in Word
and LibreOffice.

Qt breaks lines by Unicode's rules, which allow a break after "/" when a letter follows, so a
URL near a line's end was split after ``https://`` or after a path segment ("commonpaper.com/"
at the end of one line, "standards/..." on the next), and "and/or" after "and/". Word does not
break inside a URL or at a slash, nor does LibreOffice: the whole word goes to the next line
(breaking only at a hyphen in it, or where one word is longer than the line). The same holds after
a closing brace before a letter or digit: Qt splits "{IF has_professional_services}Professional"
after "}", Word and LibreOffice only at spaces and hyphens.

Qt has no setting for where a line may break, and the only character that forbids a break, a
joiner, is written into a PDF as a zero-width space glyph: PDF readers then split the word there
(poppler reads "https:/" "/" "bonterms.com/"), so a URL copied or searched in the exported PDF
would not be found whole. Instead, once a paragraph is written, its lines are read back, and
where one ends at such a break inside a word (:func:`qt_only_break`), a line separator
(:data:`LINE_MARK`) is set before that word. Like the long-word break mark it is layout only: the
builder leaves it out of the paragraph's clean-text spans. A word that starts its line is longer
than the line: Word cuts it where it overflows the line, not at the slash or brace, so the
separator goes there (:func:`overflow_cut`), where Qt's own line, let break anywhere, ends: a
measure of our own could differ from Qt's by a fraction, and Qt then kept its break before the
separator (docx4j's Getting Started guide set the same separator again for ever). Laid out again
at the width measured, Qt ends the line at the separator, so each separator set is further on than
the one before and the loop ends.

The builder writes inside an edit block, during which Qt lays nothing out, so the paragraph's
lines are laid out here ahead of Qt (:func:`lay_out_alone`), with the text option, margins and
first-line indent Qt's document layout gives the block, in the width of the page's text frame or
of the table cell it is written in.

Qt does not stretch a line ending in a separator in a justified paragraph, where Word and
LibreOffice stretch the line before the moved word as any other, so such a line is given the
word spacing that fills it (:func:`_stretch`, :func:`_widen`).
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextBlock, QTextCharFormat, QTextCursor, QTextFormat, QTextLine, QTextOption

#: the layout-only separator set before a word Qt would split after a slash or a brace
LINE_MARK = "\u2028"
#: a slash or closing brace inside a word: where Qt may break and Word does not
SLASH_IN_WORD = re.compile(r"/[^\s\u2028]|\}[^\W_]")


def qt_only_break(text: str, end: int) -> bool:
    """Whether a line of ``text`` ending at ``end`` ends where Qt (Unicode's line breaking) may break
    and Word does not: after a slash a non-space follows, or after "}" a letter or digit follows
    (before "(", "{" or "$" Word and LibreOffice break there too)."""
    if not 0 < end < len(text):
        return False
    before, after = text[end - 1], text[end]
    if before == "/":
        return not after.isspace() and after != LINE_MARK
    return before == "}" and after.isalnum()


def lay_out_alone(block: QTextBlock, frame_width: float | None = None, anywhere: int | None = None) -> None:
    """Break ``block`` into lines as Qt's document layout will: its own layout, the document's
    text option with the block's tab stops and alignment, the frame's width (``frame_width``,
    LU, for a table cell's content; None: the page's) less the block's margins, the first line
    less its indent (a hanging indent gives it more). Line ``anywhere`` (an index), if given, may
    break at any character, to find how much of a word longer than the line Qt fits on it."""
    document = block.document()
    block_format = block.blockFormat()
    option = QTextOption(document.defaultTextOption())
    option.setTabs(block_format.tabPositions())
    if block_format.hasProperty(QTextFormat.Property.BlockAlignment):
        option.setAlignment(block_format.alignment())
    if frame_width is None:
        frame = document.rootFrame().frameFormat()
        frame_width = document.pageSize().width() - frame.leftMargin() - frame.rightMargin()
    width = frame_width - block_format.leftMargin() - block_format.rightMargin()
    width -= block_format.indent() * document.indentWidth()
    layout = block.layout()
    layout.setTextOption(option)
    layout.beginLayout()
    indent = block_format.textIndent()
    index = 0
    while True:
        if index == anywhere:
            # Qt reads the wrap mode line by line: the lines before keep Word's breaks
            wrapped = QTextOption(option)
            wrapped.setWrapMode(QTextOption.WrapMode.WrapAnywhere)
            layout.setTextOption(wrapped)
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(max(0.0, width - indent))
        if index == anywhere:
            layout.setTextOption(option)
        indent = 0.0
        index += 1
    layout.endLayout()


def slash_split_word(block: QTextBlock, frame_width: float | None = None) -> int | None:
    """Block position of the first word whose line Qt ended after a slash or brace inside it (the
    word starting after a space on that line), or None; a word that starts its line is cut where
    it overflows the line instead (:func:`overflow_cut`), if that is further on. The block must be
    laid out (see :func:`lay_out_alone`); ``frame_width`` as there."""
    layout = block.layout()
    text = block.text()
    if layout is None:
        return None
    for index in range(layout.lineCount() - 1):
        line = layout.lineAt(index)
        first, end = line.textStart(), line.textStart() + line.textLength()
        if not qt_only_break(text, end):
            continue
        start = end
        while start > first and not text[start - 1].isspace():
            start -= 1
        if start > first:
            return start
        cut = overflow_cut(block, index, frame_width)
        lay_out_alone(block, frame_width)  # measuring changed the block's lines
        if cut > end:
            return cut
        layout = block.layout()
    return None


def overflow_cut(block: QTextBlock, index: int, frame_width: float | None = None) -> int:
    """Block position where the word starting line ``index`` of ``block`` overflows that line:
    Word breaks a word longer than the line after its last character that fits (at least one).
    What fits is Qt's own measure: the line laid out again, let break anywhere."""
    lay_out_alone(block, frame_width, anywhere=index)
    line = block.layout().lineAt(index)
    text = block.text()
    first = line.textStart()
    word_end = first + 1
    while word_end < len(text) and not text[word_end].isspace():
        word_end += 1
    return min(max(first + 1, first + line.textLength()), word_end)


def keep_slashed_words(block: QTextBlock, frame_width: float | None = None) -> list[int]:
    """Set a :data:`LINE_MARK` before each word of ``block`` Qt would split after a slash or brace
    (or where a word longer than the line overflows it), and stretch a justified line so ended;
    the document positions the marks were set at, in order (each one as it stands once all are
    set). ``frame_width``: see :func:`lay_out_alone`."""
    marks: list[int] = []
    if block.blockFormat().nonBreakableLines() or block.document().pageSize().width() <= 0:
        return marks  # Qt does not wrap these lines at all
    while SLASH_IN_WORD.search(block.text()):
        lay_out_alone(block, frame_width)
        at = slash_split_word(block, frame_width)
        if at is None:
            break
        cursor = QTextCursor(block.document())
        cursor.setPosition(block.position() + at)
        cursor.insertText(LINE_MARK)
        marks.append(block.position() + at)
    if (
        marks
        and block.blockFormat().alignment() & Qt.AlignmentFlag.AlignHorizontal_Mask
        == Qt.AlignmentFlag.AlignJustify
    ):
        lay_out_alone(block, frame_width)
        layout = block.layout()
        # read every line first: changing a format lets Qt drop the block's lines
        stretches = [_stretch(block, layout.lineAt(index)) for index in range(layout.lineCount())]
        for found in stretches:
            if found is not None:
                _widen(block, *found)
    return marks


def _stretch(block: QTextBlock, line: QTextLine) -> tuple[int, int, float] | None:
    """Where and how much to widen the spaces of ``line`` (after its last tab) to fill it, if it
    ends in a :data:`LINE_MARK`: Word's justification of a line that ends where a word moved
    down. (block positions from, to; the extra width of each space)"""
    text = block.text()
    end = line.textStart() + line.textLength()
    if end < 1 or text[end - 1] != LINE_MARK:
        return None
    words = text[line.textStart() : end - 1].rstrip()
    first = words.rfind("\t") + 1
    spaces = words.count(" ", first)
    # half a point short of full: a line filled to the last fraction may no longer fit once Qt
    # lays it out in its frame
    room = line.width() - line.naturalTextWidth() - 5.0
    if not spaces or room <= 0:
        return None
    return line.textStart() + first, line.textStart() + len(words), room / spaces


def _widen(block: QTextBlock, start: int, end: int, extra: float) -> None:
    """Give the spaces of block positions ``[start, end)`` ``extra`` LU of width each."""
    cursor = QTextCursor(block.document())
    cursor.setPosition(block.position() + start)
    cursor.setPosition(block.position() + end, QTextCursor.MoveMode.KeepAnchor)
    spacing = QTextCharFormat()
    spacing.setFontWordSpacing(extra)
    cursor.mergeCharFormat(spacing)
