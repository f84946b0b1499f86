"""Word formatting as Qt formats, in the page view's layout units.

Layout units (LU) are 1/720 inch. Laying out at that resolution, rather than in screen pixels,
keeps the layout the same on every screen and keeps Qt's integer rounding (font pixel sizes,
line heights) far below what changes a line break: an 11 pt font is exactly 110 LU, where at
96 dpi it would be rounded from 14.67 to 15 px and every line of a contract would run 2 % long.
Zoom is then one painter scale from LU to device pixels.

No paint device is set on the documents, so Qt converts font points with the screen's default
DPI; :data:`FONT_SCALE` compensates so a point is always 10 LU.

Markup roles (how a segment is shown): ``text``, ``insert``, ``delete``, ``label``, ``note``,
``plain`` (deleted text shown as if rejected). Insertions are underlined and deletions struck
through in the author's colour, so colour is never the only signal.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QGuiApplication,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtGui import QTextOption as _QTextOption

from ...docx.format_props import ParaProps, RunProps
from .fonts import families_for, line_gap_factor, register_bundled_fonts, without_ligatures
from .line_fonts import LINE_FONT, LineFonts

#: Layout units per inch.
LU_PER_INCH = 720
#: Twips (1/1440 inch) to layout units.
TWIPS = 0.5

#: Revision colours by author, in order of first appearance (Word's "by author" idea).
DEFAULT_AUTHOR_COLORS = (
    "#1F5FBF",
    "#B3261E",
    "#1E7B45",
    "#7B3FA0",
    "#B85C00",
    "#0E7C86",
    "#8D5524",
    "#AD1457",
)
AUTHOR_COLORS = DEFAULT_AUTHOR_COLORS
COMMENT_BACKGROUND = QColor("#FCE99A")
_UNDERLINES = {
    "double": QTextCharFormat.UnderlineStyle.SingleUnderline,
    "dotted": QTextCharFormat.UnderlineStyle.DotLine,
    "dottedHeavy": QTextCharFormat.UnderlineStyle.DotLine,
    "dash": QTextCharFormat.UnderlineStyle.DashUnderline,
    "dashLong": QTextCharFormat.UnderlineStyle.DashUnderline,
    "dashedHeavy": QTextCharFormat.UnderlineStyle.DashUnderline,
    "dotDash": QTextCharFormat.UnderlineStyle.DashDotLine,
    "dotDotDash": QTextCharFormat.UnderlineStyle.DashDotDotLine,
    "wave": QTextCharFormat.UnderlineStyle.WaveUnderline,
    "wavyHeavy": QTextCharFormat.UnderlineStyle.WaveUnderline,
    "wavyDouble": QTextCharFormat.UnderlineStyle.WaveUnderline,
}
_TAB_KINDS = {
    "left": _QTextOption.TabType.LeftTab,
    "start": _QTextOption.TabType.LeftTab,
    "num": _QTextOption.TabType.LeftTab,
    "right": _QTextOption.TabType.RightTab,
    "end": _QTextOption.TabType.RightTab,
    "center": _QTextOption.TabType.CenterTab,
    "decimal": _QTextOption.TabType.DelimiterTab,
}


def font_scale() -> float:
    """Point size to give a QFont so that 1 pt lays out as 10 LU whatever the screen's DPI."""
    app = QGuiApplication.instance()
    screen = QGuiApplication.primaryScreen() if app is not None else None
    dpi = round(screen.logicalDotsPerInchY()) if screen is not None else 96
    return LU_PER_INCH / (dpi or 96)


def make_font(
    family: str, size_pt: float, scale: float, bold: bool = False, italic: bool = False, kerning: bool = False
) -> QFont:
    """A QFont for ``family`` at ``size_pt``, its bundled metric-compatible stand-in as fallback.

    Ligatures are off, as in Word, so the PDF's text reads back letter for letter. Pair kerning is
    off unless asked for: Word kerns only runs with ``w:kern``, and kerned text is narrower, so lines
    of a justified contract took one word more than Word's and LibreOffice's.
    """
    font = without_ligatures(QFont())
    font.setFamilies(families_for(family))
    font.setPointSizeF(max(1.0, size_pt) * scale)
    font.setBold(bold)
    font.setItalic(italic)
    font.setKerning(kerning)
    return font


def set_author_colors(colors: tuple[str, ...] | list[str]) -> None:
    """Use ``colors`` (``#RRGGBB``, from the settings) for layouts built from now on; empty = defaults."""
    global AUTHOR_COLORS
    AUTHOR_COLORS = tuple(colors) or DEFAULT_AUTHOR_COLORS


