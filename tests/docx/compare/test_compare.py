"""``compare_docx_versions`` and ``format_version_diff_for_llm`` (contract §10, §11 ``compare.test``).

Small documents are built from WordprocessingML so each case controls paraIds, texts and run
formatting exactly; the exact LLM lines are the contract's.
"""

from __future__ import annotations

import io
import secrets
import zipfile
from functools import partial

import pytest

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.compare import (
    CompareInputError,
    CompareOptionError,
    compare_docx_versions,
    format_version_diff_for_llm,
)
from reviewer_app.docx.compare.align import align, longest_increasing
from reviewer_app.docx.compare.diff_format import truncate
from reviewer_app.docx.compare.model import Budget, entries
from reviewer_app.docx.worddiff import diff_segments
from tests.conftest import CORPUS
from tests.docx_factory import make_docx, p

_CORE_NS = (
    'xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
)
_CORE_TAGS = {
    "title": "dc:title",
    "subject": "dc:subject",
    "creator": "dc:creator",
    "keywords": "cp:keywords",
    "description": "dc:description",
    "lastModifiedBy": "cp:lastModifiedBy",
    "revision": "cp:revision",
    "created": 'dcterms:created xsi:type="dcterms:W3CDTF"',
    "modified": 'dcterms:modified xsi:type="dcterms:W3CDTF"',
}


