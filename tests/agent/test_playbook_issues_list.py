"""The issues list a lawyer sends the client: one row per position of the playbook, the cited
clause by its number with its text, the proposed wording and the reason, internal notes kept
here (and only here). Read back with python-docx, the csv module and LibreOffice."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import docx
import pytest
from docx.enum.section import WD_ORIENT

from reviewer_app.agent.playbook.issues_list import (
    CSV_COLUMNS,
    DOCX_COLUMNS,
    issue_rows,
    write_issues_csv,
    write_issues_docx,
)
from reviewer_app.agent.playbook.library import shipped_playbook_dir
from reviewer_app.agent.playbook.model import Citation, PlaybookFinding, PlaybookReview
from reviewer_app.agent.playbook.yaml_format import load_playbook
from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.docx.snapshot import Snapshot
from reviewer_app.resources import sample_contract_path
from tests.checkers import schema_errors

# Clauses of the bundled sample MSA (resources/samples/sample-msa.docx) by block id.
CAP, BREACH, RENEWAL, SUB_ITEM = "339D6D6D", "0D46D1A8", "29582B39", "35A04E4D"
CAP_FIND = "150 per cent of the total Charges paid or payable in that contract year"
CAP_REPLACE = (
    "the greater of 150 per cent of the total Charges paid or payable in that contract year and £2,000,000"
)
INTERNAL = "Client's insurer must confirm the £2m figure before we send this."


@pytest.fixture(scope="module")
def snapshot() -> Snapshot:
    return DocxReviewer.open(sample_contract_path()).snapshot()


def saas_review(snapshot: Snapshot) -> tuple[PlaybookReview, list[dict[str, object]]]:
    """A part-finished review of the sample MSA against the shipped SaaS playbook, with one proposal."""
    review = PlaybookReview(load_playbook(shipped_playbook_dir() / "saas-cloud-services.yaml"))
    cap_text = snapshot.block(CAP).text
    review.record(
        PlaybookFinding(
            "liability-cap",
            "deviates",
            "The cap is 150% of one year's Charges with no fixed minimum and no data protection super-cap.",
            citations=(Citation(CAP, "limited to 150 per cent"),),
            severity="high",
            proposal_ids=("cap-1",),
            comment=INTERNAL,
            comment_audience="internal",
            note="Partner agreed the £2m floor.",
        )
    )
    review.record(
        PlaybookFinding(
            "security",
            "meets",
            "Breach notice within 24 hours.",
            citations=(Citation(BREACH, "within 24 hours"),),
            severity="high",
        ).overridden("deviates", note="No ISO 27001 or SOC 2 commitment anywhere.")
    )
    review.record(PlaybookFinding("fees", "deviates", "No cap on increases at renewal.", severity="medium"))
    review.record(
        PlaybookFinding("exit", "missing", "Nothing on exporting data at the end.", severity="high")
    )
    review.record(
        PlaybookFinding(
            "term-renewal",
            "meets",
            "Extension only at the Customer's option.",
            citations=(Citation(RENEWAL, "The Customer may extend this Agreement"),),
            severity="low",
            comment="Please confirm the notice period is three months.",
            comment_audience="external",
        )
    )
    review.record(
        PlaybookFinding("customer-data", "not_applicable", "Not a SaaS data service.", severity="high")
    )
    proposals = [
        {
            "id": "cap-1",
            "operationId": "cap-1",
            "status": "queued",
            "operation": {
                "id": "cap-1",
                "type": "replaceInBlock",
                "blockId": CAP,
                "find": CAP_FIND,
                "replace": CAP_REPLACE,
            },
            "targetBlockId": CAP,
        },
        {"id": "other", "operation": {"id": "other", "type": "deleteBlock", "blockId": RENEWAL}},
    ]
    assert CAP_FIND in cap_text
    return review, proposals


def test_rows_are_sorted_by_status_then_severity_and_unanswered_positions_are_listed(
    snapshot: Snapshot,
) -> None:
    review, proposals = saas_review(snapshot)

    rows = issue_rows(review, snapshot, proposals=proposals)

    order = [(r.position.id, r.status, r.severity) for r in rows]
    assert order[:4] == [
        ("security", "deviates", "high"),  # the lawyer's override counts, in playbook order within high
        ("liability-cap", "deviates", "high"),
        ("fees", "deviates", "medium"),
        ("exit", "missing", "high"),
    ]
    unanswered = [r for r in rows if r.status == "unanswered"]
    assert [r.position.id for r in unanswered] == [
        "service-levels",
        "service-changes",
        "data-protection",
        "liability-exclusions",
        "ip-indemnity",
        "suspension",
        "termination",
    ]
    assert all(r.reason == "The review did not answer this position." and not r.clause for r in unanswered)
    assert order[-2:] == [("term-renewal", "meets", "low"), ("customer-data", "not_applicable", "high")]
    assert len(rows) == len(review.playbook.positions) == 13


def test_clause_current_and_proposed_text_come_from_the_document_and_the_proposals(
    snapshot: Snapshot,
) -> None:
    review, proposals = saas_review(snapshot)
    rows = {r.position.id: r for r in issue_rows(review, snapshot, proposals=proposals)}

    cap = rows["liability-cap"]
    assert cap.clause == "10.3" and cap.current_text == snapshot.block(CAP).text
    assert cap.proposed_text == snapshot.block(CAP).text.replace(
        CAP_FIND, CAP_REPLACE
    )  # the whole clause, amended
    assert cap.notes == f"Partner agreed the £2m floor.\n\nInternal: {INTERNAL}"
    security = rows["security"]
    assert (security.clause, security.status_words) == ("12.3(f)", "Deviates (reviewer)")
    assert security.notes == "No ISO 27001 or SOC 2 commitment anywhere.\n\nThe review found: Meets."
    # no drafted wording: the playbook's fallback for a deviation, its model clause for a gap
    assert (
        rows["fees"].proposed_text
        == "Playbook fallback: Increases on renewal capped at 5% a year, with 60 days' notice."
    )
    exit_clause = review.playbook.position("exit").model_clause
    assert rows["exit"].proposed_text == f"Playbook model clause: {exit_clause}"
    assert rows["term-renewal"].proposed_text == ""  # it meets the position
    assert (
        rows["term-renewal"].notes
        == "Comment to the other side: Please confirm the notice period is three months."
    )


def test_block_texts_by_id_and_a_citation_to_a_block_gone_since(snapshot: Snapshot) -> None:
    review, _ = saas_review(snapshot)
    texts = {CAP: "Liability is limited to 150 per cent of the Charges."}
    rows = {r.position.id: r for r in issue_rows(review, texts)}
    assert rows["liability-cap"].current_text == texts[CAP] and rows["liability-cap"].clause == ""
    assert rows["liability-cap"].proposed_text.startswith("Playbook fallback: ")  # its proposal is not passed
    assert rows["security"].current_text == "within 24 hours"  # the block is gone: the quote stands in


def test_a_lettered_item_is_cited_with_the_numbers_above_it(snapshot: Snapshot) -> None:
    review, _ = saas_review(snapshot)
    review.record(
        PlaybookFinding(
            "termination", "meets", "Insolvency.", citations=(Citation(SUB_ITEM, "is unable to pay"),)
        )
    )
    rows = {r.position.id: r for r in issue_rows(review, snapshot)}
    assert rows["termination"].clause == "13.1(b)(ii)"


def test_the_issues_docx_reads_back_with_every_row(snapshot: Snapshot, tmp_path: Path) -> None:
    review, proposals = saas_review(snapshot)
    out = tmp_path / "issues.docx"

    written = write_issues_docx(review, snapshot, out, proposals=proposals, document_name="sample-msa.docx")

    document = docx.Document(str(out))
    assert document.sections[0].orientation == WD_ORIENT.LANDSCAPE
    assert document.paragraphs[0].text == "Issues list: SaaS / cloud services (customer)"
    assert document.paragraphs[1].text.startswith("sample-msa.docx reviewed against the playbook")
    assert (
        "deviates: 3, missing: 1, unanswered: 7, meets: 1, not applicable: 1" in document.paragraphs[1].text
    )
    (table,) = document.tables
    cells = [[cell.text for cell in row.cells] for row in table.rows]
    assert tuple(cells[0]) == DOCX_COLUMNS
    assert len(cells) == 1 + 13 == 1 + len(written)
    by_title = {row[0].split("\n")[0]: row for row in cells[1:]}
    cap = by_title["Limitation of liability"]
    assert cap[:3] == ["Limitation of liability\nSeverity: high", "Deviates", "10.3"]
    assert cap[3] == snapshot.block(CAP).text and CAP_REPLACE in cap[4]
    assert cap[5].startswith("The cap is 150%") and INTERNAL in cap[6]
    assert by_title["Availability and service credits"][1] == "Unanswered"
    assert by_title["Changes to the service"][1:5] == ["Unanswered", "", "", ""]
    assert [row[1] for row in cells[1:5]] == ["Deviates (reviewer)", "Deviates", "Deviates", "Missing"]
    header_xml = table.rows[0]._tr.xml
    assert "w:tblHeader" in header_xml  # repeated at the top of each page


def test_the_issues_docx_passes_the_schema_checker(snapshot: Snapshot, tmp_path: Path) -> None:
    review, proposals = saas_review(snapshot)
    out = tmp_path / "issues.docx"
    write_issues_docx(review, snapshot, out, proposals=proposals)
    assert schema_errors(out) == 0
    with zipfile.ZipFile(out) as package:
        assert package.testzip() is None


@pytest.mark.libreoffice
def test_libreoffice_opens_the_issues_docx(snapshot: Snapshot, tmp_path: Path, lo_inspect) -> None:
    review, proposals = saas_review(snapshot)
    out = tmp_path / "issues.docx"
    write_issues_docx(review, snapshot, out, proposals=proposals, document_name="sample-msa.docx")

    report = lo_inspect(out)

    assert report["load_ok"] and report["table_count"] == 1
    text = "\n".join(report["paragraphs"])
    for expected in (
        "Issues list: SaaS / cloud services (customer)",
        "Limitation of liability",
        "10.3",
        "12.3(f)",
    ):
        assert expected in text
    assert CAP_REPLACE in text and INTERNAL in text
    assert report["tracked_change_total"] == 0 and report["comment_count"] == 0


def test_the_issues_csv_reads_back_with_the_csv_module(snapshot: Snapshot, tmp_path: Path) -> None:
    review, proposals = saas_review(snapshot)
    out = tmp_path / "issues.csv"

    write_issues_csv(review, snapshot, out, proposals=proposals)

    assert out.read_bytes().startswith(b"\xef\xbb\xbf")  # Excel reads the £ and the curly quotes
    with out.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert tuple(rows[0]) == CSV_COLUMNS and len(rows) == 13
    first = rows[1]
    assert (
        first["Position ID"] == "liability-cap"
        and first["Status"] == "Deviates"
        and first["Clause"] == "10.3"
    )
    assert first["Proposed text"] == snapshot.block(CAP).text.replace(CAP_FIND, CAP_REPLACE)
    assert first["Notes"] == f"Partner agreed the £2m floor.\n\nInternal: {INTERNAL}"  # line breaks survive
    assert [r["Status"] for r in rows].count("Unanswered") == 7
