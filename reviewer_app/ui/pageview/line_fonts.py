"""Which fonts set a paragraph's line heights, as LibreOffice decides it.

LibreOffice makes a line as tall as the fonts of the text on it: the paragraph mark's font counts
only in an empty paragraph (8 pt Arial clauses under 12 pt Calibri marks have Arial's 9.2 pt
lines), and a run of nothing but spaces counts not at all (the two spaces of "Reservation of
Rights.  Provider..." are in the style's 10 pt Times New Roman while the clause is 8 pt Arial,
and its first line stays 9.2 pt high). Qt counts every character of a line, spaces included, so
such a run is re-set here in the paragraph's own font, as wide as before; and Qt scales all lines
of a block by one factor (see :func:`.fonts.line_gap_factor`), so the block takes the factor of
the font most of its text is in.

Each char format the page view makes carries the number of its font (:data:`LINE_FONT`), so a
paragraph's fonts are compared as numbers rather than by building a QFont per stretch of text.
"""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetricsF, QTextBlock, QTextCharFormat, QTextCursor, QTextFormat

from .fonts import line_gap_factor

#: Char format property: the number :meth:`LineFonts.number` gave the format's font.
LINE_FONT = QTextFormat.Property.UserProperty + 20
#: Characters whose own font sets no line height in LibreOffice.
_BLANKS = " \u00a0\t"


class LineFonts:
    """The fonts of one layout's char formats by number, with their line factors and heights."""

    def __init__(self) -> None:
        self._numbers: dict[tuple[object, ...], int] = {}
        self._fonts: list[QFont] = [QFont()]  # 0: a format no number was given to
        self._factors: dict[int, float] = {}
        self._heights: dict[int, float] = {}

    def number(self, font: QFont) -> int:
        """The number of ``font`` (the same for every font of the same face and size)."""
        key = (tuple(font.families()), font.pointSizeF(), font.bold(), font.italic())
        found = self._numbers.get(key)
        if found is None:
            found = self._numbers[key] = len(self._fonts)
            self._fonts.append(QFont(font))
        return found

    def factor(self, number: int) -> float:
        """The line factor of font ``number`` (see :func:`.fonts.line_gap_factor`)."""
        found = self._factors.get(number)
        if found is None:
            found = self._factors[number] = line_gap_factor(self._fonts[number])
        return found

    def settle(self, block: QTextBlock, mark_factor: float) -> float:
        """The line factor for ``block``: its main font's, ``mark_factor`` (the paragraph mark's)
        when it holds no text; runs of blanks in a taller font are re-set in the main font."""
        ranges = block.textFormats()
        if not ranges:
            return mark_factor
        numbers = [self._number_of(piece.format) for piece in ranges]
        if len(set(numbers)) == 1:
            return self.factor(numbers[0])
        text = block.text()
        blank = [not text[p.start : p.start + p.length].strip(_BLANKS) for p in ranges]
        lengths: dict[int, int] = {}
        for piece, number, is_blank in zip(ranges, numbers, blank, strict=True):
            if not is_blank:
                lengths[number] = lengths.get(number, 0) + piece.length
        if not lengths:
            return mark_factor
        main = max(lengths, key=lengths.__getitem__)
        height = self._height(main)
        cursor: QTextCursor | None = None
        for piece, number, is_blank in zip(ranges, numbers, blank, strict=True):
            if is_blank and number != main and self._height(number) > height:
                cursor = cursor or QTextCursor(block)
                at = block.position() + piece.start
                cursor.setPosition(at)
                cursor.setPosition(at + piece.length, QTextCursor.MoveMode.KeepAnchor)
                cursor.setCharFormat(self._in_font(piece.format, number, main))
        return self.factor(main)

    def _height(self, number: int) -> float:
        found = self._heights.get(number)
        if found is None:
            metrics = QFontMetricsF(self._fonts[number])
            found = self._heights[number] = metrics.ascent() + metrics.descent()
        return found

    def _number_of(self, fmt: QTextCharFormat) -> int:
        number = fmt.intProperty(LINE_FONT)
        return number if number else self.number(fmt.font())

    def _in_font(self, fmt: QTextCharFormat, own: int, main: int) -> QTextCharFormat:
        """``fmt`` in font ``main`` instead of ``own``, each space as wide as in ``own``."""
        font, was = self._fonts[main], self._fonts[own]
        moved = QTextCharFormat(fmt)
        moved.setFontFamilies(font.families())
        moved.setFontPointSize(font.pointSizeF())
        moved.setFontWeight(font.weight())
        moved.setFontItalic(font.italic())
        moved.setProperty(LINE_FONT, main)
        narrower = QFontMetricsF(was).horizontalAdvance(" ") - QFontMetricsF(font).horizontalAdvance(" ")
        absolute = fmt.fontLetterSpacingType() == QFont.SpacingType.AbsoluteSpacing
        moved.setFontLetterSpacingType(QFont.SpacingType.AbsoluteSpacing)
        moved.setFontLetterSpacing((fmt.fontLetterSpacing() if absolute else 0.0) + narrower)
        return moved
