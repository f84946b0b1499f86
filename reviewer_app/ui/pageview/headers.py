"""Headers and footers: small documents painted in a page's top and bottom margins.

Which story a page shows follows Word: a section names up to three headers and three footers
(``first``, ``even``, ``default``); one it does not name is inherited from the section before;
``w:titlePg`` makes the section's first page use ``first``, and ``evenAndOddHeaders`` in the
settings makes even pages use ``even``. A story with fields is built for one page at a time
because its PAGE and NUMPAGES fields show that page's numbers; the few distinct (story, numbers)
pairs of the visible pages are cached. A story without fields is the same on every page and is
built once. The layout asks for a section's header and footer heights before
its pages exist (see :mod:`.section_geometry`); the painter asks for a finished page's stories.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from lxml import etree
from PySide6.QtGui import QTextCursor, QTextDocument, QTextOption

from ...docx.stories import story_blocks
from ...docx.xmlutil import W
from .builder import BuildContext, Flow, StoryBuilder
from .images import PageDocument
from .qformats import TWIPS
from .section_geometry import text_width

if TYPE_CHECKING:  # pragma: no cover
    from ...docx.document import WordDocument
    from .pages import Page, PageSequence

_CACHE_SIZE = 48
_INSTR, _FLD_SIMPLE = W + "instrText", W + "fldSimple"


class HeaderFooters:
    """Builds and caches the header and footer documents of a layout's pages.

    ``context`` is the body's build context (formats, markup); ``pages`` the layout's pages,
    which say which section, number and page count each page shows.
    """

    def __init__(self, document: WordDocument, context: BuildContext, pages: PageSequence) -> None:
        self.word_document = document
        self.context = context
        self.pages = pages
        self._docs: OrderedDict[tuple[str, str, str, float], QTextDocument | None] = OrderedDict()
        self._parts: dict[str, tuple[str, etree._Element, dict[etree._Element, object]] | None] = {}
        self._numbered: dict[str, bool] = {}
        self._inherited: list[dict[str, dict[str, str]]] | None = None

    def _references(self) -> list[dict[str, dict[str, str]]]:
        """Per section: {"header"|"footer": {type: rId}} with Word's inheritance applied."""
        if self._inherited is None:
            inherited: list[dict[str, dict[str, str]]] = []
            current: dict[str, dict[str, str]] = {"header": {}, "footer": {}}
            for props in self.pages.sections:
                current = {
                    "header": {**current["header"], **props.headers},
                    "footer": {**current["footer"], **props.footers},
                }
                inherited.append(current)
            self._inherited = inherited
        return self._inherited

    def story_height(self, section: int, kind: str, first_page: bool = False) -> float:
        """Height (LU) of the tallest header (or footer) the section shows on its first page or its others.

        Word starts each page's body below that page's own header, so a tall first-page header
        (``w:titlePg``) pushes down the first page only. Laid out with one-digit page numbers:
        what matters is how many lines it takes.
        """
        props = self.pages.sections[section]
        refs = self._references()[section][kind]
        if first_page:
            wanted = [refs.get("first" if props.title_page else "default")]
        else:
            wanted = [refs.get("default")]
            if self.context.resolver.settings["even_odd"]:
                wanted.append(refs.get("even"))
        width = text_width(props)
        tallest = 0.0
        for rel_id in wanted:
            if rel_id is None:
                continue
            built = self._build(rel_id, width, {"PAGE": "1", "NUMPAGES": "1", "SECTIONPAGES": "1"})
            if built is not None:
                tallest = max(tallest, laid_out_height(built))
        return tallest

    def story(self, page: Page, kind: str) -> str | None:
        """The relationship id of the header (``kind="header"``) or footer ``page`` shows."""
        section, first = self.pages.section_of_page(page)
        props = self.pages.sections[section]
        refs = self._references()[section][kind]
        if first and props.title_page:
            return refs.get("first")
        numbers = self.pages.page_numbers()
        number = numbers[page.number] if page.number < len(numbers) else ""
        if self.context.resolver.settings["even_odd"] and number.isdigit() and int(number) % 2 == 0:
            return refs.get("even")
        return refs.get("default")

    def document(self, page: Page, kind: str) -> QTextDocument | None:
        """The laid-out header or footer of ``page`` (None when the page has none)."""
        rel_id = self.story(page, kind)
        if rel_id is None:
            return None
        section, _ = self.pages.section_of_page(page)
        width = text_width(self.pages.sections[section])
        numbers = self.pages.page_numbers()
        label = numbers[page.number] if page.number < len(numbers) else str(page.number + 1)
        total = str(self.pages.page_count())
        key = (rel_id, label, total, width) if self._has_fields(rel_id) else (rel_id, "", "", width)
        if key in self._docs:
            self._docs.move_to_end(key)
            return self._docs[key]
        built = self._build(rel_id, width, {"PAGE": label, "NUMPAGES": total, "SECTIONPAGES": total})
        self._docs[key] = built  # None too: an empty story is not built again for the next page
        if len(self._docs) > _CACHE_SIZE:
            self._docs.popitem(last=False)
        return built

    def _has_fields(self, rel_id: str) -> bool:
        """True when the story holds a field (``w:instrText``, ``w:fldSimple``), which may show
        the page's number or the page count: only then does the story differ from page to page."""
        found = self._numbered.get(rel_id)
        if found is None:
            part = self._part(rel_id)
            root = part[1] if part is not None else None
            found = root is not None and next(root.iter(_INSTR, _FLD_SIMPLE), None) is not None
            self._numbered[rel_id] = found
        return found

    def _part(self, rel_id: str) -> tuple[str, etree._Element, dict[etree._Element, object]] | None:
        if rel_id not in self._parts:
            document = self.word_document
            package = document.package
            found = None
            for rel in package.relationships(document.main_part):
                if rel.rel_id == rel_id and not rel.external and package.has_part(rel.target):
                    root = package.xml(rel.target)
                    blocks = {b.element: b for b in story_blocks(document, root) if b.element is not None}
                    found = (rel.target, root, blocks)
                    break
            self._parts[rel_id] = found
        return self._parts[rel_id]

    def _build(self, rel_id: str, width: float, fields: dict[str, str]) -> QTextDocument | None:
        part = self._part(rel_id)
        if part is None:
            return None
        part_name, root, blocks = part
        doc = story_document(self.context, part_name, root, blocks, width, fields)
        if not doc.toPlainText().strip() and not _has_objects(root):
            return None
        return doc


