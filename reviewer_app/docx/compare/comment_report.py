"""Comments only the revised version has: named in the redline's report, with their place.

The redline is the base package with tracked changes; a comment the other side added (or a reply
it wrote) is not a tracked change and is not carried over yet. A lawyer who reads the redline
must still learn that the other side commented, so each such comment is listed in ``skipped``
with its author, its words and the paragraph it is anchored on. A comment is known by its
author and its words (ids and dates differ between saves).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..comments import comment_records
from ..document import WordDocument
from ..xmlutil import W

_EXCERPT = 40


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "…"


def _anchor_text(record: Any) -> str:
    anchor = record.anchor
    paragraph = next(anchor.iterancestors(W + "p"), None) if anchor is not None else None
    return "".join(t.text or "" for t in paragraph.iter(W + "t")) if paragraph is not None else ""


def new_comments_report(base: WordDocument, revised: WordDocument) -> list[dict[str, Any]]:
    """A report entry for each comment or reply of ``revised`` that ``base`` does not have."""
    known = Counter((c.author, " ".join(c.text.split())) for c in comment_records(base))
    out: list[dict[str, Any]] = []
    for record in comment_records(revised):
        key = (record.author, " ".join(record.text.split()))
        if known[key]:
            known[key] -= 1
            continue
        what = "a reply" if record.is_reply else "a comment"
        who = record.author or "an unnamed author"
        anchored = _anchor_text(record)
        where = f' on "{_excerpt(anchored)}"' if anchored.strip() else ""
        out.append(
            {
                "reason": f'{what} by {who} ("{_excerpt(record.text)}"){where} is only in the revised '
                "version and is not carried over",
                "place": {"story": {"type": "comment"}, "revisedCommentId": record.id},
            }
        )
    return out