class AuthorColors:
    """Stable colour per revision author (and per comment author) for one layout."""

    def __init__(self) -> None:
        self._by_author: dict[str, QColor] = {}

    def color(self, author: str | None) -> QColor:
        key = author or ""
        found = self._by_author.get(key)
        if found is None:
            found = QColor(AUTHOR_COLORS[len(self._by_author) % len(AUTHOR_COLORS)])
            self._by_author[key] = found
        return found


class FormatFactory:
    """Qt char and block formats for resolved Word properties, cached per distinct look.

    A 300-page contract has ~15,000 paragraphs but a few dozen distinct formats; sharing one
    QTextCharFormat per look keeps building the QTextDocument cheap and its format table small.
    """

    def __init__(self, default_tab_twips: int = 720) -> None:
        register_bundled_fonts()  # every layout (window, CLI, tests) gets the same stand-ins
        self.scale = font_scale()
        self.default_tab = default_tab_twips * TWIPS
        self.colors = AuthorColors()
        self._chars: dict[tuple[object, ...], QTextCharFormat] = {}
        self._blocks: dict[tuple[object, ...], QTextBlockFormat] = {}
        self._line_factors: dict[tuple[str, int, bool, bool], float] = {}
        self.line_fonts = LineFonts()
        #: id of a char format :meth:`char` made -> its font's number in ``line_fonts`` (the
        #: formats are kept in ``_chars``, so their ids stay theirs)
        self.font_numbers: dict[int, int] = {}
        self._alive: dict[int, object] = {}  # keeps every props object keyed by id alive

    # -- characters ----------------------------------------------------------------------------
    def char(
        self,
        props: RunProps,
        role: str = "text",
        author: str | None = None,
        commented: bool = False,
        script: str = "latin",
        family: str | None = None,
        on_dark: bool = False,
    ) -> QTextCharFormat:
        """The char format for a run shown in ``role`` (see module docstring).

        ``on_dark``: the run sits on dark shading, where Word draws the automatic colour white.
        """
        # keyed by identity: the resolver hands out one RunProps per distinct look and keeps it,
        # and hashing a RunProps (18 fields) for every run would cost more than the lookup saves
        key = (
            id(props),
            role,
            author if role in ("insert", "delete") else None,
            commented,
            script,
            family,
            on_dark,
        )
        fmt = self._chars.get(key)
        if fmt is None:
            self._alive[id(props)] = props
            fmt = self._make_char(props, role, author, commented, script, family)
            self.font_numbers[id(fmt)] = fmt.intProperty(LINE_FONT)
            if on_dark and not props.color and role not in ("insert", "delete"):
                fmt.setForeground(QBrush(QColor("white")))
            self._chars[key] = fmt
        return fmt

    def _make_char(
        self,
        props: RunProps,
        role: str,
        author: str | None,
        commented: bool,
        script: str,
        family: str | None,
    ) -> QTextCharFormat:
        size = props.size_hp / 2
        name = family or props.font
        if script == "cs":
            name = family or props.font_cs or props.font
            size = (props.size_cs_hp or props.size_hp) / 2
        elif script == "ea":
            name = family or props.font_ea or props.font
        fmt = QTextCharFormat()
        kerning = 0 < props.kern_from_hp <= size * 2
        font = make_font(name, size, self.scale, props.bold, props.italic, kerning)
        fmt.setFont(font)
        fmt.setProperty(LINE_FONT, self.line_fonts.number(font))
        if props.caps:
            fmt.setFontCapitalization(QFont.Capitalization.AllUppercase)
        elif props.small_caps:
            fmt.setFontCapitalization(QFont.Capitalization.SmallCaps)
        if props.char_spacing:
            fmt.setFontLetterSpacingType(QFont.SpacingType.AbsoluteSpacing)
            fmt.setFontLetterSpacing(props.char_spacing * TWIPS)
        if props.underline and role != "label":
            fmt.setUnderlineStyle(
                _UNDERLINES.get(props.underline, QTextCharFormat.UnderlineStyle.SingleUnderline)
            )
        if (props.strike or props.dstrike) and role != "label":
            fmt.setFontStrikeOut(True)
        if props.color:
            fmt.setForeground(QBrush(QColor("#" + props.color)))
        background = props.highlight or props.shading
        if background and role != "label":
            fmt.setBackground(QBrush(QColor("#" + background)))
        if props.vert_align == "superscript" or role == "note":
            fmt.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignSuperScript)
        elif props.vert_align == "subscript":
            fmt.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignSubScript)
        if role in ("insert", "delete"):
            color = self.colors.color(author)
            fmt.setForeground(QBrush(color))
            if role == "insert":
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
                fmt.setUnderlineColor(color)
            else:
                fmt.setFontStrikeOut(True)
        if commented:
            fmt.setBackground(QBrush(COMMENT_BACKGROUND))
        return fmt

    def line_factor(self, props: RunProps) -> float:
        """The lines of text in ``props``'s font in LibreOffice, as a share of Qt's (see
        :func:`.fonts.line_gap_factor`): a paragraph's spacing is scaled by it."""
        key = (props.font, props.size_hp, props.bold, props.italic)
        factor = self._line_factors.get(key)
        if factor is None:
            font = make_font(props.font, props.size_hp / 2, self.scale, props.bold, props.italic)
            factor = self._line_factors[key] = line_gap_factor(font)
        return factor

    def text_line_factor(
        self, cursor: QTextCursor, mark_factor: float, fonts: set[int] | None = None
    ) -> float:
        """The line factor for the block ``cursor`` is in once its text is in: its main font's,
        not its paragraph mark's (``mark_factor``) unless it holds no text (see :mod:`.line_fonts`).

        ``fonts``, when known, are the numbers of the fonts of all the block's text (see
        :attr:`font_numbers`): text in one font (most paragraphs) or none has its factor without
        asking Qt for the block, whose formats cost more to read back than to write.
        """
        if fonts is not None and len(fonts) < 2:
            return self.line_fonts.factor(next(iter(fonts))) if fonts else mark_factor
        return self.line_fonts.settle(cursor.block(), mark_factor)

    # -- paragraphs ----------------------------------------------------------------------------
    def block(
        self,
        props: ParaProps,
        before: int | None = None,
        after: int | None = None,
        page_break: bool = False,
        line_factor: float = 1.0,
        bleed: tuple[float, float] = (0.0, 0.0),
        label_shift: float = 0.0,
    ) -> QTextBlockFormat:
        """The block format of a paragraph; ``before``/``after`` override its spacing (twips).

        ``bleed`` (LU, left and right) is how far the text frame reaches past the text column:
        the indents are measured from the column, so they grow by it, and a negative indent
        (``w:ind w:left="-720"``) takes the text into the page margin as in Word, where Qt's
        own margins cannot go below zero. ``label_shift`` (LU) starts the first line that much
        left of its indent for a right-justified or centred list label; its tab stops stay put.
        """
        key = (id(props), before, after, page_break, line_factor, bleed, label_shift)
        fmt = self._blocks.get(key)
        if fmt is None:
            self._alive[id(props)] = props
            fmt = self._make_block(props, before, after, page_break, line_factor, bleed, label_shift)
            self._blocks[key] = fmt
        return fmt

    def _make_block(
        self,
        props: ParaProps,
        before: int | None,
        after: int | None,
        page_break: bool,
        line_factor: float,
        bleed: tuple[float, float],
        label_shift: float,
    ) -> QTextBlockFormat:
        fmt = QTextBlockFormat()
        fmt.setAlignment(alignment(props.align, props.bidi))
        if props.bidi:
            fmt.setLayoutDirection(Qt.LayoutDirection.RightToLeft)
        fmt.setLeftMargin(max(0.0, props.ind_left * TWIPS + bleed[0]))
        fmt.setRightMargin(max(0.0, props.ind_right * TWIPS + bleed[1]))
        fmt.setTextIndent(props.ind_first * TWIPS - label_shift)
        space_before = props.before if before is None else before
        space_after = props.after if after is None else after
        if props.before_auto and before is None:
            space_before = 280
        if props.after_auto and after is None:
            space_after = 280
        fmt.setTopMargin(space_before * TWIPS)
        fmt.setBottomMargin(space_after * TWIPS)
        if props.line_rule == "exact" and props.line > 0:
            fmt.setLineHeight(props.line * TWIPS, QTextBlockFormat.LineHeightTypes.FixedHeight.value)
        elif props.line_rule == "atLeast" and props.line > 0:
            fmt.setLineHeight(props.line * TWIPS, QTextBlockFormat.LineHeightTypes.MinimumHeight.value)
        elif props.line > 0 and (props.line != 240 or line_factor != 1.0):
            percent = props.line / 240 * 100 * line_factor
            fmt.setLineHeight(percent, QTextBlockFormat.LineHeightTypes.ProportionalHeight.value)
        tabs = self._tabs(props, label_shift)
        if tabs:
            fmt.setTabPositions(tabs)
        if page_break or props.page_break_before:
            fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
        if props.shading:
            fmt.setBackground(QBrush(QColor("#" + props.shading)))
        return fmt

    def _tabs(self, props: ParaProps, label_shift: float) -> list[_QTextOption.Tab]:
        """Tab stops in Qt's terms.

        Word measures stops from the text column's left edge; Qt measures them from where the
        line starts, which for a paragraph's first line is the left indent plus the first-line
        indent. Stops are shifted by that origin (later lines of a paragraph with a first-line
        or hanging indent are off by that indent: tabs there are rare). Word's implicit stop at
        a hanging indent (where a list item's text starts) and, past the last explicit stop,
        the default stops are added so they too land where Word puts them.
        """
        origin = (props.ind_left + props.ind_first) * TWIPS - label_shift
        stops: list[tuple[float, _QTextOption.TabType, str]] = []
        for pos, kind, _leader in props.tabs:
            tab_type = _TAB_KINDS.get(kind)
            qt_pos = pos * TWIPS - origin
            if tab_type is not None and qt_pos > 0:
                stops.append((qt_pos, tab_type, "." if kind == "decimal" else ""))
        if props.ind_first < 0:
            hanging = props.ind_left * TWIPS - origin
            if all(abs(stop[0] - hanging) > 0.5 for stop in stops):
                stops.append((hanging, _QTextOption.TabType.LeftTab, ""))
        if not stops and not origin:
            return []
        if origin and self.default_tab > 0:
            last = max((stop[0] for stop in stops), default=0.0)
            k = 1
            while k * self.default_tab - origin < 12 * LU_PER_INCH:
                position = k * self.default_tab - origin
                if position > last:
                    stops.append((position, _QTextOption.TabType.LeftTab, ""))
                k += 1
        stops.sort(key=lambda stop: stop[0])
        tabs = []
        for position, tab_type, delimiter in stops:
            if delimiter:
                tabs.append(_QTextOption.Tab(position, tab_type, delimiter))
            else:
                tabs.append(_QTextOption.Tab(position, tab_type))
        return tabs