def story_document(
    body: BuildContext,
    part_name: str,
    container: etree._Element,
    blocks: dict[etree._Element, object],
    width: float,
    fields: dict[str, str] | None = None,
    note_label: str | None = None,
) -> PageDocument:
    """A story outside the body (header, footer, footnote) laid out ``width`` wide at no margin.

    ``body`` is the body's build context, whose formats and markup the story shares; ``fields``
    gives PAGE/NUMPAGES their values on one page; ``note_label`` is the number a footnote's own
    mark shows.
    """
    doc = PageDocument(body.package)
    doc.setUndoRedoEnabled(False)
    doc.setUseDesignMetrics(True)
    option = QTextOption()
    option.setUseDesignMetrics(True)
    option.setTabStopDistance(body.factory.default_tab)
    doc.setDefaultTextOption(option)
    doc.setDocumentMargin(0)
    doc.setTextWidth(width)
    context = BuildContext(
        body.resolver,
        body.factory,
        body.package,
        part_name,
        body.mode,
        blocks,  # type: ignore[arg-type]
        width,
        [],
        fields,
        markup=body.markup,
        hidden_comments=body.hidden_comments,
    )
    cursor = QTextCursor(doc)
    cursor.beginEditBlock()
    builder = StoryBuilder(context)
    builder.state.note_label = note_label
    builder.container(container, cursor, Flow(), None, False)
    cursor.endEditBlock()
    doc.records = builder.records  # the painter draws their paragraph borders
    doc.floats = builder.floats  # and places their anchored drawings
    return doc


def laid_out_height(doc: QTextDocument) -> float:
    """Height (LU) a story takes on the page, its last paragraph's space after included.

    Qt's document size stops at the last line, but Word counts that space too: a header whose
    last paragraph has 12 pt after starts the body 12 pt lower (as LibreOffice does), and a
    footnote separator's spacing widens the band above the notes.
    """
    return doc.size().height() + doc.lastBlock().blockFormat().bottomMargin()


def footer_top(page_height: float, distance: int, footer: QTextDocument) -> float:
    """Where on the page (LU) ``footer`` starts: Word and LibreOffice end a footer, its last
    paragraph's space after included, ``distance`` twips (``w:pgMar w:footer``) above the paper's
    edge, so a footer whose last paragraph has 12 pt after sits 12 pt higher (it sat on the edge)."""
    return page_height - distance * TWIPS - laid_out_height(footer)


def _has_objects(root: etree._Element) -> bool:
    return next(root.iter(W + "drawing", W + "pict"), None) is not None
