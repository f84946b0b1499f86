"""How a list label looks: its char format, the suffix after it and where it sits.

A contract numbers thousands of paragraphs with a few list levels, so what a label looks like is
worked out once per list level and paragraph mark, and a label's width once per format and text;
:class:`.builder.StoryBuilder` only inserts the label.
"""

from __future__ import annotations

from typing import Any

from lxml import etree
from PySide6.QtGui import QFontMetricsF, QTextCharFormat

from ...docx.xmlutil import W, first_child
from .records import BuildContext

_RPR = W + "rPr"
_SUFFIX = {"tab": "\t", "space": " "}
#: share of a list label's width set left of the number position, by ``w:lvlJc``
_LABEL_SHIFT = {"right": 1.0, "end": 1.0, "center": 0.5}
#: symbol fonts whose bullets are drawn in the paragraph mark's font (their glyphs are mapped)
_BULLET_FONTS = frozenset(("symbol", "wingdings", "wingdings 2", "wingdings 3", "webdings"))

#: a label's format (None: its level hides labels), suffix, and share of its width set left
LabelLook = tuple[QTextCharFormat | None, str, float]


class ListLabelLooks:
    """The looks of one build's list labels, each worked out once (see the module docstring)."""

    def __init__(self, ctx: BuildContext) -> None:
        self.ctx = ctx
        self._looks: dict[tuple[Any, ...], LabelLook] = {}
        self._widths: dict[tuple[int, str], float] = {}

    def look(
        self,
        numbering: tuple[str, int],
        mark: tuple[Any, ...],
        mark_rpr: etree._Element | None,
        mark_props: Any,
    ) -> LabelLook:
        """A list level's label look after a paragraph mark of key ``mark`` (the builder's mark key:
        its ``w:rPr`` key, paragraph style, table style, in a table, on dark shading)."""
        key = (numbering, mark)
        found = self._looks.get(key)
        if found is None:
            found = self._looks[key] = self._work_out(numbering, mark, mark_rpr, mark_props)
        return found

    def width(self, label_format: QTextCharFormat, label: str) -> float:
        """The width (LU) of ``label`` in ``label_format``.

        Keyed by the format's id: the format factory keeps every format it made, so an id stays
        its format's own."""
        key = (id(label_format), label)
        width = self._widths.get(key)
        if width is None:
            width = self._widths[key] = QFontMetricsF(label_format.font()).horizontalAdvance(label)
        return width

    def _work_out(
        self,
        numbering: tuple[str, int],
        mark: tuple[Any, ...],
        mark_rpr: etree._Element | None,
        mark_props: Any,
    ) -> LabelLook:
        ctx = self.ctx
        level = ctx.resolver.document.numbering.level(*numbering)
        if level is not None and level.hidden:
            return None, "", 0.0
        lvl = level.element if level is not None else None
        lvl_rpr = first_child(lvl, _RPR) if lvl is not None else None
        _rpr_key, style_id, table_style, in_table, dark = mark
        props = ctx.resolver.run(mark_rpr, style_id, table_style, in_table, extra=lvl_rpr)
        family = mark_props.font if props.font.lower() in _BULLET_FONTS else None
        suffix = _SUFFIX.get(level.suffix if level is not None else "tab", "")
        label_format = ctx.factory.char(props, "label", family=family, on_dark=dark)
        share = _LABEL_SHIFT.get(level.jc if level is not None else None, 0.0)
        return label_format, suffix, share