def alignment(align: str, rtl: bool = False) -> Qt.AlignmentFlag:
    """Qt alignment flags for a Word justification.

    In a right-to-left paragraph Word's ``left`` is the paragraph's start, as Qt's AlignLeft
    is under a right-to-left layout direction (Qt mirrors it), so no swap is needed.
    """
    del rtl
    if align == "center":
        return Qt.AlignmentFlag.AlignHCenter
    if align == "right":
        return Qt.AlignmentFlag.AlignRight
    if align == "justify":
        return Qt.AlignmentFlag.AlignJustify
    return Qt.AlignmentFlag.AlignLeft


def script_of(text: str) -> str:
    """``cs`` for Hebrew/Arabic text, ``ea`` for CJK, else ``latin`` (picks the run's font slot)."""
    for ch in text:
        code = ord(ch)
        if code < 0x0590:
            if ch.isalpha():
                return "latin"
            continue
        if code <= 0x08FF or 0xFB1D <= code <= 0xFDFF or 0xFE70 <= code <= 0xFEFF:
            return "cs"
        if (
            0x2E80 <= code <= 0x9FFF
            or 0xAC00 <= code <= 0xD7AF
            or 0xF900 <= code <= 0xFAFF
            or 0xFF00 <= code <= 0xFFEF
        ):
            return "ea"
    return "latin"


def starts_page_format(fmt: QTextBlockFormat) -> bool:
    """Whether a block in ``fmt`` starts a new page."""
    return bool(fmt.pageBreakPolicy() & QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)


def leave_spacing_before_break(cursor: QTextCursor) -> None:
    """Drop the spacing after of the block ``cursor`` is in, as the block to follow it starts a
    new page (the caller knows that from the formats it wrote, without asking Qt): Word leaves a
    paragraph's spacing after on its own page and starts the next page's paragraph at the top
    margin plus its own spacing before, while Qt puts the larger of the two spacings at the top
    of the new page (the cover page's last paragraph of a contract moved the standard terms 6 pt
    down)."""
    ending = cursor.blockFormat()
    if ending.bottomMargin():
        ending.setBottomMargin(0.0)
        cursor.setBlockFormat(ending)