def with_core(data: bytes, **props: str) -> bytes:
    """``data`` with a ``docProps/core.xml`` holding ``props`` (and its package relationship)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    body = "".join(f"<{_CORE_TAGS[k]}>{v}</{_CORE_TAGS[k].split()[0]}>" for k, v in props.items())
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for item in src.infolist():
            raw = src.read(item)
            if item.filename == "_rels/.rels":
                raw = raw.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdCore" Type="http://schemas.openxmlformats.org/package/2006/'
                    b'relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>',
                )
            if item.filename == "[Content_Types].xml":
                raw = raw.replace(
                    b"</Types>",
                    b'<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-'
                    b'package.core-properties+xml"/></Types>',
                )
            z.writestr(item, raw)
        z.writestr(
            "docProps/core.xml",
            f'<?xml version="1.0"?><cp:coreProperties {_CORE_NS}>{body}</cp:coreProperties>',
        )
    return out.getvalue()


def doc(*paragraphs: tuple[str, str | None] | str) -> bytes:
    """A document of plain paragraphs, each ``text`` or ``(text, paraId)``."""
    body = "".join(p(x) if isinstance(x, str) else p(x[0], para_id=x[1]) for x in paragraphs)
    return make_docx(body)


BASE = doc(
    ("Alpha paragraph.", "00000001"),
    ("Beta paragraph.", "00000002"),
    ("Gamma paragraph.", "00000003"),
    ("Zeta paragraph.", "00000005"),
)
REVISED = doc(
    ("Alpha paragraph.", "00000001"),
    ("Beta clause.", "00000002"),
    ("Zeta paragraph.", "00000005"),
    ("Epsilon paragraph.", "00000006"),
)


# ----------------------------------------------------------------------------- compare.test cases
def test_stable_ids_classify_unchanged_modified_added_deleted() -> None:
    diff = compare_docx_versions(BASE, REVISED)
    counts = diff["summaryCounts"]
    assert (counts["added"], counts["deleted"], counts["modified"], counts["unchanged"]) == (1, 1, 1, 2)
    assert [c["type"] for c in diff["changes"]] == ["modified", "deleted", "added"]
    modified = diff["changes"][0]
    assert modified["blockId"] == "00000002" and modified["kind"] == "paragraph"
    assert modified["segments"] == [
        {"type": "equal", "text": "Beta "},
        {"type": "del", "text": "paragraph."},
        {"type": "ins", "text": "clause."},
    ]
    assert modified["baseHandle"] == {"story": {"type": "main"}, "blockId": "00000002"}
    deleted = diff["changes"][1]
    assert deleted == {
        "type": "deleted",
        "blockId": "00000003",
        "kind": "paragraph",
        "text": "Gamma paragraph.",
        "baseHandle": {"story": {"type": "main"}, "blockId": "00000003"},
    }
    assert diff["changes"][2]["text"] == "Epsilon paragraph."
    assert diff["changes"][2]["revisedHandle"] == {"story": {"type": "main"}, "blockId": "00000006"}
    assert (
        diff["stories"][0]["baseStory"] == {"type": "main"}
        and diff["stories"][0]["changes"] == diff["changes"]
    )


def test_llm_lines_are_exact() -> None:
    lines = format_version_diff_for_llm(compare_docx_versions(BASE, REVISED)).split("\n")
    assert lines[0] == "Version diff: 1 added, 1 deleted, 1 modified, 0 format-changed, 0 moved, 2 unchanged"
    assert "~ [00000002] modified: Beta [-paragraph.-]{+clause.+}" in lines
    assert "- [00000003] deleted: Gamma paragraph." in lines
    assert "+ [00000006] added: Epsilon paragraph." in lines


def test_positional_ids_still_pair_same_text_after_an_insertion() -> None:
    base = doc("Alpha paragraph.", "Beta paragraph.", "Gamma paragraph.")
    revised = doc("Alpha paragraph.", "Beta paragraph modified.", "Epsilon paragraph.", "Gamma paragraph.")
    diff = compare_docx_versions(base, revised)
    counts = diff["summaryCounts"]
    assert (counts["added"], counts["deleted"], counts["modified"], counts["unchanged"]) == (1, 0, 1, 2)
    assert [c["type"] for c in diff["changes"]] == ["modified", "added"]
    rebuilt = "".join(s["text"] for s in diff["changes"][0]["segments"] if s["type"] != "del")
    assert rebuilt == "Beta paragraph modified."
    assert diff["changes"][1]["text"] == "Epsilon paragraph."


def test_identical_documents_have_no_changes() -> None:
    diff = compare_docx_versions(BASE, BASE)
    assert diff["changes"] == []
    assert diff["summaryCounts"]["unchanged"] == 4


def test_pending_changes_count_as_accepted() -> None:
    base = doc("Payment is due.")
    reviewer = DocxReviewer.from_bytes(base, author="AI")
    block = reviewer.snapshot().blocks[0]
    op = {
        "id": "t1",
        "type": "replaceInBlock",
        "blockId": block.id,
        "find": "due.",
        "replace": "due promptly.",
    }
    reviewer.apply_operations({"version": 1, "operations": [op]})
    diff = compare_docx_versions(base, reviewer.to_bytes())
    assert diff["summaryCounts"]["modified"] == 1
    (change,) = diff["changes"]
    assert "".join(s["text"] for s in change["segments"] if s["type"] != "del") == "Payment is due promptly."
    assert any(s["type"] == "ins" and "promptly" in s["text"] for s in change["segments"])


def test_metadata_lines_and_null() -> None:
    base = with_core(doc("Same."), title="Initial", creator="Author", revision="1")
    revised = with_core(doc("Same."), title="Revised", revision="2")
    diff = compare_docx_versions(base, revised, include=["text", "metadata"])
    assert diff["summaryCounts"]["metadataChanged"] == 3
    lines = format_version_diff_for_llm(diff).split("\n")
    assert lines[0] == (
        "Version diff: 0 added, 0 deleted, 0 modified, 0 format-changed, 0 moved, 3 metadata-changed, 1 unchanged"
    )
    assert lines[1:] == [
        '~ metadata.title: "Initial" -> "Revised"',
        '~ metadata.creator: "Author" -> null',
        "~ metadata.revision: 1 -> 2",
    ]
    assert compare_docx_versions(base, revised)["metadataChanges"] == []  # not in the default scopes


def test_privacy_lines_and_removed_fields() -> None:
    base = with_core(doc("Same."), title="Initial", creator="Author")
    revised = with_core(doc("Same."), title="Revised")
    diff = compare_docx_versions(
        base, revised, include=["metadata"], privacy={"transforms": ["remove-attribution"]}
    )
    assert diff["privacyReport"] == {
        "appliedTransforms": ["remove-attribution"],
        "removedMetadataProperties": ["creator"],
    }
    lines = format_version_diff_for_llm(diff).split("\n")
    assert lines[1:] == [
        "Privacy transforms: remove-attribution",
        "Removed metadata fields: creator",
        '~ metadata.title: "Initial" -> "Revised"',
    ]
    nothing = compare_docx_versions(base, base, privacy={"transforms": ["remove-timestamps"]})
    assert format_version_diff_for_llm(nothing).split("\n")[1:] == [
        "Privacy transforms: remove-timestamps",
        "Removed metadata fields: none",
    ]


def test_dates_read_as_iso_with_milliseconds() -> None:
    base = with_core(doc("Same."), modified="2024-01-02T03:04:05Z")
    revised = with_core(doc("Same."), modified="2024-01-02T03:05:00Z")
    (change,) = compare_docx_versions(base, revised, include=["metadata"])["metadataChanges"]
    assert change == {
        "property": "modified",
        "baseValue": "2024-01-02T03:04:05.000Z",
        "revisedValue": "2024-01-02T03:05:00.000Z",
    }


# ----------------------------------------------------------------------------- moves and formatting
def test_identical_text_moves_pair_up_with_a_group_id() -> None:
    moved = "This clause moved to the end of the agreement."
    base = doc("Opening words stay here.", moved, "Middle text stays too.", "Closing words.")
    revised = doc("Opening words stay here.", "Middle text stays too.", "Closing words.", moved)
    diff = compare_docx_versions(base, revised)
    kinds = [c["type"] for c in diff["changes"]]
    assert sorted(kinds) == ["movedFrom", "movedTo"]
    assert {c["moveGroupId"] for c in diff["changes"]} == {1}
    assert diff["summaryCounts"]["moved"] == 1 and diff["summaryCounts"]["added"] == 0
    lines = format_version_diff_for_llm(diff).split("\n")
    assert f"< [seq-0002] moved away (move 1): {moved}" in lines
    assert f"> [seq-0004] moved here (move 1): {moved}" in lines


def test_short_repeated_text_is_not_a_move() -> None:
    base = doc("Confidential", "Body one here.", "Body two here.")
    revised = doc("Body one here.", "Body two here.", "Confidential")
    assert {c["type"] for c in compare_docx_versions(base, revised)["changes"]} == {"added", "deleted"}


def _runs(*parts: tuple[str, str]) -> str:
    return "".join(
        f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{t}</w:t></w:r>'
        for t, rpr in parts
    )


def test_format_only_change_names_the_properties() -> None:
    base = make_docx(p(runs=_runs(("Pay ", ""), ("ten", ""), (" days.", ""))))
    revised = make_docx(
        p(runs=_runs(("Pay ", ""), ("ten", '<w:b/><w:color w:val="FF0000"/>'), (" days.", "")))
    )
    diff = compare_docx_versions(base, revised)
    (change,) = diff["changes"]
    assert change["type"] == "formatChanged" and change["changedProperties"] == ["bold", "color"]
    assert (
        format_version_diff_for_llm(diff).split("\n")[1]
        == "~ [seq-0001] format changed (bold, color): Pay ten days."
    )
    assert compare_docx_versions(base, revised, include=["text"])["changes"] == []


def test_absent_and_off_toggles_are_the_same() -> None:
    base = make_docx(p(runs=_runs(("Pay ten days.", ""))))
    revised = make_docx(p(runs=_runs(("Pay ten days.", '<w:b w:val="0"/>'))))
    assert compare_docx_versions(base, revised)["changes"] == []


def test_renumbered_note_markers_are_not_a_change() -> None:
    base = doc("See the note[^1] here.")  # literal text, not a note: stands in for a marker
    assert compare_docx_versions(base, base)["changes"] == []
    from reviewer_app.docx.compare.model import canonical

    assert canonical("a[^3] b[^e12]") == "a[^] b[^e]"


# ----------------------------------------------------------------------------- word diff and format
def test_word_diff_folds_separator_only_matches() -> None:
    segments = diff_segments("alpha, beta gamma", "delta - epsilon gamma")
    assert [s["type"] for s in segments] == ["del", "ins", "equal"]
    assert segments[-1]["text"] == " gamma"


def test_word_diff_collapses_fragmented_changes() -> None:
    old = "alpha bravo charlie delta echo foxtrot golf hotel"
    new = "ALPHA bravo CHARLIE delta ECHO foxtrot GOLF hotel"
    segments = diff_segments(old, new)
    assert [s["type"] for s in segments] == ["del", "ins", "equal"]
    assert segments[2]["text"] == " hotel"
    # two separate edits stay separate; a word kept between two long rewrites is folded in
    assert [s["type"] for s in diff_segments("one two three four five", "uno two tres four five")] == [
        "del",
        "ins",
        "equal",
        "del",
        "ins",
        "equal",
    ]
    old = "alpha bravo charlie and delta echo foxtrot."
    new = "golf hotel india and juliet kilo lima."
    assert [s["type"] for s in diff_segments(old, new)] == ["del", "ins"]


def test_word_diff_over_budget_is_one_replacement() -> None:
    budget = Budget(words=0)
    segments = diff_segments("keep a b c keep", "keep x b y keep", partial(budget.take, "words"))
    assert segments == [
        {"type": "equal", "text": "keep "},
        {"type": "del", "text": "a b c"},
        {"type": "ins", "text": "x b y"},
        {"type": "equal", "text": " keep"},
    ]
    assert "words" in budget.exhausted


def test_truncation_keeps_30_characters_each_side() -> None:
    assert truncate("x" * 61) == "x" * 61
    text = "a" * 30 + "MIDDLE-PART" + "z" * 30
    assert truncate(text) == "a" * 30 + "…" + "z" * 30


# ----------------------------------------------------------------------------- alignment
def test_longest_increasing_subsequence() -> None:
    pairs = [(0, 3), (1, 0), (2, 1), (3, 2), (4, 5)]
    assert longest_increasing(pairs) == [(1, 0), (2, 1), (3, 2), (4, 5)]


def test_alignment_budget_falls_back_to_position() -> None:
    base = DocxReviewer.from_bytes(doc("x", "x", "x", "a one", "b two")).snapshot().blocks
    revised = DocxReviewer.from_bytes(doc("x", "x", "x", "a one!", "b two!")).snapshot().blocks
    generous = align(entries(base), entries(revised), Budget())
    starved = align(entries(base), entries(revised), Budget(align=0))
    assert [e.kind for e in generous] == [e.kind for e in starved] == ["pair"] * 5


def test_budget_is_shared_and_exhaustion_is_bounded() -> None:
    many = [f"Paragraph number {i} with words." for i in range(300)]
    base = DocxReviewer.from_bytes(doc(*many)).snapshot().blocks
    revised = DocxReviewer.from_bytes(doc(*[t + " More." for t in many])).snapshot().blocks
    budget = Budget(align=10_000)
    events = align(entries(base), entries(revised), budget)
    assert "align" in budget.exhausted
    assert [e.kind for e in events] == ["pair"] * 300  # zipped: coarser, still complete


# ----------------------------------------------------------------------------- stories
def test_header_and_footnote_stories_pair_and_report() -> None:
    header_a = "<w:p><w:r><w:t>Header one</w:t></w:r></w:p>"
    header_b = "<w:p><w:r><w:t>Header two</w:t></w:r></w:p>"
    base = make_docx(p("Body."), header=header_a)
    revised = make_docx(p("Body."), header=header_b)
    diff = compare_docx_versions(base, revised)
    (story,) = [s for s in diff["stories"] if s["baseStory"] and s["baseStory"]["type"] == "header"]
    assert story["revisedStory"] == story["baseStory"]
    (change,) = story["changes"]
    assert change["type"] == "modified" and change["baseHandle"]["story"]["type"] == "header"
    only_base = compare_docx_versions(base, make_docx(p("Body.")))
    missing = [s for s in only_base["stories"] if s["revisedStory"] is None]
    assert missing and missing[0]["changes"][0]["type"] == "deleted"


# ----------------------------------------------------------------------------- options and inputs
@pytest.mark.parametrize("include", [[], ["text", "pictures"], "everything"])
def test_bad_scopes_are_typed_option_errors(include: object) -> None:
    with pytest.raises(CompareOptionError) as err:
        compare_docx_versions(BASE, REVISED, include=include)
    assert err.value.option == "include"


@pytest.mark.parametrize(
    "privacy", [{"transforms": ["remove-everything"]}, {"transforms": "remove-timestamps"}]
)
def test_bad_privacy_transforms_are_typed_option_errors(privacy: object) -> None:
    with pytest.raises(CompareOptionError) as err:
        compare_docx_versions(BASE, REVISED, privacy=privacy)
    assert err.value.option == "privacy.transforms"


def test_inputs_may_be_paths_bytes_or_reviewers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "base.docx"
    path.write_bytes(BASE)
    reviewer = DocxReviewer.from_bytes(REVISED)
    before = reviewer.to_bytes()
    diff = compare_docx_versions(path, reviewer)
    assert diff["summaryCounts"]["modified"] == 1
    assert reviewer.to_bytes() == before


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("malformed_zipbomb-ratio.docx", "input-too-large"),
        ("malformed_truncated-zip.docx", "load-failed"),
        ("malformed_xxe-external-entity.docx", "load-failed"),
    ],
)
def test_archive_guards_become_input_errors(name: str, code: str) -> None:
    hostile = CORPUS / "malformed" / name
    if not hostile.exists():
        pytest.skip("corpus not available")
    with pytest.raises(CompareInputError) as err:
        compare_docx_versions(BASE, hostile.read_bytes())
    assert err.value.code == code and err.value.role == "revised"


def test_oversized_core_properties_are_refused() -> None:
    huge = with_core(doc("Same."), title=secrets.token_hex(600_000))  # incompressible, over 1 MB
    with pytest.raises(CompareInputError) as err:
        compare_docx_versions(huge, BASE, include=["metadata"])
    assert err.value.code == "core-properties-too-large"


# ----------------------------------------------------------------------------- fields and note markers
def _page_field(number: str, simple: bool) -> str:
    if simple:
        return f'<w:fldSimple w:instr=" PAGE "><w:r><w:t>{number}</w:t></w:r></w:fldSimple>'
    return (
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r>'
        f'<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>{number}</w:t></w:r>'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    )


@pytest.mark.parametrize("simple", [True, False])
def test_page_number_results_are_layout_not_text(simple: bool) -> None:
    def footer_doc(number: str, word: str) -> bytes:
        runs = f'<w:r><w:t xml:space="preserve">{word} page </w:t></w:r>{_page_field(number, simple)}'
        return make_docx(p("Body.") + p(runs=runs))

    assert compare_docx_versions(footer_doc("17", "Draft"), footer_doc("10", "Draft"))["changes"] == []
    (change,) = compare_docx_versions(footer_doc("17", "Draft"), footer_doc("10", "Final"))["changes"]
    assert change["type"] == "modified"


def test_base_markers_follow_the_revised_text() -> None:
    from reviewer_app.docx.compare.notes import with_base_markers

    assert with_base_markers("Go[^1] now.", "Go[^1] now please.") == "Go[^1] now please."
    assert with_base_markers("Go[^e1] now.", "Go [^3] now.") == "Go [^e1] now."  # same count: their places
    assert with_base_markers("abc[^1] def", "xyz def") == "xyz[^1] def"  # carried by the word alignment
    assert with_base_markers("a b c", "a [^1]b c") == "a b c"  # a note the base lacks cannot be added
    assert with_base_markers("one[^1] two[^2] three", "one two three four") == "one[^1] two[^2] three four"
