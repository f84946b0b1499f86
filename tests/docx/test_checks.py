"""The contract checks on small generated documents: one test per rule and form, the quick fix
applied as a tracked change, and ``reviewer check``'s output and exit status."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer_app.cli import main
from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.checks import Checker, check_reviewer
from reviewer_app.docx.checks.fixes import fix_batch
from tests.docx_factory import make_docx, p

DEFINITIONS = [
    "“Affiliate” means any entity controlling a party.",
    "“Confidential Information” means information marked as confidential.",
    'The services (the "Services") are described below.',
    "Each of them (each a “Deliverable”) is listed in the plan.",
]


def reviewer_of(*paragraphs: str, body: str = "") -> DocxReviewer:
    xml = "".join(p(text, para_id=f"{i + 1:08X}") for i, text in enumerate(paragraphs)) + body
    return DocxReviewer.from_bytes(make_docx(xml), author="Alex Lawyer")


def codes(reviewer: DocxReviewer, **options) -> list[tuple[str, str, str]]:
    return [(f.code, f.block_id, f.evidence) for f in check_reviewer(reviewer, **options)]


def uses() -> list[str]:
    return [
        "The Affiliates of the Customer may receive the Confidential Information.",
        "An Affiliate’s use of the Services and each Deliverable is permitted.",
        "Confidential Information stays with the Affiliate.",
    ]


def test_every_definition_form_counts_and_their_uses_are_found():
    assert codes(reviewer_of(*DEFINITIONS, *uses())) == []


def test_a_term_used_but_never_defined_is_reported_once_at_its_first_use():
    found = check_reviewer(
        reviewer_of(*DEFINITIONS, *uses(), "The Late Fee applies to a late payment.", "A Late Fee is a fee.")
    )
    (finding,) = [f for f in found if f.code == "undefinedTerm"]
    assert (finding.subject, finding.block_id, finding.evidence) == ("Late Fee", "00000008", "Late Fee")


def test_sentence_starts_months_and_names_are_not_undefined_terms():
    texts = [
        "Payment is due in March.",
        "Payment is due in March and in Delaware.",
        "Northwind Analytics sells.",
    ]
    assert codes(reviewer_of(*DEFINITIONS, *uses(), *texts, *texts)) == []


def test_unused_and_twice_defined_terms():
    found = codes(
        reviewer_of(*DEFINITIONS, *uses(), "“Fees” means the charges.", "“Affiliate” means a group company.")
    )
    assert ("unusedTerm", "00000008", "Fees") in found
    assert ("duplicateDefinition", "00000009", "Affiliate") in found


def test_capitalisation_slip_offers_a_certain_fix_applied_as_a_tracked_change():
    reviewer = reviewer_of(*DEFINITIONS, *uses(), "The Confidential information is returned.")
    (finding,) = [f for f in check_reviewer(reviewer) if f.code == "termCapitalisation"]
    assert (
        finding.evidence == "Confidential information" and finding.fix.replace == "Confidential Information"
    )
    result = reviewer.apply_operations(fix_batch(finding, reviewer.snapshot()))
    assert result["status"] == "committed"
    reread = DocxReviewer.from_bytes(reviewer.to_bytes())
    assert reread.snapshot().block("00000008").text == "The Confidential Information is returned."
    assert {change["author"] for change in reread.changes()} == {"Alex Lawyer"}
    assert not [f for f in check_reviewer(reread) if f.code == "termCapitalisation"]


def test_a_phrase_after_this_is_a_term_even_if_its_words_are_never_written_in_lower_case():
    texts = ["By signing this Order Sheet the parties agree.", "The Order Sheet prevails."]
    (finding,) = check_reviewer(reviewer_of(*DEFINITIONS, *uses(), *texts))
    assert (finding.code, finding.subject, finding.block_id) == ("undefinedTerm", "Order Sheet", "00000008")


def test_a_document_borrowing_its_terms_reports_none_undefined():
    borrowing = "Undefined capitalized words have the meanings given in the Agreement."
    texts = ["By signing this Order Sheet the parties agree.", "The Order Sheet prevails."]
    assert codes(reviewer_of(borrowing, *DEFINITIONS, *uses(), *texts)) == []


def test_a_misspelt_term_in_a_title_is_found():
    found = codes(reviewer_of(*DEFINITIONS, *uses(), "Keeping the Confidential Informaton safe"))
    assert found == [("termMisspelt", "00000008", "Informaton")]


def test_a_misspelt_party_name_is_a_parties_finding():
    preamble = "This agreement is between Acme Ltd (the “Supplier”) and Beta Inc (the “Customer”)."
    found = check_reviewer(
        reviewer_of(preamble, "The Supplier shall invoice the Cusotmer monthly.", "The Customer pays.")
    )
    (finding,) = [f for f in found if f.kind == "parties"]
    assert (finding.code, finding.evidence, finding.fix.replace) == ("partyMisspelt", "Cusotmer", "Customer")


def numbered(label: str, text: str, para_id: str) -> str:
    return p(f"{label} {text}", para_id=para_id)


def test_references_resolve_against_clause_numbers_and_dangling_ones_are_reported():
    reviewer = reviewer_of(
        "1. Services",
        "1.1 The Supplier provides the services.",
        "1.2 The Customer pays under clause 1.1 and clauses 1.1 to 1.2.",
        "2. Term",
        "2.1 Either party may end this under clause 2.4 or Section 3 of the Companies Act.",
    )
    found = codes(reviewer)
    assert found == [("danglingReference", "00000005", "2.4")]


def test_a_reference_citing_a_title_numbered_differently_gets_the_right_number_as_fix():
    reviewer = reviewer_of(
        "1. Payment",
        "1.1 Fees. The Customer pays the fees.",
        "1.2 Late Payment. Interest runs.",
        "2. Termination",
        "2.1 Either party may terminate for breach of clause 1.1 (Late Payment).",
    )
    (finding,) = check_reviewer(reviewer)
    assert (finding.code, finding.evidence, finding.fix.replace) == ("wrongReferenceNumber", "1.1", "1.2")


def test_schedules_are_checked_only_when_the_document_has_schedules():
    found = codes(
        reviewer_of(
            "The charges are in Schedule 2 and Exhibit A.", "Schedule 1 Services", "The services are listed."
        )
    )
    assert found == [("danglingReference", "00000001", "2")]


def test_words_and_figures_that_disagree_and_typed_numbering_that_skips():
    found = codes(
        reviewer_of(
            "Payment is due within thirty (45) days and ten (10) days later.",
            "1. First clause text.",
            "2. Second clause text.",
            "4. Fourth clause text.",
        )
    )
    assert found == [
        ("wordsFiguresMismatch", "00000001", "thirty (45)"),
        ("numberingSkip", "00000004", "4"),
    ]


@pytest.mark.parametrize(
    "blank",
    ["[●]", "[ ]", "[insert date]", "{customer_name}", "____", "TBD", "[Drafting Note: confirm the cap]"],
)
def test_blanks_and_placeholders(blank):
    (finding,) = check_reviewer(reviewer_of(f"The cap is {blank} per year."))
    assert (finding.kind, finding.evidence) == ("blanks", blank)


def test_signature_lines_and_ticked_boxes_are_not_blanks():
    assert codes(reviewer_of("By: ____________", "Name: ________", "[x] Annual billing")) == []


def tracked(text_before: str, deleted: str, inserted: str, after: str, para_id: str) -> str:
    runs = (
        f'<w:r><w:t xml:space="preserve">{text_before}</w:t></w:r>'
        f'<w:del w:id="1" w:author="Other" w:date="2026-01-01T00:00:00Z"><w:r><w:delText>{deleted}</w:delText></w:r></w:del>'
        f'<w:ins w:id="2" w:author="Other" w:date="2026-01-01T00:00:00Z"><w:r><w:t>{inserted}</w:t></w:r></w:ins>'
        f'<w:r><w:t xml:space="preserve">{after}</w:t></w:r>'
    )
    return p(para_id=para_id, runs=runs)


def test_tracked_changes_are_read_accepted_and_original_on_request():
    reviewer = reviewer_of(body=tracked("Payment within thirty (", "30", "45", ") days.", "00000001"))
    assert codes(reviewer) == [("wordsFiguresMismatch", "00000001", "thirty (45)")]
    assert codes(reviewer, original=True) == []


def test_a_term_inside_a_table_cell_is_a_definition():
    cell = "<w:tc><w:p><w:r><w:t>{}</w:t></w:r></w:p></w:tc>"
    table = "<w:tbl><w:tr>" + cell.format("“Fees” means the charges in the order.") + "</w:tr></w:tbl>"
    found = codes(reviewer_of(*DEFINITIONS, *uses(), "The Fees are due.", body=table))
    assert found == []


def test_re_check_after_an_edit_reuses_unchanged_blocks():
    reviewer = reviewer_of(*DEFINITIONS, *uses())
    checker = Checker()
    assert checker.check(reviewer.snapshot()) == []
    reviewer.apply_operations(
        {
            "version": 1,
            "operations": [
                {
                    "id": "e",
                    "type": "replaceInBlock",
                    "blockId": "00000005",
                    "find": "Customer",
                    "replace": "Customer [●]",
                }
            ],
        }
    )
    (finding,) = checker.check(reviewer.snapshot())
    assert (finding.kind, finding.block_id) == ("blanks", "00000005")


def test_cli_exit_status_and_json(tmp_path: Path, capsys):
    clean = tmp_path / "clean.docx"
    clean.write_bytes(make_docx(p("The parties agree.")))
    faulty = tmp_path / "faulty.docx"
    faulty.write_bytes(make_docx(p("Payment within thirty (45) days.", para_id="00000001")))
    assert main(["check", str(clean)]) == 0
    assert "0 findings" in capsys.readouterr().out
    assert main(["check", str(faulty), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 1 and data["findings"][0]["code"] == "wordsFiguresMismatch"
    assert data["findings"][0]["blockId"] == "00000001" and data["view"] == "accepted"
    assert main(["check", str(tmp_path / "missing.docx")]) == 2


def _replace(reviewer: DocxReviewer, block_id: str, find: str, replace: str) -> None:
    operation = {"id": "e", "type": "replaceInBlock", "blockId": block_id, "find": find, "replace": replace}
    reviewer.apply_operations({"version": 1, "operations": [operation]})


@pytest.mark.parametrize(
    ("block_id", "find", "replace"),
    [
        ("00000002", "“Confidential Information” means", "Confidential Information is"),  # definition gone
        ("00000007", "Affiliate.", "Afiliate."),  # a misspelling
        ("00000008", "A Trade Secret", "“Trade Secret” means a"),  # a new, unused definition
        ("00000006", "Affiliate’s", "Trade Secret’s"),  # an undefined term, first of two uses
    ],
)
def test_a_re_check_after_an_edit_finds_what_a_fresh_check_finds(block_id, find, replace):
    reviewer = reviewer_of(*DEFINITIONS, *uses(), "A Trade Secret stays a secret of the trade.")
    checker = Checker()
    checker.check(reviewer.snapshot(), reviewer.document.body)
    _replace(reviewer, block_id, find, replace)
    again = checker.check(reviewer.snapshot(), reviewer.document.body)
    assert again == Checker().check(reviewer.snapshot(), reviewer.document.body)
    assert again  # each edit leaves something to report


def test_a_re_check_after_a_new_paragraph_finds_what_a_fresh_check_finds():
    # A paragraph added is no text edit: every block is looked up again, those the last check
    # read (the one a text edit changed since too) keep their facts, and the findings are
    # those of a fresh check.
    reviewer = reviewer_of(*DEFINITIONS, *uses(), "A Trade Secret stays a secret of the trade.")
    checker = Checker()
    checker.check(reviewer.snapshot(), reviewer.document.body)
    _replace(reviewer, "00000007", "Affiliate.", "Afiliate.")
    assert {f.code for f in checker.check(reviewer.snapshot(), reviewer.document.body)} == {"termMisspelt"}
    added = "The Afiliate pays within thirty (45) days [●]."
    operation = {"id": "i", "type": "insertAfterBlock", "blockId": "00000005", "text": added}
    reviewer.apply_operations({"version": 1, "operations": [operation]})
    again = checker.check(reviewer.snapshot(), reviewer.document.body)
    assert again == Checker().check(reviewer.snapshot(), reviewer.document.body)
    (new,) = [b.id for b in reviewer.snapshot().blocks if b.text == added]
    expected = ["termMisspelt", "wordsFiguresMismatch", "placeholder"]
    assert [f.code for f in again if f.block_id == new] == expected


def test_blocks_with_the_same_text_each_get_their_own_findings():
    # Blocks alike share one reading: each must still be told its own findings, also after
    # an edit to one of them.
    same = "The Confidential information of an Afiliate is due within thirty (45) days [●]."
    reviewer = reviewer_of(*DEFINITIONS, *uses(), same, same, same)
    codes_by_block = {(f.code, f.block_id) for f in check_reviewer(reviewer)}
    for block_id in ("00000008", "00000009", "0000000A"):
        for code in ("termCapitalisation", "termMisspelt", "wordsFiguresMismatch", "placeholder"):
            assert (code, block_id) in codes_by_block
    checker = Checker()
    checker.check(reviewer.snapshot(), reviewer.document.body)
    _replace(reviewer, "00000009", "Afiliate", "Affiliate")
    again = checker.check(reviewer.snapshot(), reviewer.document.body)
    assert again == Checker().check(reviewer.snapshot(), reviewer.document.body)
    assert {f.block_id for f in again if f.code == "termMisspelt"} == {"00000008", "0000000A"}
