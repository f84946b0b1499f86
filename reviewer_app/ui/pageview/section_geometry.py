"""Where a section's body sits on its paper: the one place the layout's placement steps read it.

Word grows a section's top margin to fit a header taller than the margin leaves room for (and
its bottom margin for a footer), gives a taller first-page header (``w:titlePg``) room on the
first page only, and may leave a blank page so that an odd- or even-page section starts on a
page of that parity. Starting a section, placing footnotes at a page's foot, laying out headers
and footers and writing endnotes all need these figures; they take them from here (or from the
section document's :class:`~.sections.SectionProps`) rather than from the layout that runs them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QSizeF
from PySide6.QtGui import QTextCursor, QTextOption

from ...docx.package import Package
from ...docx.sections import SectionProps
from .images import PageDocument
from .pages import SectionDoc
from .qformats import TWIPS, FormatFactory, make_font

#: (section index, "header" | "footer", the section's first page) -> the story's height in LU
StoryHeight = Callable[[int, str, bool], float]


def text_left(props: SectionProps) -> float:
    """Where (LU from the paper's left edge) the text column starts."""
    return (props.left + props.gutter) * TWIPS


def text_width(props: SectionProps) -> float:
    """The width (LU) of the text column between the margins."""
    return (props.width - props.left - props.right - props.gutter) * TWIPS


def bleed(props: SectionProps) -> tuple[float, float]:
    """How far (LU, left and right) a body document's text frame reaches past the text column.

    The frame spans the whole paper and every body paragraph and table is shifted back by the
    page margins, so a negative indent or table indent reaches into the margin as in Word (Qt
    clamps a block's or table's own negative margin to zero).
    """
    return text_left(props), props.right * TWIPS


def section_document(package: Package, props: SectionProps, factory: FormatFactory) -> SectionDoc:
    """An empty section document with the paper and the top and bottom margins of ``props``."""
    doc = PageDocument(package)
    doc.setUndoRedoEnabled(False)
    doc.setUseDesignMetrics(True)
    option = QTextOption()
    option.setUseDesignMetrics(True)
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    option.setTabStopDistance(factory.default_tab)
    doc.setDefaultTextOption(option)
    doc.setDefaultFont(make_font("Calibri", 11, factory.scale))
    doc.setPageSize(QSizeF(props.width * TWIPS, props.height * TWIPS))
    frame = doc.rootFrame().frameFormat()
    frame.setTopMargin(props.top * TWIPS)
    frame.setBottomMargin(props.bottom * TWIPS)
    # the text frame spans the paper; paragraphs and tables are shifted back by the margins
    frame.setLeftMargin(0)
    frame.setRightMargin(0)
    frame.setBorder(0)
    frame.setPadding(0)
    doc.rootFrame().setFrameFormat(frame)
    return SectionDoc(doc, props, QTextCursor(doc))


@dataclass(frozen=True, slots=True)
class SectionStart:
    """What starting a section takes, judged from its geometry and the document before it."""

    #: the section's page, its margins grown for its header and footer
    props: SectionProps
    #: it needs a section document of its own (other paper or margins, and not continuous)
    new_doc: bool
    #: it runs on on the page before (a continuous section on the same paper)
    continuous: bool
    #: how much lower (twips) its first page's body starts, for a taller first-page header
    extra: int

    @property
    def parity(self) -> bool:
        """The section starts on an odd (or an even) page, whatever the page before it."""
        return self.props.kind in ("oddPage", "evenPage")

    def blank_page(self, number: int) -> bool:
        """True when an odd- or even-page section would start on page ``number`` (1-based) of
        the wrong parity, so Word leaves a blank page before it."""
        return self.parity and (self.props.kind == "oddPage") == (number % 2 == 0)


class SectionGeometry:
    """The sections' pages with Word's margin rules applied (see the module docstring).

    ``story_height`` gives the height of the header or footer a section shows on its first
    page or its others (see :meth:`.headers.HeaderFooters.story_height`).
    """

    def __init__(self, sections: list[SectionProps], story_height: StoryHeight) -> None:
        self.sections = sections
        self._story_height = story_height

    def start(self, section: int, before: SectionProps | None) -> SectionStart:
        """How section ``section`` starts after a document with page ``before`` (None: the first)."""
        props = self.effective(section)
        # a continuous section shares its page with the one before (Word keeps that page's margins)
        same_paper = before is not None and (props.width, props.height) == (before.width, before.height)
        continuous = props.kind == "continuous" and same_paper
        new_doc = before is None or (props.geometry != before.geometry and not continuous)
        extra = 0 if continuous else self.first_page_extra(section, props)
        return SectionStart(props, new_doc, continuous, extra)

    def effective(self, section: int) -> SectionProps:
        """The section's page with its margins grown to fit a taller header or footer, as Word does.

        The top fits the header of the pages after the first (see :meth:`first_page_extra`);
        the bottom fits the taller of the first page's footer and the others'.
        """
        props = self.sections[section]
        top, bottom = props.top, props.bottom
        if not props.exact_top:
            top = self.header_top(section, False)
        if not props.exact_bottom:
            height = max(
                self._story_height(section, "footer", False), self._story_height(section, "footer", True)
            )
            if height:
                bottom = max(bottom, props.footer + round(height / TWIPS))
        if (top, bottom) == (props.top, props.bottom):
            return props
        return dataclasses.replace(props, top=top, bottom=bottom)

    def header_top(self, section: int, first_page: bool) -> int:
        """Where (twips) the body starts below the header of the section's first page or its others."""
        props = self.sections[section]
        height = self._story_height(section, "header", first_page)
        return max(props.top, props.header + round(height / TWIPS)) if height else props.top

    def first_page_extra(self, section: int, props: SectionProps) -> int:
        """How much lower (twips) than on its other pages the body starts on the section's first page.

        A section document has one top margin for all its pages, fitted to the header of the
        pages after the first; a taller first-page header (``w:titlePg``) is made room for on
        its own page. A shorter one leaves the first page at the others' top.
        """
        if props.exact_top or not self.sections[section].title_page:
            return 0
        return max(0, self.header_top(section, True) - props.top)
