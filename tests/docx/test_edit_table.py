"""Table operations: insert/delete tables, rows and columns, merge/split cells, signature tables.

Every test reads its result back through a fresh reviewer (what a saved file says): the blocks'
``table`` locations, the tracked changes, and our own accept-all / reject-all. The LibreOffice
tests let a third party judge the markup on real files: it must load them, see the intended
changes, and its accept-all / reject-all must give the intended / the original text.
"""

from __future__ import annotations

import io
import zipfile
from collections import defaultdict
from pathlib import Path

import pytest
from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.edit import resolve
from reviewer_app.docx.edit.batch import parse_batch
from reviewer_app.docx.edit.context import EditContext
from reviewer_app.docx.edit.registry import HANDLERS
from reviewer_app.docx.edit.skips import Skip
from reviewer_app.docx.edit.stamp import RevisionStamp, Stamper
from reviewer_app.docx.revisions import change_groups, document_revisions
from reviewer_app.docx.xmlutil import W14, W
from tests.checkers import schema_errors
from tests.docx_factory import NAMESPACES, make_docx, p

STAMP = RevisionStamp(date="2026-01-02T03:04:05Z", id_seed=100)
AUTHOR = "Reviewer AI"
SECT = (
    '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" '
    'w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>'
)
STYLES = (
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
    '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style>'
)
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "public"
WC006 = CORPUS / "pt_WC006-Table.docx"
HC014 = CORPUS / "pt_HC014-RTL-Table-01.docx"
MSA = Path(__file__).resolve().parents[2] / "resources" / "samples" / "sample-msa.docx"


# ----------------------------------------------------------------------------- fixtures
def pid(r: int, c: int, t: int = 0) -> str:
    """The paraId of cell (r, c) of table t in :func:`table`."""
    return f"{t + 1}{r:03d}{c:04d}"


def cell(text: str, para_id: str, tcpr: str = "") -> str:
    return f'<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/>{tcpr}</w:tcPr>{p(text, para_id=para_id)}</w:tc>'


def table(rows: list[list[str]], t: int = 0, tcpr: dict | None = None, trpr: dict | None = None) -> str:
    """A TableGrid table of 3000-twip columns; ``tcpr[(r, c)]`` / ``trpr[r]`` add properties."""
    tcpr, trpr = tcpr or {}, trpr or {}
    width = max(len(r) for r in rows)
    grid = "".join('<w:gridCol w:w="3000"/>' for _ in range(width))
    trs = "".join(
        "<w:tr>"
        + (f"<w:trPr>{trpr[r]}</w:trPr>" if r in trpr else "")
        + "".join(cell(text, pid(r, c, t), tcpr.get((r, c), "")) for c, text in enumerate(row))
        + "</w:tr>"
        for r, row in enumerate(rows)
    )
    return (
        '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>'
        f"<w:tblGrid>{grid}</w:tblGrid>{trs}</w:tbl>"
    )


GRID3 = [["A1", "B1", "C1"], ["A2", "B2", "C2"], ["A3", "B3", "C3"]]


