"""``typeText`` in a footnote: a person's keystrokes land in footnotes.xml as tracked changes.

A note's paragraph is named by its story and its own block id (``footnote-1/seq-0001``), never
by an id the body uses. The keystrokes go through the same engine and undo as the body's; an
operation that cannot yet write in a note (the model's replaceInBlock) is refused, not written
into a part that would then be saved unchanged.
"""

from __future__ import annotations

from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.edit.batch import parse_batch, parse_host_batch
from reviewer_app.docx.stories import find_story_block, story_block_id
from reviewer_app.docx.xmlutil import W
from tests.docx_factory import make_docx, p

ME = "Alex Lawyer"
NOTE = story_block_id({"type": "footnote", "noteId": 1}, "seq-0001")
_REFERENCE = '<w:r><w:footnoteReference w:id="1"/></w:r>'
BODY = p(runs=f'<w:r><w:t>Fees</w:t></w:r>{_REFERENCE}<w:r><w:t xml:space="preserve"> apply.</w:t></w:r>')
NOTES = (
    '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
    '<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r>'
    '<w:r><w:t xml:space="preserve"> Fees exclude taxes.</w:t></w:r></w:p></w:footnote>'
)


def keystroke(reviewer: DocxReviewer, offset: int, text: str, length: int = 0) -> dict:
    op = {"id": f"k{offset}-{len(text)}-{length}", "type": "typeText", "blockId": NOTE, "offset": offset}
    batch = {"version": 1, "mode": "tracked-changes", "operations": [{**op, "text": text, "length": length}]}
    return reviewer.apply_operations(parse_host_batch(batch))


def note_text(reviewer: DocxReviewer) -> str:
    found = find_story_block(reviewer.document, NOTE)
    assert found is not None
    return found[2].text


def test_keys_in_a_footnote_are_tracked_in_footnotes_xml_and_the_body_is_left_alone() -> None:
    reviewer = DocxReviewer.from_bytes(make_docx(BODY, footnotes=NOTES), author=ME)
    body_before = etree.tostring(reviewer.document.root)
    first_block, version = reviewer.snapshot().blocks[0], reviewer.document.version
    at = len(" Fees exclude taxes")
    for i, ch in enumerate(" and duties"):
        assert keystroke(reviewer, at + i, ch)["status"] == "committed"
    for i in range(len(" Fees")):
        keystroke(reviewer, len(" Fees") - 1 - i, "", 1)  # Backspace over "Fees" and its space
    assert note_text(reviewer) == " exclude taxes and duties."
    part = reviewer.document.part_name("footnotes")
    note = reviewer.package.xml(part)
    changes = [
        (el.tag, el.get(W + "author"), "".join(el.itertext())) for el in note.iter(W + "ins", W + "del")
    ]
    assert sorted(changes) == [(W + "del", ME, " Fees"), (W + "ins", ME, " and duties")]
    assert reviewer.package.is_dirty(part)
    assert etree.tostring(reviewer.document.root) == body_before  # the body holds no change
    assert reviewer.snapshot().blocks[0] is first_block  # the body was not read again
    assert first_block.text == "Fees[^1] apply." and reviewer.document.version > version


def test_the_last_key_in_a_footnote_is_undone_exactly() -> None:
    reviewer = DocxReviewer.from_bytes(make_docx(BODY, footnotes=NOTES), author=ME)
    result = keystroke(reviewer, len(" Fees"), " and charges")
    assert note_text(reviewer) == " Fees and charges exclude taxes."
    assert reviewer.undo_operations(result["undoHandle"])["status"] == "undone"
    assert note_text(reviewer) == " Fees exclude taxes."
    assert next(reviewer.package.xml(reviewer.document.part_name("footnotes")).iter(W + "ins"), None) is None


def test_an_operation_that_cannot_write_in_a_note_is_refused_and_writes_nothing() -> None:
    reviewer = DocxReviewer.from_bytes(make_docx(BODY, footnotes=NOTES), author=ME)
    batch = {
        "version": 1,
        "mode": "tracked-changes",
        "operations": [
            {"id": "a", "type": "replaceInBlock", "blockId": NOTE, "find": "taxes", "replace": "VAT"}
        ],
    }
    result = reviewer.apply_operations(parse_batch(batch))
    assert not result["applied"] and result["skipped"]
    assert note_text(reviewer) == " Fees exclude taxes."
    assert not reviewer.package.is_dirty(reviewer.document.part_name("footnotes"))
