"""One record per ``w:comment`` and the parts it is read from: what every comment reader shares.

Word keeps a comment in four places: its content in ``comments.xml``, its threading and resolved
state in ``commentsExtended.xml`` (keyed on the ``w14:paraId`` of the comment's *last* paragraph,
not on ``w:id``), and its anchor as ``commentRangeStart``/``commentRangeEnd`` markers plus a
``commentReference`` run in a story. :class:`CommentRecord` is the join of the four; the full
reading (:mod:`.comments`) and the incremental one (:mod:`.comment_index`) both make records
here, so they read a comment's text and keys the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from . import xmlutil
from .document import WordDocument
from .text import FieldState, NoteNumbers, paragraph_text
from .xmlutil import W14, W

RANGE_START = W + "commentRangeStart"
RANGE_END = W + "commentRangeEnd"
REFERENCE = W + "commentReference"
_P = W + "p"


@dataclass(slots=True, eq=False)
class CommentRecord:
    """Everything known about one ``w:comment``; the edit engine writes back through these elements.

    ``para_ids`` are the ``w14:paraId`` values of the comment's paragraphs in order (``""`` where a
    paragraph has none); threading uses the last one. ``parent_id`` is the ``w:id`` of the comment
    this one replies to, ``thread_id`` the ``w:id`` of its thread's root (itself for a top-level
    comment): Word threads are flat, so a reply to a reply is shown under the root. ``order`` is the
    document-order rank of the anchor in the main story (None when it is anchored elsewhere or not
    at all); ``anchor_part`` names the part holding the markers.
    """

    id: str
    author: str
    initials: str | None
    date: str | None
    text: str
    element: etree._Element
    para_ids: tuple[str, ...]
    extended: etree._Element | None = None
    done: bool = False
    parent_id: str | None = None
    thread_id: str = ""
    range_start: etree._Element | None = None
    range_end: etree._Element | None = None
    reference: etree._Element | None = None
    anchor_part: str | None = None
    order: int | None = None

    @property
    def para_id(self) -> str | None:
        """The threading key: ``w14:paraId`` of the last paragraph (None when it has none)."""
        return self.para_ids[-1] if self.para_ids and self.para_ids[-1] else None

    @property
    def is_reply(self) -> bool:
        """True when the comment is shown inside another comment's thread."""
        return self.thread_id != self.id

    @property
    def anchor(self) -> etree._Element | None:
        """The element that places the comment: its range start, else its reference run."""
        return self.range_start if self.range_start is not None else self.reference


@dataclass(slots=True)
class CommentParts:
    """The comment parts of a document, found through the main part's relationships."""

    comments_part: str | None
    comments: etree._Element | None
    extended_part: str | None
    extended: etree._Element | None


def comment_parts(doc: WordDocument) -> CommentParts:
    """Locate ``comments.xml`` and ``commentsExtended.xml`` by relationship type, never by path."""
    comments_part = doc.part_name(xmlutil.REL_COMMENTS)
    extended_part = doc.part_name(xmlutil.REL_COMMENTS_EXTENDED)
    return CommentParts(
        comments_part,
        doc.package.xml(comments_part) if comments_part else None,
        extended_part,
        doc.package.xml(extended_part) if extended_part else None,
    )


def comment_paragraphs(container: etree._Element) -> list[etree._Element]:
    """The ``w:p`` of a comment (or any container) in reading order, text-box paragraphs excluded.

    Paragraphs are not descended into, so a paragraph inside a drawing inside a paragraph is
    never read twice; tables and content controls inside a comment are walked through.
    """
    found: list[etree._Element] = []
    for child in container:
        if not isinstance(child.tag, str):
            continue
        if child.tag == _P:
            found.append(child)
        else:
            found.extend(comment_paragraphs(child))
    return found


def comment_text(comment: etree._Element) -> tuple[str, tuple[str, ...]]:
    """Clean text of a comment (paragraphs joined by ``"\\n"``) and its paragraphs' paraIds."""
    fields, notes = FieldState(), NoteNumbers()
    texts: list[str] = []
    para_ids: list[str] = []
    for p in comment_paragraphs(comment):
        texts.append(paragraph_text(p, fields, notes).text)
        para_ids.append((p.get(W14 + "paraId") or "").upper())
    return "\n".join(texts), tuple(para_ids)


def new_record(
    element: etree._Element, comment_id: str, text: str, para_ids: tuple[str, ...]
) -> CommentRecord:
    """A top-level record of ``element``; its thread and markers are filled in by the reader."""
    return CommentRecord(
        id=comment_id,
        author=element.get(W + "author") or "",
        initials=element.get(W + "initials"),
        date=element.get(W + "date"),
        text=text,
        element=element,
        para_ids=para_ids,
        thread_id=comment_id,
    )
