"""A contract as the other side sends it back: their tracked changes beside one of ours.

Built with the edit engine under each author, the way Word writes a redline: "Other Side"
replaces "thirty" with "ninety" (a deletion and an insertion), strikes the "not" of the
liability cap and adds a sentence; our own side (``ours``) inserts a word in the notice clause.
The change ids are the engine's, in the order the edits were made.
"""

from __future__ import annotations

from reviewer_app.docx import DocxReviewer
from tests.docx_factory import make_docx, p

THEM = "Other Side"
#: change ids as the document lists them (read_changes, the Changes panel)
THIRTY_DELETED, NINETY_INSERTED, NOT_DELETED, LAW_INSERTED, OUR_INSERTION = "1", "2", "3", "4", "5"
THEIRS = (THIRTY_DELETED, NINETY_INSERTED, NOT_DELETED, LAW_INSERTED)

_PLAIN = make_docx(
    p("Payment is due within thirty days of invoice.")
    + p("The Supplier shall not be liable for indirect loss.")
    + p("This Agreement is governed by the laws of England.")
    + p("Either party may terminate on notice.")
)


def their_redline(ours: str = "Me") -> bytes:
    """The contract with the other side's four changes and ``ours``' one (ids as listed above)."""
    them = DocxReviewer.from_bytes(_PLAIN, author=THEM)
    pay, cap, law, notice = (b.id for b in them.snapshot().blocks[:4])
    operations = [
        {"id": "t1", "type": "replaceInBlock", "blockId": pay, "find": "thirty", "replace": "ninety"},
        {"id": "t2", "type": "replaceInBlock", "blockId": cap, "find": "not ", "replace": ""},
        {
            "id": "t3",
            "type": "replaceInBlock",
            "blockId": law,
            "find": "England.",
            "replace": "England. The courts of New York have exclusive jurisdiction.",
        },
    ]
    assert them.apply_operations({"version": 1, "operations": operations})["skipped"] == []
    us = DocxReviewer.from_bytes(them.to_bytes(), author=ours)
    ours_op = {
        "id": "o1",
        "type": "replaceInBlock",
        "blockId": notice,
        "find": "on notice",
        "replace": "on written notice",
    }
    assert us.apply_operations({"version": 1, "operations": [ours_op]})["skipped"] == []
    data = us.to_bytes()
    listed = [(c["id"], c["author"]) for c in DocxReviewer.from_bytes(data).changes()]
    assert listed == [(i, THEM) for i in THEIRS] + [(OUR_INSERTION, ours)], listed
    return data
