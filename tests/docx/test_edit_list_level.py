"""The ``setListLevel`` host operation: Tab, Shift+Tab and Backspace at the start of a numbered clause.

On the sample contract's clause numbering, where the first two levels are linked to the Heading 1
and Heading 2 styles and the third, "(a)", to none: a level change is one paragraph property
change under the person's name, a linked level brings its style as in Word, taking the number
away writes ``numId 0``, and a second key on the person's own change goes on from it (Tab then
Shift+Tab leaves nothing to accept or reject).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.edit.batch import ContractError, parse_batch, parse_host_batch
from reviewer_app.docx.xmlutil import W
from tests.checkers import schema_errors
from tests.conftest import REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
CLAUSE_5_2 = "26C40F6B"  # Heading 2, numbered 5.2 through its style
ITEM_A = "2701E0D7"  # "(a) the clauses of this Agreement;": SubClause, numbered directly at level 2
ME = "Alex Lawyer"


@pytest.fixture
def reviewer() -> DocxReviewer:
    return DocxReviewer.from_bytes(SAMPLE.read_bytes(), author=ME)


def level_key(reviewer: DocxReviewer, block_id: str, level: int | None) -> dict:
    operation = {"id": f"l-{block_id}-{level}", "type": "setListLevel", "blockId": block_id, "level": level}
    return reviewer.apply_operations(
        parse_host_batch({"version": 1, "mode": "tracked-changes", "operations": [operation]})
    )


def property_changes(reviewer: DocxReviewer, block_id: str) -> list:
    return reviewer.snapshot().block(block_id).element.findall(f"{W}pPr/{W}pPrChange")


def test_tab_on_a_lettered_item_moves_it_one_level_down_as_a_tracked_property_change(
    reviewer: DocxReviewer, tmp_path: Path
) -> None:
    assert level_key(reviewer, ITEM_A, 3)["status"] == "committed"
    block = reviewer.snapshot().block(ITEM_A)
    assert block.list_reference == {"numId": 20, "level": 3}
    assert block.display_label == "(i)"
    assert block.style_id == "SubClause"  # the level links no style: the paragraph keeps its own
    [change] = property_changes(reviewer, ITEM_A)
    assert change.get(W + "author") == ME
    old = change.find(f"{W}pPr/{W}numPr/{W}ilvl")
    assert old is not None and old.get(W + "val") == "2"  # rejecting puts it back at "(a)"
    path = tmp_path / "tab.docx"
    reviewer.save(path)
    assert schema_errors(path) == 0


def test_shift_tab_on_a_clause_takes_the_style_linked_to_the_level_above(reviewer: DocxReviewer) -> None:
    assert level_key(reviewer, CLAUSE_5_2, 0)["status"] == "committed"
    block = reviewer.snapshot().block(CLAUSE_5_2)
    assert block.style_id == "Heading1" and block.list_reference == {"numId": 20, "level": 0}
    assert block.display_label == "6."
    assert block.element.find(f"{W}pPr/{W}numPr") is None  # the style numbers it, as before
    [change] = property_changes(reviewer, CLAUSE_5_2)
    assert change.find(f"{W}pPr/{W}pStyle").get(W + "val") == "Heading2"


def test_tab_then_shift_tab_leaves_no_change(reviewer: DocxReviewer) -> None:
    before = reviewer.snapshot().block(ITEM_A).display_label
    assert level_key(reviewer, ITEM_A, 3)["status"] == "committed"
    assert level_key(reviewer, ITEM_A, 4)["status"] == "committed"  # a second Tab goes on from the first
    [change] = property_changes(reviewer, ITEM_A)
    assert change.find(f"{W}pPr/{W}numPr/{W}ilvl").get(W + "val") == "2"  # still what it was first
    assert level_key(reviewer, ITEM_A, 3)["status"] == "committed"
    assert level_key(reviewer, ITEM_A, 2)["status"] == "committed"
    assert property_changes(reviewer, ITEM_A) == []
    assert reviewer.snapshot().block(ITEM_A).display_label == before
    assert not [c for c in reviewer.changes() if c["author"] == ME]


def test_no_level_takes_the_number_away_and_a_paragraph_without_one_is_refused(
    reviewer: DocxReviewer,
) -> None:
    assert level_key(reviewer, CLAUSE_5_2, None)["status"] == "committed"
    block = reviewer.snapshot().block(CLAUSE_5_2)
    assert block.list_reference is None and block.stated_numbering == {"kind": "none"}
    assert reviewer.snapshot().block("0D6B3E1B").display_label == "5.2"  # 5.3 moves up
    result = level_key(reviewer, CLAUSE_5_2, 1)
    assert not result["applied"] and "not numbered" in result["skipped"][0]["reason"]


def test_the_model_cannot_send_the_host_operation() -> None:
    operation = {"id": "m1", "type": "setListLevel", "blockId": ITEM_A, "level": 3}
    with pytest.raises(ContractError):
        parse_batch({"version": 1, "mode": "tracked-changes", "operations": [operation]})


def test_taking_a_number_away_indents_the_text_where_the_number_stood(
    reviewer: DocxReviewer, tmp_path: Path
) -> None:
    """The number "(a)" stands at 720 twips and its text at 1440 (level 3 of list 20: left 1440,
    hanging 720); as in Word the unnumbered paragraph starts where the number stood, not at its
    style's 0."""
    assert level_key(reviewer, ITEM_A, None)["status"] == "committed"
    block = reviewer.snapshot().block(ITEM_A)
    assert block.list_reference is None
    ind = block.element.find(f"{W}pPr/{W}ind")
    assert ind is not None and (ind.get(W + "left"), ind.get(W + "firstLine")) == ("720", "0")
    [change] = property_changes(reviewer, ITEM_A)
    assert change.get(W + "author") == ME
    assert change.find(f"{W}pPr/{W}ind") is None  # rejecting takes the indent away with the change
    path = tmp_path / "unnumbered.docx"
    reviewer.save(path)
    assert schema_errors(path) == 0


def test_a_numbered_paragraph_with_an_indent_of_its_own_keeps_it(reviewer: DocxReviewer) -> None:
    ppr = reviewer.snapshot().block(ITEM_A).element.find(f"{W}pPr")
    etree.SubElement(ppr, W + "ind", {W + "left": "2000", W + "hanging": "500"})
    assert level_key(reviewer, ITEM_A, None)["status"] == "committed"
    ind = reviewer.snapshot().block(ITEM_A).element.find(f"{W}pPr/{W}ind")
    assert (ind.get(W + "left"), ind.get(W + "hanging")) == ("2000", "500")