def rewrite(data: bytes, part: str, old: str, new: str) -> bytes:
    """``data`` with ``old`` replaced by ``new`` in one part (the package is zipped)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            content = src.read(info)
            if info.filename == part:
                assert old.encode() in content, old
                content = content.replace(old.encode(), new.encode())
            dst.writestr(info, content)
    return out.getvalue()


def doc(*blocks: str, styles: str = STYLES, sect: str = SECT) -> bytes:
    return make_docx("".join(blocks) + sect, styles=styles)


def standard(rows: list[list[str]] = GRID3, **kw) -> bytes:
    return doc(p("Intro", para_id="00000001"), table(rows, **kw), p("Outro", para_id="00000002"))


def reviewer(data: bytes) -> DocxReviewer:
    r = DocxReviewer.from_bytes(data, author=AUTHOR)
    r.revision_stamp = STAMP
    return r


def apply(r: DocxReviewer, *ops: dict, mode: str = "tracked-changes", **extra) -> dict:
    ops = tuple({"id": f"op{i}", **op} for i, op in enumerate(ops))
    return r.apply_operations({"version": 1, "mode": mode, "operations": list(ops), **extra})


def run(data: bytes, *ops: dict, mode: str = "tracked-changes") -> tuple[dict, DocxReviewer]:
    r = reviewer(data)
    result = apply(r, *ops, mode=mode)
    return result, DocxReviewer.from_bytes(r.to_bytes())


def skip_code(result: dict) -> str | None:
    return result["issues"][0]["code"] if result["issues"] else None


def grids(r: DocxReviewer) -> list[list[list[str]]]:
    """Per table (outer and nested, in order): rows of cell texts (a cell's paragraphs joined by "\\n")."""
    cells: dict[tuple[int, int, int], list[str]] = defaultdict(list)
    for b in r.snapshot().blocks:
        if b.table:
            cells[(b.table["tableIndex"], b.table["rowIndex"], b.table["cellIndex"])].append(b.text)
    out: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for (t, row, _c), texts in sorted(cells.items()):
        out[t][row].append("\n".join(texts))
    return [[out[t][row] for row in sorted(out[t])] for t in sorted(out)]


def body_texts(r: DocxReviewer) -> list[str]:
    return [b.text for b in r.snapshot().blocks if not b.table]


def location(r: DocxReviewer, block_id: str) -> dict:
    return next(b.table for b in r.snapshot().blocks if b.id == block_id)


def change_types(r: DocxReviewer) -> list[str]:
    return [c["type"] for c in r.changes()]


def accepted(r: DocxReviewer) -> DocxReviewer:
    copy = DocxReviewer.from_bytes(r.to_bytes())
    resolve.accept_all(copy.document)
    return DocxReviewer.from_bytes(copy.to_bytes())


def rejected(r: DocxReviewer) -> DocxReviewer:
    copy = DocxReviewer.from_bytes(r.to_bytes())
    resolve.reject_all(copy.document)
    return DocxReviewer.from_bytes(copy.to_bytes())


def document_xml(r: DocxReviewer) -> etree._Element:
    with zipfile.ZipFile(io.BytesIO(r.to_bytes())) as z:
        return etree.fromstring(z.read("word/document.xml"))


def tables_of(r: DocxReviewer) -> list[etree._Element]:
    return document_xml(r).findall(f"{W}body/{W}tbl")


def revision_ids_unique(r: DocxReviewer) -> bool:
    ids = [
        el.get(W + "id")
        for el in document_xml(r).iter()
        if isinstance(el.tag, str)
        and etree.QName(el).localname
        in ("ins", "del", "cellIns", "cellDel", "tcPrChange", "tblGridChange", "trPrChange")
    ]
    return len(ids) == len(set(ids)) and all(0 < int(i) < 2**31 for i in ids)


# ----------------------------------------------------------------------------- insertTable
def test_insert_table_tracked_rows_cells_widths_and_paragraph_ids():
    result, after = run(
        standard(),
        {"type": "insertTable", "blockId": "00000002", "rows": [["x", "y", "z"], ["a\n\nb", "", "c"]]},
    )
    assert result["status"] == "committed"
    assert result["receipts"][0]["affected"] == [
        {
            "type": "insertion",
            "story": "main",
            "anchorBlockId": "00000002",
            "position": "after",
            "content": "table",
        }
    ]
    assert grids(after)[1] == [["x", "y", "z"], ["a\n\nb", "", "c"]]
    new = tables_of(after)[1]
    assert new.find(f"{W}tblPr/{W}tblStyle").get(W + "val") == "TableGrid"
    widths = [int(c.get(W + "w")) for c in new.iter(W + "gridCol")]
    assert widths == [3120, 3120, 3120]  # 12240 - 2 * 1440, in three
    assert all(tr.find(f"{W}trPr/{W}ins") is not None for tr in new.iter(W + "tr"))
    paragraphs = list(new.iter(W + "p"))
    assert len(paragraphs) == 8  # "a", "", "b" are three paragraphs of one cell
    assert all(q.find(f"{W}pPr/{W}rPr/{W}ins") is not None for q in paragraphs)
    ids = [q.get(W14 + "paraId") for q in document_xml(after).iter(W + "p")]
    assert len(ids) == len(set(ids)) and None not in ids
    assert change_types(after) == ["rowInserted", "rowInserted"]
    assert revision_ids_unique(after)
    # the table is the body's last block: no paragraph is added after it
    assert document_xml(after).find(f"{W}body")[-2].tag == W + "tbl"
    assert len(tables_of(accepted(after))) == 2 and accepted(after).changes() == []
    back = rejected(after)
    assert len(tables_of(back)) == 1 and grids(back) == [GRID3] and body_texts(back) == ["Intro", "Outro"]


def test_insert_table_without_table_grid_style_draws_borders_and_falls_back_to_9000():
    result, after = run(
        doc(p("Only", para_id="00000001"), p("End", para_id="00000002"), styles="", sect=""),
        {"type": "insertTable", "blockId": "00000001", "rows": [["1", "2"]]},
        mode="direct",
    )
    new = tables_of(after)[0]
    assert new.find(f"{W}tblPr/{W}tblStyle") is None
    assert new.find(f"{W}tblPr/{W}tblBorders/{W}insideV").get(W + "val") == "single"
    assert [int(c.get(W + "w")) for c in new.iter(W + "gridCol")] == [4500, 4500]
    assert after.changes() == [] and "revisionIds" not in result["applied"][0]
    assert body_texts(after) == ["Only", "End"]


def test_insert_table_anchored_in_a_nested_table_goes_to_the_outermost_boundary():
    inner = table([["n1"]], t=1)
    outer = table([["o1", "o2"]]).replace(
        f"{p('o2', para_id=pid(0, 1))}", f"{inner}{p('o2', para_id=pid(0, 1))}"
    )
    data = doc(p("Intro", para_id="00000001"), outer, p("Outro", para_id="00000002"))
    _, after = run(
        data, {"type": "insertTable", "blockId": pid(0, 0, 1), "rows": [["new"]], "position": "before"}
    )
    body = document_xml(after).find(f"{W}body")
    kinds = [etree.QName(el).localname for el in body]
    assert kinds == ["p", "tbl", "p", "tbl", "p", "sectPr"]  # a separator keeps the tables apart
    assert body[1].findtext(f".//{W}t") == "new"


def test_insert_table_between_a_paragraph_and_a_table_gets_a_separator_paragraph():
    _, after = run(standard(), {"type": "insertTable", "blockId": "00000001", "rows": [["x"]]})
    kinds = [etree.QName(el).localname for el in document_xml(after).find(f"{W}body")]
    assert kinds == ["p", "tbl", "p", "tbl", "p", "sectPr"]
    assert "paragraphMarkInserted" in change_types(after)
    assert rejected(after).snapshot().blocks[0].text == "Intro"
    assert grids(rejected(after)) == [GRID3]


def test_insert_table_declares_w14_when_the_part_never_used_it():
    data = rewrite(
        make_docx(p("Only") + SECT),
        "word/document.xml",
        'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" ',
        "",
    )
    data = rewrite(data, "word/document.xml", 'mc:Ignorable="w14 w15"', 'mc:Ignorable="w15"')
    r = reviewer(data)
    block_id = r.snapshot().blocks[0].id
    apply(r, {"type": "insertTable", "blockId": block_id, "rows": [["a"]]})
    root = document_xml(r)
    assert root.nsmap.get("w14") == W14[1:-1]
    assert "w14" in root.get("{http://schemas.openxmlformats.org/markup-compatibility/2006}Ignorable").split()
    xml = zipfile.ZipFile(io.BytesIO(r.to_bytes())).read("word/document.xml")
    assert xml.count(b"xmlns:w14") == 1 and b"ns0:" not in xml


def test_insert_table_on_a_diagnostic_block_is_unsupported():
    data = doc(p("Intro", para_id="00000001"), '<w:altChunk r:id="rId99"/>')
    r = reviewer(data)
    diagnostic = next(b.id for b in r.snapshot().blocks if b.kind == "diagnostic")
    result = apply(r, {"type": "insertTable", "blockId": diagnostic, "rows": [["x"]]})
    # the engine's common checks answer first (a diagnostic block has no element to anchor on) ...
    assert skip_code(result) in ("unsupportedBlock", "missingBlock") and tables_of(r) == []
    # ... and the handler itself names the reason
    ops = parse_batch(
        {"version": 1, "operations": [{"id": "x", "type": "deleteTable", "blockId": diagnostic}]}
    )
    ctx = EditContext(r.document, r.document.snapshot(), Stamper(r.document, AUTHOR, STAMP), tracked=True)
    with pytest.raises(Skip) as refused:
        HANDLERS["deleteTable"](ctx, ops.operations[0])
    assert refused.value.code == "unsupportedBlock"


# ----------------------------------------------------------------------------- deleteTable
def test_delete_table_tracked_marks_rows_runs_and_marks_and_resolves_both_ways():
    result, after = run(standard(), {"type": "deleteTable", "blockId": pid(1, 1)})
    assert result["receipts"][0]["affected"] == [
        {"type": "block", "story": "main", "blockId": pid(1, 1), "effect": "deleted"}
    ]
    tbl = tables_of(after)[0]
    assert all(tr.find(f"{W}trPr/{W}del") is not None for tr in tbl.iter(W + "tr"))
    assert [t.text for t in tbl.iter(W + "delText")] == [c for row in GRID3 for c in row]
    assert not list(tbl.iter(W + "t"))
    assert change_types(after) == ["rowDeleted"] * 3
    assert revision_ids_unique(after)
    assert tables_of(accepted(after)) == [] and body_texts(accepted(after)) == ["Intro", "Outro"]
    assert grids(rejected(after)) == [GRID3]


def test_delete_table_direct_removes_it_and_keeps_a_bookmark_that_ends_outside():
    marked = table(GRID3).replace(
        f'<w:p w14:paraId="{pid(0, 0)}">',
        f'<w:p w14:paraId="{pid(0, 0)}"><w:bookmarkStart w:id="7" w:name="b"/>',
    )
    data = doc(
        p("Intro", para_id="00000001"),
        marked,
        p(para_id="00000002", runs='<w:bookmarkEnd w:id="7"/><w:r><w:t>Outro</w:t></w:r>'),
    )
    _, after = run(data, {"type": "deleteTable", "blockId": pid(0, 0)}, mode="direct")
    root = document_xml(after)
    assert root.find(f".//{W}tbl") is None and body_texts(after) == ["Intro", "Outro"]
    assert len(root.findall(f".//{W}bookmarkStart")) == 1 and len(root.findall(f".//{W}bookmarkEnd")) == 1


def test_delete_table_refusals():
    hidden = standard(trpr={2: "<w:hidden/>"})
    assert skip_code(run(hidden, {"type": "deleteTable", "blockId": pid(0, 0)})[0]) == "unsupportedBlock"
    assert skip_code(run(standard(), {"type": "deleteTable", "blockId": "00000001"})[0]) == "unsupportedBlock"
    r = reviewer(standard())
    apply(r, {"type": "deleteTable", "blockId": pid(0, 0)})
    again = DocxReviewer.from_bytes(r.to_bytes(), author="Someone else")
    blank = next(b.id for b in again.snapshot().blocks if b.table)
    assert skip_code(apply(again, {"type": "deleteTable", "blockId": blank})) == "noopOperation"


def test_delete_table_after_an_edit_in_it_overlaps():
    result, _ = run(
        standard(),
        {"type": "replaceInBlock", "blockId": pid(2, 2), "find": "C3", "replace": "C9"},
        {"type": "deleteTable", "blockId": pid(0, 0)},
    )
    assert [s["id"] for s in result["skipped"]] == ["op1"] and skip_code(result) == "overlappingOperation"


# ----------------------------------------------------------------------------- rows
def test_insert_row_after_copies_shape_and_fills_named_cells():
    data = standard(
        tcpr={(0, 0): '<w:shd w:val="clear" w:color="auto" w:fill="D9D9D9"/>'}, trpr={0: "<w:tblHeader/>"}
    )
    result, after = run(data, {"type": "insertTableRow", "blockId": pid(0, 1), "cellTexts": ["n1", "n2"]})
    assert result["receipts"][0]["affected"][0] == {
        "type": "insertion",
        "story": "main",
        "anchorBlockId": pid(0, 1),
        "position": "after",
        "content": "tableRow",
    }
    assert grids(after) == [[GRID3[0], ["n1", "n2", ""], GRID3[1], GRID3[2]]]
    new_row = tables_of(after)[0].findall(f"{W}tr")[1]
    assert new_row.find(f"{W}trPr/{W}ins") is not None and new_row.find(f"{W}trPr/{W}tblHeader") is None
    assert new_row.find(f"{W}tc/{W}tcPr/{W}shd").get(W + "fill") == "D9D9D9"
    assert change_types(after) == ["rowInserted"]
    assert grids(rejected(after)) == [GRID3] and grids(accepted(after)) == grids(after)


def test_insert_row_before_and_direct():
    _, after = run(
        standard(), {"type": "insertTableRow", "blockId": pid(0, 0), "position": "before"}, mode="direct"
    )
    assert grids(after) == [[["", "", ""], *GRID3]] and after.changes() == []


def test_insert_row_with_too_many_texts_does_not_fit():
    result, _ = run(
        standard(), {"type": "insertTableRow", "blockId": pid(0, 0), "cellTexts": ["1", "2", "3", "4"]}
    )
    assert skip_code(result) == "payloadDoesNotFit"


def test_insert_row_inside_a_vertical_merge_continues_it_and_at_its_edge_starts_a_new_cell():
    merged = standard(tcpr={(0, 0): '<w:vMerge w:val="restart"/>', (1, 0): "<w:vMerge/>"})
    result, after = run(merged, {"type": "insertTableRow", "blockId": pid(0, 1), "cellTexts": ["m", "n"]})
    assert location(after, pid(0, 0))["rowSpan"] == 3  # the merged cell grew over the new row
    assert grids(after)[0][1] == ["", "m", "n"]  # the continuation takes no text
    _, edge = run(merged, {"type": "insertTableRow", "blockId": pid(1, 1), "cellTexts": ["x"]})
    assert location(edge, pid(0, 0))["rowSpan"] == 2 and grids(edge)[0][2] == ["x", "", ""]
    texts = ["1", "2", "3"]
    assert skip_code(
        run(merged, {"type": "insertTableRow", "blockId": pid(0, 1), "cellTexts": texts})[0]
    ) == ("payloadDoesNotFit")


def test_delete_row_tracked_and_direct():
    result, after = run(standard(), {"type": "deleteTableRow", "blockId": pid(1, 2)})
    assert result["receipts"][0]["affected"] == [
        {"type": "tableRow", "story": "main", "anchorBlockId": pid(1, 2), "effect": "deleted"}
    ]
    assert change_types(after) == ["rowDeleted"]
    assert grids(accepted(after)) == [[GRID3[0], GRID3[2]]] and grids(rejected(after)) == [GRID3]
    _, direct = run(standard(), {"type": "deleteTableRow", "blockId": pid(1, 2)}, mode="direct")
    assert grids(direct) == [[GRID3[0], GRID3[2]]] and direct.changes() == []


def test_delete_only_row_direct_removes_the_table_and_own_inserted_row_simply_goes():
    _, after = run(standard([["only"]]), {"type": "deleteTableRow", "blockId": pid(0, 0)}, mode="direct")
    assert tables_of(after) == []
    r = reviewer(standard())
    apply(r, {"type": "insertTableRow", "blockId": pid(0, 0), "cellTexts": ["mine"]})
    new_id = next(b.id for b in r.snapshot().blocks if b.text == "mine")
    apply(r, {"type": "deleteTableRow", "blockId": new_id})
    assert grids(r) == [GRID3] and r.changes() == []


def test_delete_row_refusals():
    merged = standard(tcpr={(0, 0): '<w:vMerge w:val="restart"/>', (1, 0): "<w:vMerge/>"})
    assert skip_code(run(merged, {"type": "deleteTableRow", "blockId": pid(0, 1)})[0]) == "unsupportedBlock"
    _, bottom = run(merged, {"type": "deleteTableRow", "blockId": pid(1, 1)}, mode="direct")
    assert location(bottom, pid(0, 0))["rowSpan"] == 1
    assert (
        skip_code(run(standard(), {"type": "deleteTableRow", "blockId": "00000002"})[0]) == "unsupportedBlock"
    )
    result, _ = run(
        standard(),
        {"type": "deleteTableRow", "blockId": pid(1, 0)},
        {"type": "replaceInBlock", "blockId": pid(1, 1), "find": "B2", "replace": "B9"},
    )
    assert skip_code(result) == "overlappingOperation"


# ----------------------------------------------------------------------------- columns
def test_insert_column_tracked_cell_marks_grid_change_and_texts():
    result, after = run(
        standard(),
        {"type": "insertTableColumn", "blockId": pid(0, 1), "position": "before", "cellTexts": ["x", "y"]},
    )
    assert result["receipts"][0]["affected"][0]["content"] == "tableColumn"
    assert grids(after) == [[["A1", "x", "B1", "C1"], ["A2", "y", "B2", "C2"], ["A3", "", "B3", "C3"]]]
    assert location(after, pid(0, 1))["gridColumnIndex"] == 2
    tbl = tables_of(after)[0]
    grid = tbl.find(f"{W}tblGrid")
    assert (
        len(grid.findall(f"{W}gridCol")) == 4
        and len(grid.findall(f"{W}tblGridChange/{W}tblGrid/{W}gridCol")) == 3
    )
    assert len(list(tbl.iter(W + "cellIns"))) == 3
    assert change_types(after).count("cellInserted") == 3 and revision_ids_unique(after)
    assert grids(rejected(after)) == [GRID3]
    assert len(tables_of(rejected(after))[0].findall(f"{W}tblGrid/{W}gridCol")) == 3
    assert grids(accepted(after)) == grids(after)


def test_insert_column_direct_grows_a_fixed_width_table():
    data = rewrite(
        standard(),
        "word/document.xml",
        '<w:tblW w:w="0" w:type="auto"/>',
        '<w:tblW w:w="9000" w:type="dxa"/>',
    )
    _, after = run(data, {"type": "insertTableColumn", "blockId": pid(2, 2)}, mode="direct")
    tbl = tables_of(after)[0]
    assert tbl.find(f"{W}tblPr/{W}tblW").get(W + "w") == "12000" and after.changes() == []
    assert grids(after)[0][0] == ["A1", "B1", "C1", ""]


def test_insert_column_refusals():
    spanned = doc(
        table([["wide", "C1"], ["A2", "B2", "C2"]], tcpr={(0, 0): '<w:gridSpan w:val="2"/>'}),
        p("End", para_id="00000002"),
    )
    assert (
        skip_code(run(spanned, {"type": "insertTableColumn", "blockId": pid(1, 0)})[0]) == "unsupportedBlock"
    )
    texts = ["1", "2", "3", "4"]
    result, _ = run(standard(), {"type": "insertTableColumn", "blockId": pid(0, 0), "cellTexts": texts})
    assert skip_code(result) == "payloadDoesNotFit"
    assert (
        skip_code(run(standard(), {"type": "insertTableColumn", "blockId": "00000001"})[0])
        == "unsupportedBlock"
    )


def test_delete_column_tracked_and_direct():
    result, after = run(standard(), {"type": "deleteTableColumn", "blockId": pid(1, 1)})
    assert result["receipts"][0]["affected"] == [
        {"type": "tableColumn", "story": "main", "anchorBlockId": pid(1, 1), "effect": "deleted"}
    ]
    assert len(list(tables_of(after)[0].iter(W + "cellDel"))) == 3
    assert change_types(after).count("cellDeleted") == 3
    assert grids(accepted(after)) == [[["A1", "C1"], ["A2", "C2"], ["A3", "C3"]]]
    assert grids(rejected(after)) == [GRID3]
    _, direct = run(standard(), {"type": "deleteTableColumn", "blockId": pid(1, 1)}, mode="direct")
    assert grids(direct) == [[["A1", "C1"], ["A2", "C2"], ["A3", "C3"]]]
    assert len(tables_of(direct)[0].findall(f"{W}tblGrid/{W}gridCol")) == 2


def test_delete_only_column_deletes_the_table_and_crossing_merges_are_refused():
    _, after = run(standard([["a"], ["b"]]), {"type": "deleteTableColumn", "blockId": pid(0, 0)})
    assert change_types(after) == ["rowDeleted", "rowDeleted"] and tables_of(accepted(after)) == []
    spanned = standard(tcpr={(0, 0): '<w:gridSpan w:val="2"/>'}, rows=[["wide", "C1"], ["A2", "B2", "C2"]])
    assert (
        skip_code(run(spanned, {"type": "deleteTableColumn", "blockId": pid(1, 1)})[0]) == "unsupportedBlock"
    )


def widths_of(r: DocxReviewer) -> tuple[list[str], list[str], str | None]:
    """The first table's grid widths, the old grid a pending w:tblGridChange keeps, and its w:tblW."""
    tbl = tables_of(r)[0]
    cols = [c.get(W + "w") for c in tbl.findall(f"{W}tblGrid/{W}gridCol")]
    old = [c.get(W + "w") for c in tbl.findall(f"{W}tblGrid/{W}tblGridChange/{W}tblGrid/{W}gridCol")]
    return cols, old, tbl.find(f"{W}tblPr/{W}tblW").get(W + "w")


def fixed_width(data: bytes) -> bytes:
    """``data`` with the first table 9000 twips wide (dxa) over columns of 2000, 3000 and 4000."""
    data = rewrite(
        data, "word/document.xml", '<w:tblW w:w="0" w:type="auto"/>', '<w:tblW w:w="9000" w:type="dxa"/>'
    )
    cols = "".join(f'<w:gridCol w:w="{w}"/>' for w in (2000, 3000, 4000))
    return rewrite(data, "word/document.xml", '<w:gridCol w:w="3000"/>' * 3, cols)


def test_column_changes_list_one_entry_per_cell_that_resolves_all_its_parts():
    _, after = run(standard(), {"type": "insertTableColumn", "blockId": pid(0, 1), "cellTexts": ["x", "y"]})
    listed = after.changes()
    assert [(c["type"], c["text"]) for c in listed] == [
        ("cellInserted", "x"),
        ("cellInserted", "y"),
        ("cellInserted", ""),
    ]
    kinds = [[rec.kind for rec in g.records] for g in change_groups(document_revisions(after.document))]
    assert kinds == [
        ["cellIns", "markIns", "ins"],
        ["cellIns", "markIns", "ins"],
        ["cellIns", "markIns", "tblGridChange"],
    ]
    # accepting one cell accepts its paragraph mark and its text too
    one = DocxReviewer.from_bytes(after.to_bytes())
    assert resolve.accept_change(one.document, listed[0]["id"])
    assert [c["id"] for c in one.changes()] == [c["id"] for c in listed[1:]]
    new_cell = next(tc for tc in tables_of(one)[0].iter(W + "tc") if "".join(tc.itertext()) == "x")
    assert [el.tag for el in new_cell.iter(W + "ins", W + "cellIns")] == []
    # rejected from the top, the column's cells go one by one and its last one restores the grid
    back = DocxReviewer.from_bytes(after.to_bytes())
    for change in listed[:2]:
        assert resolve.reject_change(back.document, change["id"])
    assert len(widths_of(back)[0]) == 4 and [c["id"] for c in back.changes()] == [listed[2]["id"]]
    assert resolve.reject_change(back.document, listed[2]["id"])
    assert back.changes() == [] and grids(back) == [GRID3] and widths_of(back)[:2] == (["3000"] * 3, [])


def test_accepting_a_tracked_column_deletion_removes_its_grid_column(tmp_path):
    _, after = run(fixed_width(standard()), {"type": "deleteTableColumn", "blockId": pid(1, 1)})
    assert widths_of(after) == (["2000", "3000", "4000"], [], "9000")  # pending: the cells are still there
    narrowed = (["2000", "4000"], [], "6000")
    assert widths_of(accepted(after)) == narrowed
    assert widths_of(rejected(after)) == (["2000", "3000", "4000"], [], "9000")
    one_by_one = DocxReviewer.from_bytes(after.to_bytes())
    for change in after.changes():
        assert len(widths_of(one_by_one)[0]) == 3  # until the column's last cell goes
        assert resolve.accept_change(one_by_one.document, change["id"])
    assert widths_of(one_by_one) == narrowed
    assert grids(one_by_one) == [[["A1", "C1"], ["A2", "C2"], ["A3", "C3"]]]
    assert schema_errors(_save(one_by_one, tmp_path / "accepted.docx")) == 0


def test_an_accepted_column_deletion_is_forgotten_by_a_pending_grid_change():
    _, inserted = run(
        fixed_width(standard()),
        {"type": "insertTableColumn", "blockId": pid(0, 0), "cellTexts": ["n1", "n2", "n3"]},
    )
    r = reviewer(inserted.to_bytes())
    assert not apply(r, {"type": "deleteTableColumn", "blockId": pid(0, 2)})["skipped"]
    both = DocxReviewer.from_bytes(r.to_bytes())
    assert widths_of(both)[:2] == (["2000", "2000", "3000", "4000"], ["2000", "3000", "4000"])
    for change in both.changes():
        if change["type"] == "cellDeleted":
            assert resolve.accept_change(both.document, change["id"])
    assert widths_of(both)[:2] == (["2000", "2000", "3000"], ["2000", "3000"])
    assert resolve.reject_all(both.document) == 3
    assert grids(both) == [[["A1", "B1"], ["A2", "B2"], ["A3", "B3"]]]
    assert widths_of(both)[:2] == (["2000", "3000"], [])


# ----------------------------------------------------------------------------- merge and split
def test_merge_direct_rectangle_moves_content_into_the_first_cell():
    result, after = run(
        standard(), {"type": "mergeTableCells", "blockId": pid(0, 0), "endBlockId": pid(1, 1)}, mode="direct"
    )
    assert result["receipts"][0]["affected"] == [
        {
            "type": "tableCells",
            "story": "main",
            "anchorBlockId": pid(0, 0),
            "effect": "merged",
            "endAnchorBlockId": pid(1, 1),
        }
    ]
    first = location(after, pid(0, 0))
    assert (first["columnSpan"], first["rowSpan"]) == (2, 2)
    assert grids(after)[0][0] == ["A1\nB1\nA2\nB2", "C1"]
    assert after.changes() == []


def test_merge_tracked_vertical_with_empty_cells_records_cell_property_changes():
    data = standard([["Top", "x"], ["", "y"], ["", "z"]])
    result, after = run(data, {"type": "mergeTableCells", "blockId": pid(0, 0), "rowCount": 3})
    assert result["receipts"][0]["affected"][0]["rowCount"] == 3
    assert location(after, pid(0, 0))["rowSpan"] == 3
    assert change_types(after) == ["cellPropertiesChanged"] * 3
    for tcpr in tables_of(after)[0].iter(W + "tcPr"):
        if tcpr.find(f"{W}vMerge") is not None:
            assert tcpr[-1].tag == W + "tcPrChange" and tcpr[-1].find(f"{W}tcPr/{W}vMerge") is None
    assert location(rejected(after), pid(0, 0))["rowSpan"] == 1
    assert location(accepted(after), pid(0, 0))["rowSpan"] == 3


def test_merge_refusals():
    tracked = {"type": "mergeTableCells", "blockId": pid(0, 0), "endBlockId": pid(0, 1)}
    assert skip_code(run(standard(), tracked)[0]) == "unsupportedMode"
    down = {"type": "mergeTableCells", "blockId": pid(0, 0), "rowCount": 2}
    assert skip_code(run(standard(), down)[0]) == "unsupportedMode"  # A2 is not empty
    same = {"type": "mergeTableCells", "blockId": pid(0, 0), "endBlockId": pid(0, 0)}
    assert skip_code(run(standard(), same)[0]) == "noopOperation"
    too_far = {"type": "mergeTableCells", "blockId": pid(2, 0), "rowCount": 2}
    assert skip_code(run(standard(), too_far, mode="direct")[0]) == "unsupportedBlock"
    two = doc(table(GRID3), p("mid", para_id="00000003"), table(GRID3, t=1))
    other = {"type": "mergeTableCells", "blockId": pid(0, 0), "endBlockId": pid(0, 0, 1)}
    assert skip_code(run(two, other, mode="direct")[0]) == "unsupportedBlock"
    spanned = standard(
        tcpr={(1, 0): '<w:gridSpan w:val="2"/>'}, rows=[["A1", "B1", "C1"], ["wide", "C2"], GRID3[2]]
    )
    cut = {"type": "mergeTableCells", "blockId": pid(0, 0), "endBlockId": pid(2, 0)}
    assert skip_code(run(spanned, cut, mode="direct")[0]) == "unsupportedBlock"


def test_split_direct_restores_single_cells_and_tracked_undoes_a_vertical_merge():
    merged = standard(
        [["wide", "C1"], ["", "C2"], GRID3[2]],
        tcpr={
            (0, 0): '<w:gridSpan w:val="2"/><w:vMerge w:val="restart"/>',
            (1, 0): '<w:gridSpan w:val="2"/><w:vMerge/>',
        },
    )
    result, after = run(merged, {"type": "splitTableCell", "blockId": pid(0, 0)}, mode="direct")
    assert result["receipts"][0]["affected"] == [
        {"type": "tableCell", "story": "main", "anchorBlockId": pid(0, 0), "effect": "split"}
    ]
    assert grids(after)[0] == [["wide", "", "C1"], ["", "", "C2"], GRID3[2]]
    assert skip_code(run(merged, {"type": "splitTableCell", "blockId": pid(0, 0)})[0]) == "unsupportedMode"
    vertical = standard(tcpr={(0, 0): '<w:vMerge w:val="restart"/>', (1, 0): "<w:vMerge/>"})
    _, split = run(vertical, {"type": "splitTableCell", "blockId": pid(0, 0)})
    assert location(split, pid(0, 0))["rowSpan"] == 1 and change_types(split) == ["cellPropertiesChanged"] * 2
    assert location(rejected(split), pid(0, 0))["rowSpan"] == 2
    assert skip_code(run(standard(), {"type": "splitTableCell", "blockId": pid(0, 0)})[0]) == "noopOperation"


def test_tracked_merge_treats_a_cell_with_only_tab_stops_as_empty():
    tabs = '<w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>'
    data = doc(
        table([["Top", "x"], ["", "y"]]).replace(
            f'<w:p w14:paraId="{pid(1, 0)}">', f'<w:p w14:paraId="{pid(1, 0)}">{tabs}'
        ),
        p("End", para_id="00000002"),
    )
    result, after = run(data, {"type": "mergeTableCells", "blockId": pid(0, 0), "rowCount": 2})
    assert not result["skipped"] and location(after, pid(0, 0))["rowSpan"] == 2


def test_hidden_rows_get_an_empty_cell_and_never_lose_text():
    data = standard(trpr={1: "<w:hidden/>"})
    _, after = run(data, {"type": "insertTableColumn", "blockId": pid(0, 2), "cellTexts": ["top", "bottom"]})
    hidden_row = tables_of(after)[0].findall(f"{W}tr")[1]
    assert len(hidden_row.findall(f"{W}tc")) == 4 and "".join(hidden_row.itertext()).endswith("C2")
    assert grids(after)[0] == [["A1", "B1", "C1", "top"], ["A3", "B3", "C3", "bottom"]]
    refused = run(data, {"type": "deleteTableColumn", "blockId": pid(0, 1)})[0]
    assert skip_code(refused) == "unsupportedBlock"


def test_row_inserted_before_a_header_row_is_a_header_row_too():
    data = standard(trpr={0: "<w:tblHeader/>"})
    _, after = run(data, {"type": "insertTableRow", "blockId": pid(0, 0), "position": "before"})
    assert tables_of(after)[0].find(f"{W}tr/{W}trPr/{W}tblHeader") is not None


# ----------------------------------------------------------------------------- signature table
def test_signature_table_direct_layout_and_comment():
    parties = [
        {"name": "Northwind Ltd", "signatory": "Jane Roe", "title": "Director"},
        {"name": "Harbour Bank plc"},
        {"name": "Third Co"},
    ]
    result, after = run(
        doc(p("In witness whereof", para_id="00000001"), p("End", para_id="00000002")),
        {
            "type": "insertSignatureTable",
            "blockId": "00000001",
            "parties": parties,
            "comment": {"text": "Check names"},
        },
        mode="direct",
    )
    affected = result["receipts"][0]["affected"]
    assert affected[0]["content"] == "signatureTable" and affected[1]["type"] == "comment"
    rows = grids(after)[0]
    assert len(rows) == 2 and len(rows[0]) == 2
    first = rows[0][0].split("\n")
    assert first[0] == "Signed for and on behalf of Northwind Ltd"
    assert first[2].startswith("____") and first[3:] == ["Name: Jane Roe", "Title: Director", "Date:"]
    assert rows[0][1].split("\n")[3:5] == ["Name: ", "Title: "] and rows[1][1] == ""
    tbl = tables_of(after)[0]
    assert {b.get(W + "val") for b in tbl.find(f"{W}tblPr/{W}tblBorders")} == {"nil"}
    assert len(after.comments()) == 1 and after.changes() == []


def test_signature_table_refusals():
    data = doc(p("Sign", para_id="00000001"))
    empty = {"type": "insertSignatureTable", "blockId": "00000001", "parties": []}
    assert skip_code(run(data, empty, mode="direct")[0]) == "emptyOperation"
    tracked = {"type": "insertSignatureTable", "blockId": "00000001", "parties": [{"name": "A"}]}
    assert skip_code(run(data, tracked)[0]) == "unsupportedMode"


# ----------------------------------------------------------------------------- batch behaviour
@pytest.mark.parametrize("mode", ["tracked-changes", "direct"])
def test_atomic_batch_rolls_table_operations_back_exactly(mode):
    r = reviewer(standard())
    before = etree.tostring(r.document.root)
    result = apply(
        r,
        {"type": "insertTableColumn", "blockId": pid(0, 0), "cellTexts": ["x"]},
        {"type": "deleteTableRow", "blockId": pid(2, 0)},
        {"type": "deleteTableColumn", "blockId": pid(0, 2)},
        {"type": "insertTable", "blockId": "00000002", "rows": [["t"]]},
        {"type": "insertTableRow", "blockId": pid(1, 1), "cellTexts": ["r"]},
        {"type": "deleteTableRow", "blockId": "00000001"},  # not in a table: the batch fails
        mode=mode,
        atomic=True,
    )
    assert result["status"] == "rejected" and skip_code(result) == "atomicBatchRejected"
    assert etree.tostring(r.document.root) == before


def test_direct_merge_and_split_roll_back_exactly_when_the_batch_fails():
    r = reviewer(standard())
    before = etree.tostring(r.document.root)
    result = apply(
        r,
        {"type": "mergeTableCells", "blockId": pid(0, 0), "endBlockId": pid(1, 1)},
        {"type": "splitTableCell", "blockId": pid(0, 0)},
        {"type": "deleteTable", "blockId": pid(2, 2)},
        {"type": "splitTableCell", "blockId": "00000001"},
        mode="direct",
        atomic=True,
    )
    assert result["status"] == "rejected"
    assert etree.tostring(r.document.root) == before


def test_new_table_takes_the_width_of_the_section_it_lands_in():
    narrow = (
        '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="2000" w:bottom="1440" '
        'w:left="2000" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>'
    )
    data = doc(p("End of part 1", para_id="00000001", ppr=narrow), p("Part 2", para_id="00000002"))
    _, before = run(
        data, {"type": "insertTable", "blockId": "00000001", "rows": [["a"]], "position": "before"}
    )
    assert [c.get(W + "w") for c in tables_of(before)[0].iter(W + "gridCol")] == ["7906"]
    _, after = run(data, {"type": "insertTable", "blockId": "00000001", "rows": [["a"]]})
    assert [c.get(W + "w") for c in tables_of(after)[0].iter(W + "gridCol")] == ["9360"]


# ----------------------------------------------------------------------------- real files, LibreOffice
def _save(r: DocxReviewer, path: Path) -> Path:
    r.save(path)
    return path


def _non_empty(paragraphs: list[str]) -> list[str]:
    return [t for t in paragraphs if t.strip("\u200d")]


@pytest.mark.libreoffice
def test_wc006_rows_and_tables_in_libreoffice(lo_reading, tmp_path):
    if not WC006.exists():
        pytest.skip("corpus file missing")
    r = reviewer(WC006.read_bytes())
    ids = [b.id for b in r.snapshot().blocks]
    result = apply(
        r,
        {"type": "insertTableRow", "blockId": ids[0], "cellTexts": ["new-a", "new-b"]},
        {"type": "deleteTableRow", "blockId": ids[4]},
        {"type": "insertTable", "blockId": ids[6], "rows": [["t1", "t2"], ["t3", "t4"]]},
    )
    assert not result["skipped"]
    out = _save(r, tmp_path / "wc006-rows.docx")
    assert schema_errors(out) == 0
    seen = lo_reading(out, accept_reject=True)
    assert seen["load_ok"] and seen["table_count"] == 2
    assert seen["tracked_change_counts"] == {"insert": 6, "delete": 2}
    assert seen["accept_all"]["paragraphs"] == [
        "111",
        "222",
        "new-a",
        "new-b",
        "333",
        "444",
        "",
        "t1",
        "t2",
        "t3",
        "t4",
    ]
    assert seen["reject_all"]["paragraphs"] == ["111", "222", "333", "444", "555", "666", ""]


@pytest.mark.libreoffice
def test_wc006_columns_merge_and_signature_in_libreoffice(lo_reading, tmp_path):
    if not WC006.exists():
        pytest.skip("corpus file missing")
    r = reviewer(WC006.read_bytes())
    ids = [b.id for b in r.snapshot().blocks]
    result = apply(
        r,
        {"type": "insertTableColumn", "blockId": ids[1], "cellTexts": ["c1", "c2", "c3"]},
        {"type": "deleteTableColumn", "blockId": ids[0]},
    )
    assert not result["skipped"]
    out = _save(r, tmp_path / "wc006-columns.docx")
    assert schema_errors(out) == 0
    seen = lo_reading(out, accept_reject=True)
    assert seen["load_ok"] and seen["tracked_change_counts"] == {"insert": 3, "delete": 3}
    # LibreOffice 7.4 ignores w:cellIns/w:cellDel: the text changes resolve, the emptied cells stay
    assert _non_empty(seen["accept_all"]["paragraphs"]) == ["222", "c1", "444", "c2", "666", "c3"]
    assert _non_empty(seen["reject_all"]["paragraphs"]) == ["111", "222", "333", "444", "555", "666"]

    direct = reviewer(WC006.read_bytes())
    ids = [b.id for b in direct.snapshot().blocks]
    result = apply(
        direct,
        {"type": "mergeTableCells", "blockId": ids[0], "endBlockId": ids[3]},
        {
            "type": "insertSignatureTable",
            "blockId": ids[6],
            "parties": [{"name": "A Ltd"}, {"name": "B plc"}],
        },
        mode="direct",
    )
    assert not result["skipped"]
    out = _save(direct, tmp_path / "wc006-direct.docx")
    assert schema_errors(out) == 0
    seen = lo_reading(out)
    assert seen["load_ok"] and seen["table_count"] == 2 and seen["tracked_change_total"] == 0
    assert seen["paragraphs"][:6] == ["111", "222", "333", "444", "555", "666"]
    assert "Signed for and on behalf of A Ltd" in seen["paragraphs"]


@pytest.mark.libreoffice
def test_wc006_delete_table_and_insert_before_it_in_libreoffice(lo_reading, tmp_path):
    if not WC006.exists():
        pytest.skip("corpus file missing")
    r = reviewer(WC006.read_bytes())
    ids = [b.id for b in r.snapshot().blocks]
    result = apply(
        r,
        {"type": "insertTable", "blockId": ids[2], "rows": [["n1", "n2"]], "position": "before"},
        {"type": "deleteTable", "blockId": ids[5]},
    )
    assert not result["skipped"]
    out = _save(r, tmp_path / "wc006-table.docx")
    assert schema_errors(out) == 0
    seen = lo_reading(out, accept_reject=True)
    assert seen["load_ok"] and seen["table_count"] == 2
    assert seen["tracked_change_counts"] == {"insert": 2, "delete": 6}
    # the separator paragraph between the two tables stays after reject-all (a paragraph mark
    # before a table cannot be joined away, in LibreOffice as in our own resolver)
    assert seen["accept_all"]["paragraphs"] == ["n1", "n2", "", ""]
    assert _non_empty(seen["reject_all"]["paragraphs"]) == ["111", "222", "333", "444", "555", "666"]
    ours = rejected(DocxReviewer.from_bytes(out.read_bytes()))
    assert grids(ours) == [[["111", "222"], ["333", "444"], ["555", "666"]]]


@pytest.mark.libreoffice
def test_rtl_table_in_libreoffice(lo_reading, tmp_path):
    if not HC014.exists():
        pytest.skip("corpus file missing")
    original = DocxReviewer.open(HC014)
    r = reviewer(HC014.read_bytes())
    blocks = r.snapshot().blocks
    cell_block = next(b for b in blocks if b.table and b.text)
    body_block = next(b for b in blocks if not b.table and b.text)
    result = apply(
        r,
        {"type": "insertTableRow", "blockId": cell_block.id, "cellTexts": ["שורה", "חדשה"]},
        {"type": "insertTable", "blockId": body_block.id, "rows": [["א", "ב"]]},
    )
    assert not result["skipped"]
    out = _save(r, tmp_path / "hc014.docx")
    assert schema_errors(out) <= schema_errors(HC014)
    seen = lo_reading(out, accept_reject=True)
    assert seen["load_ok"] and seen["table_count"] == 2
    assert seen["tracked_change_counts"] == {"insert": 4}
    original_texts = [b.text for b in original.snapshot().blocks]
    assert _non_empty(seen["reject_all"]["paragraphs"]) == _non_empty(original_texts)
    for text in ("שורה", "חדשה", "א", "ב"):
        assert text in seen["accept_all"]["paragraphs"]


@pytest.mark.libreoffice
def test_msa_fee_table_in_libreoffice(lo_reading, tmp_path):
    """The sample MSA has tracked changes of its own: compare with LibreOffice's reading of it."""
    if not MSA.exists():
        pytest.skip("sample missing")
    r = reviewer(MSA.read_bytes())
    new_row = ["Severity 2 response", "2 hours", "Per incident", "0.5%"]
    result = apply(
        r,
        {"type": "insertTableRow", "blockId": "0879F1E1", "cellTexts": new_row},
        {"type": "deleteTableRow", "blockId": "5DC5B8D7"},
        {"type": "insertTableColumn", "blockId": "7578B690", "cellTexts": ["Cap"]},
    )
    assert not result["skipped"]
    out = _save(r, tmp_path / "msa.docx")
    assert schema_errors(out) == 0
    fee = grids(DocxReviewer.from_bytes(out.read_bytes()))[0]
    assert fee[0][-1] == "Cap" and fee[3] == [*new_row, ""]
    seen, original = lo_reading(out, accept_reject=True), lo_reading(MSA, accept_reject=True)
    assert seen["load_ok"] and seen["table_count"] == original["table_count"] == 7
    expected = _non_empty(original["accept_all"]["paragraphs"])
    expected.insert(expected.index("Service Credit") + 1, "Cap")
    gone = expected.index("Availability")
    del expected[gone : gone + 4]
    after = expected.index("1%", gone) + 1
    expected[after:after] = new_row
    assert _non_empty(seen["accept_all"]["paragraphs"]) == expected
    assert _non_empty(seen["reject_all"]["paragraphs"]) == _non_empty(original["reject_all"]["paragraphs"])


def test_changed_documents_stay_schema_valid(tmp_path):
    ops = [
        ({"type": "insertTable", "blockId": "00000002", "rows": [["a", "b"]]}, "tracked-changes"),
        ({"type": "deleteTable", "blockId": pid(0, 0)}, "direct"),
        ({"type": "insertTableRow", "blockId": pid(1, 1), "cellTexts": ["x"]}, "tracked-changes"),
        ({"type": "deleteTableColumn", "blockId": pid(1, 1)}, "tracked-changes"),
        ({"type": "insertTableColumn", "blockId": pid(1, 1)}, "direct"),
        ({"type": "mergeTableCells", "blockId": pid(0, 0), "endBlockId": pid(2, 2)}, "direct"),
    ]
    for index, (op, mode) in enumerate(ops):
        r = reviewer(standard())
        assert not apply(r, op, mode=mode)["skipped"], op
        path = tmp_path / f"out{index}.docx"
        r.save(path)
        assert schema_errors(path) == 0, op


def test_table_namespaces_constant_matches_factory():
    assert "w14" in NAMESPACES


def test_tables_and_paragraphs_inserted_after_one_anchor_keep_the_batch_order():
    """Several insertions after the same block in one batch read in operation order, tables too."""
    from reviewer_app.docx import DocxReviewer
    from tests.docx_factory import make_docx, p

    reviewer = DocxReviewer.from_bytes(
        make_docx(p("Anchor.", para_id="00000001") + p("Next.", para_id="00000002"))
    )
    result = reviewer.apply_operations(
        {
            "version": 1,
            "mode": "tracked-changes",
            "operations": [
                {"id": "a", "type": "insertAfterBlock", "blockId": "00000001", "text": "First new."},
                {"id": "t", "type": "insertTable", "blockId": "00000001", "rows": [["T"]]},
                {"id": "b", "type": "insertAfterBlock", "blockId": "00000001", "text": "Second new."},
                {"id": "u", "type": "insertTable", "blockId": "00000001", "rows": [["U"]]},
                {"id": "v", "type": "insertTable", "blockId": "00000001", "rows": [["V"]]},
            ],
        }
    )
    assert result["status"] == "committed" and not result["issues"]
    texts = [b.text for b in reviewer.snapshot().content_blocks()]
    assert texts == ["Anchor.", "First new.", "T", "Second new.", "U", "V", "Next."]
    tags = [el.tag.rsplit("}", 1)[1] for el in reviewer.document.body if not el.tag.endswith("sectPr")]
    assert tags == ["p", "p", "tbl", "p", "tbl", "p", "tbl", "p"]  # an empty paragraph keeps U and V apart
    reviewer.reject_all()
    assert [b.text for b in reviewer.snapshot().content_blocks()] == ["Anchor.", "Next."]
