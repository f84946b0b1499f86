"""A definition deleted by a tracked change while its term is still used is reported, whatever
form the definition took and however the deletion was made: a whole paragraph deleted through
the edit engine, a parenthetical cut out of a sentence, a deletion in pieces across runs or
across a paragraph mark, a definition in a table. Nothing is reported when the term is still
defined elsewhere, no longer used, or the check reads the original text."""

from __future__ import annotations

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.checks import Checker, check_reviewer
from reviewer_app.docx.find import text_range
from tests.docx_factory import heading_styles, make_docx, p

_CHANGE = 'w:author="Other" w:date="2026-01-01T00:00:00Z"'
DEFINITIONS = [
    "“Affiliate” means any entity controlling a party.",
    "“Order” means an order form signed by both parties.",
    "“Service Level” means the availability the Provider commits to.",
]
USES = [
    "Each Affiliate may place an Order.",
    "The Service Level applies to every Order.",
]


def run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def deleted(text: str, change_id: int) -> str:
    return f'<w:del w:id="{change_id}" {_CHANGE}><w:r><w:delText xml:space="preserve">{text}</w:delText></w:r></w:del>'


def reviewer_of(*paragraphs: str, styles: str | None = None) -> DocxReviewer:
    """A document of the given paragraph XML, reviewed by Alex Lawyer."""
    parts = {"styles": styles} if styles else {}
    return DocxReviewer.from_bytes(make_docx("".join(paragraphs), **parts), author="Alex Lawyer")


def plain(*texts: str, first: int = 1) -> list[str]:
    return [p(text, para_id=f"{first + i:08X}") for i, text in enumerate(texts)]


def undefined(findings) -> list[tuple[str, str, str]]:
    return [(f.subject, f.block_id, f.evidence) for f in findings if f.code == "undefinedTerm"]


def tracked(reviewer: DocxReviewer, operation: dict) -> None:
    result = reviewer.apply_operations({"version": 1, "mode": "tracked-changes", "operations": [operation]})
    assert result["status"] == "committed", result


def test_a_definition_paragraph_deleted_is_reported_though_the_term_titles_a_clause():
    # "Service Credit." titles clause 1, so the term stays known as a heading's words: only the
    # deletion tells that it was defined and no longer is.
    clause = p(
        "Service Credit. The Provider grants a Service Credit for each hour of downtime.",
        para_id="00000002",
        ppr='<w:pStyle w:val="Heading2"/>',
    )
    reviewer = reviewer_of(
        p("Master Services Agreement", para_id="00000001"),
        clause,
        *plain(*DEFINITIONS, "“Service Credit” means a credit against the fees.", *USES, first=3),
        p("A Service Credit is the only remedy for a missed Service Level.", para_id="00000009"),
        styles=heading_styles(),
    )
    assert undefined(check_reviewer(reviewer)) == []

    tracked(reviewer, {"id": "d", "type": "deleteBlock", "blockId": "00000006"})

    (finding,) = [f for f in check_reviewer(reviewer) if f.code == "undefinedTerm"]
    assert (finding.subject, finding.block_id, finding.evidence) == (
        "Service Credit",
        "00000002",
        "Service Credit",
    )
    assert finding.related == ("00000009",)
    assert "deleted by a tracked change" in finding.message
    # the Checks panel checks the open document itself, its changes pending
    live = Checker().check(reviewer.snapshot(), reviewer.document.body)
    assert undefined(live) == [("Service Credit", "00000002", "Service Credit")]
    assert undefined(check_reviewer(reviewer, original=True)) == []


def test_a_parenthetical_definition_cut_from_its_sentence_is_reported_in_a_short_document():
    # Two definitions only: too few for an undefined capitalised phrase to be judged a term.
    reviewer = reviewer_of(
        *plain(
            "This agreement (the “Agreement”) consists of this Cover Page (“Cover Page”) and the terms.",
            "The Cover Page prevails over the terms of the Agreement.",
            "By signing this Cover Page each party accepts the Agreement.",
        )
    )
    block = reviewer.snapshot().block("00000001")
    start = block.text.index(" (“Cover Page”)")
    operation = {
        "id": "d",
        "type": "replaceRange",
        "range": text_range(block, start, start + 15),
        "replace": "",
    }
    tracked(reviewer, operation)

    assert (
        reviewer.snapshot()
        .block("00000001")
        .text.startswith("This agreement (the “Agreement”) consists of this Cover Page and")
    )
    # the opening paragraph reads as the document's title: the first use counted is the next
    assert undefined(check_reviewer(reviewer)) == [("Cover Page", "00000002", "Cover Page")]


