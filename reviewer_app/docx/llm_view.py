"""The token-efficient read of a document for the model and for scripts (``reviewer read FILE``).

Where ``read_document`` gives the *accepted* text only, this view also shows the pending changes and
the comments, so a reviewer (person or model) sees what is being proposed, by whom, and what was said
about it. Two renderings of one walk:

Markdown (:func:`to_markdown`), one line group per block of the main story, in reading order::

    <!-- b:0 id:1A2B3C4D --># 1. Definitions
    <!-- b:1 id:seq-0002 -->1.1 The Supplier shall deliver {-ten-}{+twelve+} units. [comment #3 (Ann): Why?]
    | <!-- b:2 id:seq-0003 -->Party A | <!-- b:3 id:seq-0004 -->Party B |
    <!-- id:blank-0001 -->{-This clause was deleted.-}

* ``b:N`` is the **blockIndex**: the 0-based position among *content* blocks (normalized clean text
  non-empty), the same blocks and order ``read_document`` returns, so ``b:N`` and ``id:`` always name
  the same block the edit tools accept. The ``id:`` is the blockId to copy into tool calls.
* Blank blocks (no clean text) are left out, unless they still show something: a paragraph whose
  whole text is a pending deletion, or one carrying a comment anchor. Those are shown with an
  ``<!-- id:... -->`` marker and **no** ``b:`` index, because they are not content blocks and cannot
  be targeted by index.
* Headings: ``#`` repeated by level (capped at 6), then the heading's number when it is numbered.
  List items: the display label (``1.1``, ``a)``, ``•``) before the text.
* Pending changes: ``{+inserted+}`` and ``{-deleted-}`` (moves too: the destination as inserted, the
  source as deleted). Hidden text, field instructions and drawings are left out as in clean text;
  note references read ``[^N]``/``[^eN]``.
* Comments: `` [comment #ID (Author): text — reply #ID (Author): text]`` right after the anchored text
  (at the range end, else at the reference); ``(Author, resolved)`` for resolved threads; comment
  paragraphs are joined with `` / ``. Each thread shows once, at its first marker in the main story
  (a reply's markers sit beside its root's; when only a reply is anchored, the whole thread shows
  there); markers of ids with no ``w:comment`` are dropped. Content and threading come from
  :mod:`.comments`, so this view and ``read_comments`` agree on which comment is which.
* Tables: one table row per line, ``| cell | cell |``, no header-separator row (tokens). Every cell
  paragraph is its own block (as in ``read_document``), so each carries its own marker inside the
  cell; several paragraphs in a cell are joined by ``<br>``; ``|`` in cell text reads ``\\|`` and line
  breaks ``<br>``. Nested tables are flattened into the outer cell. Outside tables a line break in a
  block stays a real newline: any line that does not start with ``<!--`` or ``|`` continues the block above.

JSON (:func:`to_json`): ``{"path", "body", "comments"}``; ``body`` lists the same blocks as the
Markdown, each ``{type, blockIndex (null for the index-less blocks above), blockId, level?, label?,
table?, paragraphMark?, segments}``; ``type`` is the block kind (``heading``, ``listItem``,
``paragraph``, ``diagnostic``) and table cell paragraphs carry the contract's ``table`` location.
Segments: ``text{value}``, ``insert{text, author, date}``, ``delete{text, author, date}`` (``author``
and ``date`` are null when the markup omits them; ``"move": true`` marks moves) and ``comment{id}``.
``comments`` holds root comments (anchored ones in reading order, then unanchored ones) as ``{id,
author, date, text, resolved, parentId: null, blockId, blockIndex, replies: [{id, author, date, text,
resolved, parentId}]}``; ``blockId``/``blockIndex`` name the block whose segments show the thread (the
end of its range: for a range over several paragraphs ``read_comments`` names the first one), and a
reply's ``parentId`` is the comment it answers (a reply to a reply still sits in the root's list).
Joining a block's text and insert values always gives its clean text (``block.text``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lxml import etree

from .blocks import Block
from .document import WordDocument
from .text import FieldState, NoteNumbers, TextWalk
from .vocabulary import MOVES
from .xmlutil import W, is_on

if TYPE_CHECKING:
    from .comments import CommentRecord

_COMMENT_MARKERS = frozenset((W + "commentRangeEnd", W + "commentReference"))
_DELETED_PARTS = tuple(
    W + t for t in ("fldChar", "delText", "t", "tab", "commentRangeEnd", "commentReference")
)


# ----------------------------------------------------------------- walking one paragraph
class _ViewWalk(TextWalk):
    """The clean-text walker, extended to also keep deleted text and comment anchors in order.

    It inherits every rule of clean text (hidden runs, field instructions, notes, symbols), so the
    text and insert segments it records are exactly the block's clean text, by construction.
    ``segments`` holds ``[type, text, revision element, comment id]`` lists.
    """

    __slots__ = ("segments",)

    def __init__(self, fields: FieldState, notes: NoteNumbers) -> None:
        super().__init__(fields, notes, collect=False)
        self.segments: list[list[Any]] = []

    def _add(self, kind: str, text: str, revision: etree._Element | None) -> None:
        last = self.segments[-1] if self.segments else None
        if last is not None and last[0] == kind and last[2] is revision:
            last[1] += text
        else:
            self.segments.append([kind, text, revision, None])

    def emit(self, text: str, element: etree._Element, run: etree._Element | None, kind: str) -> None:
        super().emit(text, element, run, kind)
        self._add("text" if self.revision is None else "insert", text, self.revision)

    def other(self, child: etree._Element) -> None:
        if child.tag in _COMMENT_MARKERS:
            self._comment(child)

    def run(self, run: etree._Element) -> None:
        super().run(run)
        ref = run.find(W + "commentReference")
        if ref is not None:
            self._comment(ref)

    def removed(self, parent: etree._Element) -> None:
        """Deleted text becomes delete segments; field characters keep their effect.

        Deleted runs should hold ``w:delText``, but some writers (pandoc's moves) keep ``w:t``:
        both read as deleted text.

        Every ``w:fldChar`` below ``parent`` is visited, as the base walker does, so field nesting
        stays in step with the snapshot's walk.
        """
        for el in parent.iter(*_DELETED_PARTS):
            tag = el.tag
            if tag == W + "fldChar":
                self.field_char(el)
            elif tag in _COMMENT_MARKERS:
                self._comment(el)
            elif not self.fields.in_instruction and _visible_deleted(el, parent):
                text = "\t" if tag == W + "tab" else (el.text or "")
                if text:
                    self._add("delete", text, parent)

    def _comment(self, marker: etree._Element) -> None:
        comment_id = marker.get(W + "id")
        if comment_id is not None:
            self.segments.append(["comment", "", None, comment_id])


def _visible_deleted(el: etree._Element, container: etree._Element) -> bool:
    """A deleted text/tab counts when it sits in a plain, unhidden run of the deletion itself."""
    run = el.getparent()
    if run is None or run.tag != W + "r":
        return False  # e.g. a tab stop definition, never text
    rpr = run.find(W + "rPr")
    if rpr is not None and (is_on(rpr.find(W + "vanish")) or is_on(rpr.find(W + "specVanish"))):
        return False
    for ancestor in run.iterancestors():
        if ancestor is container:
            return True
        if ancestor.tag == W + "txbxContent":
            return False  # text boxes inside a deleted drawing are not paragraph text
    return True


def original_text(block: Block) -> str:
    """The text of a paragraph block as it was before its pending changes: deleted text kept,
    inserted text left out. The same walk as the view's segments, so it reads deletions by the
    same rules; the contract checks compare it with the block's text to see what a deletion took.
    """
    if block.element is None:
        return block.text
    walk = _ViewWalk(FieldState(), NoteNumbers(*block.notes_before))
    walk.content(block.element)
    return "".join(seg[1] for seg in walk.segments if seg[0] in ("text", "delete"))


# ----------------------------------------------------------------- comment threads
@dataclass(slots=True)
class _Thread:
    """A top-level comment and its replies, in ``comments.xml`` order (Word threads are flat)."""

    root: CommentRecord
    replies: list[CommentRecord] = field(default_factory=list)


def _threads(document: WordDocument) -> tuple[dict[str, _Thread], dict[str, str]]:
    """Threads by root id, and the root id of every comment id (reading and threading: :mod:`.comments`)."""
    from .comments import comment_records  # here: the checks read original text without comments

    records = comment_records(document)
    threads = {r.id: _Thread(r) for r in records if not r.is_reply}
    root_of: dict[str, str] = {}
    for record in records:
        root_of[record.id] = record.thread_id
        if record.is_reply:
            threads[record.thread_id].replies.append(record)
    return threads, root_of


# ----------------------------------------------------------------- the shared walk
@dataclass(slots=True)
class _Item:
    """One block of the view: its blockIndex (None when not a content block) and its segments.

    ``shown`` is False for blank table-cell blocks, kept only so empty cells keep their column.
    """

    block: Block
    index: int | None
    segments: list[list[Any]]
    shown: bool = True


@dataclass(slots=True)
class _View:
    path: str | None
    items: list[_Item]
    threads: dict[str, _Thread]
    anchored: dict[str, _Item]  # root comment id -> the block whose segments show its thread


def _document_of(source: Any) -> WordDocument:
    """Accept a :class:`DocxReviewer` (or anything with ``.document``) or a :class:`WordDocument`."""
    return source if isinstance(source, WordDocument) else source.document


def _build(source: Any) -> _View:
    document = _document_of(source)
    threads, root_of = _threads(document)
    view = _View(document.package.path, [], threads, {})
    fields = FieldState()
    index = 0
    for block in document.snapshot().blocks:
        if block.element is None:  # diagnostic: read-only text, nothing to walk
            segments: list[list[Any]] = [["text", block.text, None, None]]
        else:
            # one FieldState across the story, as the snapshot's walk: a field may span paragraphs
            walk = _ViewWalk(fields, NoteNumbers(*block.notes_before))
            walk.content(block.element)
            segments = _thread_segments(walk.segments, root_of, view.anchored)
        item = _Item(block, None, segments)
        if block.is_content:
            item.index = index
            index += 1
        elif not any(s[0] in ("delete", "comment") for s in segments):
            if block.table is None:
                continue
            item.shown = False
        view.items.append(item)
        for seg in segments:
            if seg[0] == "comment":
                view.anchored.setdefault(seg[3], item)
    return view


def _thread_segments(
    segments: list[list[Any]], root_of: dict[str, str], shown: dict[str, _Item]
) -> list[list[Any]]:
    """One comment segment per thread, at its first marker, naming the thread's root comment.

    Replies are anchored on their parent's range, so their markers sit beside the root's; naming
    the root shows the thread once, and still shows it when only a reply is anchored in the body.
    Markers of ids with no ``w:comment`` are dropped (nothing to show).
    """
    out: list[list[Any]] = []
    for seg in segments:
        if seg[0] == "comment":
            root_id = root_of.get(seg[3])
            if root_id is None:
                continue
            if root_id in shown or any(s[0] == "comment" and s[3] == root_id for s in out):
                continue
            seg = ["comment", "", None, root_id]
        out.append(seg)
    return out


# ----------------------------------------------------------------- Markdown
def _escape_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def _comment_markdown(thread: _Thread) -> str:
    def one(c: CommentRecord, word: str) -> str:
        who = c.author or "unknown"
        if c.done:
            who += ", resolved"
        text = " / ".join(line for line in c.text.split("\n") if line.strip())
        return f"{word} #{c.id} ({who}): {text}"

    parts = [one(thread.root, "comment")] + [one(r, "reply") for r in thread.replies]
    return " [" + " — ".join(parts) + "]"


def _item_markdown(item: _Item, threads: dict[str, _Thread], in_cell: bool) -> str:
    block = item.block
    marker = f"<!-- b:{item.index} id:{block.id} -->" if item.index is not None else f"<!-- id:{block.id} -->"
    out: list[str] = []
    for kind, text, _rev, comment_id in item.segments:
        if kind == "text":
            piece = text
        elif kind == "insert":
            piece = "{+" + text + "+}"
        elif kind == "delete":
            piece = "{-" + text + "-}"
        else:
            piece = _comment_markdown(threads[comment_id])
        out.append(_escape_cell(piece) if in_cell else piece)
    body = "".join(out)
    label = block.shown_label
    if label:
        body = f"{_escape_cell(label) if in_cell else label} {body}"
    if block.kind == "heading" and block.heading_level:
        body = "#" * min(block.heading_level, 6) + " " + body
    return marker + body


def _cell_key(block: Block) -> tuple[etree._Element | None, etree._Element | None]:
    """The outermost row and cell holding the block (nested tables fold into the outer cell)."""
    row = cell = None
    if block.element is not None:
        for ancestor in block.element.iterancestors(W + "tr", W + "tc"):
            if ancestor.tag == W + "tr":
                row = ancestor
            else:
                cell = ancestor
    return row, cell


def _table_markdown(items: list[_Item], threads: dict[str, _Thread]) -> list[str]:
    """Rows of one outer table; blank cells stay as empty cells, rows with nothing shown are dropped."""
    rows: list[list[list[str]]] = []
    last_row: etree._Element | None = None
    last_cell: etree._Element | None = None
    for item in items:
        row, cell = _cell_key(item.block)
        if not rows or row is not last_row:
            rows.append([])
            last_row, last_cell = row, None
        if cell is not last_cell:
            rows[-1].append([])
            last_cell = cell
        if item.shown:
            rows[-1][-1].append(_item_markdown(item, threads, in_cell=True))
    return ["| " + " | ".join("<br>".join(cell) for cell in row) + " |" for row in rows if any(row)]


def to_markdown(source: Any) -> str:
    """Render the main story as marked-up Markdown (format in the module docstring).

    ``source`` is a :class:`~reviewer_app.docx.DocxReviewer` or a :class:`WordDocument`.
    """
    view = _build(source)
    lines: list[str] = []
    table: list[_Item] = []
    table_key: int | None = None
    for item in view.items:
        location = item.block.table
        key = location["outerTableIndex"] if location is not None else None
        if table and key != table_key:
            lines.extend(_table_markdown(table, view.threads))
            table = []
        if key is not None:
            table.append(item)
            table_key = key
        else:
            lines.append(_item_markdown(item, view.threads, in_cell=False))
    if table:
        lines.extend(_table_markdown(table, view.threads))
    return "\n".join(lines) + ("\n" if lines else "")


# ----------------------------------------------------------------- JSON
def _segment_json(seg: list[Any]) -> dict[str, Any]:
    kind, text, revision, comment_id = seg
    if kind == "text":
        return {"type": "text", "value": text}
    if kind == "comment":
        return {"type": "comment", "id": comment_id}
    out: dict[str, Any] = {
        "type": kind,
        "text": text,
        "author": revision.get(W + "author"),
        "date": revision.get(W + "date"),
    }
    if revision.tag in MOVES:
        out["move"] = True
    return out


def _block_json(item: _Item) -> dict[str, Any]:
    block = item.block
    out: dict[str, Any] = {"type": block.kind, "blockIndex": item.index, "blockId": block.id}
    if block.kind == "heading" and block.heading_level:
        out["level"] = block.heading_level
    label = block.shown_label
    if label:
        out["label"] = label
    if block.table is not None:
        out["table"] = dict(block.table)
    if block.mark_deleted:
        out["paragraphMark"] = "deleted"
    elif block.mark_inserted:
        out["paragraphMark"] = "inserted"
    out["segments"] = [_segment_json(s) for s in item.segments]
    return out


def _comment_json(thread: _Thread, item: _Item | None) -> dict[str, Any]:
    """A root comment with its replies; ``blockId``/``blockIndex`` name the block that shows it."""
    root = thread.root
    return {
        "id": root.id,
        "author": root.author or None,
        "date": root.date,
        "text": root.text,
        "resolved": root.done,
        "parentId": None,
        "blockId": item.block.id if item is not None else None,
        "blockIndex": item.index if item is not None else None,
        "replies": [
            {
                "id": r.id,
                "author": r.author or None,
                "date": r.date,
                "text": r.text,
                "resolved": r.done,
                "parentId": r.parent_id,
            }
            for r in thread.replies
        ],
    }


def to_json(source: Any) -> dict[str, Any]:
    """The full structure as a JSON-ready dict: ``{"path", "body", "comments"}`` (see module docstring).

    ``source`` is a :class:`~reviewer_app.docx.DocxReviewer` or a :class:`WordDocument`.
    """
    view = _build(source)
    order = list(view.anchored) + [tid for tid in view.threads if tid not in view.anchored]
    comments = [_comment_json(view.threads[tid], view.anchored.get(tid)) for tid in order]
    return {
        "path": view.path,
        "body": [_block_json(item) for item in view.items if item.shown],
        "comments": comments,
    }
