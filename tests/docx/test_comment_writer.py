"""Writing comments: commentOnBlock / commentOnRange, replies, resolve/reopen, and the five parts.

Small documents from ``docx_factory`` state the markup each rule is about; corpus files are used
in place (read only). Everything written is read back through the comments reader
(``list_comments``), checked by the independent schema/OPC checker, opened with python-docx, and
(marked ``libreoffice``) read by LibreOffice.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import docx
import pytest
from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.comment_writer import PART_SPECS, attach_comment, initials_of, reply, resolve
from reviewer_app.docx.comments import comment_records, list_comments
from reviewer_app.docx.edit.context import EditContext
from reviewer_app.docx.edit.markup import insert_runs, make_runs
from reviewer_app.docx.edit.stamp import RevisionStamp, Stamper
from reviewer_app.docx.package import Package
from tests.checkers import schema_report
from tests.conftest import CORPUS, REPO_ROOT
from tests.docx_factory import make_docx, p

AUTHOR = "Reviewer AI"
STAMP = RevisionStamp("2026-03-01T10:00:00Z", 0)
SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
PLAIN = CORPUS / "public" / "pt_CA001-Plain.docx"
NO_W14 = CORPUS / "public" / "docx4j_databinding-invoice.docx"
NS = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
    "w15": "http://schemas.microsoft.com/office/word/2012/wordml",
    "w16cid": "http://schemas.microsoft.com/office/word/2016/wordml/cid",
    "w16cex": "http://schemas.microsoft.com/office/word/2018/wordml/cex",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "pr": "http://schemas.openxmlformats.org/package/2006/relationships",
    "ct": "http://schemas.openxmlformats.org/package/2006/content-types",
}
W = "{%s}" % NS["w"]
TEXT = "The supplier delivers the goods on time."


# ----------------------------------------------------------------------------- helpers
def open_doc(data: bytes | None = None, path: Path | None = None) -> DocxReviewer:
    package = Package.from_bytes(data) if data is not None else Package.open(path)
    return DocxReviewer(package, author=AUTHOR, revision_stamp=STAMP)


def apply(rev: DocxReviewer, *ops: dict[str, Any], **batch: Any) -> dict[str, Any]:
    return rev.apply_operations({"version": 1, "operations": list(ops), **batch})


def block_comment(op_id: str, block_id: str, text: str, quote: str | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {
        "id": op_id,
        "type": "commentOnBlock",
        "blockId": block_id,
        "comment": {"text": text},
    }
    if quote is not None:
        op["quote"] = quote
    return op


def range_comment(op_id: str, rng: dict[str, Any], text: str) -> dict[str, Any]:
    return {"id": op_id, "type": "commentOnRange", "range": rng, "comment": {"text": text}}


def members(rev: DocxReviewer) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(rev.to_bytes())) as z:
        return {n: z.read(n) for n in z.namelist()}


def canonical(rev: DocxReviewer) -> dict[str, bytes]:
    """Every XML part in canonical form: equal when the content is, whatever the serialization."""
    return {n: etree.tostring(etree.fromstring(b), method="c14n") for n, b in members(rev).items()}


def part(rev: DocxReviewer, name: str) -> etree._Element:
    return etree.fromstring(members(rev)[name])


def by_text(comments: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {c["text"]: c for c in comments}


def save(rev: DocxReviewer, tmp_path: Path, name: str = "out.docx") -> Path:
    out = tmp_path / name
    rev.save(out)
    docx.Document(str(out))  # python-docx must still open it
    return out


def errors(path: Path) -> tuple[int, int]:
    report = schema_report(path)
    return int(report["errors_total"]) + len(report.get("package_errors", [])), int(report["warnings_total"])


def three_paragraphs() -> DocxReviewer:
    runs = (
        '<w:r><w:t xml:space="preserve">The supplier </w:t></w:r>'
        '<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">delivers the goods</w:t></w:r>'
        '<w:ins w:id="90" w:author="Bob" w:date="2025-01-01T00:00:00Z"><w:r><w:t xml:space="preserve"> on</w:t></w:r></w:ins>'
        '<w:r><w:t xml:space="preserve"> time.</w:t></w:r>'
    )
    body = (
        p(runs=runs, para_id="00000001")
        + p("", para_id="00000002")
        + p("Goods and goods.", para_id="00000003")
    )
    return open_doc(make_docx(body))


# ----------------------------------------------------------------------------- commentOnBlock / Range
def test_comment_on_block_whole_quote_and_blank_block() -> None:
    rev = three_paragraphs()
    result = apply(
        rev,
        block_comment("whole", "00000001", "Whole block.\nSecond line.\n\nFourth."),
        block_comment("quoted", "00000001", "Only the goods.", quote="goods"),
        block_comment("blank", "00000002", "An empty paragraph."),
    )
    assert result["status"] == "committed" and not result["skipped"]
    ids = [a["commentId"] for a in result["applied"]]
    assert len(set(ids)) == 3
    assert result["receipts"][1]["affected"] == [
        {"type": "block", "story": "main", "blockId": "00000001", "effect": "commented"},
        {"type": "comment", "commentId": ids[1]},
    ]
    comments = by_text(rev.comments())
    whole = comments["Whole block.\nSecond line.\n\nFourth."]
    assert (whole["author"], whole["blockId"], whole["quote"], whole["resolved"]) == (
        AUTHOR, "00000001", TEXT, False,
    )  # fmt: skip
    assert comments["Only the goods."]["quote"] == "goods"
    assert (comments["An empty paragraph."]["blockId"], comments["An empty paragraph."]["quote"]) == (
        "00000002",
        "",
    )
    # anchoring changed neither text nor formatting: the bold run was only split at the quote
    assert [b.text for b in rev.snapshot().blocks] == [TEXT, "", "Goods and goods."]
    body = part(rev, "word/document.xml")
    assert [t.text for t in body.xpath(".//w:r[w:rPr/w:b]/w:t", namespaces=NS)] == ["delivers the ", "goods"]
    assert not body.findall(".//w:del", NS) and len(body.findall(".//w:ins", NS)) == 1
    # the whole-paragraph range opens before the first run and closes after the last one
    first = body.find(".//w:p", NS)
    assert first[0].tag == W + "commentRangeStart" and first[-1].find("w:commentReference", NS) is not None


def test_comment_on_block_refusals() -> None:
    rev = three_paragraphs()
    result = apply(
        rev,
        block_comment("missing", "00000001", "x", quote="nowhere"),
        block_comment("twice", "00000003", "x", quote="oods"),
        block_comment("gone", "nope", "x"),
    )
    assert [i["code"] for i in result["issues"]] == ["missingFind", "ambiguousFind", "missingBlock"]
    assert result["status"] == "committed" and not result["applied"]
    assert rev.comments() == [] and "word/comments.xml" not in members(rev)


def test_comment_on_range_and_stale_range() -> None:
    rev = three_paragraphs()
    match = rev.find_text("goods on time")["matches"][0]
    stale = dict(match["range"], selectedTextHash="h0")
    result = apply(rev, range_comment("r", match["range"], "Range."), range_comment("s", stale, "Stale."))
    assert result["applied"] == [{"id": "r", "commentId": result["applied"][0]["commentId"]}]
    assert [i["code"] for i in result["issues"]] == ["staleRange"]
    comment_id = result["applied"][0]["commentId"]
    assert result["receipts"][0]["affected"] == [
        {"type": "textRange", "range": match["range"], "effect": "commented"},
        {"type": "comment", "commentId": comment_id},
    ]
    (comment,) = rev.comments()
    assert (comment["text"], comment["quote"], comment["blockId"]) == ("Range.", "goods on time", "00000001")
    # the range ends outside Bob's insertion, so the markers and the reference stay at run level
    body = part(rev, "word/document.xml")
    for tag in ("commentRangeStart", "commentRangeEnd", "commentReference"):
        (marker,) = body.iterfind(f".//w:{tag}", NS)
        assert not [a for a in marker.iterancestors() if a.tag in (W + "ins", W + "del")]


def test_range_inside_another_authors_insertion_keeps_the_reference_untracked(tmp_path: Path) -> None:
    rev = three_paragraphs()
    (edge,) = rev.find_text(" on")["matches"]  # a range that is exactly the insertion: markers step out of it
    apply(rev, range_comment("edge", edge["range"], "The whole insertion."))
    body = part(rev, "word/document.xml")
    ins = body.find(".//w:ins", NS)
    assert ins.getprevious().tag == W + "commentRangeStart" and ins.getnext().tag == W + "commentRangeEnd"
    rev = three_paragraphs()
    (match,) = rev.find_text("n t")["matches"]  # starts inside Bob's insertion " on"
    result = apply(rev, range_comment("r", match["range"], "Inside an insertion."))
    assert not result["skipped"]
    assert rev.comments()[0]["quote"] == "n t"
    body = part(rev, "word/document.xml")
    reference = body.find(".//w:commentReference", NS)
    assert reference.getparent().getparent().tag == W + "p"  # the reference run is not inside Bob's w:ins
    assert body.find(".//w:ins//w:commentRangeStart", NS) is not None  # the range really starts inside it
    assert errors(save(rev, tmp_path)) == (0, 0)


def test_direct_mode_writes_the_same_comment_and_suggested_is_refused() -> None:
    results = {}
    for mode in ("tracked-changes", "direct"):
        rev = three_paragraphs()
        apply(rev, block_comment("c", "00000001", "Same.", quote="goods"), mode=mode)
        results[mode] = (rev.comments(), canonical(rev)["word/document.xml"])
    assert results["direct"] == results["tracked-changes"]
    refused = apply(three_paragraphs(), block_comment("c", "00000001", "x"), mode="suggested")
    assert [i["code"] for i in refused["issues"]] == ["unsupportedMode"]


# ----------------------------------------------------------------------------- parts and ids
def test_missing_parts_are_created_with_relationships_and_content_types(tmp_path: Path) -> None:
    rev = open_doc(make_docx(p(TEXT, para_id="00000001")))
    apply(rev, block_comment("c", "00000001", "New parts."))
    files = members(rev)
    rels = part(rev, "word/_rels/document.xml.rels")
    types = part(rev, "[Content_Types].xml")
    for spec in PART_SPECS:
        name = "word/" + spec.file_name
        assert name in files
        (rel,) = [r for r in rels.iterfind("pr:Relationship", NS) if r.get("Type") == spec.rel_type]
        assert rel.get("Target") == spec.file_name
        (override,) = [o for o in types.iterfind("ct:Override", NS) if o.get("PartName") == "/" + name]
        assert override.get("ContentType") == spec.content_type
        root = etree.fromstring(files[name])
        assert root.tag == spec.root_tag
        ignorable = root.get("{%s}Ignorable" % NS["mc"]).split()
        assert set(ignorable) == set(spec.ignorable) and all(root.nsmap.get(p) == NS[p] for p in ignorable)
    comment = part(rev, "word/comments.xml").find("w:comment", NS)
    assert comment.get(W + "initials") == "RA" and comment.get(W + "date") == STAMP.date
    first_run = comment.find("w:p/w:r", NS)
    assert first_run.find("w:annotationRef", NS) is not None
    person = part(rev, "word/people.xml").find("w15:person", NS)
    assert person.get("{%s}author" % NS["w15"]) == AUTHOR
    info = person.find("w15:presenceInfo", NS)
    assert (info.get("{%s}providerId" % NS["w15"]), info.get("{%s}userId" % NS["w15"])) == ("None", AUTHOR)
    assert errors(save(rev, tmp_path)) == (0, 0)


def test_ids_are_unique_and_avoid_footnote_ids(tmp_path: Path) -> None:
    notes = (
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>'
        '<w:footnote w:id="1"><w:p><w:r><w:t>Note one.</w:t></w:r></w:p></w:footnote>'
        '<w:footnote w:id="2"><w:p><w:r><w:t>Note two.</w:t></w:r></w:p></w:footnote>'
    )
    runs = (
        '<w:r><w:t xml:space="preserve">Fees </w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>'
        '<w:r><w:t xml:space="preserve"> and costs</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r>'
    )
    rev = open_doc(
        make_docx(p(runs=runs, para_id="00000001") + p("More.", para_id="00000002"), footnotes=notes)
    )
    ops = [block_comment(f"c{i}", "00000001", f"Comment {i}.") for i in range(3)]
    result = apply(rev, *ops, block_comment("q", "00000002", "Quoted.", quote="More"))
    comment_ids = [a["commentId"] for a in result["applied"]]
    first = reply(rev.document, comment_ids[0], "A reply.", "Ann", STAMP.date)
    comment_ids.append(first)
    assert len(set(comment_ids)) == 5 and not set(comment_ids) & {"-1", "0", "1", "2"}
    records = comment_records(rev.document)
    assert sorted(r.id for r in records) == sorted(comment_ids)
    durable = [c.get("{%s}durableId" % NS["w16cid"]) for c in part(rev, "word/commentsIds.xml")]
    assert len(set(durable)) == 5 and all(0 < int(d, 16) < 0x7FFFFFFF for d in durable)
    cex = [c.get("{%s}durableId" % NS["w16cex"]) for c in part(rev, "word/commentsExtensible.xml")]
    assert cex == durable
    para_ids = [
        el.get("{%s}paraId" % NS["w14"])
        for name in ("word/document.xml", "word/comments.xml", "word/footnotes.xml")
        for el in part(rev, name).iter(W + "p")
        if el.get("{%s}paraId" % NS["w14"])
    ]
    assert len(para_ids) == len(set(para_ids)) and all(int(x, 16) < 0x80000000 for x in para_ids)
    # every marker pairs with a w:comment; every comment has its markers once
    body = part(rev, "word/document.xml")
    for tag in ("commentRangeStart", "commentRangeEnd", "commentReference"):
        assert sorted(m.get(W + "id") for m in body.iter(W + tag)) == sorted(comment_ids)
    assert errors(save(rev, tmp_path)) == (0, 0)


def test_initials() -> None:
    assert initials_of("Priya Shah (Harbour Bank counsel)") == "PS"
    assert initials_of("Reviewer") == "R"
    assert initials_of("") == ""


def test_chosen_initials_go_on_that_persons_comments_only() -> None:
    """Word shows initials on a comment; a person who chose theirs (Settings) gets them."""
    rev = three_paragraphs()
    rev.set_initials(AUTHOR, " AXL ")
    root_id = apply(rev, block_comment("c", "00000001", "Root.", quote="goods"))["applied"][0]["commentId"]
    mine = reply(rev.document, root_id, "My reply.", AUTHOR)
    theirs = reply(rev.document, root_id, "Their reply.", "Priya Shah (Harbour Bank counsel)")
    rev.set_initials(AUTHOR, "")
    derived = reply(rev.document, root_id, "Later.", AUTHOR)
    initials = {r.id: r.initials for r in comment_records(rev.document)}
    assert [initials[i] for i in (root_id, mine, theirs, derived)] == [
        "AXL",
        "AXL",
        "PS",
        initials_of(AUTHOR),
    ]


# ----------------------------------------------------------------------------- replies and resolve
def test_reply_and_reply_to_reply_thread_under_the_root() -> None:
    rev = three_paragraphs()
    result = apply(rev, block_comment("c", "00000001", "Root.", quote="goods"))
    root_id = result["applied"][0]["commentId"]
    first = reply(rev.document, root_id, "First reply.", "Ann", "2026-03-02T00:00:00Z")
    second = reply(rev.document, first, "Reply to the reply.", "Bob", "2026-03-03T00:00:00Z")
    assert reply(rev.document, "4242", "Nobody.", "Ann") is None
    (root,) = rev.comments()
    assert root["id"] == root_id and root["quote"] == "goods"
    assert root["replies"] == [
        {"id": first, "author": "Ann", "text": "First reply."},
        {"id": second, "author": "Bob", "text": "Reply to the reply."},
    ]
    records = {r.id: r for r in comment_records(rev.document)}
    extended = {e.get("{%s}paraId" % NS["w15"]): e for e in part(rev, "word/commentsExtended.xml")}
    for reply_id in (first, second):
        entry = extended[records[reply_id].para_id]
        assert entry.get("{%s}paraIdParent" % NS["w15"]) == records[root_id].para_id
    # own markers on the root's range, in thread order: starts together, then end+reference pairs
    p1 = part(rev, "word/document.xml").find(".//w:p", NS)
    order = [
        (etree.QName(el).localname, el.get(W + "id"))
        for el in p1.iter(W + "commentRangeStart", W + "commentRangeEnd", W + "commentReference")
    ]
    assert order == [
        ("commentRangeStart", root_id), ("commentRangeStart", first), ("commentRangeStart", second),
        ("commentRangeEnd", root_id), ("commentReference", root_id),
        ("commentRangeEnd", first), ("commentReference", first),
        ("commentRangeEnd", second), ("commentReference", second),
    ]  # fmt: skip
    names = {p.get("{%s}author" % NS["w15"]) for p in part(rev, "word/people.xml")}
    assert names == {AUTHOR, "Ann", "Bob"}


def test_resolve_and_reopen_touch_only_the_target() -> None:
    rev = three_paragraphs()
    result = apply(
        rev,
        block_comment("a", "00000001", "A.", quote="goods"),
        block_comment("b", "00000003", "B.", quote="and"),
    )
    a, b = (x["commentId"] for x in result["applied"])
    child = reply(rev.document, a, "Child.", "Ann")
    before = rev.document.version
    assert resolve(rev.document, a, True) is True
    assert rev.document.version != before  # later reads see the change
    flags = {c["id"]: c["resolved"] for c in rev.comments()}
    assert flags == {a: True, b: False}
    records = {r.id: r for r in comment_records(rev.document)}
    assert (records[a].done, records[child].done, records[b].done) == (True, False, False)
    assert resolve(rev.document, a, False) is True
    assert all(not c["resolved"] for c in rev.comments())
    assert resolve(rev.document, "4242", True) is False


def test_resolve_creates_the_missing_extended_entry() -> None:
    comments = (
        '<w:comment w:id="5" w:author="Ann" w:date="2024-01-01T00:00:00Z">'
        "<w:p><w:r><w:t>No paraId, no commentsExtended.</w:t></w:r></w:p></w:comment>"
    )
    runs = (
        '<w:commentRangeStart w:id="5"/><w:r><w:t>Text.</w:t></w:r><w:commentRangeEnd w:id="5"/>'
        '<w:r><w:commentReference w:id="5"/></w:r>'
    )
    rev = open_doc(make_docx(p(runs=runs, para_id="00000001"), comments=comments))
    assert resolve(rev.document, "5", True) is True
    (comment,) = rev.comments()
    assert comment["resolved"] is True and comment["quote"] == "Text."
    record = comment_records(rev.document)[0]
    assert record.para_id and record.extended is not None
    reply_id = reply(rev.document, "5", "Reply.", "Bob")
    assert rev.comments()[0]["replies"] == [{"id": reply_id, "author": "Bob", "text": "Reply."}]


def test_existing_comments_part_without_w14_gets_declarations(tmp_path: Path) -> None:
    """docx4j wrote comments.xml without w14 and with MCE bound to ``ve``: declare, do not duplicate."""
    before = errors(NO_W14)
    rev = open_doc(path=NO_W14)
    existing = rev.comments()
    block = next(b for b in rev.snapshot().blocks if b.text.strip())
    apply(rev, block_comment("c", block.id, "New one."))
    assert reply(rev.document, existing[0]["id"], "Reply.", "Ann")
    assert resolve(rev.document, existing[1]["id"], True)
    root = part(rev, "word/comments.xml")
    assert root.nsmap["w14"] == NS["w14"]
    assert "w14" in root.get("{%s}Ignorable" % NS["mc"]).split()
    assert sum(1 for uri in root.nsmap.values() if uri == NS["mc"]) == 1
    comments = by_text(rev.comments())
    assert comments["New one."]["blockId"] == block.id
    assert comments[existing[0]["text"]]["replies"][0]["text"] == "Reply."
    assert comments[existing[1]["text"]]["resolved"] is True
    out_errors, out_warnings = errors(save(rev, tmp_path))
    assert out_errors <= before[0] and out_warnings <= before[1]


# ----------------------------------------------------------------------------- rollback and helpers
def test_dry_run_atomic_rejection_and_undo_leave_no_trace() -> None:
    rev = open_doc(make_docx(p(TEXT, para_id="00000001") + p("Second.", para_id="00000002")))
    original = canonical(rev)
    good = block_comment("good", "00000001", "Kept?", quote="goods")
    bad = block_comment("bad", "00000002", "x", quote="missing")
    assert apply(rev, good, dryRun=True)["status"] == "previewed"
    assert canonical(rev) == original
    assert apply(rev, good, bad, atomic=True)["status"] == "rejected"
    assert canonical(rev) == original
    result = apply(rev, good, bad)
    assert [a["id"] for a in result["applied"]] == ["good"] and len(rev.comments()) == 1
    assert rev.undo_operations(result["undoHandle"])["status"] == "undone"
    assert canonical(rev) == original and rev.comments() == []
    again = apply(rev, good)
    assert again["status"] == "committed" and rev.comments()[0]["quote"] == "goods"


def test_attach_comment_helper_on_a_tracked_insertion_and_its_rollback() -> None:
    rev = open_doc(make_docx(p(TEXT, para_id="00000001")))
    doc = rev.document
    original = canonical(rev)
    ctx = EditContext(doc, doc.snapshot(), Stamper(doc, AUTHOR, STAMP), tracked=True)
    para = ctx.block("00000001").element
    ctx.touch(para)
    inserted = insert_runs(make_runs(" Promptly.", None), para, para[-1], ctx.stamper, tracked=True)
    comment_id = attach_comment(ctx, para, inserted, inserted, "Why promptly?")
    assert [e.tag for e in para[-4:]] == [
        W + "commentRangeStart", W + "ins", W + "commentRangeEnd", W + "r"
    ] and para[-1].find("w:commentReference", NS).get(W + "id") == comment_id  # fmt: skip
    doc.structure_changed()
    (comment,) = list_comments(doc, doc.snapshot())
    assert (comment["text"], comment["quote"], comment["author"]) == ("Why promptly?", " Promptly.", AUTHOR)
    ctx.checkpoints.restore(doc)
    doc.structure_changed()
    assert canonical(rev) == original
    assert not any(doc.package.has_part("word/" + spec.file_name) for spec in PART_SPECS)


# ----------------------------------------------------------------------------- LibreOffice
def _lo_check(lo: dict[str, Any], ours: list[dict[str, Any]]) -> None:
    """Every comment and reply we list is one LibreOffice shows: author, text, resolved, anchor."""
    seen = {c["text"]: c for c in lo["comments"]}
    assert lo["load_ok"] and lo["comment_count"] == sum(1 + len(c["replies"]) for c in ours)
    for comment in ours:
        shown = seen[comment["text"]]
        assert (shown["author"], shown["resolved"]) == (comment["author"], comment["resolved"])
        for child in comment["replies"]:
            assert seen[child["text"]]["author"] == child["author"]
            assert seen[child["text"]]["anchor_text"] == shown["anchor_text"]


@pytest.mark.libreoffice
def test_libreoffice_reads_comments_added_to_the_sample_msa(tmp_path: Path, lo_reading: Any) -> None:
    rev = open_doc(path=SAMPLE)
    before = {c["id"]: c for c in rev.comments()}
    definition = next(b for b in rev.snapshot().blocks if b.text.startswith("“Confidential Information”"))
    match = next(m for m in rev.find_text("Business Day")["matches"] if m["blockId"] != "005094C3")
    result = apply(
        rev,
        block_comment("block", definition.id, "Whole definition: too broad."),
        block_comment("quote", definition.id, "Which Affiliates?", quote="its Affiliates"),
        range_comment("range", match["range"], "Defined term used here."),
    )
    assert len(result["applied"]) == 3
    assert reply(rev.document, "1007", "We can look at £3,000,000.", AUTHOR, STAMP.date)
    assert reply(rev.document, "1008", "Insurers confirmed.", AUTHOR, STAMP.date)  # a reply to a reply
    assert resolve(rev.document, "1005", True) and resolve(rev.document, "1000", False)
    ours = rev.comments()
    threads = {c["id"]: c for c in ours}
    assert [r["text"] for r in threads["1007"]["replies"]][-2:] == [
        "We can look at £3,000,000.",
        "Insurers confirmed.",
    ]
    assert (threads["1005"]["resolved"], threads["1000"]["resolved"]) == (True, False)
    assert before["1000"]["resolved"] is True
    texts = by_text(ours)
    assert texts["Which Affiliates?"]["quote"] == "its Affiliates"
    assert texts["Defined term used here."]["quote"] == "Business Day"
    assert texts["Whole definition: too broad."]["quote"] == definition.text
    out = save(rev, tmp_path, "msa-commented.docx")
    assert errors(out) == errors(SAMPLE) == (0, 0)
    lo = lo_reading(out)
    _lo_check(lo, ours)
    anchors = {c["text"]: c["anchor_text"] for c in lo["comments"]}
    assert anchors["Which Affiliates?"] == "its Affiliates"
    assert anchors["Defined term used here."] == "Business Day"
    assert anchors["Whole definition: too broad."] == definition.text


@pytest.mark.libreoffice
def test_libreoffice_reads_comments_on_a_document_without_comment_parts(
    tmp_path: Path, lo_reading: Any
) -> None:
    rev = open_doc(path=PLAIN)
    assert "word/comments.xml" not in members(rev)
    (block,) = rev.snapshot().blocks
    match = rev.find_text("prove your point")["matches"][0]
    result = apply(
        rev,
        block_comment("whole", block.id, "Whole paragraph."),
        block_comment("quote", block.id, "Quoted words.", quote="powerful way"),
        range_comment("range", match["range"], "Range words."),
    )
    ids = [a["commentId"] for a in result["applied"]]
    assert reply(rev.document, ids[1], "A reply.", "Ann Lee", STAMP.date)
    assert resolve(rev.document, ids[2], True)
    ours = rev.comments()
    assert {c["text"]: c["quote"] for c in ours} == {
        "Whole paragraph.": block.text, "Quoted words.": "powerful way", "Range words.": "prove your point",
    }  # fmt: skip
    out = save(rev, tmp_path, "plain-commented.docx")
    assert errors(out) == (0, 0)
    lo = lo_reading(out, accept_reject=True)
    _lo_check(lo, ours)
    anchors = {c["text"]: c["anchor_text"] for c in lo["comments"]}
    assert anchors == {
        "Whole paragraph.": block.text, "Quoted words.": "powerful way", "Range words.": "prove your point",
        "A reply.": "powerful way",
    }  # fmt: skip
    shown = {c["text"]: (c["author"], c["initials"], c["resolved"]) for c in lo["comments"]}
    assert shown["A reply."] == ("Ann Lee", "AL", False) and shown["Range words."][2] is True
    # comments are not tracked changes: nothing to accept or reject, the text is untouched
    assert lo["tracked_change_total"] == 0
    assert lo["accept_all"]["text"] == lo["reject_all"]["text"] == lo["text"] == block.text