def test_a_definition_deleted_in_pieces_across_runs_is_reported():
    pieces = ["“", "Service ", "Credit", "” means a credit against the fees."]
    runs = "".join(deleted(text, n) for n, text in enumerate(pieces, start=1))
    partial = run("Credits (each a ") + deleted("“Service", 9) + deleted(" Credit”", 10) + run(") are final.")
    for paragraph in (runs, partial):
        reviewer = reviewer_of(
            *plain(*DEFINITIONS, *USES),
            p(para_id="00000010", runs=paragraph),
            *plain(
                "A Service Credit is due for a missed Service Level.", "Service Credits are capped.", first=17
            ),
        )
        assert undefined(check_reviewer(reviewer)) == [("Service Credit", "00000011", "Service Credit")]


def test_a_deletion_across_a_paragraph_mark_is_read_in_both_paragraphs():
    mark = f'<w:rPr><w:del w:id="20" {_CHANGE}/></w:rPr>'
    first = p(para_id="00000010", ppr=mark, runs=run("The charges ") + deleted("(the “Fees”) are due", 21))
    second = p(para_id="00000011", runs=deleted("monthly and ", 22) + run("are payable on invoice."))
    reviewer = reviewer_of(
        *plain(*DEFINITIONS, *USES),
        first,
        second,
        *plain("The Fees exclude tax.", "Unpaid Fees bear interest.", first=18),
    )
    assert reviewer.snapshot().block("00000010").text == "The charges "
    assert undefined(check_reviewer(reviewer)) == [("Fees", "00000012", "Fees")]


def test_a_definition_deleted_from_a_table_cell_is_reported():
    cell = (
        "<w:tc>"
        + p(para_id="00000020", runs=deleted("“Fees” means the charges in the order.", 30))
        + "</w:tc>"
    )
    table = f"<w:tbl><w:tr>{cell}</w:tr></w:tbl>"
    reviewer = reviewer_of(
        *plain(*DEFINITIONS, *USES),
        table,
        *plain("The Fees exclude tax.", "Unpaid Fees bear interest.", first=33),
    )
    assert undefined(check_reviewer(reviewer)) == [("Fees", "00000021", "Fees")]


def test_no_finding_when_the_term_is_defined_elsewhere_reworded_or_no_longer_used():
    gone = p(para_id="00000010", runs=deleted("“Fees” means the charges in the order.", 40))
    cases = [
        # defined again in another clause
        [gone, *plain("“Fees” means the charges in each Order.", "The Fees exclude tax.", first=17)],
        # reworded: the old definition deleted, the new one inserted in its place
        [
            p(
                para_id="00000010",
                runs=run("“Fees” means ")
                + deleted("the charges", 41)
                + f'<w:ins w:id="42" {_CHANGE}>{run("the amounts")}</w:ins>'
                + run(" in the order."),
            ),
            *plain("The Fees exclude tax.", first=17),
        ],
        # no use left
        [gone, *plain("The charges exclude tax.", first=17)],
    ]
    for paragraphs in cases:
        assert undefined(check_reviewer(reviewer_of(*plain(*DEFINITIONS, *USES), *paragraphs))) == []


def test_a_re_check_after_deleting_a_definition_finds_what_a_fresh_check_finds():
    reviewer = reviewer_of(
        *plain(
            *DEFINITIONS,
            *USES,
            "Credits (each a “Service Credit”) are final.",
            "A Service Credit is due.",
            "Service Credits are capped.",
        )
    )
    checker = Checker()
    assert undefined(checker.check(reviewer.snapshot(), reviewer.document.body)) == []
    block = reviewer.snapshot().block("00000006")
    start = block.text.index(" (each")
    end = block.text.index(")") + 1
    tracked(
        reviewer, {"id": "d", "type": "replaceRange", "range": text_range(block, start, end), "replace": ""}
    )

    again = checker.check(reviewer.snapshot(), reviewer.document.body)
    assert again == Checker().check(reviewer.snapshot(), reviewer.document.body)
    assert undefined(again) == [("Service Credit", "00000007", "Service Credit")]


def test_an_unquoted_definition_deleted_from_the_definitions_clause_is_reported():
    heading = p("Definitions", para_id="00000001", ppr='<w:pStyle w:val="Heading1"/>')
    gone = p(para_id="00000002", runs=deleted("Business Day means a day on which banks open in London.", 50))
    reviewer = reviewer_of(
        heading,
        gone,
        *plain(*DEFINITIONS, first=3),
        p("Payment", para_id="00000006", ppr='<w:pStyle w:val="Heading1"/>'),
        *plain(
            *USES,
            "Invoices are paid within five Business Days.",
            "Notices given after 5 pm take effect on the next Business Day.",
            first=7,
        ),
        styles=heading_styles(),
    )
    assert undefined(check_reviewer(reviewer)) == [("Business Day", "00000009", "Business Days")]
