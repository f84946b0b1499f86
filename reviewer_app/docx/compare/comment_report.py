"""Comments only the revised version has: carried into the redline, or named in its report.

A comment the other side added is not a tracked change, but a lawyer reading the redline must
see it: it is written into the base as a comment by its author, with its date and words, on the
same words of the paired paragraph (the whole paragraph when those words cannot be found the
same there, the text pass having made the paragraph read as the revised one); a reply follows
its comment as a reply. A comment anchored elsewhere than the body, on a paragraph the redline
did not pair, or replying to a comment the redline does not have, is listed in ``skipped`` with
its author, its words and the paragraph it is anchored on. A comment is known by its author and
its words (ids and dates differ between saves).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from lxml import etree

from ..comment_writer import add_comment, reply
from ..comments import CommentRecord, comment_records
from ..document import WordDocument
from ..edit.markup import isolate, pieces_of, runs_of
from ..vocabulary import REVISION_WRAPPERS
from ..xmlutil import W
from .align import Event
from .note_changes import offset_of

_P = W + "p"

_EXCERPT = 40


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "…"


def _anchor_text(record: Any) -> str:
    anchor = record.anchor
    paragraph = next(anchor.iterancestors(W + "p"), None) if anchor is not None else None
    return "".join(t.text or "" for t in paragraph.iter(W + "t")) if paragraph is not None else ""


def _new_records(base: WordDocument, revised: WordDocument) -> list[CommentRecord]:
    """Comments and replies of ``revised`` that ``base`` does not have, in ``revised`` order."""
    known = Counter((c.author, " ".join(c.text.split())) for c in comment_records(base))
    out = []
    for record in comment_records(revised):
        key = (record.author, " ".join(record.text.split()))
        if known[key]:
            known[key] -= 1
        else:
            out.append(record)
    return out


def _left_out(record: CommentRecord) -> dict[str, Any]:
    what = "a reply" if record.is_reply else "a comment"
    who = record.author or "an unnamed author"
    anchored = _anchor_text(record)
    where = f' on "{_excerpt(anchored)}"' if anchored.strip() else ""
    return {
        "reason": f'{what} by {who} ("{_excerpt(record.text)}"){where} is only in the revised '
        "version and is not carried over",
        "place": {"story": {"type": "comment"}, "revisedCommentId": record.id},
    }


def _top(el: etree._Element, p: etree._Element) -> etree._Element:
    """``el`` or the revision wrapper holding it directly in ``p`` (markers go beside that)."""
    while el.getparent() is not None and el.getparent() is not p and el.getparent().tag in REVISION_WRAPPERS:
        el = el.getparent()
    return el


def _span(revised_p: etree._Element, record: CommentRecord) -> tuple[int, int] | None:
    """The commented words of ``revised_p`` as offsets of its accepted text (None: the whole)."""
    start, end = record.range_start, record.range_end
    if start is None or end is None or next(end.iterancestors(_P), None) is not revised_p:
        return None
    return offset_of(revised_p, start), offset_of(revised_p, end)


def carry_new_comments(
    base: WordDocument, revised: WordDocument, events: list[Event]
) -> list[dict[str, Any]]:
    """Write the comments and replies only ``revised`` has into ``base`` (see the module text);
    return a report entry for each one left out."""
    partners = {e.revised.block.element: e.base.block.element for e in events if e.kind == "pair"}
    carried: dict[str, str] = {}  # revised comment id -> its id in the redline
    out: list[dict[str, Any]] = []
    for record in _new_records(base, revised):
        if record.is_reply:
            parent = carried.get(record.thread_id)
            new_id = reply(base, parent, record.text, record.author, record.date) if parent else None
        else:
            new_id = _carry(base, revised, record, partners)
        if new_id is None:
            out.append(_left_out(record))
        else:
            carried[record.id] = new_id
    return out


def _carry(
    base: WordDocument,
    revised: WordDocument,
    record: CommentRecord,
    partners: dict[etree._Element | None, etree._Element | None],
) -> str | None:
    anchor = record.anchor
    revised_p = next(anchor.iterancestors(_P), None) if anchor is not None else None
    p = partners.get(revised_p)
    if record.anchor_part != revised.main_part or revised_p is None or p is None:
        return None
    span = _span(revised_p, record)
    have = pieces_of(p)
    first = last = None
    same = have.text == pieces_of(revised_p).text and all(x.kind != "note" for x in have.pieces or ())
    if span is not None and same and span[0] < span[1]:
        runs = runs_of(isolate(p, span[0], span[1], (0, 0)))
        if runs:
            first, last = _top(runs[0], p), _top(runs[-1], p)
    return add_comment(base, p, record.text, record.author, record.date, first=first, last=last)
